//! The network's inputs: which piece stands on which point, seen from one
//! side.
//!
//! 14 piece kinds (own K A B N R C P, then the other side's) by 90 points,
//! for each perspective. Black's perspective is mirrored across the river,
//! so both sides see the board from their own back rank.

use crate::types::{Color, Piece, Square};

/// Inputs per perspective: 14 piece kinds × 90 points.
pub const INPUTS: usize = 14 * 90;

/// The input index of `piece` on `sq` as `perspective` sees it.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = if piece.color() == perspective { 0 } else { 7 } + piece.kind().index();
    let sq = if perspective == Color::Red { sq } else { sq.flip_rank() };
    relative * 90 + sq.index()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_mirror_between_the_perspectives() {
        let sq = Square::parse("c3").unwrap();
        let red_pawn = feature(Color::Red, Piece::RedPawn, sq);
        let black_pawn = feature(Color::Black, Piece::BlackPawn, sq.flip_rank());
        assert_eq!(red_pawn, black_pawn);
        assert_eq!(feature(Color::Black, Piece::RedPawn, sq), 13 * 90 + sq.flip_rank().index());
        assert!(feature(Color::Red, Piece::BlackPawn, Square::from_index(89)) < INPUTS);
    }
}
