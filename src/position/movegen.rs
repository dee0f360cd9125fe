//! Move generation: pseudo-legal targets per piece, a cheap legality filter
//! for the common case and a full king-safety test for the rest.
//!
//! Legality in Xiangqi has more ways to go wrong than in chess: a move can
//! uncover a rook, horse-leg or facing-kings attack, and it can also *create*
//! a cannon check by stepping between a cannon and the king (a new screen) or
//! by leaving a cannon line that had two screens. [`LegalityMasks`] marks the
//! from-squares and to-squares where that can happen; every other non-king
//! move of a side not in check is legal without further work.

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveList, PieceKind, Square};

/// Squares where moving needs the full king-safety test.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct LegalityMasks {
    /// Own pieces whose leaving may uncover an attack on the own king: the
    /// single piece between the king and an enemy rook or king, either of two
    /// pieces between the king and an enemy cannon, and a horse leg next to
    /// the king with an enemy horse behind it.
    pub blockers: Bitboard,
    /// Empty squares between the king and an enemy cannon with nothing in
    /// between: a piece arriving there becomes a screen.
    pub hurdles: Bitboard,
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    All,
    Captures,
    Quiets,
}

/// Receives generated moves: a list, or a counter for bulk-counted perft.
trait MoveSink {
    fn add(&mut self, from: Square, targets: Bitboard);
    fn add_one(&mut self, from: Square, to: Square);
}

impl MoveSink for MoveList {
    #[inline]
    fn add(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::between(from, to));
        }
    }
    #[inline]
    fn add_one(&mut self, from: Square, to: Square) {
        self.push(Move::between(from, to));
    }
}

struct Counter(u64);

impl MoveSink for Counter {
    #[inline]
    fn add(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn add_one(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }
}

const NON_KING_KINDS: [PieceKind; 6] =
    [PieceKind::Rook, PieceKind::Cannon, PieceKind::Horse, PieceKind::Pawn, PieceKind::Advisor, PieceKind::Elephant];

impl Position {
    /// The from- and to-squares that need the full test (see the module
    /// comment). Only meaningful when the side to move is not in check.
    pub fn legality_masks(&self) -> LegalityMasks {
        let us = self.side;
        let them = !us;
        let ksq = self.king_square(us);
        let occ = self.occupied();
        let ours = self.color_bb(us);
        let mut masks = LegalityMasks::default();

        let line = attacks::lines(ksq);
        let rook_like = (self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::King)) & line;
        for sniper in rook_like {
            let between = attacks::between(ksq, sniper) & occ;
            if between.exactly_one() {
                masks.blockers |= between & ours;
            }
        }
        for cannon in self.pieces(them, PieceKind::Cannon) & line {
            let span = attacks::between(ksq, cannon);
            let between = span & occ;
            if !between.any() {
                masks.hurdles |= span;
            } else if between.more_than_one() && !between.more_than_two() {
                // Two pieces between: the cannon's screen and one more.
                masks.blockers |= between & ours;
            }
        }
        let horses = self.pieces(them, PieceKind::Horse);
        for (leg, sources) in attacks::horse_leg_lines(ksq) {
            if (leg & ours).any() && (sources & horses).any() {
                masks.blockers |= leg;
            }
        }
        masks
    }

    /// In check, where a move other than the king's can help: the squares
    /// it must reach (a checker, to capture it; a square between the king
    /// and a checking rook or cannon, or a checking horse's leg, to block)
    /// and the own pieces any of whose moves might (a checking cannon's
    /// screen, stepping out of the line). Every legal evasion that does not
    /// move the king is among these; the full test still decides each.
    fn evasion_masks(&self, ksq: Square) -> (Bitboard, Bitboard) {
        let ours = self.color_bb(self.side);
        let mut reach = self.checkers;
        let mut helpers = Bitboard::EMPTY;
        for checker in self.checkers {
            match self.piece_on(checker).map(|p| p.kind()) {
                Some(PieceKind::Rook | PieceKind::King) => reach |= attacks::between(ksq, checker),
                Some(PieceKind::Cannon) => {
                    let span = attacks::between(ksq, checker);
                    reach |= span;
                    helpers |= span & ours;
                }
                Some(PieceKind::Horse) => {
                    for (leg, sources) in attacks::horse_leg_lines(ksq) {
                        if sources.has(checker) {
                            reach |= leg;
                        }
                    }
                }
                _ => {}
            }
        }
        (reach, helpers)
    }

    /// Squares the piece of `kind` and colour `us` on `from` may move to,
    /// restricted to captures of `capture` squares and quiet moves to
    /// `quiet` squares.
    #[inline]
    fn targets(&self, kind: PieceKind, us: Color, from: Square, capture: Bitboard, quiet: Bitboard) -> Bitboard {
        let occ = self.occ;
        let both = capture | quiet;
        match kind {
            PieceKind::Rook => attacks::rook_attacks(from, occ) & both,
            PieceKind::Cannon => {
                (attacks::rook_attacks(from, occ) & quiet) | (attacks::cannon_attacks(from, occ) & capture)
            }
            PieceKind::Horse => attacks::horse_attacks(from, occ.board) & both,
            PieceKind::Pawn => attacks::pawn_steps(us, from) & both,
            PieceKind::Advisor => attacks::advisor_steps(from) & both,
            PieceKind::Elephant => attacks::elephant_attacks(from, occ.board) & both,
            PieceKind::King => attacks::king_steps(from) & both,
        }
    }

