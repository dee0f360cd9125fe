//! Game-level rules shared by the search and the `judge` command: the end of
//! the game and the repetition rules (棋例) of `docs/rules.md`.
//!
//! # Layers
//!
//! - [`judge_cycle`]: perpetual check only, from the keys and check flags the
//!   search keeps on its path. It is the search's fast test and stays as it
//!   was.
//! - [`judge_cycle_full`]: the whole of 棋例 for one cycle, from the position
//!   at the first occurrence and the moves after which it recurs. It replays
//!   the moves and classifies each one ([`classify`]), with the threat test
//!   of [`chase`]. Cost: two threat scans per move (bitboard work) plus, for
//!   moves that neither check nor chase, a mate-in-one test (a move
//!   generation and a make per checking move; a second one when a threat is
//!   found, to see whether it is new). It stops early once both sides have
//!   made an idle move, because then the cycle is a draw whatever follows.
//!   Measured on the scenario cycles (8 to 16 plies): 8 us per call on
//!   average, 45 us at worst.
//! - [`adjudicate`] / [`judge_game`]: a whole game from a base position:
//!   no legal move (checkmate or stalemate, both lose), a position occurring
//!   for the third time since the last capture (judged from the first of the
//!   three occurrences, so the two cycles between them are judged together),
//!   120 plies without capture, and dead material. The first of these events
//!   ends the game; later moves are only checked for legality.
//! - [`forbidden_moves`]: the moves that would repeat a position with a cycle
//!   that loses for the mover (the UCCI `banmoves` idea).
//!
//! # Judging a cycle
//!
//! Each move gets its most severe effect: check, mate threat (the mover
//! could mate in one if it moved again, and could not before), chase (a new
//! threat to win material), or idle. A side whose every move in the cycle
//! attacks commits a forbidden repetition (perpetual check, chase, mate
//! threat or a mix); one idle move makes its moves allowed. Then [棋例 2]:
//! one-sided perpetual check loses; forbidden against allowed loses;
//! otherwise a draw. The chase test and the detail rules it implements are
//! described in [`chase`] and [`classify`].
//!
//! Rules implemented only in part (see docs/judge.md):
//! the threat test compares single captures (unprotected target, or target
//! worth more than the attacker), not whole exchange sequences, except the
//! one that the attacker's king ends by taking back last [3(2), 4(9)];
//! "occupying a key defensive point that forms a simple draw" [3(4),
//! 4(13)] is not recognised (such a chase of an advisor or elephant counts
//! as a chase);
//! a side that chases different pieces by turns is judged like one that
//! chases the same piece (the text of 棋例 forbids "长捉" without saying
//! which; Fairy-Stockfish requires the same piece).

pub mod chase;
pub mod classify;
pub mod explain;

pub use classify::{CycleAnalysis, Detail, Effect, MoveClass, Pattern, analyze_cycle};

use crate::position::{MoveError, Position};
use crate::types::{Color, Move};
use std::fmt;

/// One position of the game or of the search path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PathEntry {
    pub key: u64,
    /// The side to move in this position is in check.
    pub checked: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CycleVerdict {
    Draw,
    /// The side to move at the repeated position wins (the other side
    /// repeated a forbidden pattern).
    SideToMoveWins,
    SideToMoveLoses,
}

/// Judges a repetition cycle. `cycle` runs from the earlier occurrence of a
/// position to its repetition (both included), so it has an odd length and
/// its first and last entries have the same side to move.
pub fn judge_cycle(cycle: &[PathEntry]) -> CycleVerdict {
    debug_assert!(cycle.len() >= 3 && cycle.len() % 2 == 1);
    // The move from entry k to k+1 gave check when entry k+1 is in check.
    // The side to move at the end ("us") made the moves into entries 1, 3, ..;
    // the other side made the moves into entries 2, 4, .., last.
    let we_check_always = cycle.iter().skip(1).step_by(2).all(|e| e.checked);
    let they_check_always = cycle.iter().skip(2).step_by(2).all(|e| e.checked);
    match (we_check_always, they_check_always) {
        (false, true) => CycleVerdict::SideToMoveWins,
        (true, false) => CycleVerdict::SideToMoveLoses,
        _ => CycleVerdict::Draw,
    }
}

/// Judges a repetition cycle by all of 棋例: perpetual check, chase, mate
/// threat and their mixes. `start` is the position at the first occurrence
/// of the repeated position, `moves` the moves after which it recurs; the
/// verdict is for the side to move in `start` (and at the end). Illegal
/// moves make the verdict a draw (the search never passes any).
pub fn judge_cycle_full(start: &Position, moves: &[Move]) -> CycleVerdict {
    analyze_cycle(start, moves, Detail::Verdict).verdict
}

/// The outcome of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    /// The game goes on.
    Ongoing,
}

