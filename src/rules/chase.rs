//! Which enemy pieces a side threatens to win next move: the raw material of
//! the chase (捉) judgement [棋例 4(3)].
//!
//! [`threats`] looks at one position and one attacking side, whichever side
//! is to move. A target counts when some attacker could take it and come out
//! ahead by the values of [棋例 1(5)]:
//!
//! - the target is *material* [1(4)]: rook, horse, cannon, advisor, elephant
//!   or a pawn that has crossed the river (never the king, never a pawn on its
//!   own half);
//! - the attacker is not the king: the king's own attacks are idle [3(1)];
//! - the capture is legal: a pinned attacker, or one whose capture would let
//!   the kings face, threatens nothing;
//! - the target is unprotected, or worth more than the attacker (a horse or
//!   cannon on a rook, an advisor or elephant on a rook, horse or cannon). A
//!   protector only counts if its recapture is legal, so a pinned protector
//!   (a "fake root") or one that the attacker's king keeps off the file
//!   (借帅之力, [3(2), 4(9)]) does not protect;
//! - or the attacker's king takes part [3(2), 4(9)]: it stands next to the
//!   target, and whatever takes the attacker back, the king can legally take
//!   that piece in turn and the exchange gains (a rook on a horse protected
//!   by a rook, a horse on a protected horse). The king's own attacks stay
//!   idle [3(1)]: it never counts as the first taker;
//! - the target cannot take the attacker at equal value while the attacker
//!   is unprotected: that is an offered exchange (兑), an idle move [1(3)].
//!   A protected attacker facing an unprotected target of equal value (a
//!   rooted rook on a rootless rook) wins it unless the other side trades:
//!   a chase that also offers an exchange is a chase [4(5)];
//! - taking does not get the taker mated at once [4(7)].
//!
//! A pawn's own attacks are idle unless both sides attack perpetually
//! [3(3), 4(11)], so targets that only pawns threaten are reported apart.
//!
//! Everything is computed from the occupancy and piece sets of the position
//! with [`Position::king_attackers`] for legality, without making moves;
//! only the mate test of [4(7)] plays moves, and only for targets that pass
//! every other test (rare).

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// What a side threatens to win: by pieces other than pawns, and by pawns
/// only (each target appears in at most one of the two sets).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Threats {
    pub by_pieces: Bitboard,
    pub by_pawns: Bitboard,
}

impl Threats {
    pub fn all(self) -> Bitboard {
        self.by_pieces | self.by_pawns
    }
}

/// Material value in the units of [棋例 1(5)]: rook = 2 horses = 2 cannons,
/// advisor = elephant. A crossed pawn's value floats; as an attacker it is
/// treated as the smallest piece, as a target see [`wins_protected`].
fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Rook => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 1,
        PieceKind::King => 0,
    }
}

/// Whether taking a *protected* target still wins material: the target is
/// worth more than the attacker. A pawn target never qualifies: giving a
/// piece for a pawn does not count as winning material [棋例 1(5)].
fn wins_protected(attacker: PieceKind, target: PieceKind) -> bool {
    target != PieceKind::Pawn && value(target) > value(attacker)
}

/// The pieces of `victim` that count as material [棋例 1(4)].
pub fn material(pos: &Position, victim: Color) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for kind in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Advisor, PieceKind::Elephant] {
        bb |= pos.pieces(victim, kind);
    }
    for sq in pos.pieces(victim, PieceKind::Pawn) {
        if !victim.own_half(sq.rank()) {
            bb = bb.with(sq);
        }
    }
    bb
}

/// Whether `by`'s piece on `from` may legally capture on `to`: its king is
/// not attacked afterwards (the captured piece is gone, the kings may not
/// face). Attacks by the enemy pieces in `ignored` do not count.
pub fn capture_is_legal(pos: &Position, by: Color, from: Square, to: Square, ignored: Bitboard) -> bool {
    let occ = pos.occupancy().after_move(from, to);
    let king = pos.king_square(by);
    let ksq = if from == king { to } else { king };
    (pos.king_attackers(ksq, !by, occ, Bitboard::from_square(to)) & !ignored).is_empty()
}

/// Whether, after `by` takes on `to` with the piece from `from`, the other
/// side can legally take back on `to`.
pub fn recapture_possible(pos: &Position, by: Color, from: Square, to: Square) -> bool {
    let them = !by;
    let occ = pos.occupancy().after_move(from, to);
    let their_king = pos.king_square(them);
    // The taker is gone from `from` and will be gone from `to`.
    let removed = Bitboard::from_square(from).with(to);
    pos.attackers_to(to, them, occ).iter().any(|d| {
        let ksq = if d == their_king { to } else { their_king };
        pos.king_attackers(ksq, by, occ.after_move(d, to), removed).is_empty()
    })
}

