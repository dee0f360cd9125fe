//! XQF: the binary game format of XQStudio (象棋演播室) and the Chinese
//! Xiangqi programs after it, read into a [`GameRecord`]: the start
//! position, the main line, the result and the tags that are plain text.
//! Variations and comments are skipped.
//!
//! The layout, as XQStudio's author published it and other readers use
//! it (integers little-endian):
//!
//! - A 1024-byte header: `XQ`, the version (10 = XQStudio 1.0; 11..=18 =
//!   1.1 and later, encrypted; below 10, older files read like 1.0), the
//!   key bytes (mask at 3, A..D at 8..12, sum at 12, place/from/to keys at
//!   13..16), the places of the 32 pieces (16..48), the side to move (50:
//!   0 Red, 1 Black), the result (51: 0 unknown, 1 Red wins, 2 Black wins,
//!   3 or 4 draw), and Pascal strings (a length byte, then the text) for
//!   the title (80), event (208), date (272), site (288), Red (304) and
//!   Black (320).
//! - A place is one byte, file * 10 + rank with rank 0 on Red's side, in
//!   the piece order `RNBAKABNRCCPPPPP`, Red's sixteen then Black's; a
//!   place above 89 means the piece is not on the board.
//! - Then the move tree, depth first: a root record, then one record per
//!   move: from-place + 0x18, to-place + 0x20, flags, a spare byte; then
//!   the comment (a 4-byte length and the text): always in version 10,
//!   with flag 0x20 later. Flags: a next move (0x80; version 10: any of
//!   0xF0) and a variation (0x40; version 10: any of 0x0F). A move's next
//!   move follows it at once, so the main line is the records up to the
//!   first one without "next move".
//! - Versions 11 and later hide this behind keys derived from the header
//!   bytes: each key byte k becomes `((((k*k*3+9)*3+8)*2+1)*3+8) * prev`
//!   (mod 256; `prev` is the place key itself for the place key, then the
//!   place key for the from key, the from key for the to key). Places are
//!   shifted by the place key (and, from version 12, rotated by it among
//!   the 32 slots); from- and to-places by the from and to keys; comment
//!   lengths by `(sum * 256 + place key byte) % 32000 + 767`; and every
//!   byte after the header by a 32-byte key: the text
//!   `[(C) Copyright Mr. Dong Shiwei.]` masked byte by byte with four key
//!   bytes (`key & mask | or` for the sum, place, from and to key bytes),
//!   indexed by the byte's offset in the file.
//!
//! Nothing here panics on bad bytes: every problem is a [`RecordError`]
//! (line 0: a binary file has no lines) naming the ply where it applies.

use super::{GameRecord, RecordError, RecordErrorKind};
use crate::notation::NotationError;
use crate::position::Position;
use crate::rules::GameResult;
use crate::types::{Move, Square};
use std::fmt;

/// The first bytes of every XQF file.
pub const MAGIC: &[u8; 2] = b"XQ";
/// The header's size; the move records start here.
pub const HEADER_LEN: usize = 0x400;
/// The newest version XQStudio writes.
pub const MAX_VERSION: u8 = 18;

const PIECE_LETTERS: &[u8; 16] = b"RNBAKABNRCCPPPPP";
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// Header offsets of the Pascal strings kept as tags, with their field sizes.
const TEXT_TAGS: [(&str, usize, usize); 6] =
    [("Event", 208, 64), ("Date", 272, 16), ("Site", 288, 16), ("Red", 304, 16), ("Black", 320, 16), ("Title", 80, 64)];

/// What is wrong with an XQF file (beyond an illegal move, which is a
/// [`NotationError`] like in text records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfError {
    /// Shorter than the 1024-byte header.
    Short(usize),
    /// Not starting with `XQ`.
    NotXqf,
    /// A version newer than XQStudio's.
    Version(u8),
    /// Two pieces placed on one point.
    TwoPieces(Square),
    /// The move record of this ply (0: the root) is cut off at the end.
    Truncated,
    /// A move record whose from- or to-place is off the board.
    OffBoard { from: u8, to: u8 },
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XqfError::Short(n) => write!(f, "{n} bytes, shorter than the {HEADER_LEN}-byte XQF header"),
            XqfError::NotXqf => write!(f, "not an XQF file (it does not start with 'XQ')"),
            XqfError::Version(v) => write!(f, "XQF version {v} is newer than any known ({MAX_VERSION})"),
            XqfError::TwoPieces(sq) => write!(f, "the start position has two pieces on {sq}"),
            XqfError::Truncated => write!(f, "the move record is cut off (the file ends)"),
            XqfError::OffBoard { from, to } => {
                write!(f, "the move record goes from place {from} to place {to}, not both on the board (0..=89)")
            }
        }
    }
}

