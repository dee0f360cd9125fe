//! Static exchange evaluation: the material outcome of the capture sequence
//! on one square, each side capturing with its least valuable piece. Every
//! step recomputes the attackers from the current occupancy, because in
//! Xiangqi a capture can open a rook line, unblock a horse leg, or make and
//! unmake cannon screens.

use super::Position;
use crate::attacks::{self, Occupancy};
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// Exchange values (a king can take part but is never captured).
pub const SEE_VALUE: [i32; 7] = [5000, 200, 200, 450, 1000, 450, 100];

impl Position {
    /// The pieces of `color` and `kind` that attack `sq` under `occ`.
    #[inline(always)]
    fn kind_attackers(&self, kind: PieceKind, sq: Square, color: Color, occ: Occupancy) -> Bitboard {
        let reach = match kind {
            PieceKind::Pawn => attacks::pawn_attackers(color, sq),
            PieceKind::Advisor => attacks::advisor_steps(sq),
            PieceKind::Elephant => attacks::elephant_attacks(sq, occ.board),
            PieceKind::Horse => attacks::horse_attackers(sq, occ.board),
            PieceKind::Cannon => attacks::cannon_attacks(sq, occ),
            PieceKind::Rook => attacks::rook_attacks(sq, occ),
            PieceKind::King => attacks::king_steps(sq),
        };
        reach & self.pieces(color, kind) & occ.board
    }

    /// Every piece of `color` that attacks `sq` under `occ` (a capture there
    /// would be pseudo-legal; own king safety is not considered).
    pub fn attackers_to(&self, sq: Square, color: Color, occ: Occupancy) -> Bitboard {
        PieceKind::ALL.iter().fold(Bitboard::EMPTY, |all, &kind| all | self.kind_attackers(kind, sq, color, occ))
    }

    /// The least valuable piece of `color` that attacks `sq` under `occ`
    /// (the lowest square among equals): the first kind in capture order
    /// that has one, so the dearer kinds' attacks are seldom computed.
    pub fn least_valuable_attacker(&self, sq: Square, color: Color, occ: Occupancy) -> Option<(Square, PieceKind)> {
        CAPTURE_ORDER
            .iter()
            .find_map(|&kind| self.kind_attackers(kind, sq, color, occ).first().map(|from| (from, kind)))
    }

    /// Whether the exchange started by `m` wins at least `threshold`
    /// (Stockfish's swap algorithm, with attackers recomputed every step).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_on(from) else { return false };
        let mut swap = self.piece_on(to).map_or(0, |p| SEE_VALUE[p.kind().index()]) - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUE[mover.kind().index()] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupancy();
        occ.toggle(from);
        let mut stm = mover.color();
        let mut res = 1;
        loop {
            stm = !stm;
            let Some((sq, kind)) = self.least_valuable_attacker(to, stm, occ) else {
                break;
            };
            res ^= 1;
            if kind == PieceKind::King {
                // The king may take only if nothing recaptures, and not onto
                // the open file of the other king (flying general).
                let after = occ.after_move(sq, to);
                let facing = (attacks::rook_attacks(to, after) & self.pieces(!stm, PieceKind::King)).any();
                let defended = facing || self.attackers_to(to, !stm, after).any();
                return if defended { res ^ 1 == 1 } else { res == 1 };
            }
            swap = SEE_VALUE[kind.index()] - swap;
            if swap < res {
                break;
            }
            occ.toggle(sq);
        }
        res == 1
    }
}

/// Cheapest first: the order in which the exchange captures.
const CAPTURE_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::types::Move;

    fn see(fen: &str, m: &str, threshold: i32) -> bool {
        Position::from_fen(fen).unwrap().see_ge(Move::parse(m).unwrap(), threshold)
    }

    #[test]
    fn the_least_valuable_attacker_is_the_cheapest_of_all_attackers() {
        use super::CAPTURE_ORDER;
        use crate::types::{Color, Square};
        let fens = [
            "3akab2/9/4b4/4N4/2R6/9/4c4/4B4/4A4/2BAK4 w - - 0 1",
            "2bak4/4a4/4b4/p3c3p/2N6/6R2/P7P/4C4/4A4/2BAK1B2 b - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3k1P3/2Pa5/1b2a1b2/p8/3p5/P5P2/1B7/3A2B2/2p1K4/P1N1p2R1 w - - 0 1",
        ];
        let mut found = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for sq in Square::all() {
                for color in [Color::Red, Color::Black] {
                    // Also with each square emptied, as the exchange does.
                    for removed in Square::all() {
                        let mut occ = pos.occupancy();
                        if occ.has(removed) {
                            occ.toggle(removed);
                        }
                        let all = pos.attackers_to(sq, color, occ);
                        let cheapest =
                            CAPTURE_ORDER.iter().find_map(|&k| (all & pos.pieces(color, k)).first().map(|s| (s, k)));
                        assert_eq!(pos.least_valuable_attacker(sq, color, occ), cheapest, "{fen} {sq}");
                        found += cheapest.is_some() as usize;
                    }
                }
            }
        }
        assert!(found > 1000);
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended horse: +450.
        let fen = "3k5/9/9/9/4n4/9/9/9/9/4RK3 w - - 0 1";
        assert!(see(fen, "e0e5", 450));
        assert!(!see(fen, "e0e5", 451));
        // Rook takes a pawn defended by a horse: 100 - 1000 < 0.
        let fen = "3k5/9/9/3n5/9/4p4/9/9/9/4RK3 w - - 0 1";
        assert!(!see(fen, "e0e4", 0));
        assert!(see(fen, "e0e4", -900));
        // A cannon takes a rook; nothing can recapture (no screen for e6).
        let fen = "3k5/9/9/4c4/9/4r4/9/9/4A4/4CK3 w - - 0 1";
        assert!(see(fen, "e0e4", 1000));
        assert!(!see(fen, "e0e4", 1001));
        // The same with a black pawn on e6: the black cannon on e7 jumps it.
        let fen = "3k5/9/4c4/4p4/9/4r4/9/9/4A4/4CK3 w - - 0 1";
        assert!(see(fen, "e0e4", 550));
        assert!(!see(fen, "e0e4", 551));
        // The black king cannot take back on f9: it would face the red king
        // on the open f-file.
        let fen = "3akab2/4n4/9/5R3/9/9/9/9/9/5K3 w - - 0 1";
        assert!(see(fen, "f6f9", 200));
    }
}
