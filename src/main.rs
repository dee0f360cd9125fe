//! The `chariot` binary: with no arguments it runs the protocol loop on
//! stdin/stdout; subcommands run perft and other tools. Each subcommand's
//! arguments and body are in `cli/`; here are only the command list and
//! the dispatch.

mod cli;

use chariot::protocol;
use clap::{Parser, Subcommand};
use std::io;
use std::process::ExitCode;

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
    Perft(cli::perft::PerftArgs),
    /// Search the bench positions to a fixed depth; prints the node count
    /// (the bench signature) and the speed.
    Bench(cli::bench::BenchArgs),
    /// Time the network's evaluation: a full refresh, an incremental
    /// update and the output layer, in nanoseconds per call.
    NnueSpeed(cli::bench::NnueSpeedArgs),
    /// Judge a game by the rules (mate, stalemate, repetition rules, natural
    /// limit, dead material): prints `result <1-0|0-1|1/2-1/2|*> <reason>`.
    /// A bad FEN or an illegal move: a message on stderr, exit code 2.
    Judge(cli::judge::JudgeArgs),
    /// Analyse a game: the evaluation after each move, inaccuracies,
    /// mistakes and blunders with the better move, its line and a reason.
    /// Bad arguments or an unreadable game: a message on stderr, exit code 2.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Opening book tools: build a book from games, show a position's moves.
    Book(cli::book::BookArgs),
    /// Self-play training data: games at a fixed node budget, each searched
    /// position written with its score, best move and the game's result (the
    /// format is in docs/training.md). Appends to FILE until it holds --games
    /// games; stopped and run again with the same options, it goes on and
    /// gives the same file. With --stats, --check, --convert OUT or --merge
    /// SHARDS..., a tool on FILE instead.
    Datagen(cli::datagen::DatagenArgs),
    /// Fit the evaluation weights to datagen files (Adam on the blend of
    /// game result and search score); prints the loss as it goes and the
    /// weights as Rust source, or writes them into a params.rs file.
    Tune(cli::tune::TuneArgs),
    /// The tunable search constants (name, default, min, max, SPSA step):
    /// set by `setoption` (hidden from the handshake unless CHARIOT_TUNE=1)
    /// and tuned by scripts/spsa.py.
    SearchParams(cli::search_params::SearchParamsArgs),
    /// Train the evaluation network (NNUE) on datagen files: Adam on the
    /// blend of game result and search score, the last games held out.
    /// Prints the losses per epoch, writes the quantised network to
    /// --output (and each epoch's next to it, `<output>.epoch<N>`).
    TrainNnue(cli::train_nnue::TrainNnueArgs),
    /// Play a match between engines (UCI, UCCI, xboard; Fairy-Stockfish's UCI
    /// ranks 1-10), judged by the Xiangqi rules after every move: results
    /// with Elo, LOS, pentanomial pairs and an optional SPRT on stdout,
    /// progress on stderr, games as PGN. Bad options, an engine that does
    /// not start or a bad openings file: a message, exit code 2.
    Match(Box<cli::matches::MatchArgs>),
    /// The board in the browser: play against any level, analyse, load
    /// games. Serves one page on http://127.0.0.1:PORT/ (the page is part of
    /// the binary; nothing is fetched from the internet).
    Serve(cli::serve::ServeArgs),
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
    // Each command's errors are printed after its name.
    let (command, result) = match Cli::parse().command {
        None => {
            protocol::run(io::stdin().lock(), protocol::Output::new(Box::new(io::stdout())));
            ("chariot", Ok(()))
        }
        Some(Command::Bench(args)) => ("chariot", cli::bench::run(&args)),
        Some(Command::NnueSpeed(args)) => ("chariot nnue-speed", cli::bench::nnue_speed(&args)),
        Some(Command::Perft(args)) => ("chariot", cli::perft::run(&args)),
        Some(Command::Analyze(args)) => ("chariot analyze", cli::analyze::run(&args)),
        Some(Command::Judge(args)) => ("chariot judge", cli::judge::run(&args)),
        Some(Command::Datagen(args)) => ("chariot datagen", cli::datagen::run(&args)),
        Some(Command::Tune(args)) => ("chariot tune", cli::tune::run(&args)),
        Some(Command::SearchParams(args)) => ("chariot search-params", cli::search_params::run(&args)),
        Some(Command::TrainNnue(args)) => ("chariot train-nnue", cli::train_nnue::run(&args)),
        Some(Command::Book(args)) => ("chariot book", cli::book::run(&args)),
        Some(Command::Match(args)) => ("chariot match", cli::matches::run(&args)),
        Some(Command::Serve(args)) => ("chariot serve", cli::serve::run(&args)),
    };
    cli::exit_code(command, result)
}