impl GameResult {
    /// The result won by `winner`.
    pub fn win_for(winner: Color) -> GameResult {
        match winner {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        })
    }
}

/// Why the game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move (困毙; it loses).
    Stalemate,
    /// One-sided perpetual check (or perpetual check against allowed moves).
    PerpetualCheck,
    /// Perpetual chase against allowed moves.
    PerpetualChase,
    /// Another forbidden cycle against allowed moves: perpetual mate threat,
    /// one check one chase, one check one mate threat, one mate threat one
    /// chase.
    ForbiddenRepetition,
    /// A third occurrence judged a draw (both allowed or both forbidden).
    Repetition,
    /// 120 plies (60 moves each) without a capture.
    SixtyMoveRule,
    /// Neither side has a rook, horse, cannon or pawn.
    InsufficientMaterial,
    None,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::ForbiddenRepetition => "forbidden-repetition",
            Reason::Repetition => "repetition",
            Reason::SixtyMoveRule => "sixty-move-rule",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::None => "none",
        })
    }
}

/// The natural limit: plies without capture that draw [胜负规则 6(4)].
pub const NO_CAPTURE_PLIES: u16 = 120;

/// How often a position must occur for the repetition rules to decide.
pub const REPETITION_COUNT: usize = 3;

/// The repetition that decided a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Repetition {
    /// Plies played before the first of the three occurrences.
    pub start_ply: usize,
    /// The position at the first occurrence.
    pub start: Position,
    /// The analysis of the moves from there to the third occurrence.
    pub analysis: CycleAnalysis,
}

/// A judged game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameReport {
    pub result: GameResult,
    pub reason: Reason,
    /// Moves played when the game ended (all legal moves when it goes on).
    pub plies: usize,
    /// The position at that moment.
    pub position: Position,
    /// For results decided by repetition: the cycle.
    pub repetition: Option<Repetition>,
}

/// Why a game cannot be judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// Move number `number` (1-based) cannot be played.
    IllegalMove { number: usize, mv: Move, reason: MoveError },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::IllegalMove { number, mv, reason } => write!(f, "move {number} '{mv}' is illegal: {reason}"),
        }
    }
}

impl std::error::Error for JudgeError {}

/// For callers that report errors as text (the command line).
impl From<JudgeError> for String {
    fn from(e: JudgeError) -> String {
        e.to_string()
    }
}

/// Judges the game of `moves` played from `base` (the result at the first
/// moment the rules end it; the moves after it are checked for legality
/// but not judged). Err names the first illegal move.
pub fn judge_game(base: &Position, moves: &[Move]) -> Result<GameReport, JudgeError> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(*base);
    for (i, &m) in moves.iter().enumerate() {
        let mut next = positions[i];
        next.check_move(m).map_err(|reason| JudgeError::IllegalMove { number: i + 1, mv: m, reason })?;
        next.make_move(m);
        positions.push(next);
    }
    // Index in `positions` of the first position since the last capture:
    // no earlier position can recur.
    let mut window = 0;
    for n in 0..positions.len() {
        if n > 0 && positions[n - 1].is_capture(moves[n - 1]) {
            window = n;
        }
        if let Some(report) = end_of_game(&positions[..=n], &moves[..n], window) {
            return Ok(report);
        }
    }
    let plies = moves.len();
    Ok(GameReport {
        result: GameResult::Ongoing,
        reason: Reason::None,
        plies,
        position: positions[plies],
        repetition: None,
    })
}

/// The end-of-game tests for the last of `positions`, reached by `moves`
/// from the first: no legal move, third occurrence, natural limit, dead
/// material, in that order (a mate on the 120th ply is a mate). `window` is
/// the index of the first position since the last capture. A game played
/// move by move calls this after each move (as [`judge_game`] does).
pub fn end_of_game(positions: &[Position], moves: &[Move], window: usize) -> Option<GameReport> {
    let n = positions.len() - 1;
    let pos = positions[n];
    let us = pos.side_to_move();
    let report = |result, reason, repetition| Some(GameReport { result, reason, plies: n, position: pos, repetition });
    if !pos.has_legal_move() {
        let reason = if pos.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        return report(GameResult::win_for(!us), reason, None);
    }
    let occurrences: Vec<usize> = (window..n).filter(|&j| positions[j].key() == pos.key()).collect();
    if occurrences.len() + 1 >= REPETITION_COUNT {
        let start_ply = occurrences[occurrences.len() + 1 - REPETITION_COUNT];
        let analysis = analyze_cycle(&positions[start_ply], &moves[start_ply..n], Detail::Full);
        let (result, reason) = match analysis.loser() {
            None => (GameResult::Draw, Reason::Repetition),
            Some(loser) => (
                GameResult::win_for(!loser),
                match analysis.patterns[loser.index()] {
                    Pattern::PerpetualCheck => Reason::PerpetualCheck,
                    Pattern::PerpetualChase => Reason::PerpetualChase,
                    _ => Reason::ForbiddenRepetition,
                },
            ),
        };
        let repetition = Repetition { start_ply, start: positions[start_ply], analysis };
        return report(result, reason, Some(repetition));
    }
    if pos.rule60_count() >= NO_CAPTURE_PLIES {
        return report(GameResult::Draw, Reason::SixtyMoveRule, None);
    }
    if pos.is_dead_draw() {
        return report(GameResult::Draw, Reason::InsufficientMaterial, None);
    }
    None
}

