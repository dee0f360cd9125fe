//! Version 2 of the training-data file: packed games. A game is stored as
//! its first searched position (the full board, once) and then each
//! searched position's best move and score; every other field of a
//! [`Record`] follows from those: the next position is the previous one
//! after its best move, the ply counts on, the side to move alternates, the
//! check, capture and mate flags are recomputed and the result is stored
//! once a game. About 4 bytes a position instead of 40.
//!
//! Header (40 bytes, like version 1's): `chariot-datagen v2\n` zero-padded
//! to 24 bytes, the run's `--seed` (`u64`, bytes 24-31), byte 32 is 1 when
//! the seed is known (a file one `chariot datagen` command wrote) and 0
//! otherwise (converted or merged files), the rest zero. Then games, each:
//!
//! | bytes | field |
//! |-------|-------|
//! | 0-3   | positions `n`, `u32`, at least 1 |
//! | 4-5   | ply of the first position, `u16` (later ones count on, saturating) |
//! | 6     | bit 0: Black to move at the first position; bits 1-2: the game's result for Red, 0 lost, 1 draw, 2 won; the other bits 0 |
//! | 7-18  | occupied squares of the first position, 90 bits, bit *i* = square *i* |
//! | 19-   | its pieces in square order, 4 bits each, low nibble first (`Piece` index 0-13), `ceil(pieces / 2)` bytes |
//! | then  | `n` times: best move `u16` (from + 128 × to), score `i16` |
//!
//! All little-endian. Decoding replays every move (each checked legal), so a
//! file that decodes is a set of legal games.

use super::format::{Outcome, Record, RecordError, position_of};
use crate::position::FenError;
use crate::types::score::is_mate;
use crate::types::{Bitboard, Color, Move, Piece, Square};
use std::fmt;

pub const MAGIC: &[u8] = b"chariot-datagen v2\n";
pub const HEADER_BYTES: usize = 40;
/// A game's fixed part before the pieces' nibbles.
const GAME_FIXED_BYTES: usize = 19;
/// A position's move and score.
pub const MOVE_BYTES: usize = 4;

const SIDE_BIT: u8 = 1;
const RESULT_SHIFT: u8 = 1;

/// The header; `seed` is the run's seed when known.
pub fn header(seed: Option<u64>) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..MAGIC.len()].copy_from_slice(MAGIC);
    if let Some(seed) = seed {
        h[24..32].copy_from_slice(&seed.to_le_bytes());
        h[32] = 1;
    }
    h
}

/// The seed a version 2 header records (`Some(None)`: not known);
/// `None`: not a version 2 header.
pub fn header_seed(h: &[u8]) -> Option<Option<u64>> {
    if h.len() < HEADER_BYTES || &h[..MAGIC.len()] != MAGIC {
        return None;
    }
    let zero = |range: std::ops::Range<usize>| h[range].iter().all(|&b| b == 0);
    if !zero(MAGIC.len()..24) || !zero(33..HEADER_BYTES) {
        return None;
    }
    match h[32] {
        0 if zero(24..32) => Some(None),
        1 => Some(Some(u64::from_le_bytes(h[24..32].try_into().expect("8 bytes")))),
        _ => None,
    }
}