    fn gen_masks(&self, gen_type: GenType) -> (Bitboard, Bitboard) {
        let them = self.color_bb(!self.side);
        let empty = !self.occupied();
        match gen_type {
            GenType::All => (them, empty),
            GenType::Captures => (them, Bitboard::EMPTY),
            GenType::Quiets => (Bitboard::EMPTY, empty),
        }
    }

    /// Whether our king is safe after the pseudo-legal move `from`-`to`.
    #[inline]
    fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let king = self.king_square(us);
        let ksq = if from == king { to } else { king };
        let occ = self.occ.after_move(from, to);
        !self.king_attacked(ksq, !us, occ, Bitboard::from_square(to))
    }

    /// The full legality test of a pseudo-legal move.
    #[inline]
    pub fn is_legal_full(&self, m: Move) -> bool {
        self.king_safe_after(m.from(), m.to())
    }

    /// Legality of a pseudo-legal move, using masks from
    /// [`Position::legality_masks`] of this position.
    #[inline]
    pub fn is_legal(&self, m: Move, masks: &LegalityMasks) -> bool {
        let (from, to) = (m.from(), m.to());
        if self.in_check() || from == self.king_square(self.side) || masks.blockers.has(from) || masks.hurdles.has(to) {
            self.king_safe_after(from, to)
        } else {
            true
        }
    }

    /// Generic legal generation into a sink.
    #[inline]
    fn legal_into<S: MoveSink>(&self, gen_type: GenType, sink: &mut S) {
        let us = self.side;
        let (capture, quiet) = self.gen_masks(gen_type);
        let ksq = self.king_square(us);

        // The king: every target needs the full test.
        for to in self.targets(PieceKind::King, us, ksq, capture, quiet) {
            if self.king_safe_after(ksq, to) {
                sink.add_one(ksq, to);
            }
        }

        if self.in_check() {
            let (reach, helpers) = self.evasion_masks(ksq);
            for kind in NON_KING_KINDS {
                for from in self.pieces(us, kind) {
                    let mut targets = self.targets(kind, us, from, capture, quiet);
                    if !helpers.has(from) {
                        targets &= reach;
                    }
                    for to in targets {
                        if self.king_safe_after(from, to) {
                            sink.add_one(from, to);
                        }
                    }
                }
            }
            return;
        }

        let masks = self.legality_masks();
        for kind in NON_KING_KINDS {
            for from in self.pieces(us, kind) {
                let targets = self.targets(kind, us, from, capture, quiet);
                if masks.blockers.has(from) {
                    for to in targets {
                        if self.king_safe_after(from, to) {
                            sink.add_one(from, to);
                        }
                    }
                } else {
                    sink.add(from, targets & !masks.hurdles);
                    for to in targets & masks.hurdles {
                        if self.king_safe_after(from, to) {
                            sink.add_one(from, to);
                        }
                    }
                }
            }
        }
    }

    /// All legal moves (check evasions when in check).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_into(GenType::All, &mut list);
        list
    }

    /// Legal moves of one type into `list` (emptied first): a caller that
    /// keeps a list saves copying a new one into it.
    pub fn legal_moves_into(&self, gen_type: GenType, list: &mut MoveList) {
        list.clear();
        self.legal_into(gen_type, list);
    }

    /// Legal moves of one type.
    pub fn legal_moves_of(&self, gen_type: GenType) -> MoveList {
        let mut list = MoveList::new();
        self.legal_into(gen_type, &mut list);
        list
    }

    /// Legal moves when in check (the same as `legal_moves` there; kept as a
    /// name for callers that know they are in check).
    pub fn evasions(&self) -> MoveList {
        debug_assert!(self.in_check());
        self.legal_moves()
    }

    /// Number of legal moves, without building a list (perft's last ply).
    pub fn count_legal(&self) -> u64 {
        let mut counter = Counter(0);
        self.legal_into(GenType::All, &mut counter);
        counter.0
    }

    /// Whether the side to move has any legal move (none = it has lost).
    pub fn has_legal_move(&self) -> bool {
        // Cheap in practice: most positions have a legal king or quiet move.
        self.count_legal() > 0
    }

    /// Pseudo-legal moves (own king safety not checked), of one type.
    pub fn pseudo_moves(&self, gen_type: GenType, list: &mut MoveList) {
        let us = self.side;
        let (capture, quiet) = self.gen_masks(gen_type);
        // One loop per kind, in `PieceKind::ALL` order (the order the search
        // sees), each with its kind fixed so that `targets`' match is
        // resolved when compiled: a loop over the kinds made it an indirect
        // jump per piece, mispredicted most times.
        let mut add_kind = |kind| {
            for from in self.pieces(us, kind) {
                list.add(from, self.targets(kind, us, from, capture, quiet));
            }
        };
        add_kind(PieceKind::King);
        add_kind(PieceKind::Advisor);
        add_kind(PieceKind::Elephant);
        add_kind(PieceKind::Horse);
        add_kind(PieceKind::Rook);
        add_kind(PieceKind::Cannon);
        add_kind(PieceKind::Pawn);
    }

    /// Whether `m` moves a piece of the side to move the way its kind moves,
    /// onto an empty square or an enemy piece (own king safety not checked).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let Some(piece) = self.piece_on(m.from()) else { return false };
        let us = self.side;
        if piece.color() != us {
            return false;
        }
        let (capture, quiet) = self.gen_masks(GenType::All);
        self.targets(piece.kind(), us, m.from(), capture, quiet).has(m.to())
    }
}
