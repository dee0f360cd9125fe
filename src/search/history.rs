//! What a search thread learns about moves and keeps for the whole game:
//! the history tables that order moves and steer reductions and pruning,
//! and the counter-move table. One set per thread, owned by the
//! [`Searcher`](super::Searcher) between searches, cleared by a new game.
//!
//! Every table holds "gravity" scores: a bonus pulls an entry towards
//! +limit, a malus towards -limit, and the closer it is the less it moves,
//! so old knowledge fades as new knowledge comes.

use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind};

const SQUARES: usize = 90;
/// (piece, destination) pairs: a move as continuation history sees it.
pub const PIECE_TO: usize = Piece::COUNT * SQUARES;

pub const MAIN_LIMIT: i32 = 16_384;
pub const CAPTURE_LIMIT: i32 = 16_384;
pub const CONTINUATION_LIMIT: i32 = 30_000;
pub const CORRECTION_LIMIT: i32 = 1_024;
/// Correction entries per side (a power of two).
const CORRECTION_SIZE: usize = 1 << 14;
/// A correction entry is worth this many times a centipawn.
const CORRECTION_GRAIN: i32 = 16;

/// A move's (piece, destination) index, for continuation history and the
/// counter-move table.
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let piece = pos.piece_on(m.from()).expect("a move moves a piece");
    piece as usize * SQUARES + m.to().index()
}

#[cfg_attr(test, derive(PartialEq))]
pub struct ThreadTables {
    /// Quiet moves by side, from and to square ("butterfly" history).
    main: Vec<i16>,
    /// Captures by moving piece, destination and captured kind.
    capture: Vec<i16>,
    /// Quiet moves by the (piece, destination) of an earlier move in the
    /// line and their own (piece, destination): rows of `PIECE_TO` entries.
    continuation: Vec<i16>,
    /// The quiet reply that refuted a move last time, by that move's
    /// (piece, destination).
    counter: Vec<Option<Move>>,
    /// How far searches found the static evaluation off, by side to move
    /// and pawn structure: the evaluation's systematic errors of a game's
    /// structures, learnt as it goes.
    correction: Vec<i16>,
}

impl Default for ThreadTables {
    fn default() -> ThreadTables {
        let continuation = vec![0; PIECE_TO * PIECE_TO];
        // Megabytes read at random, as the hash table.
        crate::huge_pages::advise(&continuation);
        ThreadTables {
            main: vec![0; 2 * SQUARES * SQUARES],
            capture: vec![0; PIECE_TO * PieceKind::ALL.len()],
            continuation,
            counter: vec![None; PIECE_TO],
            correction: vec![0; 2 * CORRECTION_SIZE],
        }
    }
}

#[inline]
fn main_index(pos: &Position, m: Move) -> usize {
    (pos.side_to_move().index() * SQUARES + m.from().index()) * SQUARES + m.to().index()
}

#[inline]
fn capture_index(pos: &Position, m: Move) -> usize {
    let victim = pos.piece_on(m.to()).map_or(0, |p| p.kind().index());
    piece_to(pos, m) * PieceKind::ALL.len() + victim
}

/// Pulls `entry` towards the limit by `bonus` (negative: a malus).
#[inline]
fn apply(entry: &mut i16, bonus: i32, limit: i32) {
    let bonus = bonus.clamp(-limit, limit);
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / limit) as i16;
}

/// The correction entry of the position's side to move and pawns.
#[inline]
fn correction_index(pos: &Position) -> usize {
    let red = pos.pieces(Color::Red, PieceKind::Pawn).bits();
    let black = pos.pieces(Color::Black, PieceKind::Pawn).bits();
    let mixed = red.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) ^ black.rotate_left(45);
    let folded = (mixed as u64) ^ ((mixed >> 64) as u64);
    let slot = (folded.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 50) as usize % CORRECTION_SIZE;
    pos.side_to_move().index() * CORRECTION_SIZE + slot
}

