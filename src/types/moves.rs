//! Moves in 16 bits and fixed-capacity move lists.

use super::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::num::NonZeroU16;

/// From-square in bits 0..7, to-square in bits 7..14. A move from a square to
/// itself never happens, so zero is free and `Option<Move>` costs nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// Builds a move; `None` when from == to.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Option<Move> {
        if from.index() == to.index() {
            return None;
        }
        match NonZeroU16::new(from.index() as u16 | (to.index() as u16) << 7) {
            Some(bits) => Some(Move(bits)),
            None => None,
        }
    }

    /// Builds a move from two distinct squares (the generator's fast path).
    #[inline]
    pub fn between(from: Square, to: Square) -> Move {
        debug_assert!(from != to);
        // from != to, so the bits are never all zero.
        Move(NonZeroU16::new(from.index() as u16 | (to.index() as u16) << 7).unwrap_or(NonZeroU16::MIN))
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0.get() & 0x7F) as usize)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0.get() >> 7) as usize)
    }

    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from `bits()`; `None` if the bits are not a move.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let from = Square::new((bits & 0x7F) as u8)?;
        let to = Square::new(((bits >> 7) & 0x7F) as u8)?;
        if bits >> 14 != 0 {
            return None;
        }
        Move::new(from, to)
    }

    /// Parses ICCS text such as `h2e2` (exactly four characters).
    pub fn parse(text: &str) -> Option<Move> {
        if text.len() != 4 || !text.is_ascii() {
            return None;
        }
        let from = Square::parse(&text[0..2])?;
        let to = Square::parse(&text[2..4])?;
        Move::new(from, to)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Upper bound on legal moves in any Xiangqi position (the known maximum is
/// well under 150; pseudo-legal lists stay below this too).
pub const MAX_MOVES: usize = 192;

pub type MoveList = ArrayVec<Move, MAX_MOVES>;
