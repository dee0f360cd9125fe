//! Perft: count the leaf nodes of the legal move tree, the standard check of
//! a move generator. The last ply is bulk-counted (moves are counted, not
//! played). Shared by the CLI, the protocol's `go perft`, tests and benches.

use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false)).unwrap_or(0)
}

/// Like [`perft`], but gives up (`None`) once `stop` is set: the protocol's
/// `go perft` runs in the background and `stop` ends it. The flag is read
/// at interior nodes only, about one read per 40 leaves.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(pos.count_legal()),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut nodes = 0;
            for m in pos.legal_moves() {
                let mut child = *pos;
                child.make_move(m);
                nodes += perft_until(&child, depth - 1, stop)?;
            }
            Some(nodes)
        }
    }
}

/// Perft split by root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.make_move(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

/// Perft split by root move as printed (Stockfish style): one `move: count`
/// line per root move, a blank line, `Nodes searched: N`. Returns the lines
/// and the total; the CLI and `go perft` both print these.
pub fn divide_report(pos: &Position, depth: u32) -> (Vec<String>, u64) {
    divide_report_until(pos, depth, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`divide_report`] that gives up (`None`) once `stop` is set.
pub fn divide_report_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<(Vec<String>, u64)> {
    let mut lines = Vec::new();
    let mut total = 0;
    if depth > 0 {
        for m in pos.legal_moves() {
            let mut child = *pos;
            child.make_move(m);
            let n = perft_until(&child, depth - 1, stop)?;
            lines.push(format!("{m}: {n}"));
            total += n;
        }
    }
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    Some((lines, total))
}

/// The slow reference: no bulk counting, every leaf is a played move, and
/// legality comes from the independent reference generator in
/// [`crate::position::reference`].
pub fn perft_reference(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    crate::position::reference::legal_moves(pos)
        .into_iter()
        .map(|m| {
            let mut child = *pos;
            child.make_move(m);
            perft_reference(&child, depth - 1)
        })
        .sum()
}
