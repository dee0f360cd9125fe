//! The `chariot` binary: with no arguments it runs the protocol loop on
//! stdin/stdout; subcommands run perft and other tools.

use chariot::position::Position;
use chariot::protocol::{self, MAX_PERFT_DEPTH};
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

/// What `chariot --help` says after the command list: how to use the
/// engine itself, which is what most people who run it by hand want.
const ENGINE_HELP: &str = "\
With no command, Chariot is a Xiangqi engine: it reads UCCI or UCI commands
on stdin and answers on stdout, as a GUI (XQWizard, XBoard through UCI2WB,
Pikafish-style UCI GUIs) or a tournament manager expects. Typed by hand:

  uci                                  (or: ucci)
  position startpos moves h2e2 h9g7
  go movetime 1000                     (UCCI: go depth 10)
  quit

`help` lists the commands the engine understands. The commands above exit
with 0 when done, 2 on bad arguments or bad input (with a message on
stderr).";

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a Xiangqi engine (UCCI 3.0 and UCI). Run without a command to start the engine on stdin/stdout.",
    after_help = ENGINE_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Plies to count, 1..=8. Each ply takes about 40 times as long as
        /// the one before: from the start, depth 5 takes seconds, 6
        /// minutes, 7 hours, 8 days.
        #[arg(value_parser = perft_depth, allow_negative_numbers = true)]
        depth: u32,
        /// Start position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the start position before counting.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// One `move: count` line per root move.
        #[arg(long)]
        divide: bool,
    },
    /// Search the bench positions to a fixed depth; prints the node count
    /// (the bench signature) and the speed.
    Bench {
        /// Search depth, 1..=64.
        #[arg(
            default_value_t = chariot::bench::DEFAULT_DEPTH,
            value_parser = clap::value_parser!(i32).range(1..=64),
            allow_negative_numbers = true
        )]
        depth: i32,
        /// Search threads (the signature is defined for one; more measure
        /// the time to depth of Lazy SMP, and their node count varies).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Evaluate with the hand-crafted evaluation (`Use NNUE` false,
        /// as the strength levels do) instead of the built-in network; the
        /// signature is then its own.
        #[arg(long)]
        hce: bool,
    },
    /// Time the network's evaluation: a full refresh, an incremental
    /// update and the output layer, in nanoseconds per call.
    NnueSpeed,
    /// Judge a game by the rules (mate, stalemate, repetition rules, natural
    /// limit, dead material): prints `result <1-0|0-1|1/2-1/2|*> <reason>`.
    /// A bad FEN or an illegal move: a message on stderr, exit code 2.
    Judge {
        /// Base position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the base position (ICCS, e.g. h2e2).
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Also say, in English and Chinese, what each move of a judged
        /// cycle did and why the result follows.
        #[arg(long)]
        explain: bool,
        /// Instead print `banmoves m1 m2 ...`: the moves the side to move may
        /// not play because they complete a forbidden repetition.
        #[arg(long)]
        banmoves: bool,
    },
    /// Analyse a game: the evaluation after each move, inaccuracies,
    /// mistakes and blunders with the better move, its line and a reason.
    /// Bad arguments or an unreadable game: a message on stderr, exit code 2.
    Analyze(AnalyzeArgs),
    /// Opening book tools: build a book from games, show a position's moves.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Self-play training data: games at a fixed node budget, each searched
    /// position written with its score, best move and the game's result (the
    /// format is in the README). Appends to FILE until it holds --games
    /// games; stopped and run again with the same options, it goes on and
    /// gives the same file. With --stats, reports on FILE instead.
    Datagen(DatagenArgs),
    /// Fit the evaluation weights to datagen files (Adam on the blend of
    /// game result and search score); prints the loss as it goes and the
    /// weights as Rust source, or writes them into a params.rs file.
    Tune(TuneArgs),
    /// Train the evaluation network (NNUE) on datagen files: Adam on the
    /// blend of game result and search score, the last games held out.
    /// Prints the losses per epoch, writes the quantised network to
    /// --output (and each epoch's next to it, `<output>.epoch<N>`).
    TrainNnue(TrainNnueArgs),
    /// Play a match between engines (UCI, UCCI, xboard; Fairy-Stockfish's UCI
    /// ranks 1-10), judged by the Xiangqi rules after every move: results
    /// with Elo, LOS, pentanomial pairs and an optional SPRT on stdout,
    /// progress on stderr, games as PGN. Bad options, an engine that does
    /// not start or a bad openings file: a message, exit code 2.
    Match(Box<MatchArgs>),
}

