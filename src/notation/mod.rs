//! Move notation: ICCS (`h2e2`, also `H2-E2`), WXF (`C2=5`), Chinese
//! (`炮二平五`, `马８进７`) and XBoard's SAN (`Hg2`, `Rxe4`, `E5e7`), to
//! text and back. SAN needs to know how the ranks are numbered (0..9 or
//! 1..10, [`RankBase`]); [`parse_any`] reads all four.
//!
//! WXF and Chinese name a move by the piece, the file it stands on (counted
//! 1..9 from the mover's right), a direction (forward, backward, sideways)
//! and a number: the destination file for sideways and diagonal moves, the
//! number of steps for a king, rook, cannon or pawn moving along its file.
//! When several pieces of one kind and colour share a file, their place on
//! it replaces the file number. The conventions (official WXF page, 1997;
//! Chinese rules as commonly printed):
//!
//! | pieces on the file | WXF | Chinese |
//! | --- | --- | --- |
//! | 2 (rook, horse, cannon, pawn) | `C+=5` front, `C-=5` rear | `前炮平五`, `后炮平五` |
//! | 3 pawns | `P+`, `P3` (the middle one keeps its file), `P-` | `前兵`, `中兵`, `后兵` |
//! | 4 pawns | `++`, `P+`, `P-`, `--` | `前兵`, `二兵`, `三兵`, `后兵` |
//! | 5 pawns | `++`, `P+`, `P3`, `P-`, `--` | `前兵`, `二兵`, `三兵`, `四兵`, `后兵` |
//! | 2+ pawns on each of two files | `3+`, `33` (middle), `3-`: file then place | `前七`, `中七`, `后七`: place then file |
//!
//! Advisors and elephants never take a place word (the direction already
//! tells which one moves). Output: WXF uses `=` for sideways (`.` is read
//! too), letters `K A E H R C P` (`N`, `B`, `G` read too); Chinese uses
//! simplified characters, Chinese numerals for Red and full-width digits
//! for Black (ASCII digits, traditional characters such as 車 馬 砲 帥 將
//! and the Red forms 俥 傌 are read too). Ordinal place words are Chinese
//! numerals for both sides.
//!
//! Reading is lenient: any reading of the symbols that fits exactly one
//! legal move is taken (e.g. the older `C3=5` for a rear cannon when the
//! front one cannot go there, or Fairy-Stockfish's `15=6` for the first
//! pawn on file 5); when several fit, the one whose canonical text it is
//! wins. A text that fits no legal move, or several, is refused.

mod chinese;
mod san;
#[cfg(test)]
mod tests;
mod wxf;

pub use chinese::{parse_chinese, to_chinese};
pub use san::{RankBase, has_rank_ten, is_san_shaped, parse_san, to_san};
pub use wxf::{parse_wxf, to_wxf};

use crate::position::{MoveError, Position};
use crate::types::{Color, Move, PieceKind, Square};
use std::fmt;

/// The notations Chariot reads and writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

/// Why a move text could not be read in a position. The messages follow
/// the text (`move 'E5e7' fits no legal move`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in any notation Chariot reads.
    Unreadable,
    /// SAN naming a rank the numbering in use does not have (`Rh10` with
    /// ranks 0..9, `Rh0` with 1..10).
    NoSuchRank { number: u8, ranks: RankBase },
    /// Readable, but it describes no legal move here.
    NoLegalMove,
    /// It fits several legal moves.
    Ambiguous(Vec<Move>),
    /// An ICCS move that is not legal here.
    Illegal(MoveError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unreadable => write!(f, "is not a move in ICCS, WXF, Chinese or XBoard SAN notation"),
            NotationError::NoSuchRank { number, ranks } => {
                write!(f, "names rank {number}, which is off the board in {ranks}")
            }
            NotationError::NoLegalMove => write!(f, "fits no legal move"),
            NotationError::Ambiguous(moves) => {
                let list: Vec<String> = moves.iter().map(Move::to_string).collect();
                write!(f, "is ambiguous: it fits {}", list.join(", "))
            }
            NotationError::Illegal(e) => write!(f, "is illegal: {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Writes a legal move of `pos` in `notation`.
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Wxf => to_wxf(pos, m),
        Notation::Chinese => to_chinese(pos, m),
    }
}