impl ThreadTables {
    /// Forgets everything: the tables as `default` makes them, in the same
    /// memory (its pages stay mapped).
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counter.fill(None);
        self.correction.fill(0);
    }

    /// `raw` (the static evaluation) corrected by what searches of this
    /// pawn structure found.
    #[inline]
    pub fn corrected_eval(&self, pos: &Position, raw: i32) -> i32 {
        raw + i32::from(self.correction[correction_index(pos)]) / CORRECTION_GRAIN
    }

    /// A search at `depth` found `score` where the corrected evaluation
    /// said `eval`; the entry moves by the difference times the depth over
    /// `depth_divisor`.
    pub fn update_correction(&mut self, pos: &Position, eval: i32, score: i32, depth: i32, depth_divisor: i32) {
        let bonus = ((score - eval) * depth / depth_divisor).clamp(-CORRECTION_LIMIT / 4, CORRECTION_LIMIT / 4);
        apply(&mut self.correction[correction_index(pos)], bonus, CORRECTION_LIMIT);
    }

    #[inline]
    pub fn main(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.main[main_index(pos, m)])
    }

    #[inline]
    pub fn capture(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.capture[capture_index(pos, m)])
    }

    /// The continuation score of `m` (as a (piece, destination) index)
    /// after the earlier move `earlier`.
    #[inline]
    pub fn continuation(&self, earlier: usize, m_piece_to: usize) -> i32 {
        i32::from(self.continuation[earlier * PIECE_TO + m_piece_to])
    }

    pub fn counter_move(&self, previous: Option<usize>) -> Option<Move> {
        previous.and_then(|p| self.counter[p])
    }

    pub fn set_counter_move(&mut self, previous: Option<usize>, m: Move) {
        if let Some(p) = previous {
            self.counter[p] = Some(m);
        }
    }

    /// A quiet move's bonus (or malus): the main table and the
    /// continuation rows of the earlier moves given.
    pub fn update_quiet(&mut self, pos: &Position, m: Move, earlier: &[Option<usize>], bonus: i32) {
        apply(&mut self.main[main_index(pos, m)], bonus, MAIN_LIMIT);
        let own = piece_to(pos, m);
        for e in earlier.iter().flatten() {
            apply(&mut self.continuation[e * PIECE_TO + own], bonus, CONTINUATION_LIMIT);
        }
    }

    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        apply(&mut self.capture[capture_index(pos, m)], bonus, CAPTURE_LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_within_their_limit() {
        let mut e = 0i16;
        for _ in 0..1000 {
            apply(&mut e, 5000, MAIN_LIMIT);
        }
        assert!(i32::from(e) <= MAIN_LIMIT && i32::from(e) > MAIN_LIMIT - 100, "{e}");
        for _ in 0..1000 {
            apply(&mut e, -40_000, CONTINUATION_LIMIT);
        }
        assert!(i32::from(e) >= -CONTINUATION_LIMIT && i32::from(e) < -CONTINUATION_LIMIT + 100, "{e}");
    }

    #[test]
    fn the_correction_follows_the_searches_within_its_bound() {
        let pos = Position::startpos();
        let mut other = pos;
        other.make_move(pos.parse_legal_move("c3c4").unwrap());
        let mut t = ThreadTables::default();
        assert_eq!(t.corrected_eval(&pos, 37), 37);
        // Searches keep finding the position 200 cp better than its
        // evaluation: the correction grows, up to its bound.
        let mut last = 37;
        for _ in 0..200 {
            let eval = t.corrected_eval(&pos, 37);
            t.update_correction(&pos, eval, 237, 12, 8);
            let now = t.corrected_eval(&pos, 37);
            assert!(now >= last, "{now} < {last}");
            last = now;
        }
        assert!(last > 37 + 40 && last <= 37 + CORRECTION_LIMIT / CORRECTION_GRAIN, "{last}");
        // Another pawn structure (and the other side to move) keeps its own.
        assert_eq!(t.corrected_eval(&other, 37), 37);
        // Worse findings pull it back down.
        for _ in 0..200 {
            let eval = t.corrected_eval(&pos, 37);
            t.update_correction(&pos, eval, -163, 12, 8);
        }
        assert!(t.corrected_eval(&pos, 37) < 37, "{}", t.corrected_eval(&pos, 37));
    }

    #[test]
    fn updates_reach_the_entries_that_are_read() {
        let pos = Position::startpos();
        let m = pos.parse_legal_move("h2e2").unwrap();
        let reply_pos = {
            let mut p = pos;
            p.make_move(m);
            p
        };
        let reply = reply_pos.parse_legal_move("h9g7").unwrap();
        let mut t = ThreadTables::default();
        let earlier = [Some(piece_to(&pos, m)), None];
        t.update_quiet(&reply_pos, reply, &earlier, 300);
        assert_eq!(t.main(&reply_pos, reply), 300);
        assert_eq!(t.continuation(piece_to(&pos, m), piece_to(&reply_pos, reply)), 300);
        // The other side's same from/to is another entry.
        assert_eq!(t.main(&pos, reply), 0);
        t.set_counter_move(earlier[0], reply);
        assert_eq!(t.counter_move(earlier[0]), Some(reply));
        t.update_capture(&pos, m, 500);
        t.update_correction(&pos, 0, 200, 12, 8);

        // Clearing gives back the tables as new.
        t.clear();
        assert!(t == ThreadTables::default());
    }
}