/// What is wrong with a game, and where in it (bytes from its start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game runs past the end of the file (`needed` bytes, `left` there).
    Truncated { needed: usize, left: usize },
    /// A game of no positions.
    Empty,
    /// The side and result byte has unknown bits or a result beyond 2.
    Flags(u8),
    /// The first board: squares beyond the board, too many pieces or a bad
    /// piece code.
    Board(RecordError),
    /// The half byte after an odd number of pieces is not 0 (each game has
    /// one encoding, so a decoded game encodes back to its own bytes).
    Padding(u8),
    /// The first position is not a legal one.
    Position(FenError),
    /// Position `index` (0-based in the game): its move is not legal there.
    IllegalMove { index: usize, bits: u16 },
    /// A version 1 game that a packed game cannot hold: record `index` of
    /// the game differs in `field` from what its predecessor implies.
    Inconsistent { index: usize, field: &'static str },
    /// A version 1 file's last records have no game end.
    Unfinished,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Truncated { needed, left } => write!(f, "truncated game ({needed} bytes needed, {left} left)"),
            GameError::Empty => write!(f, "a game of no positions"),
            GameError::Flags(b) => write!(f, "bad side and result byte {b:#04x}"),
            GameError::Board(e) => write!(f, "first board: {e}"),
            GameError::Padding(n) => write!(f, "first board: the half byte after the last piece is {n}, not 0"),
            GameError::Position(e) => write!(f, "first position: {e}"),
            GameError::IllegalMove { index, bits } => write!(f, "position {index}: illegal move {bits:#06x}"),
            GameError::Inconsistent { index, field } => write!(f, "record {index} of the game: {field} inconsistent"),
            GameError::Unfinished => write!(f, "an unfinished game (no game-end flag)"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game that failed to decode: the error and its byte offset from the
/// game's start.
pub type Failure = (usize, GameError);

fn move_bits(m: Move) -> u16 {
    m.from().index() as u16 + 128 * m.to().index() as u16
}

fn move_of(bits: u16) -> Option<Move> {
    // `bits / 128` reaches 511: cut to a u8 it would wrap onto a square
    // (266 onto 10), and two texts would read as one move (found by fuzzing).
    Move::new(Square::new((bits % 128) as u8)?, Square::new(u8::try_from(bits / 128).ok()?)?)
}

/// The game's result for Red from one of its records.
fn red_result(r: &Record) -> u8 {
    let o = r.outcome as u8;
    if r.side == Color::Red { o } else { 2 - o }
}

/// Encodes one game's records (in order, as `play_game` makes them).
/// Fields a packed game does not store are taken from the first record;
/// [`check_consistent`] says whether the records follow from them.
pub fn encode_game(records: &[Record], out: &mut Vec<u8>) {
    let Some(first) = records.first() else { return };
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&first.ply.to_le_bytes());
    let side = if first.side == Color::Black { SIDE_BIT } else { 0 };
    out.push(side | red_result(first) << RESULT_SHIFT);
    let mut occupied: u128 = 0;
    let mut codes = Vec::with_capacity(32);
    for (i, p) in first.board.iter().enumerate() {
        if let Some(p) = p {
            occupied |= 1 << i;
            codes.push(p.index() as u8);
        }
    }
    out.extend_from_slice(&occupied.to_le_bytes()[..12]);
    for pair in codes.chunks(2) {
        out.push(pair[0] | pair.get(1).map_or(0, |c| c << 4));
    }
    for r in records {
        out.extend_from_slice(&move_bits(r.best).to_le_bytes());
        out.extend_from_slice(&r.score.to_le_bytes());
    }
}

/// Decodes the game at the start of `bytes` into records; returns them and
/// the game's length in bytes. Allocates only for what `bytes` holds.
pub fn decode_game(bytes: &[u8]) -> Result<(Vec<Record>, usize), Failure> {
    let need = |n: usize| {
        if bytes.len() < n { Err((0, GameError::Truncated { needed: n, left: bytes.len() })) } else { Ok(()) }
    };
    need(GAME_FIXED_BYTES)?;
    let n = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as usize;
    if n == 0 {
        return Err((0, GameError::Empty));
    }
    let first_ply = u16::from_le_bytes([bytes[4], bytes[5]]);
    let flags = bytes[6];
    let red = flags >> RESULT_SHIFT;
    if red > 2 {
        return Err((6, GameError::Flags(flags)));
    }
    let mut occupied_bytes = [0u8; 16];
    occupied_bytes[..12].copy_from_slice(&bytes[7..19]);
    let occupied = u128::from_le_bytes(occupied_bytes);
    if occupied >> Square::COUNT != 0 || occupied.count_ones() > 32 {
        return Err((7, GameError::Board(RecordError::Occupancy)));
    }
    let pieces = occupied.count_ones() as usize;
    let moves_at = GAME_FIXED_BYTES + pieces.div_ceil(2);
    let total = n.checked_mul(MOVE_BYTES).and_then(|m| m.checked_add(moves_at)).unwrap_or(usize::MAX);
    need(total)?;
    let mut board = [None; 90];
    for (count, sq) in Bitboard::from_bits(occupied).iter().enumerate() {
        let code = (bytes[GAME_FIXED_BYTES + count / 2] >> (4 * (count % 2))) & 15;
        let piece = Piece::all()
            .nth(code as usize)
            .ok_or((GAME_FIXED_BYTES, GameError::Board(RecordError::PieceCode(code))))?;
        board[sq.index()] = Some(piece);
    }
    if pieces % 2 == 1 {
        let padding = bytes[moves_at - 1] >> 4;
        if padding != 0 {
            return Err((moves_at - 1, GameError::Padding(padding)));
        }
    }
    let side = if flags & SIDE_BIT != 0 { Color::Black } else { Color::Red };
    let mut pos = position_of(&board, side).map_err(|e| (7, GameError::Position(e)))?;
    // The file holds `n` moves (checked above), so this is bounded by it.
    let mut records = Vec::with_capacity(n);
    for i in 0..n {
        let at = moves_at + MOVE_BYTES * i;
        let bits = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let score = i16::from_le_bytes([bytes[at + 2], bytes[at + 3]]);
        let best = move_of(bits)
            .filter(|&m| pos.check_move(m).is_ok())
            .ok_or((at, GameError::IllegalMove { index: i, bits }))?;
        let side = pos.side_to_move();
        let outcome = match (red, side) {
            (1, _) => Outcome::Draw,
            (2, Color::Red) | (0, Color::Black) => Outcome::Win,
            _ => Outcome::Loss,
        };
        records.push(Record {
            board: Record::board_of(&pos),
            side,
            score,
            ply: first_ply.saturating_add(i.min(u16::MAX as usize) as u16),
            best,
            outcome,
            in_check: pos.in_check(),
            capture: pos.is_capture(best),
            mate_score: is_mate(i32::from(score)),
            game_end: i + 1 == n,
        });
        pos.make_move(best);
    }
    Ok((records, total))
}

/// The length in bytes of the game at the start of `bytes`, from its
/// counts alone (no replay), or `None` if `bytes` does not hold it whole.
pub fn game_length(bytes: &[u8]) -> Option<usize> {
    if bytes.len() < GAME_FIXED_BYTES {
        return None;
    }
    let n = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as usize;
    let mut occupied_bytes = [0u8; 16];
    occupied_bytes[..12].copy_from_slice(&bytes[7..19]);
    let pieces = u128::from_le_bytes(occupied_bytes).count_ones() as usize;
    let total = n.checked_mul(MOVE_BYTES)?.checked_add(GAME_FIXED_BYTES + pieces.div_ceil(2))?;
    (total <= bytes.len()).then_some(total)
}

/// Whether `bytes`, shorter than the game its counts announce, can be the
/// start of that game as an interrupted write leaves it: its header sound
/// and every whole move in it legal. (A corrupt count in the middle of a
/// file also announces more bytes than are left; what follows it then
/// does not read as moves.)
pub fn is_game_prefix(bytes: &[u8]) -> bool {
    if bytes.len() < GAME_FIXED_BYTES {
        return true;
    }
    let mut occupied_bytes = [0u8; 16];
    occupied_bytes[..12].copy_from_slice(&bytes[7..19]);
    let moves_at = GAME_FIXED_BYTES + (u128::from_le_bytes(occupied_bytes).count_ones() as usize).div_ceil(2);
    if bytes.len() < moves_at {
        return true;
    }
    let whole_moves = (bytes.len() - moves_at) / MOVE_BYTES;
    let announced = u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as usize;
    if whole_moves == 0 || whole_moves >= announced {
        return whole_moves < announced;
    }
    let mut head = bytes[..moves_at + MOVE_BYTES * whole_moves].to_vec();
    head[0..4].copy_from_slice(&(whole_moves as u32).to_le_bytes());
    decode_game(&head).is_ok()
}

/// Whether the records of one game are what a packed game gives back
/// (each the previous one's position after its best move, the ply one
/// more, the flags and results as recomputed, the game end on the last
/// only); if not, the first record that is not and its first wrong field.
pub fn check_consistent(records: &[Record]) -> Result<(), GameError> {
    let mut bytes = Vec::new();
    encode_game(records, &mut bytes);
    let (decoded, _) = decode_game(&bytes).map_err(|(_, e)| match e {
        GameError::IllegalMove { index, .. } => GameError::Inconsistent { index, field: "best move (illegal)" },
        other => other,
    })?;
    for (index, (a, b)) in records.iter().zip(&decoded).enumerate() {
        if let Some(field) = first_difference(a, b) {
            return Err(GameError::Inconsistent { index, field });
        }
    }
    Ok(())
}

/// The first field in which two records differ.
fn first_difference(a: &Record, b: &Record) -> Option<&'static str> {
    let fields: [(&'static str, bool); 10] = [
        ("board", a.board == b.board),
        ("side to move", a.side == b.side),
        ("ply", a.ply == b.ply),
        ("score", a.score == b.score),
        ("best move", a.best == b.best),
        ("result", a.outcome == b.outcome),
        ("in-check flag", a.in_check == b.in_check),
        ("capture flag", a.capture == b.capture),
        ("mate-score flag", a.mate_score == b.mate_score),
        ("game-end flag", a.game_end == b.game_end),
    ];
    fields.iter().find(|f| !f.1).map(|f| f.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_move_has_one_encoding() {
        let a0 = Square::new(0).unwrap();
        let b1 = Square::new(10).unwrap();
        let m = Move::new(a0, b1).unwrap();
        assert_eq!(move_of(move_bits(m)), Some(m));
        // The destination 266 is no square, though 266 as a byte is 10.
        assert_eq!(move_of(266 * 128), None);
        assert_eq!(move_of(90), None);
    }
}
