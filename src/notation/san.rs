//! XBoard's Xiangqi SAN, as XBoard / WinBoard write it in saved PGN: the
//! piece letter (none for a pawn), as much of the from-square as is needed
//! (`Chg2`: the cannon on file h; `C2e2`: the one on rank 2; `Cb2-e2` or
//! `Cb2xe2`: the whole square), `x` for a capture, the to-square, and
//! maybe `+` / `#`: `Hg2`, `Rxe4`, `ixi4` (the pawn on file i takes on i4).
//!
//! Letters: `K`, `A`, `E` or `B` (elephant), `H` or `N` (horse), `R`, `C`,
//! `P` (a pawn may also have no letter). Files `a`..`i` as in ICCS. Ranks
//! depend on the XBoard version and settings: 0..9 (XBoard 4.9 writes
//! these: `Rh0+`) or 1..10 (`Rh10`), see [`SanRanks`].

use super::NotationError;
use crate::position::Position;
use crate::types::{Move, PieceKind, Square};

/// How a SAN text numbers the ranks, from Red's back rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SanRanks {
    /// 0..9, as ICCS (XBoard 4.9).
    FromZero,
    /// 1..10, as in chess (older XBoard builds, other chess GUIs).
    FromOne,
}

impl SanRanks {
    fn rank(self, number: u8) -> Option<u8> {
        let rank = match self {
            SanRanks::FromZero => number,
            SanRanks::FromOne => number.checked_sub(1)?,
        };
        (rank < 10).then_some(rank)
    }
}

/// A SAN text read without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SanQuery {
    kind: PieceKind,
    from_file: Option<u8>,
    /// The from-rank as written (not yet converted by [`SanRanks`]).
    from_rank: Option<u8>,
    to_file: u8,
    to_rank: u8,
}

fn file_of(c: char) -> Option<u8> {
    ('a'..='i').contains(&c).then(|| c as u8 - b'a')
}

/// The rank number at the end of `text` (`10` or one digit) and the text
/// before it.
fn split_rank(text: &str) -> Option<(&str, u8)> {
    if let Some(rest) = text.strip_suffix("10") {
        return Some((rest, 10));
    }
    let last = text.chars().last()?.to_digit(10)?;
    Some((&text[..text.len() - 1], last as u8))
}

fn query(text: &str) -> Option<SanQuery> {
    if !text.is_ascii() {
        return None;
    }
    let text = text.trim_end_matches(['+', '#']);
    // The to-square at the end.
    let (rest, to_rank) = split_rank(text)?;
    let to_file = file_of(rest.chars().last()?)?;
    let rest = &rest[..rest.len() - 1];
    let rest = rest.strip_suffix(['x', '-', ':']).unwrap_or(rest);
    // The piece letter at the start (a pawn may have none).
    let (kind, rest) = match rest.chars().next().and_then(super::wxf::kind_of) {
        Some(kind) => (kind, &rest[1..]),
        None => (PieceKind::Pawn, rest),
    };
    // What is left names the from-square: a file, a rank, or both.
    let (from_file, rank_text) = match rest.chars().next().and_then(file_of) {
        Some(f) => (Some(f), &rest[1..]),
        None => (None, rest),
    };
    let from_rank = match rank_text {
        "" => None,
        "10" => Some(10),
        t if t.len() == 1 => Some(t.chars().next()?.to_digit(10)? as u8),
        _ => return None,
    };
    Some(SanQuery { kind, from_file, from_rank, to_file, to_rank })
}

/// Whether `text` has the look of XBoard SAN with a rank 10 (so the file
/// counts ranks from 1).
pub fn has_rank_ten(text: &str) -> bool {
    query(text).is_some_and(|q| q.to_rank == 10 || q.from_rank == Some(10))
}

/// Reads an XBoard SAN move legal in `pos`, with ranks counted as `ranks`
/// says.
pub fn parse_san(pos: &Position, text: &str, ranks: SanRanks) -> Result<Move, NotationError> {
    let q = query(text.trim()).ok_or(NotationError::Unreadable)?;
    let to_rank = ranks.rank(q.to_rank).ok_or(NotationError::NoLegalMove)?;
    let to = Square::from_file_rank(q.to_file, to_rank).ok_or(NotationError::NoLegalMove)?;
    let from_rank = match q.from_rank {
        Some(r) => Some(ranks.rank(r).ok_or(NotationError::NoLegalMove)?),
        None => None,
    };
    let fitting: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.to() == to
                && pos.piece_on(m.from()).is_some_and(|p| p.kind() == q.kind)
                && q.from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    match fitting.len() {
        0 => Err(NotationError::NoLegalMove),
        1 => Ok(fitting[0]),
        _ => Err(NotationError::Ambiguous(fitting)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iccs(pos: &Position, text: &str, ranks: SanRanks) -> Result<String, NotationError> {
        parse_san(pos, text, ranks).map(|m| m.to_string())
    }

    #[test]
    fn xboard_san_from_the_start() {
        let start = Position::startpos();
        let zero = SanRanks::FromZero;
        assert_eq!(iccs(&start, "Chg2", zero), Ok("h2g2".into()));
        assert_eq!(iccs(&start, "Che2", zero), Ok("h2e2".into()));
        assert_eq!(iccs(&start, "Ch2-e2", zero), Ok("h2e2".into()));
        assert!(matches!(parse_san(&start, "C2e2", zero), Err(NotationError::Ambiguous(_))), "both cannons");
        assert_eq!(iccs(&start, "Cb2-e2", zero), Ok("b2e2".into()));
        assert_eq!(iccs(&start, "Hg2", zero), Ok("h0g2".into()));
        assert_eq!(iccs(&start, "Nc2", zero), Ok("b0c2".into()));
        assert_eq!(iccs(&start, "Cxb9", zero), Ok("b2b9".into()));
        assert_eq!(iccs(&start, "Chxh9+", zero), Ok("h2h9".into()));
        assert_eq!(iccs(&start, "g4", zero), Ok("g3g4".into()));
        assert_eq!(iccs(&start, "Ege2", zero), Ok("g0e2".into()));
        assert_eq!(iccs(&start, "Bce2", zero), Ok("c0e2".into()));
        // The same moves with ranks from 1.
        let one = SanRanks::FromOne;
        assert_eq!(iccs(&start, "Che3", one), Ok("h2e2".into()));
        assert_eq!(iccs(&start, "Hg3", one), Ok("h0g2".into()));
        assert_eq!(iccs(&start, "Cxb10", one), Ok("b2b9".into()));
        assert_eq!(iccs(&start, "g5", one), Ok("g3g4".into()));
        // Wrong ranks: nothing fits.
        assert_eq!(iccs(&start, "Che3", zero), Err(NotationError::NoLegalMove));
        assert_eq!(iccs(&start, "Rh10", zero), Err(NotationError::NoLegalMove));
        // Not SAN.
        for text in ["C2=5", "h2e2x", "Xe2", "Cj2", "", "e", "Ch2e2e"] {
            assert_eq!(iccs(&start, text, zero), Err(NotationError::Unreadable), "{text}");
        }
    }

    #[test]
    fn ambiguous_and_rank_ten() {
        let start = Position::startpos();
        match parse_san(&start, "Ee2", SanRanks::FromZero) {
            Err(NotationError::Ambiguous(moves)) => assert_eq!(moves.len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(has_rank_ten("Rh10+") && has_rank_ten("Rh10h5") && !has_rank_ten("Rh0") && !has_rank_ten("h2e2"));
    }
}