/// Writes a line of moves played one after the other from `pos`. Stops at
/// the first move that is not legal (a line from the TT may be cut short).
pub fn format_line(pos: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = *pos;
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if pos.check_move(m).is_err() {
            break;
        }
        out.push(format_move(&pos, m, notation));
        pos.make_move(m);
    }
    out
}

/// Reads a move in ICCS, WXF or Chinese (told apart by their look: ICCS is
/// letter-digit-letter-digit in one case, Chinese has Chinese characters).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if let Some(m) = iccs_move(text) {
        return pos.check_move(m).map(|_| m).map_err(NotationError::Illegal);
    }
    if text.is_ascii() { parse_wxf(pos, text) } else { parse_chinese(pos, text) }
}

/// Reads an ICCS move (`h2e2`, `H2-E2`) legal in `pos`.
pub fn parse_iccs(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m = iccs_move(text.trim()).ok_or(NotationError::Unreadable)?;
    pos.check_move(m).map(|_| m).map_err(NotationError::Illegal)
}

/// Reads a move in ICCS, WXF, Chinese or XBoard SAN (ranks as `ranks`
/// says). `E5e7` and `C2e2` are SAN, not ICCS: see [`is_san_shaped`].
pub fn parse_any(pos: &Position, text: &str, ranks: RankBase) -> Result<Move, NotationError> {
    match parse_move(pos, text) {
        Err(NotationError::Unreadable) => parse_san(pos, text, ranks),
        other => other,
    }
}

/// ICCS text as a move (not checked for legality): `h2e2`, `H2E2`, `h2-e2`.
/// Mixed case with an upper-case piece letter first (`E5e7`) is SAN.
fn iccs_move(text: &str) -> Option<Move> {
    if !text.is_ascii() || is_san_shaped(text) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let compact = match lower.len() {
        5 if lower.as_bytes()[2] == b'-' => format!("{}{}", &lower[..2], &lower[3..]),
        _ => lower,
    };
    Move::parse(&compact)
}

// ------------------------------------------------------------ move facts

/// Which way a piece goes, seen from its own side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// What the file-based notations need to know about a move.
#[derive(Clone, Copy, Debug)]
struct Facts {
    color: Color,
    kind: PieceKind,
    /// The piece's file, 1..9 from the mover's right.
    file: u8,
    /// Pieces of the same kind and colour on that file, and this one's
    /// place among them from the front (0 = foremost).
    count: usize,
    index: usize,
    /// Files with two or more pawns of the mover (for pawn moves).
    tandem_pawn_files: usize,
    direction: Direction,
    /// Steps for a king, rook, cannon or pawn going along its file;
    /// otherwise the destination file (1..9 from the mover's right).
    target: u8,
}

/// A file index (0 = `a`) as its number from `color`'s right.
fn side_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far forward `sq` is for `color` (larger = nearer the enemy).
fn advance(color: Color, sq: Square) -> i8 {
    match color {
        Color::Red => sq.rank() as i8,
        Color::Black => 9 - sq.rank() as i8,
    }
}

fn facts(pos: &Position, m: Move) -> Option<Facts> {
    let piece = pos.piece_on(m.from())?;
    let (color, kind) = (piece.color(), piece.kind());
    let (from, to) = (m.from(), m.to());
    let same = pos.pieces(color, kind);
    let on_file: Vec<Square> = same.iter().filter(|sq| sq.file() == from.file()).collect();
    let index = on_file.iter().filter(|&&sq| advance(color, sq) > advance(color, from)).count();
    let tandem_pawn_files = if kind == PieceKind::Pawn {
        (0..9u8).filter(|&f| same.iter().filter(|sq| sq.file() == f).count() >= 2).count()
    } else {
        0
    };
    let step = advance(color, to) - advance(color, from);
    let direction = match step {
        0 => Direction::Sideways,
        s if s > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let straight = matches!(kind, PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn);
    let target =
        if straight && direction != Direction::Sideways { step.unsigned_abs() } else { side_file(color, to.file()) };
    Some(Facts {
        color,
        kind,
        file: side_file(color, from.file()),
        count: on_file.len(),
        index,
        tandem_pawn_files,
        direction,
        target,
    })
}

/// A piece's place among those of its kind on its file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Front,
    /// The middle one of three.
    Middle,
    /// The second, third or fourth from the front (four or five pawns).
    Nth(u8),
    Rear,
}

