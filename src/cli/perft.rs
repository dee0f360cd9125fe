//! `chariot perft`: leaf counts of the legal move tree.

use super::CommandResult;
use chariot::protocol::MAX_PERFT_DEPTH;
use std::io::{self, Write};
use std::time::Instant;

#[derive(clap::Args)]
pub struct PerftArgs {
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

pub fn run(args: &PerftArgs) -> CommandResult {
    let pos = super::start_position(args.fen.as_deref(), &args.moves)?;
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let nodes = if args.divide {
        let (lines, total) = chariot::perft::divide_report(&pos, args.depth);
        for line in &lines {
            writeln!(out, "{line}")?;
        }
        total
    } else {
        let n = chariot::perft::perft(&pos, args.depth);
        writeln!(out, "Nodes searched: {n}")?;
        n
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    writeln!(out, "Time: {:.3} s, Nodes/second: {:.0}", secs, nps)?;
    Ok(())
}
