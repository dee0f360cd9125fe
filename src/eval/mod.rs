//! The hand-crafted evaluation: material tapered by phase, piece-square
//! shapes, mobility, pawn structure, king safety and the classic Xiangqi
//! patterns. All weights are in `params`.

pub mod params;

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};
use params::*;
use std::fmt::Write as _;
use std::ops::{Add, AddAssign, Sub};

/// A middlegame/endgame pair.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Pair(pub i32, pub i32);

impl Add for Pair {
    type Output = Pair;
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}
impl Sub for Pair {
    type Output = Pair;
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}
impl AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl From<(i32, i32)> for Pair {
    fn from(p: (i32, i32)) -> Pair {
        Pair(p.0, p.1)
    }
}
impl Pair {
    fn times(self, n: i32) -> Pair {
        Pair(self.0 * n, self.1 * n)
    }
}

/// The evaluation split into named terms, per colour.
#[derive(Clone, Default, Debug)]
pub struct Terms {
    pub material: [Pair; 2],
    pub placement: [Pair; 2],
    pub pawns: [Pair; 2],
    pub mobility: [Pair; 2],
    pub patterns: [Pair; 2],
    pub king_safety: [Pair; 2],
    /// 0 (bare endgame) ..= PHASE_MAX (all attacking pieces on the board).
    pub phase: i32,
}

impl Terms {
    fn rows(&self) -> [(&'static str, [Pair; 2]); 6] {
        [
            ("Material", self.material),
            ("Placement", self.placement),
            ("Pawns", self.pawns),
            ("Mobility", self.mobility),
            ("Patterns", self.patterns),
            ("King safety", self.king_safety),
        ]
    }

    fn taper(&self, p: Pair) -> i32 {
        let phase = self.phase.min(PHASE_MAX);
        (p.0 * phase + p.1 * (PHASE_MAX - phase)) / PHASE_MAX
    }

    /// Red minus Black, tapered.
    pub fn total_red(&self) -> i32 {
        self.rows().iter().map(|(_, t)| self.taper(t[0] - t[1])).sum()
    }
}

/// Rank counted from `color`'s own back rank (0..9).
#[inline]
fn rel_rank(color: Color, sq: Square) -> i32 {
    match color {
        Color::Red => sq.rank() as i32,
        Color::Black => 9 - sq.rank() as i32,
    }
}

#[inline]
fn centre_distance(sq: Square) -> usize {
    (sq.file() as i32 - 4).unsigned_abs() as usize
}

const PALACES: [Bitboard; 2] = [
    attacks::PALACE.and(Bitboard::from_bits((1u128 << 27) - 1)),
    attacks::PALACE.and(Bitboard::from_bits(!((1u128 << 63) - 1))),
];

#[inline]
fn palace_of(color: Color) -> Bitboard {
    PALACES[color.index()]
}

const FILE_MASKS: [Bitboard; 9] = {
    let mut t = [Bitboard::EMPTY; 9];
    let mut f = 0;
    while f < 9 {
        let mut bits = 0u128;
        let mut r = 0;
        while r < 10 {
            bits |= 1u128 << (r * 9 + f);
            r += 1;
        }
        t[f] = Bitboard::from_bits(bits);
        f += 1;
    }
    t
};

#[inline]
fn file_mask(file: u8) -> Bitboard {
    FILE_MASKS[file as usize]
}

/// All terms of the evaluation.
/// The evaluation terms with the engine's weights.
#[inline]
pub fn terms(pos: &Position) -> Terms {
    terms_with(pos, &WEIGHTS)
}

/// The evaluation terms with any weights (the tuner's entry point).
#[inline]
pub fn terms_with(pos: &Position, w: &Weights) -> Terms {
    let mut t = Terms::default();
    let occ = pos.occupancy();
    for kind in PieceKind::ALL {
        for c in Color::BOTH {
            t.phase += PHASE_WEIGHT[kind.index()] * pos.pieces(c, kind).count() as i32;
        }
    }
    let all_pawns = pos.pieces(Color::Red, PieceKind::Pawn) | pos.pieces(Color::Black, PieceKind::Pawn);

    for us in Color::BOTH {
        let i = us.index();
        let them = !us;
        let own = pos.color_bb(us);
        let enemy_king = pos.king_square(them);
        let enemy_palace = palace_of(them);
        let mut danger = 0;

        for kind in PieceKind::ALL {
            let n = pos.pieces(us, kind).count() as i32;
            t.material[i] += Pair(w.material_mg[kind.index()], w.material_eg[kind.index()]).times(n);
        }

        // Pawns.
        let pawns = pos.pieces(us, PieceKind::Pawn);
        for sq in pawns {
            let rr = rel_rank(us, sq);
            if rr >= 5 {
                let idx = (rr - 5) as usize;
                let central = w.pawn_crossed_central[centre_distance(sq)];
                t.pawns[i] += Pair(w.pawn_crossed_rank_mg[idx] + central, w.pawn_crossed_rank_eg[idx] + central);
                if let Some(right) = sq.offset(1, 0)
                    && pawns.has(right)
                {
                    t.pawns[i] += w.pawn_linked.into();
                }
                let pawn_hits = attacks::pawn_steps(us, sq) & enemy_palace;
                danger += w.king_attack_weight[PieceKind::Pawn.index()] * pawn_hits.count() as i32;
            } else if sq.file() == 4 && rr == 3 {
                t.pawns[i] += Pair(w.pawn_centre_home, 0);
            }
        }

        // Horses.
        let horses = pos.pieces(us, PieceKind::Horse);
        for sq in horses {
            let rr = rel_rank(us, sq) as usize;
            let central = w.horse_central[centre_distance(sq)];
            t.placement[i] += Pair(central + w.horse_advance_mg[rr], central / 2 + w.horse_advance_eg[rr]);
            let reach = attacks::horse_attacks(sq, occ.board);
            let moves = (reach & !own).count() as i32;
            t.mobility[i] += Pair::from(w.horse_mobility).times(moves);
            if moves == 0 {
                t.mobility[i] += w.horse_trapped.into();
            }
            if (reach & horses).any() {
                // Counted once per horse: two connected horses score twice half.
                t.patterns[i] += Pair(w.horses_connected.0 / 2, w.horses_connected.1 / 2);
            }
            danger += w.king_attack_weight[PieceKind::Horse.index()] * (reach & enemy_palace).count() as i32;
        }

        // Rooks.
        for sq in pos.pieces(us, PieceKind::Rook) {
            let rr = rel_rank(us, sq) as usize;
            t.placement[i] += Pair(w.rook_advance[rr], w.rook_advance[rr] / 2);
            let reach = attacks::rook_attacks(sq, occ);
            t.mobility[i] += Pair::from(w.rook_mobility).times((reach & !own).count() as i32);
            if (file_mask(sq.file()) & all_pawns).is_empty() {
                t.patterns[i] += w.rook_open_file.into();
            }
            danger += w.king_attack_weight[PieceKind::Rook.index()] * (reach & enemy_palace).count() as i32;
        }

        // Cannons.
        for sq in pos.pieces(us, PieceKind::Cannon) {
            let rr = rel_rank(us, sq);
            if sq.file() == 4 {
                t.placement[i] += w.cannon_centre_file.into();
            }
            if rr == 2 {
                t.placement[i] += w.cannon_home_rank.into();
            }
            let quiet = attacks::rook_attacks(sq, occ) & !occ.board;
            let hits = attacks::cannon_attacks(sq, occ) & occ.board;
            t.mobility[i] += Pair::from(w.cannon_mobility).times((quiet | (hits & !own)).count() as i32);
            if sq.file() == enemy_king.file() {
                match (attacks::between(sq, enemy_king) & occ.board).count() {
                    0 => t.patterns[i] += w.empty_head_cannon.into(),
                    1 => t.patterns[i] += w.cannon_on_king_file.into(),
                    _ => {}
                }
            }
            if rr == 9 {
                t.patterns[i] += w.bottom_cannon.into();
            }
            danger += w.king_attack_weight[PieceKind::Cannon.index()] * (hits & enemy_palace).count() as i32;
        }

        // King and defenders.
        let ksq = pos.king_square(us);
        if ksq.file() != 4 || rel_rank(us, ksq) != 0 {
            t.placement[i] += w.king_off_home.into();
        }
        for sq in pos.pieces(us, PieceKind::Advisor) | pos.pieces(us, PieceKind::Elephant) {
            if sq.file() == 4 {
                t.placement[i] += w.defender_centre.into();
            }
        }

        // King safety: pressure on the enemy palace, worse when its
        // defenders are gone.
        let attackers = 2 * pos.pieces(us, PieceKind::Rook).count() as i32
            + pos.pieces(us, PieceKind::Horse).count() as i32
            + pos.pieces(us, PieceKind::Cannon).count() as i32;
        let missing_advisors = 2 - pos.pieces(them, PieceKind::Advisor).count() as i32;
        let missing_elephants = 2 - pos.pieces(them, PieceKind::Elephant).count() as i32;
        let weakness = (missing_advisors * w.missing_advisor + missing_elephants * w.missing_elephant) * attackers / 6;
        let pressure = (danger * danger / KING_DANGER_DIVISOR).min(w.king_danger_max);
        t.king_safety[i] += Pair(pressure + weakness, pressure / 2 + weakness / 2);
    }
    t
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// `evaluate` with any weights.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let red = terms_with(pos, w).total_red();
    let score = match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    };
    score + w.tempo
}