/// How the canonical notation picks out the moving piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Selector {
    /// By its file.
    File,
    /// By its place on its file (the only file with several such pieces).
    Place(Place),
    /// By its place and its file (pawns, when two files hold several).
    PlaceOnFile(Place),
}

fn canonical_selector(f: &Facts) -> Selector {
    let tandem_kind = matches!(f.kind, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn);
    if f.count < 2 || !tandem_kind {
        return Selector::File;
    }
    let place = if f.index == 0 {
        Place::Front
    } else if f.index + 1 == f.count {
        Place::Rear
    } else if f.count == 3 {
        Place::Middle
    } else {
        Place::Nth(f.index as u8 + 1)
    };
    if f.kind == PieceKind::Pawn && f.tandem_pawn_files >= 2 {
        Selector::PlaceOnFile(place)
    } else {
        Selector::Place(place)
    }
}

/// A place as read from text, to be checked against a piece's place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PlaceQuery {
    Front,
    Rear,
    /// The middle of an odd number (three or five).
    Middle,
    /// The k-th from the front, 1-based.
    Nth(u8),
    /// WXF `+`: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `-`: the rear one of two or three, the second-rearmost of four or five.
    WxfMinus,
}

impl PlaceQuery {
    fn fits(self, count: usize, index: usize) -> bool {
        if count < 2 {
            return false;
        }
        match self {
            PlaceQuery::Front => index == 0,
            PlaceQuery::Rear => index + 1 == count,
            PlaceQuery::Middle => count % 2 == 1 && index == count / 2,
            PlaceQuery::Nth(k) => index + 1 == k as usize,
            PlaceQuery::WxfPlus => index == if count <= 3 { 0 } else { 1 },
            PlaceQuery::WxfMinus => index + if count <= 3 { 1 } else { 2 } == count,
        }
    }
}

/// A move as read from WXF or Chinese text, before it is matched with the
/// legal moves. `None` fields match anything.
#[derive(Clone, Copy, Debug)]
struct Query {
    kind: Option<PieceKind>,
    file: Option<u8>,
    place: Option<PlaceQuery>,
    direction: Direction,
    target: u8,
}

impl Query {
    fn fits(&self, f: &Facts) -> bool {
        self.kind.is_none_or(|k| k == f.kind)
            && self.file.is_none_or(|x| x == f.file)
            && self.place.is_none_or(|p| p.fits(f.count, f.index))
            && self.direction == f.direction
            && self.target == f.target
    }
}

/// The legal move that fits `query`; among several, the one whose canonical
/// text is `key` (the middle pawn of three is `P5=6` though all three fit
/// "a pawn on file 5"). Every canonical text fits its own move.
fn resolve(
    pos: &Position,
    key: &str,
    canonical: impl Fn(&Position, Move) -> String,
    query: Option<Query>,
) -> Result<Move, NotationError> {
    let query = query.ok_or(NotationError::Unreadable)?;
    let fitting: Vec<Move> =
        pos.legal_moves().into_iter().filter(|&m| facts(pos, m).is_some_and(|f| query.fits(&f))).collect();
    if fitting.len() > 1 {
        let exact: Vec<Move> = fitting.iter().copied().filter(|&m| canonical(pos, m) == key).collect();
        if exact.len() == 1 {
            return Ok(exact[0]);
        }
    }
    match fitting.len() {
        0 => Err(NotationError::NoLegalMove),
        1 => Ok(fitting[0]),
        _ => Err(NotationError::Ambiguous(fitting)),
    }
}

fn digit_value(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| (1..=9).contains(&d)).map(|d| d as u8)
}
