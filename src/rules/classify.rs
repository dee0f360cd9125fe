//! Classifying the moves of a repetition cycle and judging it [棋例 1-4].
//!
//! Each move gets its most severe effect [3(5), 4(12)]: check (将), else
//! mate threat (杀), else chase (捉), else idle (闲).
//!
//! - Check: the move leaves the opponent in check.
//! - Mate threat: if the mover could move again at once, it would mate, and
//!   it could not mate before the move (a standing threat that the mover
//!   declines to carry out is not renewed by shuffling, as with 4(6)).
//! - Chase: the move creates a *new* threat to win material (see
//!   [`super::chase`]): a target threatened after the move that was not
//!   threatened before it. Going from no chase to chase is a chase [4(2)];
//!   a piece that keeps chasing what it already chased is idle [4(6)].
//!
//! A side's moves in the cycle are forbidden when *every* one of them
//! attacks (check, mate threat or chase): perpetual check, perpetual chase,
//! perpetual mate threat, and their mixes such as one check one chase
//! [1(2)]. A single idle move among them ("several checks then an idle
//! move") makes the whole sequence allowed [1(3)].
//!
//! Pawn chases count only in a mutual perpetual attack [3(3), 4(11)]: a side
//! whose moves all attack once its pawn chases are counted is forbidden if
//! the other side's moves, counted the same way, all attack too.

use super::CycleVerdict;
use super::chase::{has_mate_in_one, threats, threats_ignoring};
use crate::position::Position;
use crate::types::{Bitboard, Color, Move};

/// What one move of a cycle did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveClass {
    pub mover: Color,
    pub mv: Move,
    /// The move gives check.
    pub check: bool,
    /// The mover threatens mate in one. `None` when not computed: the move
    /// already counts as an attack and only the verdict was asked for.
    pub mate_threat: Option<bool>,
    /// Enemy pieces newly chased by pieces other than pawns.
    pub chased: Bitboard,
    /// Enemy pieces newly chased by pawns only.
    pub pawn_chased: Bitboard,
}

/// The most severe effect of a move, pawn chases counted or not.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    Check,
    MateThreat,
    Chase,
    Idle,
}

impl MoveClass {
    pub fn effect(&self, count_pawns: bool) -> Effect {
        if self.check {
            Effect::Check
        } else if self.mate_threat == Some(true) {
            Effect::MateThreat
        } else if self.chased.any() || (count_pawns && self.pawn_chased.any()) {
            Effect::Chase
        } else {
            Effect::Idle
        }
    }

    fn attacks(&self, count_pawns: bool) -> bool {
        self.effect(count_pawns) != Effect::Idle
    }
}

/// What a side's moves in a cycle amount to [棋例 1(2), 1(3)].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pattern {
    /// 长将: a check on every move.
    PerpetualCheck,
    /// 长捉: a chase on every move.
    PerpetualChase,
    /// 长杀: a mate threat on every move.
    PerpetualMateThreat,
    /// Every move attacks, with different kinds of attack (one check one
    /// chase, one check one mate threat, one mate threat one chase).
    MixedAttacks,
    /// At least one idle move: allowed.
    Allowed,
}

impl Pattern {
    pub fn forbidden(self) -> bool {
        self != Pattern::Allowed
    }

    fn of<'a>(moves: impl Iterator<Item = &'a MoveClass> + Clone, count_pawns: bool) -> Pattern {
        let effects = moves.map(|m| m.effect(count_pawns));
        if effects.clone().any(|e| e == Effect::Idle) {
            Pattern::Allowed
        } else if effects.clone().all(|e| e == Effect::Check) {
            Pattern::PerpetualCheck
        } else if effects.clone().all(|e| e == Effect::Chase) {
            Pattern::PerpetualChase
        } else if effects.clone().all(|e| e == Effect::MateThreat) {
            Pattern::PerpetualMateThreat
        } else {
            Pattern::MixedAttacks
        }
    }
}