/// Whether `bytes` look like an XQF file (they start with `XQ`; no text
/// record does).
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads the one game of an XQF file.
pub fn read(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    let header = Header::parse(bytes).map_err(|e| error(None, String::new(), RecordErrorKind::Xqf(e)))?;
    let places = header.places().map_err(|e| error(None, String::new(), RecordErrorKind::Xqf(e)))?;
    let line = main_line(bytes, &header)?;
    // The side to move: the owner of the first moving piece, else the
    // header's word (a record of a position without moves).
    let red_first = match line.first().and_then(|&(from, _)| place_square(from)).and_then(|sq| places[sq.index()]) {
        Some(letter) => letter.is_ascii_uppercase(),
        None => header.black_first == 0,
    };
    let fen = format!("{} {} - - 0 1", board_fen(&places), if red_first { 'w' } else { 'b' });
    let start = Position::from_fen(&fen).map_err(|e| error(None, fen.clone(), RecordErrorKind::BadFen(e)))?;
    let mut pos = start;
    let mut moves = Vec::with_capacity(line.len());
    for (index, &(from, to)) in line.iter().enumerate() {
        let ply = Some(index + 1);
        let m = place_square(from)
            .zip(place_square(to))
            .and_then(|(f, t)| Move::new(f, t))
            .ok_or_else(|| error(ply, String::new(), RecordErrorKind::Xqf(XqfError::OffBoard { from, to })))?;
        pos.check_move(m)
            .map_err(|e| error(ply, m.to_string(), RecordErrorKind::BadMove(NotationError::Illegal(e))))?;
        pos.make_move(m);
        moves.push(m);
    }
    let result = match header.result {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 | 4 => Some(GameResult::Draw),
        _ => None,
    };
    let mut tags = vec![("Format".to_string(), format!("XQF {}", header.version))];
    for (name, at, size) in TEXT_TAGS {
        // The title stands in for a missing event.
        let name = if name == "Title" { "Event" } else { name };
        if let Some(text) = pascal_text(&bytes[at..at + size])
            && !tags.iter().any(|(n, _)| n == name)
        {
            tags.push((name.to_string(), text));
        }
    }
    if let Some(r) = result {
        tags.push(("Result".to_string(), r.to_string()));
    }
    Ok(GameRecord { tags, start, moves, result })
}

fn error(ply: Option<usize>, token: String, kind: RecordErrorKind) -> RecordError {
    RecordError { game: 1, line: 0, ply, token, kind }
}

/// A Pascal string field as text, if it is non-empty UTF-8 (ASCII in
/// practice: Chinese names are GBK, which Chariot does not decode).
fn pascal_text(field: &[u8]) -> Option<String> {
    let (&len, rest) = field.split_first()?;
    let text = std::str::from_utf8(rest.get(..usize::from(len))?).ok()?.trim();
    (!text.is_empty() && !text.chars().any(char::is_control)).then(|| text.to_string())
}

