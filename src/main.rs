//! The `chariot` binary: with no arguments it runs the protocol loop on
//! stdin/stdout; subcommands run perft and other tools.

use chariot::position::Position;
use chariot::protocol;
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "chariot", version, about = "Chariot, a Xiangqi engine (UCCI 3.0 and UCI)")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
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
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => protocol::run(io::stdin().lock(), io::stdout().lock()).map_err(|e| e.to_string()),
        Some(Command::Perft { depth, fen, moves, divide }) => run_perft(depth, fen, &moves, divide),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chariot: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(depth: u32, fen: Option<String>, moves: &[String], divide: bool) -> Result<(), String> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(&f).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    protocol::apply_moves(&mut pos, moves.iter().map(String::as_str))?;
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let nodes = if divide {
        protocol::write_divide(&mut out, &pos, depth).map_err(|e| e.to_string())?
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
