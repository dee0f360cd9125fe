//! A set of squares in a 128-bit integer: bit `i` = square index `i`.
//! The 38 bits above square 89 are always zero (every constructor masks).

use super::Square;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u128);

const BOARD_MASK: u128 = (1u128 << 90) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & BOARD_MASK)
    }

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1u128 << sq.index()) != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Exactly one square set.
    #[inline]
    pub const fn exactly_one(self) -> bool {
        self.0 != 0 && !self.more_than_one()
    }

    /// More than two squares set. Like the two above, a few instructions
    /// where `count` is a dozen or more on a processor without POPCNT (the
    /// portable build's baseline).
    #[inline]
    pub const fn more_than_two(self) -> bool {
        Bitboard(self.0 & self.0.wrapping_sub(1)).more_than_one()
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::from_index(self.0.trailing_zeros() as usize)) }
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1u128 << sq.index()))
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    #[inline]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ (1u128 << sq.index()))
    }

    #[inline]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    #[inline]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Iterates the squares of a bitboard from low to high.
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board from Black's side (rank 9 on top), `x` = set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_file_rank(file, rank).expect("on board");
                write!(f, "{}", if self.has(sq) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit tricks against `count` on boards of 0 to 6 random squares
    /// (and the full board).
    #[test]
    fn the_counting_shortcuts_agree_with_count() {
        let mut rng = crate::rng::Rng::new(128);
        let mut boards = vec![Bitboard::FULL];
        for n in 0..=6 {
            for _ in 0..300 {
                let mut b = Bitboard::EMPTY;
                for _ in 0..n {
                    b = b.with(Square::from_index(rng.below(90) as usize));
                }
                boards.push(b);
            }
        }
        for b in boards {
            assert_eq!(b.more_than_one(), b.count() > 1, "{b:?}");
            assert_eq!(b.exactly_one(), b.count() == 1, "{b:?}");
            assert_eq!(b.more_than_two(), b.count() > 2, "{b:?}");
        }
    }
}
