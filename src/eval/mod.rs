//! The hand-crafted evaluation: material tapered by phase, piece-square
//! shapes, mobility, pawn structure, king safety and the classic Xiangqi
//! patterns. All weights are in `params`.

pub mod endgame;
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
    pub threats: [Pair; 2],
    /// 0 (bare endgame) ..= PHASE_MAX (all attacking pieces on the board).
    pub phase: i32,
    /// The endgame factor (out of `endgame::SCALE_NORMAL`) of Red's
    /// advantage and of Black's: below normal in book draws.
    pub scale: [i32; 2],
}

impl Terms {
    fn rows(&self) -> [(&'static str, [Pair; 2]); 7] {
        [
            ("Material", self.material),
            ("Placement", self.placement),
            ("Pawns", self.pawns),
            ("Mobility", self.mobility),
            ("Patterns", self.patterns),
            ("King safety", self.king_safety),
            ("Threats", self.threats),
        ]
    }

    fn taper(&self, p: Pair) -> i32 {
        let phase = self.phase.min(PHASE_MAX);
        (p.0 * phase + p.1 * (PHASE_MAX - phase)) / PHASE_MAX
    }

    /// Red minus Black, tapered, before the endgame scaling.
    pub fn unscaled_red(&self) -> i32 {
        self.rows().iter().map(|(_, t)| self.taper(t[0] - t[1])).sum()
    }

    /// The endgame factor of the side that has the advantage `unscaled_red`.
    pub fn advantage_scale(&self, unscaled_red: i32) -> i32 {
        if unscaled_red > 0 { self.scale[0] } else { self.scale[1] }
    }

    /// Red minus Black, tapered, the advantage scaled by the endgame factor
    /// of the side that has it.
    pub fn total_red(&self) -> i32 {
        let red = self.unscaled_red();
        red * self.advantage_scale(red) / endgame::SCALE_NORMAL
    }
}

/// Rank counted from `color`'s own back rank (0..9).
#[inline]
const fn rel_rank(color: Color, sq: Square) -> i32 {
    match color {
        Color::Red => sq.rank() as i32,
        Color::Black => 9 - sq.rank() as i32,
    }
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

/// What the tuner needs of a position besides its phase: how often each
/// linear weight counts (Red's count minus Black's, in a `Weights` of
/// counts), and the inputs of each side's king-safety term, which is not
/// linear in its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub coefs: Weights,
    pub king: [KingInputs; 2],
}

/// One side's attack on the enemy palace: attacks on its points by kind,
/// the enemy's missing advisors and elephants, and the attacking material.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct KingInputs {
    pub attacks: [i32; 7],
    pub missing_advisors: i32,
    pub missing_elephants: i32,
    pub attackers: i32,
}

impl Default for Trace {
    fn default() -> Trace {
        Trace { coefs: Weights::filled(0), king: [KingInputs::default(); 2] }
    }
}

/// Where the evaluation reports what it counted: nowhere (`()`, the
/// engine's; the compiler removes every report), or a [`Trace`].
pub trait Tracer {
    fn trace(&mut self) -> Option<&mut Trace>;
}

impl Tracer for () {
    #[inline(always)]
    fn trace(&mut self) -> Option<&mut Trace> {
        None
    }
}

impl Tracer for Trace {
    fn trace(&mut self) -> Option<&mut Trace> {
        Some(self)
    }
}

/// Index of `sq` in a piece-square table of `color`'s pieces.
#[inline]
const fn pst_index(color: Color, sq: Square) -> usize {
    rel_rank(color, sq) as usize * 5 + sq.file().abs_diff(4) as usize
}