/// Whether the side to move in `pos` has a move that mates.
pub fn has_mate_in_one(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|&m| {
        pos.gives_check(m) && {
            let mut after = *pos;
            after.make_move(m);
            !after.has_legal_move()
        }
    })
}

/// Whether `by` taking on `to` from `from` lets the other side mate at once
/// [棋例 4(7)]. Needs `by` to move, or the other side to move and not in
/// check (then `by`'s turn is simulated with a null move); otherwise it
/// answers false (the taking is not excluded).
fn capture_gets_mated(pos: &Position, by: Color, from: Square, to: Square) -> bool {
    let mut p = *pos;
    if p.side_to_move() != by {
        if p.in_check() {
            return false;
        }
        p.make_null_move();
    }
    let Some(m) = Move::new(from, to) else { return false };
    if p.check_move(m).is_err() {
        return false;
    }
    p.make_move(m);
    has_mate_in_one(&p)
}

/// Whether `by` taking on `to` from `from` wins material because `by`'s
/// king takes back last [棋例 3(2), 4(9)]: the king stands next to `to`,
/// and whichever piece takes the taker back, the king can then legally take
/// it and the exchange (target, minus the taker, plus the piece taken back)
/// gains. The other side may also leave the taker alone, which gains the
/// target outright. Only called for a protected target (some recapture is
/// legal).
fn king_takes_back_last(pos: &Position, by: Color, from: Square, to: Square, gain_first: i32) -> bool {
    let king = pos.king_square(by);
    if !attacks::king_steps(to).has(king) {
        return false;
    }
    let them = !by;
    let occ = pos.occupancy().after_move(from, to);
    let their_king = pos.king_square(them);
    let taker_gone = Bitboard::from_square(from).with(to);
    pos.attackers_to(to, them, occ).iter().all(|d| {
        let ksq = if d == their_king { to } else { their_king };
        let after_recapture = occ.after_move(d, to);
        if pos.king_attackers(ksq, by, after_recapture, taker_gone).any() {
            // This recapture is illegal: the defender does not count.
            return true;
        }
        let Some(defender) = pos.piece_on(d) else { return true };
        // The target and the defender are both gone once the king stands
        // on `to`; the king may not step into an attack (nor face the
        // other king).
        let after_king = after_recapture.after_move(king, to);
        gain_first + value(defender.kind()) > 0
            && pos.king_attackers(to, them, after_king, Bitboard::from_square(to).with(d)).is_empty()
    })
}

/// Whether the attacker on `a` really threatens to win the target on `t`
/// (see the module documentation). `a` holds a piece of `by` that attacks
/// `t`, which holds enemy material.
fn real_threat(pos: &Position, by: Color, a: Square, t: Square, ignored: Bitboard) -> bool {
    let (Some(attacker), Some(target)) = (pos.piece_on(a), pos.piece_on(t)) else { return false };
    if !capture_is_legal(pos, by, a, t, ignored) {
        return false;
    }
    let (va, vt) = (value(attacker.kind()), value(target.kind()));
    if !wins_protected(attacker.kind(), target.kind())
        && recapture_possible(pos, by, a, t)
        && !king_takes_back_last(pos, by, a, t, vt - va)
    {
        return false;
    }
    // An offered exchange (兑): the target can take the attacker first, at
    // equal value, and the attacker is unprotected, so neither side wins
    // anything by the offer. A protected attacker still wins the target if
    // it is not exchanged: a chase that also offers an exchange is a chase
    // [棋例 4(5)], as is one that offers a sacrifice (a target that can take
    // a cheaper attacker).
    let them = !by;
    let target_hits_attacker = pos.attackers_to(a, them, pos.occupancy()).has(t);
    if target_hits_attacker
        && vt == va
        && capture_is_legal(pos, them, t, a, Bitboard::EMPTY)
        && !recapture_possible(pos, them, t, a)
    {
        return false;
    }
    !capture_gets_mated(pos, by, a, t)
}

/// The enemy pieces `by` threatens to win (see the module documentation).
pub fn threats(pos: &Position, by: Color) -> Threats {
    threats_ignoring(pos, by, Bitboard::EMPTY)
}