#[derive(clap::Args, Debug)]
#[command(after_help = MATCH_HELP)]
struct MatchArgs {
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

#[derive(clap::Args)]
struct TuneArgs {
    /// Datagen files.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Weight of the search score in the target; the rest is the result.
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Passes over the positions.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Positions per Adam step (0: all, one step per epoch).
    #[arg(long, default_value_t = 0)]
    batch_size: usize,
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Print the losses every this many epochs.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    report_every: u64,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Fraction of the positions held out.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Use at most this many positions (a random subset).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Leave out positions before this ply.
    #[arg(long, default_value_t = 0)]
    min_ply: u16,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the weights into this params.rs (comments kept) instead of
    /// printing them.
    #[arg(long)]
    write_params: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct TrainNnueArgs {
    /// Datagen files, read in order (the held-out games are the last ones).
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// The network file to write.
    #[arg(long, short)]
    output: std::path::PathBuf,
    /// Weight of the game result in the target; the rest is the search
    /// score (the lambda; `chariot tune --lambda` weighs the score).
    #[arg(long, default_value_t = 0.0)]
    result_weight: f64,
    /// Sigmoid scale in centipawns (default: fitted to the data).
    #[arg(long)]
    k: Option<f64>,
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    batch_size: u64,
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f64,
    /// The learning rate is multiplied by this after every epoch.
    #[arg(long, default_value_t = 0.8)]
    lr_decay: f64,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Fraction of the games (the last ones) held out.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Leave out positions before this ply.
    #[arg(long, default_value_t = 0)]
    min_ply: u16,
    /// Keep positions whose best move is a capture (left out by default,
    /// as by `chariot tune`).
    #[arg(long)]
    keep_captures: bool,
    /// Also train on each position mirrored left to right.
    #[arg(long)]
    mirror: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
struct DatagenArgs {
    /// The data file (created, or appended to).
    file: std::path::PathBuf,
    /// Print counts, results and histograms of FILE and exit.
    #[arg(long)]
    stats: bool,
    /// Games the file holds at the end (games already in it count).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// The file depends only on the seed and the options.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings (move lists, PGN or XQF), one drawn at random per game;
    /// without: the built-in book from the start.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Start from the bare start position (no book) when no openings file
    /// is given.
    #[arg(long)]
    no_book: bool,
    /// Random plies after the opening, each drawn from the moves a short
    /// search scores within --random-margin (cp) of the best.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    #[arg(long, default_value_t = 100)]
    random_margin: i32,
    /// Hash per thread, MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Resign: a score at least this (cp) for --resign-plies plies in a row,
    /// as both sides see it, wins (0 plies: never).
    #[arg(long, default_value_t = 1000)]
    resign_score: i32,
    #[arg(long, default_value_t = 8)]
    resign_plies: u32,
    /// Draw: from ply --draw-after on, scores within this (cp) of zero for
    /// --draw-plies plies in a row draw (0 plies: never).
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    #[arg(long, default_value_t = 16)]
    draw_plies: u32,
    #[arg(long, default_value_t = 80)]
    draw_after: u32,
    /// Evaluate with the built-in network instead of the hand-crafted
    /// evaluation (so that a network learns from its own games).
    #[arg(long)]
    nnue: bool,
    /// Evaluate with this network file (implies --nnue).
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
    /// A game this many plies long is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// A PGN file (one or more games; ICCS, WXF, Chinese or XBoard SAN
    /// moves), a move list with an optional start FEN, or an XQF file;
    /// `-` reads stdin.
    file: String,
    /// Search depth per position (default 10).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=64), conflicts_with = "movetime")]
    depth: Option<i32>,
    /// Search time per position in milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: Option<u64>,
    /// Language of the comments.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
    #[arg(long, value_enum, default_value_t = FormatArg::Pgn)]
    format: FormatArg,
    /// Notation of the PGN moves (default: WXF for en, Chinese for zh); the
    /// comments give the other two.
    #[arg(long, value_enum)]
    notation: Option<NotationArg>,
    /// Write here instead of stdout (checked before the analysis starts).
    #[arg(long)]
    output: Option<std::path::PathBuf>,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LangArg {
    En,
    Zh,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Pgn,
    Json,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum NotationArg {
    Iccs,
    Wxf,
    Chinese,
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from game records: plain move lists (one game per
    /// line, optional `fen F moves` prefix and trailing result), PGN (ICCS,
    /// WXF, Chinese or XBoard SAN moves) or XQF files. Errors: a message on
    /// stderr, exit code 2.
    Build {
        /// Game files.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// The book file to write (checked before the games are read).
        #[arg(long, short)]
        output: String,
        /// Plies of each game that go into the book.
        #[arg(long, default_value_t = chariot::book::build::DEFAULT_MAX_PLY)]
        max_ply: usize,
        /// A move needs this many games to stay in the book.
        #[arg(long, default_value_t = chariot::book::build::DEFAULT_MIN_GAMES)]
        min_games: u32,
        /// MOVES=FACTOR: multiply the weight of these moves (a line from the
        /// start position, moves in any notation separated by commas) by FACTOR; 0 removes
        /// them from play. Repeatable: `--prefer h2e2=3 --prefer b2e2=3`.
        #[arg(long)]
        prefer: Vec<String>,
    },
    /// List the book moves of a position with their weights.
    Show {
        /// Base position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the base position.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<String>,
    },
}

fn main() -> ExitCode {
    // Before anything else, and in a function of its own so that no
    // instruction of the rest can run first (see cpu.rs).
    chariot::cpu::check_or_exit();
    run()
}

#[inline(never)]
fn run() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    // Each command's errors are printed after its name.
    let (command, result) = match cli.command {
        None => {
            protocol::run(io::stdin().lock(), protocol::Output::new(Box::new(io::stdout())));
            ("chariot", Ok(()))
        }
        Some(Command::Bench { depth, threads, hce }) => {
            use chariot::bench::Evaluation;
            let eval = if hce { Evaluation::HandCrafted } else { Evaluation::Network };
            let r = chariot::bench::run_with(depth, threads as usize, eval);
            println!("Positions       : {}", r.positions);
            println!("Depth           : {}", r.depth);
            println!("Total time (ms) : {}", r.time_ms);
            println!("Nodes searched  : {}", r.nodes);
            println!("Nodes/second    : {}", r.nps);
            ("chariot", Ok(()))
        }
        Some(Command::NnueSpeed) => {
            print!("{}", chariot::nnue::speed_report());
            ("chariot", Ok(()))
        }
        Some(Command::Perft { depth, fen, moves, divide }) => ("chariot", run_perft(depth, fen, &moves, divide)),
        Some(Command::Analyze(args)) => ("chariot analyze", run_analyze(&args)),
        Some(Command::Judge { fen, moves, explain, banmoves }) => {
            ("chariot judge", run_judge(fen, &moves, explain, banmoves))
        }
        Some(Command::Datagen(args)) => ("chariot datagen", run_datagen(&args)),
        Some(Command::Tune(args)) => ("chariot tune", run_tune(&args)),
        Some(Command::TrainNnue(args)) => ("chariot train-nnue", run_train_nnue(&args)),
        Some(Command::Book { action }) => ("chariot book", run_book(action)),
        Some(Command::Match(args)) => ("chariot match", run_match(*args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{command}: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_match(args: MatchArgs) -> Result<(), String> {
    use chariot::tournament::{
        clock::TimeControl,
        game::{DrawRule, GameSettings, ResignRule},
        openings,
        runner::{self, MatchConfig},
        spec::EngineSpec,
        stats::Sprt,
    };
    use std::io::IsTerminal;
    // Parsed again with the config file's options in front, keeping each
    // --engine's tokens apart.
    let (args, engine_tokens) = reparse_match_args(args.config.as_deref())?;
    let default_control = match (&args.tc, args.movetime, args.depth, args.nodes) {
        (Some(tc), ..) => Some(TimeControl::parse_clock(tc)?),
        (_, Some(ms), ..) => Some(TimeControl::MoveTime { ms }),
        (_, _, Some(d), _) => Some(TimeControl::Depth(d)),
        (_, _, _, Some(n)) => Some(TimeControl::Nodes(n)),
        _ => None,
    };
    if engine_tokens.len() < 2 {
        return Err("give at least two engines (--engine name=A cmd=./a ...)".into());
    }
    let mut engines = Vec::new();
    for (i, tokens) in engine_tokens.iter().enumerate() {
        let mut spec = EngineSpec::new("", &[]);
        spec.apply_tokens(args.each.iter().chain(tokens).map(String::as_str))
            .map_err(|e| format!("engine {}: {e}", i + 1))?;
        if spec.command.is_empty() {
            return Err(format!("engine {}: no cmd= given", i + 1));
        }
        if spec.name.is_empty() {
            spec.name = format!("engine{}", i + 1);
        }
        if engines.iter().any(|e: &EngineSpec| e.name == spec.name) {
            return Err(format!("two engines are named '{}': give each its own name=", spec.name));
        }
        spec.control = spec.control.or(default_control);
        if spec.protocol == chariot::tournament::spec::Protocol::Xboard
            && matches!(spec.control, Some(TimeControl::Nodes(_)))
        {
            return Err(format!("engine '{}': xboard engines take no node limit", spec.name));
        }
        if spec.control.is_none() {
            return Err(format!(
                "engine '{}' has no time control: give --tc, --movetime, --depth or --nodes",
                spec.name
            ));
        }
        engines.push(spec);
    }
    let mut opening_list = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
            openings::parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => vec![chariot::tournament::game::Opening::startpos()],
    };
    if let Some(seed) = args.shuffle {
        openings::shuffle(&mut opening_list, seed);
    }
    let sprt = match &args.sprt {
        Some(words) => {
            if engines.len() != 2 {
                return Err("--sprt needs exactly two engines".into());
            }
            if args.games != 2 {
                return Err("--sprt counts pairs of games: it needs --games 2".into());
            }
            Some(Sprt::parse(words.iter().map(String::as_str))?)
        }
        None => None,
    };
    let resign = match &args.resign {
        Some(words) => {
            let values = key_values("--resign", words, &["score", "moves"])?;
            Some(ResignRule { score_cp: values[0].unwrap_or(600) as i32, moves: values[1].unwrap_or(3) as usize })
        }
        None => None,
    };
    let draw = match &args.draw {
        Some(words) => {
            let values = key_values("--draw", words, &["movenumber", "moves", "score"])?;
            Some(DrawRule {
                after_move: values[0].unwrap_or(40) as usize,
                moves: values[1].unwrap_or(8) as usize,
                score_cp: values[2].unwrap_or(10) as i32,
            })
        }
        None => None,
    };
    let rounds = args.rounds.map_or(opening_list.len(), |r| r as usize);
    let config = MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        openings: opening_list,
        rounds,
        games_per_round: args.games as usize,
        concurrency: args.concurrency as usize,
        settings: GameSettings {
            margin_ms: args.margin,
            move_timeout_ms: args.move_timeout,
            ready_timeout: std::time::Duration::from_secs(args.ready_timeout),
            resign,
            draw,
            max_plies: args.max_plies.map(|p| p as usize),
            ponder: args.ponder,
        },
        sprt,
        pgn: args.pgn.clone(),
        resume: args.resume,
        event: args.event.clone(),
    };
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
    put(&mut io::stdout().lock(), report.table().trim_end())
}

/// The match arguments of the command line, after the options of the
/// config file `path` (one per line, as on the command line), and the
/// tokens of each `--engine` apart.
fn reparse_match_args(config: Option<&std::path::Path>) -> Result<(MatchArgs, Vec<Vec<String>>), String> {
    use clap::{CommandFactory, FromArgMatches, Parser};
    let mut argv = vec!["chariot match".to_string()];
    if let Some(path) = config {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words = chariot::tournament::spec::split_command(line)
                .map_err(|e| format!("{}, line {}: {e}", path.display(), n + 1))?;
            argv.extend(words);
        }
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
    Ok((args, engines))
}

/// `key=number` words of an option into values in the order of `keys`.
fn key_values(option: &str, words: &[String], keys: &[&str]) -> Result<Vec<Option<i64>>, String> {
    let mut values = vec![None; keys.len()];
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("{option}: '{word}' is not key=value"))?;
        let index = keys
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| format!("{option}: unknown key '{key}' (known: {})", keys.join(", ")))?;
        let number: i64 =
            value.parse().ok().filter(|n| *n >= 0).ok_or_else(|| format!("{option}: '{word}': not a whole number"))?;
        values[index] = Some(number);
    }
    Ok(values)
}

fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    use chariot::datagen;
    if args.stats {
        let records = datagen::format::read_file(&args.file)?;
        print!("{}", datagen::stats(&records));
        return Ok(());
    }
    let openings = match &args.openings {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let games = chariot::book::reader::read_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            if games.is_empty() {
                return Err(format!("{}: no openings in it", path.display()));
            }
            games
        }
        None => Vec::new(),
    };
    let options = datagen::Options {
        games: args.games,
        nodes: args.nodes,
        threads: args.threads as usize,
        seed: args.seed,
        openings,
        book: !args.no_book,
        random_plies: args.random_plies,
        random_margin: args.random_margin,
        hash_mb: args.hash as usize,
        resign_score: args.resign_score,
        resign_plies: args.resign_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        nnue: match &args.eval_file {
            Some(path) => Some(std::sync::Arc::new(chariot::nnue::Network::load(path)?)),
            None => args.nnue.then(chariot::nnue::Network::embedded),
        },
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let summary = datagen::run(&args.file, &options, &stop, &mut |line| eprintln!("{line}"))
        .map_err(|e| format!("{}: {e}", args.file.display()))?;
    eprintln!("done: {}", summary.line(&options));
    Ok(())
}

fn run_tune(args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda must be in 0..=1 and --validation in 0..1".into());
    }
    let mut records = Vec::new();
    for f in &args.files {
        records.extend(chariot::datagen::format::read_file(f)?);
    }
    let options = chariot::tune::Options {
        lambda: args.lambda,
        epochs: args.epochs,
        batch_size: args.batch_size,
        report_every: args.report_every as usize,
        learning_rate: args.learning_rate,
        threads: args.threads as usize,
        validation: args.validation,
        max_positions: args.max_positions.unwrap_or(usize::MAX),
        min_ply: args.min_ply,
        seed: args.seed,
    };
    let start = Instant::now();
    let fit = chariot::tune::tune(&records, &options, &mut |line| eprintln!("{line}"))?;
    eprintln!(
        "done in {:.0} s: k {:.1}; loss {:.6} -> {:.6}, held out {:.6} -> {:.6} (weights rounded)",
        start.elapsed().as_secs_f64(),
        fit.k,
        fit.train_before,
        fit.train_after,
        fit.validation_before,
        fit.validation_after
    );
    match &args.write_params {
        Some(path) => {
            let source = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let text = chariot::tune::rewrite_params(&source, &fit.weights)?;
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
        }
        None => {
            print!("{}", fit.weights.to_source());
            Ok(())
        }
    }
}

fn run_train_nnue(args: &TrainNnueArgs) -> Result<(), String> {
    use chariot::tune::nnue;
    if !(0.0..=1.0).contains(&args.result_weight) || !(0.0..1.0).contains(&args.validation) {
        return Err("--result-weight must be in 0..=1 and --validation in 0..1".into());
    }
    if args.k.is_some_and(|k| k.is_nan() || k <= 0.0) {
        return Err("--k must be positive".into());
    }
    check_output(&args.output)?;
    let mut records = Vec::new();
    for f in &args.files {
        let read = chariot::datagen::format::read_file(f)?;
        eprintln!("{}: {} records", f.display(), read.len());
        records.extend(read);
    }
    let options = nnue::Options {
        result_weight: args.result_weight,
        k: args.k,
        epochs: args.epochs,
        batch_size: args.batch_size as usize,
        learning_rate: args.learning_rate,
        lr_decay: args.lr_decay,
        threads: args.threads as usize,
        validation: args.validation,
        min_ply: args.min_ply,
        keep_captures: args.keep_captures,
        mirror: args.mirror,
        seed: args.seed,
    };
    let start = Instant::now();
    let write = |path: &std::path::Path, net: &chariot::nnue::Network| {
        std::fs::write(path, net.to_bytes()).map_err(|e| format!("cannot write '{}': {e}", path.display()))
    };
    let mut checkpoint = |epoch: usize, net: &chariot::nnue::Network| {
        let mut name = args.output.clone().into_os_string();
        name.push(format!(".epoch{epoch}"));
        write(std::path::Path::new(&name), net)
    };
    let trained = nnue::train(&records, &options, &mut |line| eprintln!("{line}"), &mut checkpoint)?;
    write(&args.output, &trained.network)?;
    eprintln!(
        "done in {:.0} s: {} training positions, {} held out, k {:.1}; wrote {} ({} bytes)",
        start.elapsed().as_secs_f64(),
        trained.train_positions,
        trained.validation_positions,
        trained.k,
        args.output.display(),
        chariot::nnue::FILE_BYTES
    );
    Ok(())
}

/// Refuses an output path that cannot be written, before any work is
/// done: a missing directory, a directory, a file without write
/// permission. A new file is created to find out, and removed again.
fn check_output(path: &std::path::Path) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write '{}': {e}", path.display());
    if path.is_dir() {
        return Err(fail(&"it is a directory"));
    }
    if path.exists() {
        // Opened for appending: nothing in it changes.
        return std::fs::OpenOptions::new().append(true).open(path).map(|_| ()).map_err(|e| fail(&e));
    }
    std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| fail(&e))?;
    std::fs::remove_file(path).map_err(|e| fail(&e))
}

