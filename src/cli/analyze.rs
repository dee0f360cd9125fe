//! `chariot analyze`: a game's evaluation and mistakes, as PGN or JSON.

use super::{CommandResult, put};
use chariot::analysis::{self, SearchLimit, output};
use chariot::notation::Notation;
use std::io::{self, IsTerminal, Read};
use std::time::Instant;

#[derive(clap::Args)]
pub struct AnalyzeArgs {
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

const DEFAULT_DEPTH: i32 = 10;

pub fn run(args: &AnalyzeArgs) -> CommandResult {
    if let Some(path) = &args.output {
        super::check_output(path)?;
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
    let analyses = analysis::analyze_games(&games, limit, &mut |done| progress.show(done));
    progress.finish();
    let text = match args.format {
        FormatArg::Pgn => analyses.iter().map(|a| output::pgn(a, style)).collect::<String>(),
        FormatArg::Json => output::json(&analyses, style),
    };
    match &args.output {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))?,
        None => put(&mut io::stdout().lock(), text.trim_end())?,
    }
    Ok(())
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
