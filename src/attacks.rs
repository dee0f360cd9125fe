//! Attack tables and attack generation for the seven piece kinds.
//!
//! Every table is built at compile time. Rooks and cannons use two small
//! lookups: the rank (9 contiguous bits of the normal occupancy) and the file
//! (10 contiguous bits of a *transposed* occupancy the position keeps beside
//! the normal one, bit = file * 10 + rank). Only the interior squares of a
//! line can block, so a rank needs 7 bits and a file 8 bits of index.
//!
//! Each fast routine has a slow, step-by-step twin in [`reference`]; the
//! tests compare them on random occupancies.

use crate::types::{Bitboard, Color, Square};

/// Both occupancy layouts of the same set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    pub board: Bitboard,
    /// Bit `file * 10 + rank` is set when that square is occupied.
    pub transposed: u128,
}

impl Occupancy {
    pub fn from_bitboard(board: Bitboard) -> Occupancy {
        let mut transposed = 0;
        for sq in board {
            transposed |= TRANSPOSED_BIT[sq.index()];
        }
        Occupancy { board, transposed }
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.board = self.board.toggled(sq);
        self.transposed ^= TRANSPOSED_BIT[sq.index()];
    }

    /// The occupancy after a piece moves from `from` to `to` (a capture
    /// leaves `to` occupied).
    #[inline]
    pub fn after_move(self, from: Square, to: Square) -> Occupancy {
        Occupancy {
            board: self.board.without(from).with(to),
            transposed: (self.transposed & !TRANSPOSED_BIT[from.index()]) | TRANSPOSED_BIT[to.index()],
        }
    }

    #[inline]
    pub fn has(self, sq: Square) -> bool {
        self.board.has(sq)
    }
}

// ---------------------------------------------------------------------------
// Compile-time helpers on raw square indices.

const fn sq_at(file: i32, rank: i32) -> i32 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 { rank * 9 + file } else { -1 }
}

const fn bit(sq: i32) -> u128 {
    if sq < 0 { 0 } else { 1u128 << sq }
}

const fn in_palace(sq: i32) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

pub const TRANSPOSED_BIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = 1u128 << ((sq % 9) * 10 + sq / 9);
        sq += 1;
    }
    t
};

/// The palace points of both sides.
pub const PALACE: Bitboard = {
    let mut b = 0u128;
    let mut sq = 0;
    while sq < 90 {
        if in_palace(sq) {
            b |= 1u128 << sq;
        }
        sq += 1;
    }
    Bitboard::from_bits(b)
};

/// One step in each of `dirs`, staying inside the palace (empty outside it).
const fn palace_steps(dirs: [(i32, i32); 4]) -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        if in_palace(sq) {
            let mut b = 0u128;
            let mut d = 0;
            while d < 4 {
                let to = sq_at(sq % 9 + dirs[d].0, sq / 9 + dirs[d].1);
                if to >= 0 && in_palace(to) {
                    b |= bit(to);
                }
                d += 1;
            }
            t[sq as usize] = Bitboard::from_bits(b);
        }
        sq += 1;
    }
    t
}

pub const KING_STEPS: [Bitboard; 90] = palace_steps(ORTHO);
pub const ADVISOR_STEPS: [Bitboard; 90] = palace_steps(DIAG);

