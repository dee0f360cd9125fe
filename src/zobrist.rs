//! Zobrist keys: one random 64-bit key per (piece, square) and one for the
//! side to move. Fixed seed, built at compile time, so keys (and the `d`
//! command's key output) are the same on every run and machine.

use crate::types::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const KEYS: ([[u64; 90]; 14], u64) = {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x00C4_A210_7C0F_FEE5u64;
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 90 {
            let (s, k) = splitmix(state);
            state = s;
            t[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (t, side)
};

static PIECE_SQUARE: [[u64; 90]; 14] = KEYS.0;

/// XORed in when Black is to move.
pub const SIDE: u64 = KEYS.1;

#[inline]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

#[inline]
pub fn side(color: Color) -> u64 {
    match color {
        Color::Red => 0,
        Color::Black => SIDE,
    }
}
