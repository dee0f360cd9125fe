//! XBoard's Xiangqi SAN, as XBoard / WinBoard write it in saved PGN (checked
//! against games XBoard 4.9.1 saved, `tests/data/xboard-*.pgn`):
//!
//! - pieces: the letter `K A E H R C`, then as much of the from-square as
//!   tells it from the other pieces of its kind that can go to the same
//!   point: its file if one of them stands on its rank or if none stands
//!   on its file, its rank if one stands on its file, both if both are
//!   needed (`Hbc7`, `E5e7`, `Rd0d4`); then `x` for a capture and the
//!   to-square: `Hg2`, `Rxe4`, `Cxb9`.
//! - pawns: no letter; the to-square for a straight move to an empty
//!   point (`g4`), else the pawn's file, `x` for a capture and the
//!   to-square (`ixi4` forward, `ed6` sideways, `cxd6`).
//! - `+` after a check, `#` when the other side has no legal move (mate or
//!   stalemate, both a loss in Xiangqi).
//!
//! Ranks count from Red's back rank: 0..9 (XBoard's default for a board of
//! ten ranks, the same as ICCS) or 1..10 (XBoard with `-rankOffset -1`,
//! and chess-style writers), see [`RankBase`].
//!
//! Reading is wider than writing: any piece letter (also `B` / `N` for the
//! elephant and horse, `P` for a pawn), any from-file and from-rank given
//! or not, `x`, `-` or `:` before the to-square or nothing (`Cb2-e2`,
//! `P3e4`); the text must fit exactly one legal move. A pawn written
//! without its file goes straight (XBoard gives the file of every other
//! pawn move).

use super::NotationError;
// XBoard's letter for a piece kind is WXF's (a pawn's is never written).
use super::wxf::letter;
use crate::position::Position;
use crate::types::{Move, PieceKind, Square};
use std::fmt;

/// How a SAN text numbers the ranks, from Red's back rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RankBase {
    /// 0..9, as ICCS (XBoard's default for Xiangqi).
    Zero,
    /// 1..10, as in chess (XBoard with `-rankOffset -1`, other writers).
    One,
}

impl RankBase {
    /// The other numbering.
    pub fn other(self) -> RankBase {
        match self {
            RankBase::Zero => RankBase::One,
            RankBase::One => RankBase::Zero,
        }
    }

    /// The board rank (0..9) a written rank number stands for.
    fn rank(self, number: u8) -> Option<u8> {
        let rank = match self {
            RankBase::Zero => number,
            RankBase::One => number.checked_sub(1)?,
        };
        (rank < 10).then_some(rank)
    }

    /// The written number of a board rank (0..9).
    fn number(self, rank: u8) -> u8 {
        match self {
            RankBase::Zero => rank,
            RankBase::One => rank + 1,
        }
    }
}

impl fmt::Display for RankBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RankBase::Zero => "ranks 0..9",
            RankBase::One => "ranks 1..10",
        })
    }
}

// ------------------------------------------------------------ writing

fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

fn square_text(sq: Square, ranks: RankBase) -> String {
    format!("{}{}", file_char(sq.file()), ranks.number(sq.rank()))
}

/// Writes a legal move of `pos` as XBoard does, with ranks numbered as
/// `ranks` says. (A move from an empty point comes out in ICCS.)
pub fn to_san(pos: &Position, m: Move, ranks: RankBase) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_on(from) else { return m.to_string() };
    let capture = pos.piece_on(to).is_some();
    let mut out = String::new();
    if piece.kind() == PieceKind::Pawn {
        // Two pawns never reach one point from the same file, so the file
        // is all a pawn ever needs.
        if from.file() != to.file() || capture {
            out.push(file_char(from.file()));
        }
    } else {
        out.push(letter(piece.kind()));
        // Which other pieces of this kind can go to the same point: on the
        // same rank (the file tells them apart), on the same file (the rank
        // does), elsewhere (either does).
        let (mut same_rank, mut same_file, mut elsewhere) = (false, false, false);
        for other in pos.legal_moves() {
            let o = other.from();
            if other.to() != to || o == from || pos.piece_on(o) != Some(piece) {
                continue;
            }
            if o.rank() == from.rank() {
                same_rank = true;
            } else if o.file() == from.file() {
                same_file = true;
            } else {
                elsewhere = true;
            }
        }
        if same_rank || (elsewhere && !same_file) {
            out.push(file_char(from.file()));
        }
        if same_file {
            out += &ranks.number(from.rank()).to_string();
        }
    }
    if capture {
        out.push('x');
    }
    out += &square_text(to, ranks);
    let mut after = *pos;
    after.make_move(m);
    if !after.has_legal_move() {
        out.push('#');
    } else if after.in_check() {
        out.push('+');
    }
    out
}

// ------------------------------------------------------------ reading

/// A SAN text read without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SanQuery {
    kind: PieceKind,
    from_file: Option<u8>,
    /// The from-rank as written (not yet converted by [`RankBase`]).
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

