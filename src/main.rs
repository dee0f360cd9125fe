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
        Some(Command::Judge { fen, moves, explain, banmoves }) => {
            return match run_judge(fen, &moves, explain, banmoves) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chariot judge: {e}");
                    ExitCode::from(2)
                }
            };
        }
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

/// Writes one line; a reader that stops early (`| head`) is not an error.
fn put(out: &mut impl Write, line: &str) -> Result<(), String> {
    match writeln!(out, "{line}") {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.to_string()),
        _ => Ok(()),
    }
}