/// The engine's piece-square values by colour, kind and square, laid out
/// once from `WEIGHTS` so that a lookup needs no index arithmetic.
const PSQ: [[[Pair; 90]; 7]; 2] = {
    let mut t = [[[Pair(0, 0); 90]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut sq = 0;
            while sq < 90 {
                let i = pst_index(Color::BOTH[c], Square::from_index(sq));
                t[c][k][sq] = Pair(WEIGHTS.pst_mg[k][i], WEIGHTS.pst_eg[k][i]);
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The evaluation terms with the engine's weights.
#[inline]
pub fn terms(pos: &Position) -> Terms {
    terms_traced(pos, &mut ())
}

/// The evaluation terms, each weight's use reported to `tracer` (the
/// tuner's entry point; the tuner varies the weights in its own model of
/// the evaluation, so the evaluation itself always uses `WEIGHTS`).
#[inline]
pub fn terms_traced(pos: &Position, tracer: &mut impl Tracer) -> Terms {
    let w = &WEIGHTS;
    // Adds `n` (Red's uses minus Black's) to the count of the (mg, eg)
    // weight `field` in the tracer's coefficients.
    macro_rules! count_n {
        ($n:expr; $($field:tt)+) => {
            if let Some(tr) = tracer.trace() {
                let c = &mut tr.coefs.$($field)+;
                c.0 += $n;
                c.1 += $n;
            }
        };
    }
    let mut t =
        Terms { scale: [endgame::scale(pos, Color::Red), endgame::scale(pos, Color::Black)], ..Terms::default() };
    let occ = pos.occupancy();
    for kind in PieceKind::ALL {
        for c in Color::BOTH {
            t.phase += PHASE_WEIGHT[kind.index()] * pos.pieces(c, kind).count() as i32;
        }
    }
    let all_pawns = pos.pieces(Color::Red, PieceKind::Pawn) | pos.pieces(Color::Black, PieceKind::Pawn);
    // Each side's attacks: all of them, and by pawns, horses and cannons,
    // rooks (for the threats).
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut by_pawn = [Bitboard::EMPTY; 2];
    let mut by_minor = [Bitboard::EMPTY; 2];
    let mut by_rook = [Bitboard::EMPTY; 2];

    for us in Color::BOTH {
        let i = us.index();
        let sign = if us == Color::Red { 1 } else { -1 };
        let them = !us;
        let own = pos.color_bb(us);
        let enemy_king = pos.king_square(them);
        let enemy_palace = palace_of(them);
        let mut attacks = [0i32; 7];
        for kind in PieceKind::ALL {
            let n = pos.pieces(us, kind).count() as i32;
            t.material[i] += Pair(w.material_mg[kind.index()], w.material_eg[kind.index()]).times(n);
            if let Some(tr) = tracer.trace() {
                tr.coefs.material_mg[kind.index()] += sign * n;
                tr.coefs.material_eg[kind.index()] += sign * n;
            }
            let mut placement = Pair(0, 0);
            for sq in pos.pieces(us, kind) {
                placement += PSQ[i][kind.index()][sq.index()];
                if let Some(tr) = tracer.trace() {
                    let k = pst_index(us, sq);
                    tr.coefs.pst_mg[kind.index()][k] += sign;
                    tr.coefs.pst_eg[kind.index()][k] += sign;
                }
            }
            if kind == PieceKind::Pawn {
                t.pawns[i] += placement;
            } else {
                t.placement[i] += placement;
            }
        }

        // Pawns.
        let pawns = pos.pieces(us, PieceKind::Pawn);
        for sq in pawns {
            if rel_rank(us, sq) >= 5 {
                if let Some(right) = sq.offset(1, 0)
                    && pawns.has(right)
                {
                    t.pawns[i] += w.pawn_linked.into();
                    count_n!(sign; pawn_linked);
                }
                attacks[PieceKind::Pawn.index()] += (attacks::pawn_steps(us, sq) & enemy_palace).count() as i32;
            }
            by_pawn[i] |= attacks::pawn_steps(us, sq);
        }

        // Horses.
        let horses = pos.pieces(us, PieceKind::Horse);
        for sq in horses {
            let reach = attacks::horse_attacks(sq, occ.board);
            let moves = (reach & !own).count() as i32;
            t.mobility[i] += Pair::from(w.horse_mobility).times(moves);
            count_n!(sign * moves; horse_mobility);
            if moves == 0 {
                t.mobility[i] += w.horse_trapped.into();
                count_n!(sign; horse_trapped);
            }
            if (reach & horses).any() {
                t.patterns[i] += w.horse_protected_by_horse.into();
                count_n!(sign; horse_protected_by_horse);
            }
            attacks[PieceKind::Horse.index()] += (reach & enemy_palace).count() as i32;
            by_minor[i] |= reach;
        }

        // Rooks.
        for sq in pos.pieces(us, PieceKind::Rook) {
            let reach = attacks::rook_attacks(sq, occ);
            let moves = (reach & !own).count() as i32;
            t.mobility[i] += Pair::from(w.rook_mobility).times(moves);
            count_n!(sign * moves; rook_mobility);
            if (file_mask(sq.file()) & all_pawns).is_empty() {
                t.patterns[i] += w.rook_open_file.into();
                count_n!(sign; rook_open_file);
            }
            attacks[PieceKind::Rook.index()] += (reach & enemy_palace).count() as i32;
            by_rook[i] |= reach;
        }

        // Cannons.
        for sq in pos.pieces(us, PieceKind::Cannon) {
            let quiet = attacks::rook_attacks(sq, occ) & !occ.board;
            let hits = attacks::cannon_attacks(sq, occ) & occ.board;
            let moves = (quiet | (hits & !own)).count() as i32;
            t.mobility[i] += Pair::from(w.cannon_mobility).times(moves);
            count_n!(sign * moves; cannon_mobility);
            if sq.file() == enemy_king.file() {
                match (attacks::between(sq, enemy_king) & occ.board).count() {
                    0 => {
                        t.patterns[i] += w.empty_head_cannon.into();
                        count_n!(sign; empty_head_cannon);
                    }
                    1 => {
                        t.patterns[i] += w.cannon_on_king_file.into();
                        count_n!(sign; cannon_on_king_file);
                    }
                    _ => {}
                }
            }
            if rel_rank(us, sq) == 9 {
                t.patterns[i] += w.bottom_cannon.into();
                count_n!(sign; bottom_cannon);
            }
            attacks[PieceKind::Cannon.index()] += (hits & enemy_palace).count() as i32;
            by_minor[i] |= hits;
        }

        // King safety: pressure on the enemy palace, worse when its
        // defenders are gone.
        let danger: i32 = attacks.iter().zip(w.king_attack_weight).map(|(&a, k)| a * k).sum();
        let attackers = 2 * pos.pieces(us, PieceKind::Rook).count() as i32
            + pos.pieces(us, PieceKind::Horse).count() as i32
            + pos.pieces(us, PieceKind::Cannon).count() as i32;
        let missing_advisors = 2 - pos.pieces(them, PieceKind::Advisor).count() as i32;
        let missing_elephants = 2 - pos.pieces(them, PieceKind::Elephant).count() as i32;
        let weakness = (missing_advisors * w.missing_advisor + missing_elephants * w.missing_elephant) * attackers / 6;
        let pressure = (danger * danger / KING_DANGER_DIVISOR).min(w.king_danger_max);
        t.king_safety[i] += Pair(pressure + weakness, pressure / 2 + weakness / 2);
        if let Some(tr) = tracer.trace() {
            tr.king[i] = KingInputs { attacks, missing_advisors, missing_elephants, attackers };
        }

        let mut defenders = attacks::king_steps(pos.king_square(us));
        for sq in pos.pieces(us, PieceKind::Advisor) {
            defenders |= attacks::advisor_steps(sq);
        }
        for sq in pos.pieces(us, PieceKind::Elephant) {
            defenders |= attacks::elephant_attacks(sq, occ.board);
        }
        attacked[i] = defenders | by_pawn[i] | by_minor[i] | by_rook[i];
    }

    // Threats: enemy pieces under attack, by the class of the attacker, and
    // those attacked that nothing defends.
    for us in Color::BOTH {
        let (i, them) = (us.index(), (!us).index());
        let sign = if us == Color::Red { 1 } else { -1 };
        let undefended = attacked[i] & !attacked[them];
        for kind in PieceKind::ALL.into_iter().skip(1) {
            let k = kind.index();
            let victims = pos.pieces(!us, kind);
            macro_rules! threat {
                ($field:ident, $attacks:expr) => {
                    let count = (victims & $attacks).count() as i32;
                    if count != 0 {
                        t.threats[i] += Pair::from(w.$field[k]).times(count);
                        count_n!(sign * count; $field[k]);
                    }
                };
            }
            threat!(threat_by_pawn, by_pawn[i]);
            threat!(threat_by_minor, by_minor[i]);
            threat!(threat_by_rook, by_rook[i]);
            threat!(hanging, undefended);
        }
    }
    if let Some(tr) = tracer.trace() {
        tr.coefs.tempo = if pos.side_to_move() == Color::Red { 1 } else { -1 };
    }
    t
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let red = terms(pos).total_red();
    let score = match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    };
    score + WEIGHTS.tempo
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
    let unscaled = t.unscaled_red();
    let scale = t.advantage_scale(unscaled);
    if scale != endgame::SCALE_NORMAL {
        let _ = writeln!(s, "Endgame scale: {scale} / {} (unscaled {unscaled})", endgame::SCALE_NORMAL);
    }
    let _ = writeln!(s, "Final evaluation: {} (Red's view, tapered)", t.total_red());
    let _ = write!(s, "Side to move ({}): {}", pos.side_to_move().name(), evaluate(pos));
    s
}

/// A network's score `raw` (the side to move's view) corrected by the
/// rules of thumb this evaluation knows and the network, trained on few
/// such endings, knows less well: the advantage scaled by the endgame
/// factor of the side that has it (book draws towards 0), and where that
/// side has nothing left to win with, this evaluation's score instead (a
/// lone pawn against a bare king wins for the pawn's side, whatever the
/// network says).
#[inline]
pub fn network_score(pos: &Position, raw: i32) -> i32 {
    let strong = if raw >= 0 { pos.side_to_move() } else { !pos.side_to_move() };
    match endgame::scale(pos, strong) {
        0 => evaluate(pos),
        factor => raw * factor / endgame::SCALE_NORMAL,
    }
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
    fn extra_rook_is_winning_unless_the_defence_is_complete() {
        // Against advisors and one elephant the rook wins; against the full
        // defence (士象全) it is a book draw, scaled towards 0.
        let pos = Position::from_fen("3aka3/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 700);
        let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
        assert!(evaluate(&pos).abs() < 200);
    }
}
