//! `chariot judge`: a game judged by the rules.

use super::{CommandResult, put};
use chariot::rules;
use chariot::types::Move;
use std::io;

#[derive(clap::Args)]
pub struct JudgeArgs {
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
}

pub fn run(args: &JudgeArgs) -> CommandResult {
    let base = super::start_position(args.fen.as_deref(), &[])?;
    let moves = parse_moves(&args.moves)?;
    // Refuses illegal moves (with their number) before anything is printed.
    let report = rules::judge_game(&base, &moves)?;
    let mut out = io::stdout().lock();
    if args.banmoves {
        let mut line = "banmoves".to_string();
        for m in rules::forbidden_moves(&base, &moves) {
            line.push_str(&format!(" {m}"));
        }
        return Ok(put(&mut out, &line)?);
    }
    put(&mut out, &format!("result {} {}", report.result, report.reason))?;
    if args.explain {
        for line in rules::explain::explain(&report) {
            put(&mut out, &line)?;
        }
    }
    Ok(())
}

/// ICCS moves, not yet checked for legality (the judge does that).
fn parse_moves(texts: &[String]) -> Result<Vec<Move>, String> {
    let parse = |(i, text): (usize, &String)| {
        Move::parse(text).ok_or_else(|| format!("move {} '{}' is not a move in ICCS notation", i + 1, text))
    };
    texts.iter().enumerate().map(parse).collect()
}