/// [`threats`] where attacks on `by`'s king by the enemy pieces in
/// `ignored` do not make a capture illegal. With the current checkers
/// ignored this is the attack relation that a check only suspends: a side
/// that evades a check has not created the attacks it had before.
pub fn threats_ignoring(pos: &Position, by: Color, ignored: Bitboard) -> Threats {
    let occ = pos.occupancy();
    let pawns = pos.pieces(by, PieceKind::Pawn);
    let not_king = !pos.pieces(by, PieceKind::King);
    let mut out = Threats::default();
    for t in material(pos, !by) {
        let attackers = pos.attackers_to(t, by, occ) & not_king;
        if attackers.is_empty() {
            continue;
        }
        if (attackers & !pawns).iter().any(|a| real_threat(pos, by, a, t, ignored)) {
            out.by_pieces = out.by_pieces.with(t);
        } else if (attackers & pawns).iter().any(|a| real_threat(pos, by, a, t, ignored)) {
            out.by_pawns = out.by_pawns.with(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn threats_of(fen: &str, by: Color) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let t = threats(&pos, by);
        let mut v: Vec<String> = t.by_pieces.iter().map(|s| s.to_string()).collect();
        v.extend(t.by_pawns.iter().map(|s| format!("{s}(pawn)")));
        v
    }

    #[test]
    fn unprotected_and_protected_targets() {
        // Red rook a4 attacks the black horse on a7 (unprotected): threat.
        let fen = "3k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["a7"]);
        // The same horse protected by a rook on b7 (which the red rook does
        // not reach): no threat.
        let fen = "3k5/9/nr7/9/9/R8/9/9/9/4K4 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        // A red horse on c5 attacking a black rook on b7 protected by the
        // horse on a9: threat (higher value).
        let fen = "n2k5/9/1r7/9/2N6/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["b7"]);
    }

    #[test]
    fn uncrossed_pawn_and_king_attacks_are_not_threats() {
        // Rook attacks an uncrossed pawn: not material.
        let fen = "3k5/9/9/p8/9/9/9/9/9/R3K4 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        // A crossed black pawn on a4 attacked by the rook: threat.
        let fen = "3k5/9/9/9/9/p8/9/9/9/R3K4 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["a4"]);
        // The red king on e1 attacks the unprotected crossed pawn on d1
        // (which checks it): the king's own attack is idle.
        let fen = "3k5/9/9/9/9/9/9/9/3pK4/9 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
    }

    #[test]
    fn exchange_offer_is_not_a_threat() {
        // Rook against rook on an open file, both unprotected: an exchange.
        let fen = "3k5/9/9/r8/9/9/9/R8/9/4K4 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        assert!(threats_of(fen, Color::Black).is_empty());
    }

    #[test]
    fn exchange_offer_by_a_protected_piece_is_a_threat() {
        // The red rook on a2, protected by the rook on i2, attacks the
        // unprotected black rook on a7, which could take it: if Black does
        // not trade, Red wins the rook [棋例 4(5)].
        let fen = "4k4/9/r8/9/9/9/9/R7R/9/3K5 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["a7"]);
        assert!(threats_of(fen, Color::Black).is_empty(), "a protected rook of equal value");
    }

    #[test]
    fn king_takes_back_last() {
        // Ra1 takes the horse on d1, the rook on d5 takes back, the red
        // king on e1 takes the rook: a horse and a rook for a rook.
        let fen = "5k3/9/5a3/9/3r5/9/9/9/R2nK4/9 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["d1"]);
        // Without the advisor on f7 the red king could not go to f1 (the
        // kings would face): after Rxd1, Re5 mates, so taking is idle
        // [棋例 4(7)].
        let fen = "5k3/9/9/9/3r5/9/9/9/R2nK4/9 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        // A second defender (the horse on c3) covers d1: the king may not
        // take back.
        let fen = "5k3/9/5a3/9/3r5/9/2n6/9/R2nK4/9 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        // The king is not next to d1: a rook for a protected horse.
        let fen = "5k3/9/5a3/9/3r5/9/9/9/R2n5/4K4 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
        // Protected by a pawn: a rook for a horse and a pawn loses.
        let fen = "5k3/9/5a3/9/9/9/9/3p5/R2nK4/9 w - - 0 1";
        assert!(threats_of(fen, Color::Red).is_empty());
    }

    #[test]
    fn pinned_attacker_and_pinned_protector() {
        // The red rook on e3 is pinned by the black rook on e7 against the
        // red king on e0; it attacks the black horse on a3 along the rank
        // but cannot take it.
        let fen = "3k5/9/4r4/9/9/9/n3R4/9/9/4K4 w - - 0 1";
        assert!(!threats_of(fen, Color::Red).contains(&"a3".to_string()));
        let pos = Position::from_fen(fen).unwrap();
        assert!(!capture_is_legal(&pos, Color::Red, sq("e3"), sq("a3"), Bitboard::EMPTY));
        // Ignoring the pinner, the capture would be legal.
        assert!(capture_is_legal(&pos, Color::Red, sq("e3"), sq("a3"), Bitboard::from_square(sq("e7"))));
    }

    #[test]
    fn pawn_threats_are_apart() {
        // A crossed red pawn on c6 attacks the unprotected black horse on c7.
        let fen = "3k5/9/2n6/2P6/9/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(threats_of(fen, Color::Red), ["c7(pawn)"]);
    }
}