/// How much to compute.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Detail {
    /// Only what the verdict needs (the search's fast path).
    Verdict,
    /// Every effect of every move (explanations, the pattern names).
    Full,
}

/// A judged cycle.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CycleAnalysis {
    /// The moves of the cycle, classified, in order. Shorter than the
    /// cycle when a move was illegal (then the verdict is a draw).
    pub moves: Vec<MoveClass>,
    /// The side that made the first move (and is to move at the end).
    pub first_mover: Color,
    /// Each side's pattern, indexed by `Color::index()`.
    pub patterns: [Pattern; 2],
    /// Whether pawn chases were counted (a mutual perpetual attack).
    pub pawn_chases_counted: bool,
    /// The verdict for the side to move at the end of the cycle.
    pub verdict: CycleVerdict,
}

impl CycleAnalysis {
    /// The side that loses by the cycle, if any.
    pub fn loser(&self) -> Option<Color> {
        match self.verdict {
            CycleVerdict::Draw => None,
            CycleVerdict::SideToMoveLoses => Some(self.first_mover),
            CycleVerdict::SideToMoveWins => Some(!self.first_mover),
        }
    }
}

/// Classifies one move `m`, legal in `before`; `after` is the position it
/// leads to.
fn classify(before: &Position, after: &Position, m: Move, detail: Detail) -> MoveClass {
    let mover = before.side_to_move();
    let mut class = MoveClass {
        mover,
        mv: m,
        check: after.in_check(),
        mate_threat: None,
        chased: Bitboard::EMPTY,
        pawn_chased: Bitboard::EMPTY,
    };
    if class.check {
        // The most severe effect; nothing else matters [3(5)].
        return class;
    }
    // Only new threats are chases [4(2), 4(6)]. The enemy pieces do not
    // move during our move and a cycle has no captures, so squares identify
    // the targets.
    // A side in check cannot take anything but the checker; the attacks
    // it had are only suspended, and evading does not create them anew.
    let old =
        if before.in_check() { threats_ignoring(before, mover, before.checkers()) } else { threats(before, mover) };
    let new = threats(after, mover);
    class.chased = new.by_pieces & !old.by_pieces;
    class.pawn_chased = (new.all() & !old.all()) & !class.chased;
    // A chase already makes the move an attack; the mate test (the costly
    // part) is then only needed to name the pattern.
    if detail == Detail::Full || class.chased.is_empty() {
        // A mate threat, like a chase, must be new: a side that could mate
        // already and shuffles instead is not attacking with this move.
        let mut threat = *after;
        threat.make_null_move();
        class.mate_threat = Some(has_mate_in_one(&threat) && !has_mate_in_one(before));
    }
    class
}

/// Judges the cycle of `moves` played from `start`; see
/// [`super::judge_cycle_full`].
pub fn analyze_cycle(start: &Position, moves: &[Move], detail: Detail) -> CycleAnalysis {
    let first_mover = start.side_to_move();
    let mut classes = Vec::with_capacity(moves.len());
    let mut pos = *start;
    let mut legal = true;
    // Fast path: once both sides have an idle move (pawn chases counted),
    // nothing later can change the verdict from a draw.
    let mut idle_seen = [false; 2];
    for &m in moves {
        if pos.check_move(m).is_err() {
            legal = false;
            break;
        }
        let mut after = pos;
        after.make_move(m);
        let class = classify(&pos, &after, m, detail);
        if !class.attacks(true) {
            idle_seen[class.mover.index()] = true;
        }
        classes.push(class);
        pos = after;
        if detail == Detail::Verdict && idle_seen[0] && idle_seen[1] {
            break;
        }
    }
    let side_moves = |c: Color| classes.iter().filter(move |m| m.mover == c);
    let strict = Color::BOTH.map(|c| Pattern::of(side_moves(c), false));
    let loose = Color::BOTH.map(|c| Pattern::of(side_moves(c), true));
    // Mutual perpetual attack: both sides attack on every move once pawn
    // chases count, so pawn chases count [3(3), 4(11)].
    let mutual = loose[0].forbidden() && loose[1].forbidden() && strict != loose;
    let mut patterns = if mutual { loose } else { strict };
    if !legal {
        patterns = [Pattern::Allowed; 2];
    }
    let us = first_mover.index();
    let them = (!first_mover).index();
    let verdict = verdict(patterns[us], patterns[them]);
    CycleAnalysis { moves: classes, first_mover, patterns, pawn_chases_counted: mutual, verdict }
}

