//! Domain types shared by every layer: squares, bitboards, colours, pieces,
//! moves and move lists, and what search scores mean (`score`: mates, their
//! display, their storage in the transposition table).
//!
//! Board geometry (one convention everywhere): files `a`..`i` from Red's left,
//! ranks `0`..`9` with rank 0 = Red's back rank, square index = rank * 9 + file
//! (a0 = 0, i9 = 89). Moves are written in ICCS/UCCI text: `h2e2`.

mod bitboard;
mod moves;
mod piece;
pub mod score;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use piece::{Color, Piece, PieceKind};
pub use score::DisplayScore;
pub use square::{File, Rank, Square};