/// A perft depth from the command line: 1..=MAX_PERFT_DEPTH (as `go
/// perft`), refused with the reason otherwise.
fn perft_depth(text: &str) -> Result<u32, String> {
    let depth: i64 = text.trim().parse().map_err(|_| format!("'{text}' is not a whole number"))?;
    match u32::try_from(depth) {
        Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(d),
        _ if depth < 1 => Err(format!("the depth must be at least 1, got {depth}")),
        _ => Err(format!(
            "the depth must be at most {MAX_PERFT_DEPTH}, got {depth}: the count grows about 40 times per ply, \
             so depth {MAX_PERFT_DEPTH} from the start already takes days and deeper ones would not finish"
        )),
    }
}

fn run_perft(depth: u32, fen: Option<String>, moves: &[String], divide: bool) -> Result<(), String> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(&f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    pos.play_text_moves(moves.iter().map(String::as_str))?;
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let nodes = if divide {
        let (lines, total) = chariot::perft::divide_report(&pos, depth);
        for line in &lines {
            writeln!(out, "{line}").map_err(|e| e.to_string())?;
        }
        total
    } else {
        let n = chariot::perft::perft(&pos, depth);
        writeln!(out, "Nodes searched: {n}").map_err(|e| e.to_string())?;
        n
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    writeln!(out, "Time: {:.3} s, Nodes/second: {:.0}", secs, nps).map_err(|e| e.to_string())?;
    Ok(())
}

fn run_judge(fen: Option<String>, moves: &[String], explain: bool, banmoves: bool) -> Result<(), String> {
    use chariot::rules;
    use chariot::types::Move;
    let base = match fen {
        Some(f) => Position::from_fen(&f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let mut parsed = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = Move::parse(text).ok_or_else(|| format!("move {} '{}' is not a move in ICCS notation", i + 1, text))?;
        parsed.push(m);
    }
    // Refuses illegal moves (with their number) before anything is printed.
    let report = rules::judge_game(&base, &parsed)?;
    let mut out = io::stdout().lock();
    if banmoves {
        let mut line = "banmoves".to_string();
        for m in rules::forbidden_moves(&base, &parsed) {
            line.push_str(&format!(" {m}"));
        }
        return put(&mut out, &line);
    }
    put(&mut out, &format!("result {} {}", report.result, report.reason))?;
    if explain {
        for line in rules::explain::explain(&report) {
            put(&mut out, &line)?;
        }
    }
    Ok(())
}

fn run_analyze(args: &AnalyzeArgs) -> Result<(), String> {
    use chariot::analysis::{self, SearchLimit, output};
    use chariot::notation::Notation;
    use std::io::{IsTerminal, Read};
    const DEFAULT_DEPTH: i32 = 10;
    if let Some(path) = &args.output {
        check_output(path)?;
    }
    let mut bytes = Vec::new();
    let read = if args.file == "-" {
        io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(&args.file).and_then(|mut f| f.read_to_end(&mut bytes)).map(|_| ())
    };
    read.map_err(|e| format!("cannot read '{}': {e}", args.file))?;
    let games = chariot::record::read_bytes(&bytes).map_err(|e| format!("{}: {e}", args.file))?;
    let limit = match (args.depth, args.movetime) {
        (_, Some(ms)) => SearchLimit::MoveTimeMs(ms),
        (d, None) => SearchLimit::Depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    let lang = match args.lang {
        LangArg::En => output::Lang::En,
        LangArg::Zh => output::Lang::Zh,
    };
    let notation = match (args.notation, lang) {
        (Some(NotationArg::Iccs), _) => Notation::Iccs,
        (Some(NotationArg::Wxf), _) | (None, output::Lang::En) => Notation::Wxf,
        (Some(NotationArg::Chinese), _) | (None, output::Lang::Zh) => Notation::Chinese,
    };
    let style = output::Style { lang, notation };
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    let mut progress = Progress::new(total, !args.quiet, io::stderr().is_terminal());
    let mut analyses = Vec::with_capacity(games.len());
    for game in &games {
        let before = progress.done;
        analyses.push(analysis::analyze(game, limit, &mut |done, _| progress.show(before + done)));
    }
    progress.finish();
    let text = match args.format {
        FormatArg::Pgn => analyses.iter().map(|a| output::pgn(a, style)).collect::<String>(),
        FormatArg::Json => output::json(&analyses, style),
    };
    match &args.output {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display())),
        None => put(&mut io::stdout().lock(), text.trim_end()),
    }
}

/// Progress of an analysis on stderr: a bar redrawn in place on a terminal,
/// otherwise a line at every tenth of the work.
struct Progress {
    total: usize,
    done: usize,
    show: bool,
    terminal: bool,
    start: Instant,
}

impl Progress {
    fn new(total: usize, show: bool, terminal: bool) -> Progress {
        Progress { total, done: 0, show: show && total > 0, terminal, start: Instant::now() }
    }

    fn show(&mut self, done: usize) {
        let tenth = |n: usize| n * 10 / self.total.max(1);
        let new_tenth = tenth(done) != tenth(self.done);
        self.done = done;
        if !self.show {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64();
        let left = if done > 0 { secs / done as f64 * (self.total - done) as f64 } else { 0.0 };
        if self.terminal {
            const WIDTH: usize = 30;
            let filled = done * WIDTH / self.total;
            eprint!(
                "\ranalyzing [{}{}] {done}/{} plies, {secs:.0} s, about {left:.0} s left ",
                "#".repeat(filled),
                "-".repeat(WIDTH - filled),
                self.total
            );
        } else if new_tenth {
            eprintln!("analyze: {done}/{} plies, {secs:.0} s", self.total);
        }
    }

    fn finish(&self) {
        if self.show && self.terminal {
            eprintln!();
        }
    }
}

/// Writes one line; a reader that stops early (`| head`) is not an error.
fn put(out: &mut impl Write, line: &str) -> Result<(), String> {
    match writeln!(out, "{line}") {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.to_string()),
        _ => Ok(()),
    }
}

fn run_book(action: BookAction) -> Result<(), String> {
    use chariot::book::{self, Book, build};
    let mut out = io::stdout().lock();
    match action {
        BookAction::Build { inputs, output, max_ply, min_games, prefer } => {
            let preferences = prefer.iter().map(|p| build::parse_preference(p)).collect::<Result<Vec<_>, _>>()?;
            check_output(std::path::Path::new(&output))?;
            let mut games = Vec::new();
            for input in &inputs {
                let bytes = std::fs::read(input).map_err(|e| format!("cannot read '{input}': {e}"))?;
                games.extend(book::reader::read_bytes(&bytes).map_err(|e| format!("{input}: {e}"))?);
            }
            let options = build::BuildOptions { max_ply, min_games, preferences };
            let report = build::build(&games, &options);
            for p in &report.unused_preferences {
                eprintln!("chariot book: warning: preference '{p}' names no move of the book");
            }
            let mut command =
                format!("chariot book build {} --max-ply {max_ply} --min-games {min_games}", inputs.join(" "));
            for p in &prefer {
                command.push_str(&format!(" --prefer '{p}'"));
            }
            let b = &report.book;
            let comment = format!("{command}\n{} games, {} positions, {} moves", games.len(), b.positions(), b.len());
            std::fs::write(&output, b.to_text(&comment)).map_err(|e| format!("cannot write '{output}': {e}"))?;
            put(
                &mut out,
                &format!("{} games -> {} positions, {} moves in {output}", games.len(), b.positions(), b.len()),
            )
        }
        BookAction::Show { fen, moves, book: file } => {
            let mut pos = match fen {
                Some(f) => Position::from_fen(&f).map_err(|e| format!("bad FEN: {e}"))?,
                None => Position::startpos(),
            };
            pos.play_text_moves(moves.iter().map(String::as_str))?;
            let loaded;
            let book: &Book = match file {
                Some(name) => {
                    loaded = book::load_file(&name)?;
                    &loaded
                }
                None => Book::built_in().map_err(|e| format!("the built-in book is unusable: {e}"))?,
            };
            let found = book.lookup(&pos);
            put(&mut out, &format!("position {}", pos.to_fen()))?;
            let mirror = if found.mirrored { " (found as the mirror image of a book position)" } else { "" };
            put(&mut out, &format!("key {:016X}{mirror}", pos.key()))?;
            if found.entries.is_empty() {
                return put(&mut out, "no book moves");
            }
            let total: u64 = found.entries.iter().map(|e| u64::from(e.weight)).sum();
            put(&mut out, "move  weight  share  games  wins draws losses  pref")?;
            for e in &found.entries {
                let share = if total > 0 { 100.0 * f64::from(e.weight) / total as f64 } else { 0.0 };
                let legal = if pos.check_move(e.mv).is_ok() { "" } else { "  (illegal here: ignored)" };
                put(
                    &mut out,
                    &format!(
                        "{}  {:>6} {:>5.1}%  {:>5}  {:>4} {:>5} {:>6}  {}{legal}",
                        e.mv,
                        e.weight,
                        share,
                        e.games(),
                        e.wins,
                        e.draws,
                        e.losses,
                        e.preference
                    ),
                )?;
            }
            Ok(())
        }
    }
}
