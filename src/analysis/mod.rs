//! Game analysis (`chariot analyze`): every move of a game searched by the
//! engine, the evaluation after it, the moves that lose the most marked as
//! inaccuracy, mistake or blunder, the better move with its line, and a
//! plain sentence saying what went wrong.
//!
//! # Method
//!
//! For the position before each move the engine searches (to the depth, or
//! for the time, asked) and gives its best move, score and line. When the
//! played move is another one, the same position is searched again with
//! only the played move allowed, to the depth the first search reached
//! (and within the same time), so both scores come from the same root and
//! depth. The loss is the best
//! score minus the played move's score, from the mover's point of view,
//! with both scores first capped at ±[`SCORE_CAP`] (a mate counts as the
//! cap): a side that stays completely winning loses little. The
//! evaluation after a move is the played move's score.
//!
//! Thresholds (centipawns of an uncrossed pawn, the engine's unit; a horse
//! is about 450, a rook about 1000): a loss of at least [`INACCURACY`] is
//! an inaccuracy, [`MISTAKE`] a mistake, [`BLUNDER`] a blunder. A move
//! that is the only legal one is never marked.

pub mod explain;
pub mod output;

use crate::engine::Engine;
use crate::position::Position;
use crate::record::GameRecord;
use crate::search::{Iteration, Limits, Listener};
use crate::types::{Color, Move};
pub use explain::Explanation;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

pub const INACCURACY: i32 = 60;
pub const MISTAKE: i32 = 150;
pub const BLUNDER: i32 = 300;
/// Scores are capped at this before losses are measured.
pub const SCORE_CAP: i32 = 1500;

/// How long to search each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    Depth(i32),
    MoveTimeMs(u64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Severity {
    /// The class of a loss in centipawns, if it is large enough for one.
    pub fn of_loss(loss: i32) -> Option<Severity> {
        match loss {
            l if l >= BLUNDER => Some(Severity::Blunder),
            l if l >= MISTAKE => Some(Severity::Mistake),
            l if l >= INACCURACY => Some(Severity::Inaccuracy),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Severity::Inaccuracy => "inaccuracy",
            Severity::Mistake => "mistake",
            Severity::Blunder => "blunder",
        }
    }
}

/// A move and the line the engine expects after it, with its score from
/// the point of view of the side making the first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    /// Starts with the move itself; never empty.
    pub moves: Vec<Move>,
}

impl Line {
    pub fn first(&self) -> Move {
        self.moves[0]
    }
}

/// The analysis of one move of the game.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// 1 for the first move of the game.
    pub ply: usize,
    /// The position the move was played in.
    pub before: Position,
    pub played: Line,
    /// The engine's choice in `before`.
    pub best: Line,
    /// The depth both searches reached.
    pub depth: i32,
    /// Best score minus the played move's, capped scores, mover's view.
    pub loss: i32,
    pub severity: Option<Severity>,
    /// What went wrong, for marked moves.
    pub explanation: Option<Explanation>,
    /// The only legal move.
    pub forced: bool,
}

impl MoveAnalysis {
    pub fn mover(&self) -> Color {
        self.before.side_to_move()
    }

    /// The position after the played move.
    pub fn after(&self) -> Position {
        let mut p = self.before;
        p.make_move(self.played.first());
        p
    }

    /// The evaluation after the move, from Red's point of view.
    pub fn eval_red(&self) -> i32 {
        red_view(self.mover(), self.played.score)
    }

    /// The best move's score, from Red's point of view.
    pub fn best_eval_red(&self) -> i32 {
        red_view(self.mover(), self.best.score)
    }
}

/// A score for `side` seen from Red.
pub fn red_view(side: Color, score: i32) -> i32 {
    if side == Color::Red { score } else { -score }
}

pub fn capped(score: i32) -> i32 {
    score.clamp(-SCORE_CAP, SCORE_CAP)
}

/// The whole game's analysis.
#[derive(Clone, Debug)]
pub struct GameAnalysis {
    pub record: GameRecord,
    pub limit: SearchLimit,
    pub moves: Vec<MoveAnalysis>,
}

/// Per side: how many moves of each class, and the average loss.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    pub average_loss: f64,
}

impl GameAnalysis {
    pub fn summary(&self, side: Color) -> SideSummary {
        let own: Vec<&MoveAnalysis> = self.moves.iter().filter(|m| m.mover() == side).collect();
        let count = |s: Severity| own.iter().filter(|m| m.severity == Some(s)).count();
        let total: i64 = own.iter().map(|m| m.loss as i64).sum();
        SideSummary {
            moves: own.len(),
            inaccuracies: count(Severity::Inaccuracy),
            mistakes: count(Severity::Mistake),
            blunders: count(Severity::Blunder),
            average_loss: if own.is_empty() { 0.0 } else { total as f64 / own.len() as f64 },
        }
    }
}

