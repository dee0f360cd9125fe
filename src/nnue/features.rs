//! The network's inputs: which piece stands on which point, seen from one
//! side.
//!
//! 14 piece kinds (own K A B N R C P, then the other side's) by 90 points,
//! for each perspective. Black's perspective is mirrored across the river,
//! so both sides see the board from their own back rank.
//!
//! With palace king buckets ([`Features::KingBuckets`]) each perspective
//! has one such set of 1260 inputs per place of its own king: the palace's
//! nine points folded left to right into six buckets (a king on the right
//! file sees the whole board mirrored, so that it stands on the left). The
//! same piece on the same point then counts differently behind a king at
//! home and beside one driven up or aside. A perspective's inputs all
//! change when its own king moves, so its half of the accumulator is
//! computed afresh then.

use crate::types::{Color, Piece, Square};

/// Inputs of one king bucket: 14 piece kinds × 90 points.
pub const PIECE_SQUARES: usize = 14 * 90;
/// Buckets of [`Features::KingBuckets`]: files d and e (f mirrored onto
/// d) times the palace's three ranks.
pub const KING_BUCKETS: usize = 6;
/// Inputs per perspective of the plain feature set (the first networks').
pub const INPUTS: usize = PIECE_SQUARES;

/// A network's feature set (its file says which).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Features {
    /// 1260 inputs: piece kind × point.
    Plain,
    /// 6 × 1260 inputs: the perspective's own king bucket × piece kind ×
    /// point, mirrored when that king stands on the right file.
    KingBuckets,
}

impl Features {
    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            Features::Plain => PIECE_SQUARES,
            Features::KingBuckets => KING_BUCKETS * PIECE_SQUARES,
        }
    }

    /// The number the file stores for this set.
    pub const fn code(self) -> u32 {
        match self {
            Features::Plain => 0,
            Features::KingBuckets => 1,
        }
    }

    pub const fn from_code(code: u32) -> Option<Features> {
        match code {
            0 => Some(Features::Plain),
            1 => Some(Features::KingBuckets),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Features::Plain => "piece-square",
            Features::KingBuckets => "palace king buckets",
        }
    }

    /// How `perspective`, whose own king stands on `king`, sees the board.
    #[inline]
    pub fn view(self, perspective: Color, king: Square) -> View {
        match self {
            Features::Plain => View { perspective, offset: 0, mirror: false },
            Features::KingBuckets => {
                let (bucket, mirror) = king_bucket(relative(perspective, king));
                View { perspective, offset: bucket * PIECE_SQUARES, mirror }
            }
        }
    }

    /// Whether `perspective`'s inputs all change when its king moves from
    /// `from` to `to`.
    #[inline]
    pub fn king_move_changes_view(self, perspective: Color, from: Square, to: Square) -> bool {
        self == Features::KingBuckets && self.view(perspective, from) != self.view(perspective, to)
    }
}

/// `sq` as `perspective` sees it: Black's view is turned across the river.
#[inline]
fn relative(perspective: Color, sq: Square) -> Square {
    if perspective == Color::Red { sq } else { sq.flip_rank() }
}

/// The bucket (0..6) of a king on `king` (relative to its own side) and
/// whether the board is mirrored for it. A king outside the palace (no
/// legal position has one) counts as on the palace's nearest point.
#[inline]
fn king_bucket(king: Square) -> (usize, bool) {
    let file = king.file().clamp(3, 5);
    let rank = king.rank().min(2) as usize;
    let mirror = file == 5;
    let file = if mirror { 3 } else { file };
    (rank * 2 + (file - 3) as usize, mirror)
}

/// One perspective's way of numbering the inputs: its colour, its king
/// bucket's first input and whether files are mirrored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct View {
    perspective: Color,
    offset: usize,
    mirror: bool,
}

impl View {
    /// The input index of `piece` on `sq`.
    #[inline]
    pub fn feature(self, piece: Piece, sq: Square) -> usize {
        let relative_kind = if piece.color() == self.perspective { 0 } else { 7 } + piece.kind().index();
        let sq = relative(self.perspective, sq);
        let sq = if self.mirror { Square::from_index(sq.index() - 2 * sq.file() as usize + 8) } else { sq };
        self.offset + relative_kind * 90 + sq.index()
    }
}

/// The input index of `piece` on `sq` as `perspective` sees it in the
/// plain feature set.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    Features::Plain.view(perspective, sq).feature(piece, sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    #[test]
    fn features_mirror_between_the_perspectives() {
        let sq = Square::parse("c3").unwrap();
        let red_pawn = feature(Color::Red, Piece::RedPawn, sq);
        let black_pawn = feature(Color::Black, Piece::BlackPawn, sq.flip_rank());
        assert_eq!(red_pawn, black_pawn);
        assert_eq!(feature(Color::Black, Piece::RedPawn, sq), 13 * 90 + sq.flip_rank().index());
        assert!(feature(Color::Red, Piece::BlackPawn, Square::from_index(89)) < INPUTS);
    }

    #[test]
    fn the_palace_folds_into_six_buckets() {
        let set = Features::KingBuckets;
        let mut seen = std::collections::BTreeSet::new();
        for (name, bucket, mirror) in [
            ("d0", 0, false),
            ("e0", 1, false),
            ("f0", 0, true),
            ("d1", 2, false),
            ("e1", 3, false),
            ("f1", 2, true),
            ("d2", 4, false),
            ("e2", 5, false),
            ("f2", 4, true),
        ] {
            let red = set.view(Color::Red, Square::parse(name).unwrap());
            assert_eq!((red.offset, red.mirror), (bucket * PIECE_SQUARES, mirror), "{name}");
            // Black's king on the same point of its own palace.
            let black = set.view(Color::Black, Square::parse(name).unwrap().flip_rank());
            assert_eq!((black.offset, black.mirror), (bucket * PIECE_SQUARES, mirror), "{name}");
            seen.insert(bucket);
        }
        assert_eq!(seen.len(), KING_BUCKETS);
    }

    /// Every piece on every point, for every king place, gets a distinct
    /// input below the set's count, and mirrored boards (king and pieces)
    /// get the same inputs when the king is off the middle file.
    #[test]
    fn bucketed_inputs_are_distinct_and_mirror_images_agree() {
        let set = Features::KingBuckets;
        for perspective in Color::BOTH {
            for king_name in ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"] {
                let king = relative(perspective, Square::parse(king_name).unwrap());
                let view = set.view(perspective, king);
                let mirrored_king = Square::from_file_rank(8 - king.file(), king.rank()).unwrap();
                let mirrored_view = set.view(perspective, mirrored_king);
                let mut inputs = std::collections::HashSet::new();
                for piece in Color::BOTH.into_iter().flat_map(|c| PieceKind::ALL.map(|k| Piece::new(c, k))) {
                    for sq in Square::all() {
                        let f = view.feature(piece, sq);
                        assert!(f < set.inputs());
                        assert!(inputs.insert(f));
                        if king.file() != 4 {
                            let mirrored_sq = Square::from_file_rank(8 - sq.file(), sq.rank()).unwrap();
                            assert_eq!(mirrored_view.feature(piece, mirrored_sq), f);
                        }
                    }
                }
            }
        }
    }
}