/// The board field of a FEN from the 90 points.
fn board_fen(places: &[Option<u8>; 90]) -> String {
    let mut fen = String::with_capacity(90);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match places[rank * 9 + file] {
                Some(letter) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(char::from(letter));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}

/// The header fields the reader uses, with the derived keys.
struct Header {
    version: u8,
    raw_places: [u8; 32],
    black_first: u8,
    result: u8,
    /// Derived keys (all 0 before version 11).
    place_key: u8,
    from_key: u8,
    to_key: u8,
    comment_key: i64,
    /// The 32-byte key for the bytes after the header (None: not encrypted).
    stream_key: Option<[u8; 32]>,
}

/// XQStudio's key step: `((((k*k*3+9)*3+8)*2+1)*3+8) * prev`, mod 256.
fn derive(k: u8, prev: u8) -> u8 {
    let k = u32::from(k);
    let base = (((k * k * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    (base.wrapping_mul(u32::from(prev)) & 0xFF) as u8
}

impl Header {
    fn parse(bytes: &[u8]) -> Result<Header, XqfError> {
        if !is_xqf(bytes) {
            return Err(XqfError::NotXqf);
        }
        let head = bytes.get(..HEADER_LEN).ok_or(XqfError::Short(bytes.len()))?;
        let version = head[2];
        if version > MAX_VERSION {
            return Err(XqfError::Version(version));
        }
        let mut raw_places = [0u8; 32];
        raw_places.copy_from_slice(&head[16..48]);
        let mut header = Header {
            version,
            raw_places,
            black_first: head[50],
            result: head[51],
            place_key: 0,
            from_key: 0,
            to_key: 0,
            comment_key: 0,
            stream_key: None,
        };
        if version > 10 {
            let (mask, ors, sum) = (head[3], &head[8..12], head[12]);
            let (xy, xyf, xyt) = (head[13], head[14], head[15]);
            header.place_key = derive(xy, xy);
            header.from_key = derive(xyf, header.place_key);
            header.to_key = derive(xyt, header.from_key);
            header.comment_key = (i64::from(sum) * 256 + i64::from(xy)) % 32000 + 767;
            let bytes4 = [sum, xy, xyf, xyt];
            let mut key = [0u8; 32];
            for (i, k) in key.iter_mut().enumerate() {
                *k = COPYRIGHT[i] & ((bytes4[i % 4] & mask) | ors[i % 4]);
            }
            header.stream_key = Some(key);
        }
        Ok(header)
    }

    /// The piece letter (FEN, Red upper case) on each of the 90 points.
    fn places(&self) -> Result<[Option<u8>; 90], XqfError> {
        let mut slots = self.raw_places;
        if self.version >= 12 {
            for (i, &raw) in self.raw_places.iter().enumerate() {
                slots[(i + usize::from(self.place_key) + 1) % 32] = raw;
            }
        }
        let mut board = [None; 90];
        for (i, &slot) in slots.iter().enumerate() {
            let place = slot.wrapping_sub(self.place_key);
            let Some(sq) = place_square(place) else { continue };
            let letter = PIECE_LETTERS[i % 16];
            let letter = if i < 16 { letter } else { letter.to_ascii_lowercase() };
            if board[sq.index()].replace(letter).is_some() {
                return Err(XqfError::TwoPieces(sq));
            }
        }
        Ok(board)
    }
}

/// The from- and to-places (XQF places, maybe off the board) of the main
/// line's moves.
fn main_line(bytes: &[u8], header: &Header) -> Result<Vec<(u8, u8)>, RecordError> {
    let mut reader = Stream { bytes, at: HEADER_LEN, key: header.stream_key };
    let mut line = Vec::new();
    let truncated = |ply: usize| error(Some(ply), String::new(), RecordErrorKind::Xqf(XqfError::Truncated));
    // The root record (no move; its comment is the game's).
    let mut ply = 0;
    loop {
        if ply > 0 && reader.at == bytes.len() {
            // A last move marked "next" with nothing after it: the line ends.
            break;
        }
        let record = reader.take(4).ok_or_else(|| truncated(ply))?;
        let (raw_from, raw_to, flags) = (record[0], record[1], record[2]);
        let (next, comment) =
            if header.version <= 10 { (flags & 0xF0 != 0, true) } else { (flags & 0x80 != 0, flags & 0x20 != 0) };
        if comment {
            let len = reader.take(4).ok_or_else(|| truncated(ply))?;
            let len = i64::from(i32::from_le_bytes([len[0], len[1], len[2], len[3]])) - header.comment_key;
            if len > 0 {
                let len = usize::try_from(len).map_err(|_| truncated(ply))?;
                reader.skip(len).ok_or_else(|| truncated(ply))?;
            }
        }
        if ply > 0 {
            let from = raw_from.wrapping_sub(0x18).wrapping_sub(header.from_key);
            let to = raw_to.wrapping_sub(0x20).wrapping_sub(header.to_key);
            line.push((from, to));
        }
        if !next {
            break;
        }
        ply += 1;
    }
    Ok(line)
}

/// An XQF place (file * 10 + rank) as a square; `None` above 89.
fn place_square(place: u8) -> Option<Square> {
    // file = place / 10 <= 8 and rank = place % 10 <= 9 for every place <= 89.
    (place <= 89).then(|| Square::from_index(usize::from(place % 10) * 9 + usize::from(place / 10)))
}

/// The bytes after the header, decrypted as they are read.
struct Stream<'a> {
    bytes: &'a [u8],
    at: usize,
    key: Option<[u8; 32]>,
}

impl Stream<'_> {
    fn take(&mut self, n: usize) -> Option<Vec<u8>> {
        let end = self.at.checked_add(n)?;
        let raw = self.bytes.get(self.at..end)?;
        let out = raw
            .iter()
            .enumerate()
            .map(|(i, &b)| match &self.key {
                Some(key) => b.wrapping_sub(key[(self.at + i) % 32]),
                None => b,
            })
            .collect();
        self.at = end;
        Some(out)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len())?;
        self.at = end;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The key bytes of an encrypted file: mask, A..D, sum, place, from, to.
    struct Keys {
        mask: u8,
        ors: [u8; 4],
        xy: u8,
        xyf: u8,
        xyt: u8,
    }

    /// Writes an XQF file (the reader's inverse, from the format
    /// description): the position's pieces, the moves as the main line
    /// (the second one with a comment), a variation after them, and the
    /// result byte.
    fn write_xqf(version: u8, keys: &Keys, start: &Position, moves: &[Move], result: u8) -> Vec<u8> {
        let mut head = vec![0u8; HEADER_LEN];
        head[..2].copy_from_slice(MAGIC);
        head[2] = version;
        let sum = 0u8.wrapping_sub(keys.xy).wrapping_sub(keys.xyf).wrapping_sub(keys.xyt);
        if version > 10 {
            head[3] = keys.mask;
            head[8..12].copy_from_slice(&keys.ors);
            head[12..16].copy_from_slice(&[sum, keys.xy, keys.xyf, keys.xyt]);
        }
        head[50] = u8::from(start.side_to_move() == crate::types::Color::Black);
        head[51] = result;
        let red = b"Chariot";
        head[304] = red.len() as u8;
        head[305..305 + red.len()].copy_from_slice(red);
        // Decoded slots: the pieces in the fixed order, 0xFF when missing.
        let mut slots = [0xFFu8; 32];
        let mut used = [false; 90];
        for (i, slot) in slots.iter_mut().enumerate() {
            let letter = if i < 16 { PIECE_LETTERS[i] } else { PIECE_LETTERS[i % 16].to_ascii_lowercase() };
            let found = Square::all().find(|&sq| {
                !used[sq.index()] && start.piece_on(sq).is_some_and(|p| p.to_string().as_bytes() == [letter])
            });
            if let Some(sq) = found {
                used[sq.index()] = true;
                *slot = sq.file() * 10 + sq.rank();
            }
        }
        let header = Header::parse(&[&head[..], &[0u8; 4]].concat()).expect("own header");
        for (i, &slot) in slots.iter().enumerate() {
            let stored = slot.wrapping_add(header.place_key);
            // The reader moves raw byte r to slot (r + key + 1) % 32.
            let raw_index = if version >= 12 { (i + 32 - (usize::from(header.place_key) + 1) % 32) % 32 } else { i };
            head[16 + raw_index] = stored;
        }
        // The move records.
        let mut body = Vec::new();
        let record = |body: &mut Vec<u8>, from: u8, to: u8, next: bool, var: bool, comment: Option<&[u8]>| {
            let mut flags = 0u8;
            if version <= 10 {
                flags |= if next { 0x10 } else { 0 } | if var { 0x01 } else { 0 };
            } else {
                flags |= if next { 0x80 } else { 0 } | if var { 0x40 } else { 0 };
                flags |= if comment.is_some() { 0x20 } else { 0 };
            }
            body.extend([
                from.wrapping_add(0x18).wrapping_add(header.from_key),
                to.wrapping_add(0x20).wrapping_add(header.to_key),
                flags,
                0,
            ]);
            if version <= 10 || comment.is_some() {
                let text = comment.unwrap_or(b"");
                body.extend((text.len() as i32 + header.comment_key as i32).to_le_bytes());
                body.extend(text);
            }
        };
        let place = |sq: Square| sq.file() * 10 + sq.rank();
        record(&mut body, 0, 0, !moves.is_empty(), false, Some(b"game comment"));
        for (i, m) in moves.iter().enumerate() {
            let comment: Option<&[u8]> = (i == 1).then_some(MOVE_COMMENT);
            record(&mut body, place(m.from()), place(m.to()), i + 1 < moves.len(), i == 0, comment);
        }
        if let Some(m) = moves.first() {
            // The variation of the first move: the same move again, at the end.
            record(&mut body, place(m.from()), place(m.to()), false, false, None);
        }
        if let Some(key) = header.stream_key {
            for (i, b) in body.iter_mut().enumerate() {
                *b = b.wrapping_add(key[(HEADER_LEN + i) % 32]);
            }
        }
        [head, body].concat()
    }

    const MOVE_COMMENT: &[u8] = b"\xc5\xda a GBK comment";

    fn random_game(rng: &mut Rng, plies: usize) -> Vec<Move> {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            pos.make_move(m);
            moves.push(m);
        }
        moves
    }

    /// The XQF files under `tests/data/xqf/` (read through the binary by
    /// tests/records.rs): made by `write_xqf`, so the repository ships no
    /// third-party files. Real files written by XQStudio-family programs
    /// were checked by hand (see that folder's README).
    fn shipped_fixtures() -> Vec<(&'static str, Vec<u8>)> {
        let game = |fen: Option<&str>, text: &str| {
            let start = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).expect("fixture FEN"));
            let mut pos = start;
            let moves: Vec<Move> = text
                .split_whitespace()
                .map(|t| {
                    let m = pos.parse_legal_move(t).expect("fixture move");
                    pos.make_move(m);
                    m
                })
                .collect();
            (start, moves)
        };
        let plain = Keys { mask: 0, ors: [0; 4], xy: 0, xyf: 0, xyt: 0 };
        let keys = Keys { mask: 0xA7, ors: [0x13, 0x9C, 0x2E, 0x61], xy: 0x5B, xyf: 0xD4, xyt: 0x38 };
        let (start, opening) = game(None, FIXTURE_OPENING);
        let (composed, finish) = game(Some(FIXTURE_COMPOSED_FEN), FIXTURE_COMPOSED_MOVES);
        vec![
            ("v10-plain.xqf", write_xqf(10, &plain, &start, &opening, 2)),
            ("v18-encrypted.xqf", write_xqf(18, &keys, &start, &opening, 1)),
            ("v16-composed.xqf", write_xqf(16, &keys, &composed, &finish, 0)),
        ]
    }

    /// The moves of the shipped fixtures (also in tests/records.rs).
    const FIXTURE_OPENING: &str = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7h3 c3c4 c6c5 b2b6 g6g5";
    const FIXTURE_COMPOSED_FEN: &str = "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1";
    const FIXTURE_COMPOSED_MOVES: &str = "d7d9 e9d9 f8f9";

    #[test]
    fn shipped_fixtures_are_the_writers_output() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/xqf");
        for (name, bytes) in shipped_fixtures() {
            let path = dir.join(name);
            if std::env::var_os("CHARIOT_WRITE_FIXTURES").is_some() {
                std::fs::write(&path, &bytes).expect("writing a fixture");
            }
            let shipped = std::fs::read(&path).unwrap_or_default();
            assert!(shipped == bytes, "{name}: regenerate with CHARIOT_WRITE_FIXTURES=1 cargo test shipped_fixtures");
            assert!(read(&bytes).is_ok(), "{name}");
        }
    }

    #[test]
    fn generated_files_of_every_version_read_back() {
        let mut rng = Rng::new(11);
        for version in [10u8, 11, 12, 16, 18] {
            for round in 0..20 {
                let keys = Keys {
                    mask: rng.below(256) as u8 | 0x80,
                    ors: [rng.below(256) as u8, rng.below(256) as u8, rng.below(256) as u8, rng.below(256) as u8],
                    xy: rng.below(256) as u8,
                    xyf: rng.below(256) as u8,
                    xyt: rng.below(256) as u8,
                };
                let moves = random_game(&mut rng, round * 3);
                let bytes = write_xqf(version, &keys, &Position::startpos(), &moves, 2);
                let game = read(&bytes).unwrap_or_else(|e| panic!("version {version}, round {round}: {e}"));
                assert_eq!(game.start, Position::startpos(), "version {version}");
                assert_eq!(game.moves, moves, "version {version}, round {round}");
                assert_eq!(game.result, Some(GameResult::BlackWins));
                assert_eq!(game.tag("Red"), Some("Chariot"));
                assert_eq!(game.tag("Format"), Some(format!("XQF {version}").as_str()));
            }
        }
    }

    #[test]
    fn a_position_with_black_to_move_and_no_moves() {
        let fen = "3k5/9/9/9/9/9/9/9/4A4/R3K4 b - - 0 1";
        let start = Position::from_fen(fen).unwrap();
        let keys = Keys { mask: 0xFF, ors: [0; 4], xy: 7, xyf: 9, xyt: 200 };
        let game = read(&write_xqf(18, &keys, &start, &[], 0)).expect("reads");
        assert_eq!(game.start.to_fen(), fen);
        assert!(game.moves.is_empty() && game.result.is_none());
    }

    #[test]
    fn bad_files_are_errors_naming_the_ply() {
        let mut rng = Rng::new(5);
        let moves = random_game(&mut rng, 12);
        let keys = Keys { mask: 0xFF, ors: [1, 2, 3, 4], xy: 1, xyf: 2, xyt: 3 };
        let bytes = write_xqf(18, &keys, &Position::startpos(), &moves, 1);
        let text = |b: &[u8]| read(b).expect_err("bad").to_string();
        assert_eq!(text(&bytes[..100]), "game 1: 100 bytes, shorter than the 1024-byte XQF header");
        assert_eq!(text(b"PK\x03\x04"), "game 1: not an XQF file (it does not start with 'XQ')");
        let mut newer = bytes.clone();
        newer[2] = 40;
        assert_eq!(text(&newer), "game 1: XQF version 40 is newer than any known (18)");
        // Cut in the middle of the fifth move record: the header and root
        // (16 bytes with the game comment), then 4 bytes per move, the
        // second with a comment.
        let cut = HEADER_LEN + (4 + 4 + 12) + 4 + (4 + 4 + MOVE_COMMENT.len()) + 4 + 4 + 2;
        assert_eq!(text(&bytes[..cut]), "game 1, ply 5: the move record is cut off (the file ends)");
        // Moves from a position where they are illegal: Red to move, but
        // the first recorded move is Black's.
        let black_first = write_xqf(18, &keys, &Position::startpos(), &moves[1..], 1);
        let message = text(&black_first);
        assert!(message.starts_with("game 1, ply 2: move '"), "{message}");
    }

    #[test]
    fn mutated_and_cut_files_never_panic() {
        let mut rng = Rng::new(3);
        let moves = random_game(&mut rng, 40);
        let keys = Keys { mask: 0xAF, ors: [9, 8, 7, 6], xy: 77, xyf: 66, xyt: 55 };
        let files = [
            write_xqf(18, &keys, &Position::startpos(), &moves, 3),
            write_xqf(10, &keys, &Position::startpos(), &moves, 3),
            write_xqf(16, &keys, &Position::startpos(), &moves[..7], 1),
        ];
        for bytes in &files {
            for len in 0..bytes.len() {
                let _ = read(&bytes[..len]);
            }
            for at in 0..bytes.len() {
                for flip in [0x01u8, 0x80, 0xFF] {
                    let mut mutated = bytes.clone();
                    mutated[at] ^= flip;
                    let _ = read(&mutated);
                }
                let mut random = bytes.clone();
                random[at] = rng.below(256) as u8;
                let _ = read(&random);
            }
        }
    }
}
