//! Squares, files and ranks of the 9 x 10 board.

use std::fmt;

/// A file index 0..9 (`a`..`i`), from Red's left.
pub type File = u8;
/// A rank index 0..10, rank 0 = Red's back rank.
pub type Rank = u8;

/// One of the 90 points of the board; index = rank * 9 + file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;
    pub const FILES: u8 = 9;
    pub const RANKS: u8 = 10;

    /// Builds a square from its index; `None` outside 0..90.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 { Some(Square(index)) } else { None }
    }

    /// Builds a square from an index known to be below 90.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    #[inline]
    pub const fn from_file_rank(file: File, rank: Rank) -> Option<Square> {
        if file < 9 && rank < 10 { Some(Square(rank * 9 + file)) } else { None }
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 10 { Some(Square((r * 9 + f) as u8)) } else { None }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        self.0 % 9
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        self.0 / 9
    }

    /// The same point seen from the other side (a0 <-> i9).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// The point mirrored across the river (a0 <-> a9).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// Index in the file-major ("transposed") layout: file * 10 + rank.
    #[inline]
    pub const fn transposed(self) -> usize {
        self.file() as usize * 10 + self.rank() as usize
    }

    /// Parses ICCS text such as `e0` (file letter then rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'0');
        Square::from_file_rank(file, rank)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}