/// Keeps the last complete principal variation of a search.
#[derive(Default)]
struct PvKeeper {
    last: Mutex<Option<(i32, Vec<Move>)>>,
}

impl Listener for PvKeeper {
    fn iteration(&self, info: &Iteration) {
        if info.multipv == 1 && info.bound.is_none() && !info.pv.is_empty() {
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some((info.score, info.pv.clone()));
        }
    }
    fn current_move(&self, _: i32, _: Move, _: usize) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>, _: i32) {}
}

/// Searches the position at the end of `moves` (from the record's start),
/// with the root moves limited to `only` if given. Returns the line (the
/// PV when it starts with the chosen move) and the depth reached.
fn search(engine: &mut Engine, start_fen: &str, moves: &[String], limits: &Limits) -> Option<(Line, i32)> {
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    if !matches!(engine.set_position(Some(start_fen), &texts), Ok(None)) {
        return None;
    }
    let keeper = PvKeeper::default();
    let outcome = engine.search_blocking(limits, &keeper);
    let best = outcome.best?;
    let pv = keeper.last.into_inner().unwrap_or_else(|e| e.into_inner());
    let moves = match pv {
        Some((_, pv)) if pv.first() == Some(&best) => pv,
        _ => vec![best],
    };
    Some((Line { score: outcome.score, moves }, outcome.depth.max(1)))
}

/// Analyses every move of `record`. `progress(done, total)` is called after
/// each move.
pub fn analyze(record: &GameRecord, limit: SearchLimit, progress: &mut dyn FnMut(usize, usize)) -> GameAnalysis {
    analyze_until(record, limit, progress, &AtomicBool::new(false))
}

/// [`analyze`], ending early (with the moves analysed so far) once `stop`
/// is set: the browser board's review stops when its page goes.
pub fn analyze_until(
    record: &GameRecord,
    limit: SearchLimit,
    progress: &mut dyn FnMut(usize, usize),
    stop: &AtomicBool,
) -> GameAnalysis {
    let mut engine = Engine::new();
    let start_fen = record.start.to_fen();
    let texts: Vec<String> = record.moves.iter().map(Move::to_string).collect();
    let base = match limit {
        SearchLimit::Depth(d) => Limits { depth: Some(d), ..Limits::default() },
        SearchLimit::MoveTimeMs(ms) => Limits { movetime_ms: Some(ms as i64), ..Limits::default() },
    };
    let positions = record.positions();
    let total = record.moves.len();
    let mut out = Vec::with_capacity(total);
    for (i, &played) in record.moves.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let before = positions[i];
        let forced = before.legal_moves().len() == 1;
        let history = &texts[..i];
        let Some((best, depth)) = search(&mut engine, &start_fen, history, &base) else { break };
        let played_line = if best.first() == played {
            best.clone()
        } else {
            // The depth the first search reached; with a time limit, the
            // same time as a bound (a mate found fast can reach any depth).
            let only = Limits { depth: Some(depth), searchmoves: vec![played], ..base.clone() };
            match search(&mut engine, &start_fen, history, &only) {
                Some((line, _)) if line.first() == played => line,
                _ => Line { score: best.score, moves: vec![played] },
            }
        };
        let loss = if forced { 0 } else { (capped(best.score) - capped(played_line.score)).max(0) };
        let severity = Severity::of_loss(loss);
        let mut analysis = MoveAnalysis {
            ply: i + 1,
            before,
            played: played_line,
            best,
            depth,
            loss,
            severity,
            explanation: None,
            forced,
        };
        if severity.is_some() {
            analysis.explanation = Some(explain::explain(&analysis));
        }
        out.push(analysis);
        progress(i + 1, total);
    }
    GameAnalysis { record: record.clone(), limit, moves: out }
}

/// [`analyze`] for each game of `records`, in order: `progress(done)` is
/// called after each move with the moves analysed so far in all games.
pub fn analyze_games(records: &[GameRecord], limit: SearchLimit, progress: &mut dyn FnMut(usize)) -> Vec<GameAnalysis> {
    let mut before = 0;
    let mut analyses = Vec::with_capacity(records.len());
    for record in records {
        analyses.push(analyze(record, limit, &mut |done, _| progress(before + done)));
        before += record.moves.len();
    }
    analyses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_counts_the_moves_of_every_game() {
        let pgn = "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. b0c2 *\n";
        let records = crate::record::read_games(pgn).expect("two games");
        assert_eq!(records.len(), 2);
        let mut seen = Vec::new();
        let analyses = analyze_games(&records, SearchLimit::Depth(1), &mut |done| seen.push(done));
        assert_eq!(seen, [1, 2, 3]);
        assert_eq!(analyses.iter().map(|a| a.moves.len()).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(analyses[1].record, records[1]);
    }
}