/// Elephant eye (the point between) and target for each diagonal; both zero
/// where the target is off the board or across the river.
const ELEPHANT_EYE_TARGET: ([[u128; 4]; 90], [[u128; 4]; 90]) = {
    let mut eyes = [[0u128; 4]; 90];
    let mut targets = [[0u128; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq % 9, sq / 9);
        let mut d = 0;
        while d < 4 {
            let to = sq_at(f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            if to >= 0 && ((r <= 4) == (to / 9 <= 4)) {
                eyes[sq as usize][d] = bit(sq_at(f + DIAG[d].0, r + DIAG[d].1));
                targets[sq as usize][d] = bit(to);
            }
            d += 1;
        }
        sq += 1;
    }
    (eyes, targets)
};
const ELEPHANT_EYE: [[u128; 4]; 90] = ELEPHANT_EYE_TARGET.0;
const ELEPHANT_TARGET: [[u128; 4]; 90] = ELEPHANT_EYE_TARGET.1;

/// Horse leg for each orthogonal direction and the (up to two) targets that
/// leg opens. Zero where the leg is off the board.
const HORSE_LEG_TARGETS: ([[u128; 4]; 90], [[u128; 4]; 90]) = {
    let mut legs = [[0u128; 4]; 90];
    let mut targets = [[0u128; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq % 9, sq / 9);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let leg = sq_at(f + df, r + dr);
            if leg >= 0 {
                legs[sq as usize][d] = bit(leg);
                // Two steps along the leg direction, one step across.
                let (cf, cr) = (dr, df);
                targets[sq as usize][d] =
                    bit(sq_at(f + 2 * df + cf, r + 2 * dr + cr)) | bit(sq_at(f + 2 * df - cf, r + 2 * dr - cr));
            }
            d += 1;
        }
        sq += 1;
    }
    (legs, targets)
};
const HORSE_LEG: [[u128; 4]; 90] = HORSE_LEG_TARGETS.0;
const HORSE_TARGET: [[u128; 4]; 90] = HORSE_LEG_TARGETS.1;

/// For a target square: each diagonal neighbour (the leg of every horse that
/// reaches the target through it) and the squares such horses stand on.
/// Horse attacks are not symmetric, so this is its own table.
const HORSE_REVERSE: ([[u128; 4]; 90], [[u128; 4]; 90]) = {
    let mut legs = [[0u128; 4]; 90];
    let mut sources = [[0u128; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = (sq % 9, sq / 9);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            let leg = sq_at(f + df, r + dr);
            if leg >= 0 {
                legs[sq as usize][d] = bit(leg);
                sources[sq as usize][d] = bit(sq_at(f + 2 * df, r + dr)) | bit(sq_at(f + df, r + 2 * dr));
            }
            d += 1;
        }
        sq += 1;
    }
    (legs, sources)
};
const HORSE_REVERSE_LEG: [[u128; 4]; 90] = HORSE_REVERSE.0;
const HORSE_REVERSE_SOURCE: [[u128; 4]; 90] = HORSE_REVERSE.1;

/// Squares a pawn of each colour attacks (and moves to) from each square.
pub const PAWN_STEPS: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = (sq % 9, sq / 9);
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            let mut b = bit(sq_at(f, r + fwd));
            if crossed {
                b |= bit(sq_at(f + 1, r)) | bit(sq_at(f - 1, r));
            }
            t[c][sq as usize] = Bitboard::from_bits(b);
            sq += 1;
        }
        c += 1;
    }
    t
};