/// Whether `text` has the look of XBoard SAN with a rank 10 (so its game
/// counts ranks from 1).
pub fn has_rank_ten(text: &str) -> bool {
    query(text).is_some_and(|q| q.to_rank == 10 || q.from_rank == Some(10))
}

/// Whether a text in the shape of ICCS (`E5e7`, `C2e2`) is SAN instead: an
/// upper-case piece letter with a lower-case file after it. ICCS is
/// written in one case (`h2e2`, `H2E2`); XBoard writes pieces in upper
/// case and files in lower case.
pub fn is_san_shaped(text: &str) -> bool {
    let mut letters = text.chars().filter(|&c| c.is_ascii_alphabetic() && c != 'x');
    let first = letters.next().is_some_and(|c| super::wxf::kind_of(c).is_some());
    first && letters.next().is_some_and(|c| file_of(c).is_some())
}

/// Reads an XBoard SAN move legal in `pos`, with ranks counted as `ranks`
/// says.
pub fn parse_san(pos: &Position, text: &str, ranks: RankBase) -> Result<Move, NotationError> {
    let q = query(text.trim()).ok_or(NotationError::Unreadable)?;
    let rank = |number: u8| ranks.rank(number).ok_or(NotationError::NoSuchRank { number, ranks });
    let to = Square::from_file_rank(q.to_file, rank(q.to_rank)?).ok_or(NotationError::NoLegalMove)?;
    let from_rank = q.from_rank.map(rank).transpose()?;
    let mut fitting: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.to() == to
                && pos.piece_on(m.from()).is_some_and(|p| p.kind() == q.kind)
                && q.from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    // `e6` with several pawns able to go there: the one on file e (XBoard
    // gives the file of every pawn move but a straight one).
    let straight = |m: &Move| m.from().file() == to.file();
    if q.kind == PieceKind::Pawn && q.from_file.is_none() && fitting.len() > 1 && fitting.iter().any(straight) {
        fitting.retain(straight);
    }
    match fitting.len() {
        0 => Err(NotationError::NoLegalMove),
        1 => Ok(fitting[0]),
        _ => Err(NotationError::Ambiguous(fitting)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("test FEN")
    }

    fn iccs(pos: &Position, text: &str, ranks: RankBase) -> Result<String, NotationError> {
        parse_san(pos, text, ranks).map(|m| m.to_string())
    }

    /// Writes `iccs` in both numberings, checks the texts and reads them back.
    fn written(pos: &Position, iccs: &str, zero: &str, one: &str) {
        let m = Move::parse(iccs).expect("test move");
        assert_eq!(to_san(pos, m, RankBase::Zero), zero, "{iccs} from 0 in {}", pos.to_fen());
        assert_eq!(to_san(pos, m, RankBase::One), one, "{iccs} from 1 in {}", pos.to_fen());
        assert_eq!(parse_san(pos, zero, RankBase::Zero), Ok(m), "{zero}");
        assert_eq!(parse_san(pos, one, RankBase::One), Ok(m), "{one}");
    }

    #[test]
    fn xboard_san_from_the_start() {
        let start = Position::startpos();
        let zero = RankBase::Zero;
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
        assert_eq!(iccs(&start, "Pg4", zero), Ok("g3g4".into()));
        assert_eq!(iccs(&start, "P3g4", zero), Ok("g3g4".into()));
        assert_eq!(iccs(&start, "Ege2", zero), Ok("g0e2".into()));
        assert_eq!(iccs(&start, "Bce2", zero), Ok("c0e2".into()));
        // The same moves with ranks from 1.
        let one = RankBase::One;
        assert_eq!(iccs(&start, "Che3", one), Ok("h2e2".into()));
        assert_eq!(iccs(&start, "Hg3", one), Ok("h0g2".into()));
        assert_eq!(iccs(&start, "Cxb10", one), Ok("b2b9".into()));
        assert_eq!(iccs(&start, "g5", one), Ok("g3g4".into()));
        assert_eq!(iccs(&start, "P4g5", one), Ok("g3g4".into()));
        // Wrong ranks: nothing fits, or the rank is not on the board.
        assert_eq!(iccs(&start, "Che3", zero), Err(NotationError::NoLegalMove));
        assert_eq!(iccs(&start, "Rh10", zero), Err(NotationError::NoSuchRank { number: 10, ranks: zero }));
        assert_eq!(iccs(&start, "Rh0", one), Err(NotationError::NoSuchRank { number: 0, ranks: one }));
        assert_eq!(
            parse_san(&start, "Rh10", zero).unwrap_err().to_string(),
            "names rank 10, which is off the board in ranks 0..9"
        );
        // Not SAN.
        for text in ["C2=5", "h2e2x", "Xe2", "Cj2", "", "e", "Ch2e2e"] {
            assert_eq!(iccs(&start, text, zero), Err(NotationError::Unreadable), "{text}");
        }
    }

    #[test]
    fn file_rank_or_both() {
        // Red elephants g0 and g4 both reach e2 and i2, advisors d0 and d2
        // both reach e1: one file, so the rank tells them apart.
        let p = pos("3k5/9/9/9/9/6B2/9/3A5/9/3AK1B2 w - - 0 1");
        written(&p, "g0e2", "E0e2", "E1e3");
        written(&p, "g4e2", "E4e2", "E5e3");
        written(&p, "g4i2", "E4i2", "E5i3");
        written(&p, "d0e1", "A0e1", "A1e2");
        written(&p, "d2e1", "A2e1", "A3e2");
        written(&p, "e0f0", "Kf0", "Kf1");
        // Black elephants g9 and g5 both reach e7 (issue 31's `E5e7`).
        let p = pos("4k1b2/9/9/9/6b2/9/9/9/9/3K5 b - - 0 1");
        written(&p, "g5e7", "E5e7", "E6e8");
        written(&p, "g9e7", "E9e7", "E10e8");
        // Black horses b9 and d9 both reach c7: one rank, so the file.
        let p = pos("1n1nk4/9/9/9/9/9/9/9/9/5K3 b - - 0 1");
        written(&p, "b9c7", "Hbc7", "Hbc8");
        written(&p, "d9c7", "Hdc7", "Hdc8");
        written(&p, "b9a7", "Ha7", "Ha8");
        // Horses c2 and c6 both reach d4: one file, so the rank. (File and
        // rank together are never needed: that takes three pieces of a
        // kind, and only pawns come more than two to a side, which go by
        // their file. The whole square still reads.)
        let p = pos("5k3/9/9/2N6/9/9/9/2N6/9/3K5 w - - 0 1");
        written(&p, "c2d4", "H2d4", "H3d5");
        written(&p, "c6d4", "H6d4", "H7d5");
        assert!(matches!(parse_san(&p, "Hcd4", RankBase::Zero), Err(NotationError::Ambiguous(_))));
        for (text, ranks) in [("Hc2d4", RankBase::Zero), ("Hc2-d4", RankBase::Zero), ("Hc3d5", RankBase::One)] {
            assert_eq!(parse_san(&p, text, ranks), Ok(Move::parse("c2d4").unwrap()), "{text}");
        }
        // Rooks d0 and d4 both reach d2 along the file.
        let p = pos("4k4/9/9/9/9/3R5/9/9/9/3R1K3 w - - 0 1");
        written(&p, "d0d2", "R0d2", "R1d3");
        written(&p, "d4d2", "R4d2", "R5d3");
        written(&p, "d4e4", "Re4#", "Re5#");
        assert_eq!(parse_san(&p, "Rd4xd2", RankBase::Zero), Ok(Move::parse("d4d2").unwrap()));
        // Cannons on one rank: the file.
        let start = Position::startpos();
        written(&start, "h2e2", "Che2", "Che3");
        written(&start, "b2b9", "Cxb9", "Cxb10");
        written(&start, "h0g2", "Hg2", "Hg3");
        written(&start, "e3e4", "e4", "e5");
        assert_eq!(parse_san(&start, "P3e4", RankBase::Zero), Ok(Move::parse("e3e4").unwrap()));
        assert_eq!(parse_san(&start, "Pe3e4", RankBase::Zero), Ok(Move::parse("e3e4").unwrap()));
        assert_eq!(parse_san(&start, "P4e5", RankBase::One), Ok(Move::parse("e3e4").unwrap()));
    }

    #[test]
    fn pawns_captures_and_checks() {
        // Red pawns c5 and e5 across the river both reach d5 sideways.
        let p = pos("4k4/9/9/9/2P1P4/9/9/9/9/3K5 w - - 0 1");
        written(&p, "c5d5", "cd5", "cd6");
        written(&p, "e5d5", "ed5", "ed6");
        written(&p, "e5e6", "e6", "e7");
        // No pawn goes straight to d5: `d5` fits both sideways moves.
        assert!(matches!(parse_san(&p, "d5", RankBase::Zero), Err(NotationError::Ambiguous(m)) if m.len() == 2));
        // The rook takes on h9 with check; the pawn takes sideways.
        let p = pos("3k3n1/9/9/9/3pP4/9/9/9/9/4K2R1 w - - 0 1");
        written(&p, "h0h9", "Rxh9+", "Rxh10+");
        written(&p, "e5d5", "exd5", "exd6");
        // Mate: `#`.
        let p = pos("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1");
        written(&p, "a0a9", "Ra9#", "Ra10#");
        written(&p, "b8b9", "Rb9+", "Rb10+");
    }

    #[test]
    fn ambiguous_and_rank_ten() {
        let start = Position::startpos();
        match parse_san(&start, "Ee2", RankBase::Zero) {
            Err(NotationError::Ambiguous(moves)) => assert_eq!(moves.len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(has_rank_ten("Rh10+") && has_rank_ten("Rh10h5") && !has_rank_ten("Rh0") && !has_rank_ten("h2e2"));
        assert!(is_san_shaped("E5e7") && is_san_shaped("C2e2") && is_san_shaped("Rxh9+") && is_san_shaped("Hbc7"));
        assert!(!is_san_shaped("h2e2") && !is_san_shaped("H2E2") && !is_san_shaped("H2-E2") && !is_san_shaped("e4"));
    }
}
