//! `chariot match`: a match between engines. The options are checked and
//! made into a match by [`chariot::tournament::config`]; this module
//! parses them (with the config file's in front) and shows the progress.

use super::{CommandResult, put};
use chariot::tournament::config::{self, MatchOptions};
use chariot::tournament::runner;
use std::io::{self, IsTerminal};

#[derive(clap::Args, Debug)]
#[command(after_help = MATCH_HELP)]
pub struct MatchArgs {
    /// An engine: `name=A cmd="prog args" [proto=uci|ucci|xboard] [dir=PATH]
    /// [opt:NAME=VALUE ...] [ranks=0|1|auto] [time=ms|s|auto]
    /// [tc=40/60+0.5 | movetime=MS | depth=N | nodes=N] [restart=on|off]
    /// [stderr=FILE]`.
    /// Give it once per engine (two or more).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// Tokens applied to every engine before its own (`--each proto=uci opt:Hash=16`).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// A file of further options, one per line as on the command line
    /// (`--engine name=A cmd=./a`); `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// Clock: `[MOVES/]BASE[+INC]` in seconds (`10+0.1`, `40/60`).
    #[arg(long, value_name = "TC", conflicts_with_all = ["movetime", "depth", "nodes"])]
    tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["depth", "nodes"])]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200), conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// An engine may overstep its clock or move time by this much (ms).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    margin: u64,
    /// At fixed depth or nodes, an engine that has not moved after this
    /// many ms hangs: it loses and is restarted.
    #[arg(long, value_name = "MS", default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: u64,
    /// Seconds allowed for the handshake and for `isready`.
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    ready_timeout: u64,
    /// Openings: PGN, move lists (one a line), FEN or EPD lines.
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// Rounds per pairing; a round is one opening, played twice with
    /// colours reversed (default: once through the openings, else 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    rounds: Option<u64>,
    /// Games per round: 2 (colours reversed) or 1.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=2))]
    games: u64,
    /// Games played at once, each with its own engine processes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// The first engine plays each of the others (default: round robin).
    #[arg(long)]
    gauntlet: bool,
    /// SPRT for the first engine against the second (two engines only):
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05` (normalized Elo, pentanomial);
    /// the match stops at a decision.
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Append the games here as PGN (a file holding games needs --resume).
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Go on with the match whose games --pgn holds: they count, the rest
    /// are played.
    #[arg(long, requires = "pgn")]
    resume: bool,
    /// Resign: `score=CP moves=N`: an engine whose own last N scores were
    /// all at or below -CP loses.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Option<Vec<String>>,
    /// Draw: `movenumber=M moves=N score=CP`: from move M, both engines'
    /// last N scores within CP of zero.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Option<Vec<String>>,
    /// A game this many plies long (opening included) is a draw.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_plies: Option<u64>,
    /// Let UCI and UCCI engines think on the opponent's time (`go ponder`,
    /// `ponderhit` / `stop`). Off by default.
    #[arg(long)]
    ponder: bool,
    /// The PGN Event tag.
    #[arg(long, default_value = "chariot match")]
    event: String,
}

const MATCH_HELP: &str = "\
Example (a gauntlet, fixed depth, two games at once):
  chariot match --gauntlet --depth 8 --concurrency 2 --pgn games.pgn \\
    --openings openings.txt --rounds 10 \\
    --engine name=chariot cmd=./chariot \\
    --engine name=fsf cmd=/usr/games/fairy-stockfish opt:Threads=1 \\
    --engine name=ee cmd=./eleeye proto=ucci dir=/opt/eleeye";

pub fn run(args: &MatchArgs) -> CommandResult {
    // Parsed again with the config file's options in front, keeping each
    // --engine's tokens apart.
    let options = reparse(args.config.as_deref())?;
    let config = config::match_config(&options)?;
    runner::check_engines(&config)?;
    let terminal = io::stderr().is_terminal();
    let report = runner::run(&config, &mut |progress| {
        if terminal {
            eprint!("\r\x1b[K{}\n{}", progress.line, progress.report.status_line());
        } else {
            eprintln!("{}", progress.line);
            eprintln!("  {}", progress.report.status_line());
        }
    })?;
    if terminal {
        eprintln!();
    }
    if report.resumed_games > 0 {
        eprintln!("({} games taken from the PGN of the earlier run)", report.resumed_games);
    }
    Ok(put(&mut io::stdout().lock(), report.table().trim_end())?)
}

/// The match options of the command line, after the options of the
/// config file `path` (one per line, as on the command line), with the
/// tokens of each `--engine` apart.
fn reparse(config: Option<&std::path::Path>) -> Result<MatchOptions, Box<dyn std::error::Error>> {
    use clap::{CommandFactory, FromArgMatches, Parser};
    let mut argv = vec!["chariot match".to_string()];
    if let Some(path) = config {
        argv.extend(config::read_option_file(path)?);
    }
    // The command line's own options, less --config itself.
    let mut rest = std::env::args().skip_while(|a| a != "match").skip(1);
    while let Some(arg) = rest.next() {
        if arg == "--config" {
            rest.next();
        } else if !arg.starts_with("--config=") {
            argv.push(arg);
        }
    }
    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: MatchArgs,
    }
    let place = config.map_or(String::new(), |p| format!("{} + command line: ", p.display()));
    let matches = Wrapper::command().try_get_matches_from(&argv).map_err(|e| format!("{place}{e}"))?;
    let args = Wrapper::from_arg_matches(&matches).map_err(|e| format!("{place}{e}"))?.args;
    let engines = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|group| group.cloned().collect()).collect())
        .unwrap_or_default();
    Ok(MatchOptions {
        engines,
        each: args.each,
        tc: args.tc,
        movetime_ms: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
        margin_ms: args.margin,
        move_timeout_ms: args.move_timeout,
        ready_timeout_s: args.ready_timeout,
        openings: args.openings,
        shuffle: args.shuffle,
        rounds: args.rounds,
        games_per_round: args.games,
        concurrency: args.concurrency,
        gauntlet: args.gauntlet,
        sprt: args.sprt,
        pgn: args.pgn,
        resume: args.resume,
        resign: args.resign,
        draw: args.draw,
        max_plies: args.max_plies,
        ponder: args.ponder,
        event: args.event,
    })
}