/// Squares from which a pawn of each colour attacks each square.
pub const PAWN_ATTACKERS: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let steps = PAWN_STEPS[c][from].bits();
            let mut to = 0;
            while to < 90 {
                if steps & (1u128 << to) != 0 {
                    t[c][to] = Bitboard::from_bits(t[c][to].bits() | (1u128 << from));
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// Slides along a line of `len` points from `pos`, with `occ` the occupancy
/// of the line (bit i = point i). Returns the rook or cannon attack pattern.
/// End points count as hit whether occupied or not (their occupancy is not in
/// the table index), so callers mask cannon and rook captures with real
/// pieces.
const fn line_pattern(pos: i32, occ: u32, len: i32, cannon: bool) -> u32 {
    let mut out = 0u32;
    let mut dir = -1;
    while dir <= 1 {
        let mut s = pos + dir;
        let mut screened = false;
        while s >= 0 && s < len {
            let occupied = occ & (1 << s) != 0 || s == 0 || s == len - 1;
            if !cannon {
                out |= 1 << s;
                if occupied {
                    break;
                }
            } else if !screened {
                if occupied {
                    screened = true;
                }
            } else if occupied {
                out |= 1 << s;
                break;
            }
            s += dir;
        }
        dir += 2;
    }
    out
}

const fn rank_table(cannon: bool) -> [[u16; 128]; 9] {
    let mut t = [[0u16; 128]; 9];
    let mut f = 0;
    while f < 9 {
        let mut o = 0;
        while o < 128 {
            t[f as usize][o as usize] = line_pattern(f, o << 1, 9, cannon) as u16;
            o += 1;
        }
        f += 1;
    }
    t
}

const fn file_table(cannon: bool) -> [[u128; 256]; 10] {
    let mut t = [[0u128; 256]; 10];
    let mut r = 0;
    while r < 10 {
        let mut o = 0;
        while o < 256 {
            let p = line_pattern(r, o << 1, 10, cannon);
            let mut b = 0u128;
            let mut i = 0;
            while i < 10 {
                if p & (1 << i) != 0 {
                    b |= 1u128 << (i * 9);
                }
                i += 1;
            }
            t[r as usize][o as usize] = b;
            o += 1;
        }
        r += 1;
    }
    t
}

static ROOK_RANK: [[u16; 128]; 9] = rank_table(false);
static CANNON_RANK: [[u16; 128]; 9] = rank_table(true);
static ROOK_FILE: [[u128; 256]; 10] = file_table(false);
static CANNON_FILE: [[u128; 256]; 10] = file_table(true);

/// Squares strictly between two squares on one file or rank; empty otherwise.
static BETWEEN: [[Bitboard; 90]; 90] = {
    let mut t = [[Bitboard::EMPTY; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
            if a != b && (fa == fb || ra == rb) {
                let df = if fb > fa {
                    1
                } else if fb < fa {
                    -1
                } else {
                    0
                };
                let dr = if rb > ra {
                    1
                } else if rb < ra {
                    -1
                } else {
                    0
                };
                let mut s = sq_at(fa + df, ra + dr);
                let mut m = 0u128;
                while s != b {
                    m |= bit(s);
                    s = sq_at(s % 9 + df, s / 9 + dr);
                }
                t[a as usize][b as usize] = Bitboard::from_bits(m);
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// All squares on the same file or rank (the square itself excluded).
pub const LINES: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut a = 0;
    while a < 90 {
        let mut m = 0u128;
        let mut b = 0;
        while b < 90 {
            if a != b && (a % 9 == b % 9 || a / 9 == b / 9) {
                m |= 1u128 << b;
            }
            b += 1;
        }
        t[a] = Bitboard::from_bits(m);
        a += 1;
    }
    t
};

// ---------------------------------------------------------------------------
// Fast attack functions.

#[inline]
fn rank_index(sq: Square, occ: Occupancy) -> usize {
    ((occ.board.bits() >> (sq.rank() as u32 * 9 + 1)) & 0x7F) as usize
}

#[inline]
fn file_index(sq: Square, occ: Occupancy) -> usize {
    ((occ.transposed >> (sq.file() as u32 * 10 + 1)) & 0xFF) as usize
}

/// Squares a rook on `sq` attacks: every empty square along the lines up to
/// and including the first piece (and the board edge).
#[inline]
pub fn rook_attacks(sq: Square, occ: Occupancy) -> Bitboard {
    let rank = (ROOK_RANK[sq.file() as usize][rank_index(sq, occ)] as u128) << (sq.rank() as u32 * 9);
    let file = ROOK_FILE[sq.rank() as usize][file_index(sq, occ)] << sq.file();
    Bitboard::from_bits(rank | file)
}

/// Squares a cannon on `sq` can capture on: the first piece beyond exactly
/// one screen in each direction. An empty edge square may also appear (the
/// table does not see edge occupancy), so mask with real pieces.
#[inline]
pub fn cannon_attacks(sq: Square, occ: Occupancy) -> Bitboard {
    let rank = (CANNON_RANK[sq.file() as usize][rank_index(sq, occ)] as u128) << (sq.rank() as u32 * 9);
    let file = CANNON_FILE[sq.rank() as usize][file_index(sq, occ)] << sq.file();
    Bitboard::from_bits(rank | file)
}

/// Squares a horse on `sq` reaches, legs checked against `occ`.
#[inline]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (legs, targets) = (&HORSE_LEG[sq.index()], &HORSE_TARGET[sq.index()]);
    let occ = occ.bits();
    let mut att = 0u128;
    for d in 0..4 {
        if occ & legs[d] == 0 {
            att |= targets[d];
        }
    }
    Bitboard::from_bits(att)
}

/// Squares from which a horse would attack `sq`, legs checked against `occ`.
#[inline]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    let (legs, sources) = (&HORSE_REVERSE_LEG[sq.index()], &HORSE_REVERSE_SOURCE[sq.index()]);
    let occ = occ.bits();
    let mut att = 0u128;
    for d in 0..4 {
        if occ & legs[d] == 0 {
            att |= sources[d];
        }
    }
    Bitboard::from_bits(att)
}

/// For `sq`: pairs of (diagonal neighbour, squares whose horse is blocked
/// only by a piece on that neighbour). Used to find horse-leg pins.
#[inline]
pub fn horse_leg_lines(sq: Square) -> impl Iterator<Item = (Bitboard, Bitboard)> {
    let i = sq.index();
    (0..4).map(move |d| (Bitboard::from_bits(HORSE_REVERSE_LEG[i][d]), Bitboard::from_bits(HORSE_REVERSE_SOURCE[i][d])))
}

/// Squares an elephant on `sq` reaches, eyes checked against `occ`, never
/// across the river.
#[inline]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let (eyes, targets) = (&ELEPHANT_EYE[sq.index()], &ELEPHANT_TARGET[sq.index()]);
    let occ = occ.bits();
    let mut att = 0u128;
    for d in 0..4 {
        if occ & eyes[d] == 0 {
            att |= targets[d];
        }
    }
    Bitboard::from_bits(att)
}

#[inline]
pub fn king_steps(sq: Square) -> Bitboard {
    KING_STEPS[sq.index()]
}

#[inline]
pub fn advisor_steps(sq: Square) -> Bitboard {
    ADVISOR_STEPS[sq.index()]
}

#[inline]
pub fn pawn_steps(color: Color, sq: Square) -> Bitboard {
    PAWN_STEPS[color.index()][sq.index()]
}

#[inline]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKERS[color.index()][sq.index()]
}

#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

#[inline]
pub fn lines(sq: Square) -> Bitboard {
    LINES[sq.index()]
}

/// For a king on each square, the squares where a piece arriving or leaving
/// can make a check: its rank and file (rooks, cannons and their screens,
/// pawns, the other king), the horse legs next to it and the squares a horse
/// checks it from. A move that touches none of them gives no check.
const CHECK_ZONE: [Bitboard; 90] = {
    let mut t = [Bitboard::EMPTY; 90];
    let mut a = 0;
    while a < 90 {
        let mut m = LINES[a].bits();
        let mut d = 0;
        while d < 4 {
            m |= HORSE_REVERSE_LEG[a][d] | HORSE_REVERSE_SOURCE[a][d];
            d += 1;
        }
        t[a] = Bitboard::from_bits(m);
        a += 1;
    }
    t
};

#[inline]
pub fn check_zone(king: Square) -> Bitboard {
    CHECK_ZONE[king.index()]
}

/// The slow, obviously-correct twins: walk the board one step at a time.
pub mod reference {
    use crate::types::{Bitboard, Color, Square};

    fn step(sq: Square, df: i8, dr: i8) -> Option<Square> {
        sq.offset(df, dr)
    }

    fn in_palace(sq: Square) -> bool {
        (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7)
    }

    pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let mut s = step(sq, df, dr);
            while let Some(t) = s {
                out = out.with(t);
                if occ.has(t) {
                    break;
                }
                s = step(t, df, dr);
            }
        }
        out
    }

    /// Exact cannon captures: the first occupied square past exactly one
    /// screen (occupied squares only, unlike the table version).
    pub fn cannon_captures(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let mut screens = 0;
            let mut s = step(sq, df, dr);
            while let Some(t) = s {
                if occ.has(t) {
                    screens += 1;
                    if screens == 2 {
                        out = out.with(t);
                        break;
                    }
                }
                s = step(t, df, dr);
            }
        }
        out
    }

    pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)] {
            // The leg is the orthogonal neighbour in the long direction.
            let leg = if i8::abs(df) == 2 { step(sq, df / 2, 0) } else { step(sq, 0, dr / 2) };
            if let (Some(leg), Some(to)) = (leg, step(sq, df, dr))
                && !occ.has(leg)
            {
                out = out.with(to);
            }
        }
        out
    }

    pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
        Square::all().filter(|&from| horse_attacks(from, occ).has(sq)).fold(Bitboard::EMPTY, |b, s| b.with(s))
    }

    pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if let (Some(eye), Some(to)) = (step(sq, df, dr), step(sq, 2 * df, 2 * dr)) {
                let same_half = (sq.rank() <= 4) == (to.rank() <= 4);
                if same_half && !occ.has(eye) {
                    out = out.with(to);
                }
            }
        }
        out
    }

    pub fn king_steps(sq: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if in_palace(sq) {
            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                if let Some(t) = step(sq, df, dr).filter(|&t| in_palace(t)) {
                    out = out.with(t);
                }
            }
        }
        out
    }

    pub fn advisor_steps(sq: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if in_palace(sq) {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if let Some(t) = step(sq, df, dr).filter(|&t| in_palace(t)) {
                    out = out.with(t);
                }
            }
        }
        out
    }

    pub fn pawn_steps(color: Color, sq: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if let Some(t) = step(sq, 0, color.forward()) {
            out = out.with(t);
        }
        if !color.own_half(sq.rank()) {
            for df in [-1, 1] {
                if let Some(t) = step(sq, df, 0) {
                    out = out.with(t);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator so the tests need no extra crate.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn random_occupancy(state: &mut u64) -> Bitboard {
        // Sparse and dense boards both matter for sliders.
        let density = next(state) % 4;
        let mut bits = (next(state) as u128) << 64 | next(state) as u128;
        for _ in 0..density {
            bits &= (next(state) as u128) << 64 | next(state) as u128;
        }
        Bitboard::from_bits(bits)
    }

    #[test]
    fn fast_attacks_match_reference_on_random_occupancies() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..3000 {
            let occ_bb = random_occupancy(&mut state);
            let occ = Occupancy::from_bitboard(occ_bb);
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ), reference::rook_attacks(sq, occ_bb), "rook {sq} {occ_bb:?}");
                assert_eq!(
                    cannon_attacks(sq, occ) & occ_bb,
                    reference::cannon_captures(sq, occ_bb),
                    "cannon {sq} {occ_bb:?}"
                );
                assert_eq!(horse_attacks(sq, occ_bb), reference::horse_attacks(sq, occ_bb), "horse {sq}");
                assert_eq!(elephant_attacks(sq, occ_bb), reference::elephant_attacks(sq, occ_bb), "elephant {sq}");
            }
        }
    }

    #[test]
    fn reverse_horse_table_matches_reference() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..200 {
            let occ = random_occupancy(&mut state);
            for sq in Square::all() {
                assert_eq!(horse_attackers(sq, occ), reference::horse_attackers(sq, occ), "{sq}");
            }
        }
    }

    #[test]
    fn step_tables_match_reference() {
        for sq in Square::all() {
            assert_eq!(king_steps(sq), reference::king_steps(sq), "{sq}");
            assert_eq!(advisor_steps(sq), reference::advisor_steps(sq), "{sq}");
            for c in Color::BOTH {
                assert_eq!(pawn_steps(c, sq), reference::pawn_steps(c, sq), "{sq}");
                let attackers = Square::all().filter(|&f| reference::pawn_steps(c, f).has(sq));
                assert_eq!(pawn_attackers(c, sq), attackers.fold(Bitboard::EMPTY, |b, s| b.with(s)));
            }
        }
    }

    #[test]
    fn between_and_lines() {
        let a0 = Square::from_file_rank(0, 0).unwrap();
        let a9 = Square::from_file_rank(0, 9).unwrap();
        let i0 = Square::from_file_rank(8, 0).unwrap();
        assert_eq!(between(a0, a9).count(), 8);
        assert_eq!(between(a0, i0).count(), 7);
        assert_eq!(between(a9, i0).count(), 0);
        assert_eq!(lines(a0).count(), 17);
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(between(a, b), between(b, a));
            }
        }
    }
}
