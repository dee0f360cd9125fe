//! Which root moves may be played: one rule for the moves the search
//! searches, the book move and the move played when the search cannot
//! answer, so that none of them plays a move the GUI refused.
//!
//! A move is allowed when it is legal, in `searchmoves` (if the list names
//! any) and not in `banmoves`. A move chosen without searching (the book's,
//! the fallback) must also not complete a repetition the rules forbid: the
//! search scores such a move as lost and so avoids it by itself, a book
//! lookup would not.

use super::{GameHistory, Limits};
use crate::position::Position;
use crate::rules;
use crate::types::Move;

/// The root-move rule of one `go`.
#[derive(Clone, Copy, Debug)]
pub struct RootFilter<'a> {
    /// Only these (UCI `searchmoves`); empty: every move.
    searchmoves: &'a [Move],
    /// Never these (UCCI `banmoves`).
    banmoves: &'a [Move],
}

impl<'a> RootFilter<'a> {
    /// The rule of `limits` (its `searchmoves` and `banmoves`).
    pub fn new(limits: &'a Limits) -> RootFilter<'a> {
        RootFilter { searchmoves: &limits.searchmoves, banmoves: &limits.banmoves }
    }

    /// Whether the limits allow the legal move `m`.
    pub fn allows(&self, m: Move) -> bool {
        (self.searchmoves.is_empty() || self.searchmoves.contains(&m)) && !self.banmoves.contains(&m)
    }

    /// The legal moves of `pos` the limits allow, in generation order: the
    /// moves the search searches.
    pub fn root_moves(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves().into_iter().filter(|&m| self.allows(m)).collect()
    }

    /// The allowed moves at the end of `game` that do not complete a
    /// repetition the rules forbid: what may be played without a search.
    pub fn unsearched_moves(&self, game: &GameHistory) -> Vec<Move> {
        let (allowed, forbidden) = self.allowed_and_forbidden(game);
        allowed.into_iter().filter(|m| !forbidden.contains(m)).collect()
    }

    /// The move to play when the search could not answer: the first
    /// allowed move the repetition rules do not forbid, else (every allowed
    /// move repeats a forbidden cycle, and some move must be played) the
    /// first allowed move; `None` only when nothing is allowed.
    pub fn fallback(&self, game: &GameHistory) -> Option<Move> {
        let (allowed, forbidden) = self.allowed_and_forbidden(game);
        allowed.iter().find(|m| !forbidden.contains(m)).or(allowed.first()).copied()
    }

    /// The allowed moves at the end of `game`, and the legal moves there
    /// that complete a forbidden repetition (not looked for when nothing is
    /// allowed).
    fn allowed_and_forbidden(&self, game: &GameHistory) -> (Vec<Move>, Vec<Move>) {
        let (_, pos) = game.replay();
        let allowed = self.root_moves(&pos);
        let forbidden = if allowed.is_empty() { Vec::new() } else { rules::forbidden_moves(&game.base, &game.moves) };
        (allowed, forbidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap()
    }

    #[test]
    fn searchmoves_and_banmoves_both_apply() {
        let pos = Position::startpos();
        let all = pos.legal_moves().len();
        let none = Limits::default();
        assert_eq!(RootFilter::new(&none).root_moves(&pos).len(), all);
        let banned = Limits { banmoves: vec![mv("h2e2"), mv("b2e2")], ..Limits::default() };
        let moves = RootFilter::new(&banned).root_moves(&pos);
        assert_eq!(moves.len(), all - 2);
        assert!(!moves.contains(&mv("h2e2")) && !moves.contains(&mv("b2e2")));
        let only =
            Limits { searchmoves: vec![mv("h2e2"), mv("c3c4")], banmoves: vec![mv("h2e2")], ..Limits::default() };
        assert_eq!(RootFilter::new(&only).root_moves(&pos), vec![mv("c3c4")]);
        let nothing = Limits { searchmoves: vec![mv("h2e2")], banmoves: vec![mv("h2e2")], ..Limits::default() };
        assert!(RootFilter::new(&nothing).root_moves(&pos).is_empty());
        assert_eq!(RootFilter::new(&nothing).fallback(&GameHistory::new(pos)), None);
    }

    #[test]
    fn unsearched_moves_skip_a_forbidden_repetition_unless_nothing_else_is_allowed() {
        // Black's rook checks on ranks 0 and 1 by turns; after these moves
        // a1a0 repeats the perpetual check and is forbidden.
        let base = Position::from_fen("3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1").unwrap();
        let mut game = GameHistory::new(base);
        let mut pos = base;
        for m in ["a1a0", "e0e1", "a0a1", "e1e0"] {
            game.record(&pos, mv(m));
            pos.make_move(mv(m));
        }
        let any = Limits::default();
        let filter = RootFilter::new(&any);
        let legal = filter.root_moves(&pos);
        assert!(legal.contains(&mv("a1a0")));
        assert!(!filter.unsearched_moves(&game).contains(&mv("a1a0")));
        assert_eq!(filter.unsearched_moves(&game).len(), legal.len() - 1);
        // The forbidden move is generated before the rook's others: the
        // fallback passes over it.
        let at = |m: &str| legal.iter().position(|&l| l == mv(m)).unwrap();
        assert!(at("d9d8") < at("a1a0") && at("a1a0") < at("a1b1"));
        assert_eq!(filter.fallback(&game), Some(mv("d9d8")));
        let king_banned = Limits { banmoves: vec![mv("d9d8")], ..Limits::default() };
        assert_eq!(RootFilter::new(&king_banned).fallback(&game), Some(mv("a1b1")));
        // Only the forbidden move allowed: it is what must be played.
        let only = Limits { searchmoves: vec![mv("a1a0")], ..Limits::default() };
        assert!(RootFilter::new(&only).unsearched_moves(&game).is_empty());
        assert_eq!(RootFilter::new(&only).fallback(&game), Some(mv("a1a0")));
    }
}