/// The verdict for "us" given both patterns [棋例 2]: one-sided perpetual
/// check loses in every case; otherwise the forbidden side loses against an
/// allowed one, and it is a draw when both are allowed or both forbidden.
pub fn verdict(us: Pattern, them: Pattern) -> CycleVerdict {
    let (us_check, them_check) = (us == Pattern::PerpetualCheck, them == Pattern::PerpetualCheck);
    if us_check != them_check {
        return if us_check { CycleVerdict::SideToMoveLoses } else { CycleVerdict::SideToMoveWins };
    }
    match (us.forbidden(), them.forbidden()) {
        (true, false) => CycleVerdict::SideToMoveLoses,
        (false, true) => CycleVerdict::SideToMoveWins,
        _ => CycleVerdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify_text(fen: &str, m: &str) -> MoveClass {
        let before = Position::from_fen(fen).unwrap();
        let m = Move::parse(m).unwrap();
        assert!(before.check_move(m).is_ok());
        let mut after = before;
        after.make_move(m);
        classify(&before, &after, m, Detail::Full)
    }

    #[test]
    fn evading_a_check_creates_no_chase() {
        // The black rook on f6 attacks the unprotected horse on f2 all along;
        // the rook on a8 checks, so the rook may not take now. The king's
        // evasion only lifts that suspension: no new chase.
        let c = classify_text("9/R3k4/9/5r3/9/9/9/5N3/9/3K5 b - - 0 1", "e8e9");
        assert_eq!(c.effect(true), Effect::Idle, "{c:?}");
        // Without the check, the rook stepping onto the f-file is a chase.
        let c = classify_text("9/4k4/9/4r4/9/9/9/5N3/9/3K5 b - - 0 1", "e6f6");
        assert_eq!(c.effect(false), Effect::Chase, "{c:?}");
        assert_eq!(c.chased, Bitboard::from_square(crate::types::Square::parse("f2").unwrap()));
    }

    #[test]
    fn mate_threats_must_be_new() {
        // Ra4-g4 threatens Rg9 mate (the advisor on e8 may not move: the
        // kings would face).
        let c = classify_text("4k4/4a4/3a5/9/2r6/R8/9/9/9/4K4 w - - 0 1", "a4g4");
        assert_eq!((c.mate_threat, c.effect(false)), (Some(true), Effect::MateThreat));
        // Red can mate at once with Ra9 and shuffles the rook instead: the
        // threat stands but is not new.
        let c = classify_text("3k5/2P6/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1");
        assert_eq!((c.mate_threat, c.effect(false)), (Some(false), Effect::Idle));
    }

    #[test]
    fn verdict_table() {
        use CycleVerdict::*;
        use Pattern::*;
        assert_eq!(verdict(PerpetualCheck, Allowed), SideToMoveLoses);
        assert_eq!(verdict(PerpetualCheck, PerpetualChase), SideToMoveLoses, "one-sided perpetual check");
        assert_eq!(verdict(PerpetualChase, PerpetualCheck), SideToMoveWins);
        assert_eq!(verdict(PerpetualCheck, PerpetualCheck), Draw);
        assert_eq!(verdict(PerpetualChase, Allowed), SideToMoveLoses);
        assert_eq!(verdict(Allowed, MixedAttacks), SideToMoveWins);
        assert_eq!(verdict(PerpetualChase, PerpetualMateThreat), Draw);
        assert_eq!(verdict(Allowed, Allowed), Draw);
    }
}
