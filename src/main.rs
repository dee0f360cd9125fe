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
    /// Search the bench positions to a fixed depth; prints the node count
    /// (the bench signature) and the speed.
    Bench {
        #[arg(default_value_t = chariot::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            protocol::run(io::stdin().lock(), protocol::Output::new(Box::new(io::stdout())));
            Ok(())
        }
        Some(Command::Bench { depth }) => {
            let r = chariot::bench::run(depth);
            println!("Positions       : {}", r.positions);
            println!("Depth           : {}", r.depth);
            println!("Total time (ms) : {}", r.time_ms);
            println!("Nodes searched  : {}", r.nodes);
            println!("Nodes/second    : {}", r.nps);
            Ok(())
        }
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
    pos.play_text_moves(moves.iter().map(String::as_str))?;
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in chariot::perft::divide(&pos, depth) {
            writeln!(out, "{m}: {n}").map_err(|e| e.to_string())?;
            total += n;
        }
        writeln!(out).map_err(|e| e.to_string())?;
        writeln!(out, "Nodes searched: {total}").map_err(|e| e.to_string())?;
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