/// The result of the game of `moves` played from `base`. Moves from the
/// first illegal one on are ignored (the `judge` command refuses them
/// first).
pub fn adjudicate(base: &Position, moves: &[Move]) -> (GameResult, Reason) {
    let legal = legal_prefix(base, moves);
    match judge_game(base, &moves[..legal]) {
        Ok(r) => (r.result, r.reason),
        Err(_) => (GameResult::Ongoing, Reason::None),
    }
}

/// How many of `moves` can be played from `base` before an illegal one.
fn legal_prefix(base: &Position, moves: &[Move]) -> usize {
    let mut pos = *base;
    for (i, &m) in moves.iter().enumerate() {
        if pos.check_move(m).is_err() {
            return i;
        }
        pos.make_move(m);
    }
    moves.len()
}

/// The legal moves of the side to move after `moves` from `base` that would
/// repeat an earlier position (since the last capture) with a cycle that
/// loses for the mover. When the position would occur for the third time
/// the cycle is judged from the first of the three occurrences (as
/// [`judge_game`] does), otherwise from the last occurrence. Moves from the
/// first illegal one on are ignored.
pub fn forbidden_moves(base: &Position, moves: &[Move]) -> Vec<Move> {
    let moves = &moves[..legal_prefix(base, moves)];
    let mut positions = Vec::with_capacity(moves.len() + 2);
    positions.push(*base);
    let mut window = 0;
    for (i, &m) in moves.iter().enumerate() {
        let mut next = positions[i];
        if next.is_capture(m) {
            window = i + 1;
        }
        next.make_move(m);
        positions.push(next);
    }
    let n = moves.len();
    let current = positions[n];
    let mover = current.side_to_move();
    let mut banned = Vec::new();
    for m in current.legal_moves() {
        if current.is_capture(m) {
            continue;
        }
        let mut after = current;
        after.make_move(m);
        let occurrences: Vec<usize> = (window..=n).filter(|&j| positions[j].key() == after.key()).collect();
        let Some(&last) = occurrences.last() else { continue };
        let start = if occurrences.len() + 1 >= REPETITION_COUNT {
            occurrences[occurrences.len() + 1 - REPETITION_COUNT]
        } else {
            last
        };
        let mut cycle = moves[start..].to_vec();
        cycle.push(m);
        if analyze_cycle(&positions[start], &cycle, Detail::Verdict).loser() == Some(mover) {
            banned.push(m);
        }
    }
    banned
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(checked: bool) -> PathEntry {
        PathEntry { key: 0, checked }
    }

    #[test]
    fn perpetual_check_loses() {
        // They check on every move, we only evade: we win.
        let cycle = [e(true), e(false), e(true), e(false), e(true)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::SideToMoveWins);
        let cycle = [e(false), e(true), e(false), e(true), e(false)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::SideToMoveLoses);
        let cycle = [e(false), e(false), e(false), e(false), e(false)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::Draw);
        let cycle = [e(true), e(true), e(true), e(true), e(true)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::Draw, "both check perpetually");
    }

    #[test]
    fn an_illegal_move_is_named_by_number() {
        let moves = [Move::parse("h2e2").unwrap(), Move::parse("h2e2").unwrap()];
        let error = judge_game(&Position::startpos(), &moves).unwrap_err();
        assert_eq!(error, JudgeError::IllegalMove { number: 2, mv: moves[1], reason: MoveError::NoPiece });
        assert!(error.to_string().starts_with("move 2 'h2e2' is illegal: "), "{error}");
    }

    #[test]
    fn result_and_reason_texts() {
        assert_eq!(GameResult::RedWins.to_string(), "1-0");
        assert_eq!(GameResult::BlackWins.to_string(), "0-1");
        assert_eq!(GameResult::Draw.to_string(), "1/2-1/2");
        assert_eq!(GameResult::Ongoing.to_string(), "*");
        assert_eq!(Reason::ForbiddenRepetition.to_string(), "forbidden-repetition");
        assert_eq!(Reason::SixtyMoveRule.to_string(), "sixty-move-rule");
    }
}