/// A printable breakdown (the `eval` command).
pub fn explain(pos: &Position) -> String {
    let t = terms(pos);
    let mut s = String::new();
    let _ = writeln!(s, "     Term    |     Red     |    Black    |    Total");
    let _ = writeln!(s, "             |   MG    EG  |   MG    EG  |   MG    EG");
    let _ = writeln!(s, "-------------+-------------+-------------+------------");
    for (name, [r, b]) in t.rows() {
        let d = r - b;
        let _ = writeln!(s, " {name:>11} | {:5} {:5} | {:5} {:5} | {:5} {:5}", r.0, r.1, b.0, b.1, d.0, d.1);
    }
    let _ = writeln!(s, "-------------+-------------+-------------+------------");
    let _ = writeln!(s, "Phase: {} / {PHASE_MAX}", t.phase.min(PHASE_MAX));
    let _ = writeln!(s, "Final evaluation: {} (Red's view, tapered)", t.total_red());
    let _ = write!(s, "Side to move ({}): {}", pos.side_to_move().name(), evaluate(pos));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_mirror_symmetric() {
        let pos = Position::startpos();
        assert_eq!(terms(&pos).total_red(), 0);
        // The same position with colours swapped scores the negation.
        let fen = "2bakab2/9/1c5c1/p1p1p1p1p/4r4/9/P1P1P1P1P/1C5C1/4R4/2BAKAB2 w - - 0 1";
        let mirrored = "2bakab2/4r4/1c5c1/p1p1p1p1p/9/4R4/P1P1P1P1P/1C5C1/9/2BAKAB2 b - - 0 1";
        let a = Position::from_fen(fen).unwrap();
        let b = Position::from_fen(mirrored).unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn extra_rook_is_winning() {
        let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 700);
    }
}
