//! The training-data files. Two formats, told apart by the header's magic:
//! version 2 (packed games, about 4 bytes a position, what `chariot
//! datagen` writes for a new file; see [`super::packed`]) and version 1,
//! here: a 40-byte header, then one 40-byte record per
//! position, little-endian, games whole and in order (the last record of a
//! game carries a flag). Fixed-size records make the file appendable and
//! let a reader seek or sample without parsing. Readers take both; a file
//! is appended to in the format it has.
//!
//! Version 1 record layout (bytes):
//!
//! | bytes  | field                                                        |
//! |--------|--------------------------------------------------------------|
//! | 0-15   | occupied squares, `u128`, bit *i* = square *i* (a0 = 0, i9 = 89) |
//! | 16-31  | the pieces on them, 4 bits each in square order, low nibble first: `Piece` index 0-13 (Red K A B N R C P, then Black) |
//! | 32-33  | search score, `i16`, centipawns from the side to move (mates near ±30000) |
//! | 34-35  | ply, `u16`, counted from the start position of the game      |
//! | 36-37  | best move, `u16`: from + 128 × to (square indices)            |
//! | 38     | game result from the side to move: 0 lost, 1 draw, 2 won     |
//! | 39     | flags: see the `FLAG_` constants                              |

use super::packed::{self, GameError};
use crate::position::{FenError, Position, board_fen};
use crate::types::{Bitboard, Color, Move, Piece, Square};
use std::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const RECORD_BYTES: usize = 40;

/// The header: this text, padded with zeros to a record's size.
pub const MAGIC: &[u8] = b"chariot-datagen v1\n";

/// Black is to move (the score, best move and result are Black's).
pub const FLAG_BLACK_TO_MOVE: u8 = 1;
/// The side to move is in check.
pub const FLAG_IN_CHECK: u8 = 2;
/// The best move is a capture (the position is not quiet).
pub const FLAG_CAPTURE: u8 = 4;
/// The score is a mate score.
pub const FLAG_MATE_SCORE: u8 = 8;
/// The last record of its game.
pub const FLAG_GAME_END: u8 = 16;

/// The game result from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

/// One position with what the search and the game said of it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    pub board: [Option<Piece>; 90],
    pub side: Color,
    pub score: i16,
    pub ply: u16,
    pub best: Move,
    pub outcome: Outcome,
    pub in_check: bool,
    pub capture: bool,
    pub mate_score: bool,
    pub game_end: bool,
}

impl Record {
    pub fn header() -> [u8; RECORD_BYTES] {
        let mut h = [0u8; RECORD_BYTES];
        h[..MAGIC.len()].copy_from_slice(MAGIC);
        h
    }

    /// The board of `pos` with the other fields left for the caller.
    pub fn board_of(pos: &Position) -> [Option<Piece>; 90] {
        let mut board = [None; 90];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_on(sq);
        }
        board
    }

    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let mut occupied: u128 = 0;
        let mut nibbles: u128 = 0;
        let mut count = 0;
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                occupied |= 1 << i;
                // A legal position has at most 32 pieces; more are not
                // representable and are cut (the decoder rejects the board).
                if count < 32 {
                    nibbles |= (p.index() as u128) << (4 * count);
                }
                count += 1;
            }
        }
        out[0..16].copy_from_slice(&occupied.to_le_bytes());
        out[16..32].copy_from_slice(&nibbles.to_le_bytes());
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34..36].copy_from_slice(&self.ply.to_le_bytes());
        let mv = self.best.from().index() as u16 + 128 * self.best.to().index() as u16;
        out[36..38].copy_from_slice(&mv.to_le_bytes());
        out[38] = self.outcome as u8;
        let flag = |on: bool, bit: u8| if on { bit } else { 0 };
        out[39] = flag(self.side == Color::Black, FLAG_BLACK_TO_MOVE)
            | flag(self.in_check, FLAG_IN_CHECK)
            | flag(self.capture, FLAG_CAPTURE)
            | flag(self.mate_score, FLAG_MATE_SCORE)
            | flag(self.game_end, FLAG_GAME_END);
        out
    }

    pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let occupied = u128::from_le_bytes(bytes[0..16].try_into().expect("16 bytes"));
        let nibbles = u128::from_le_bytes(bytes[16..32].try_into().expect("16 bytes"));
        if occupied >> Square::COUNT != 0 || occupied.count_ones() > 32 {
            return Err(RecordError::Occupancy);
        }
        let mut board = [None; 90];
        for (count, sq) in Bitboard::from_bits(occupied).iter().enumerate() {
            let index = (nibbles >> (4 * count)) as usize & 15;
            board[sq.index()] = Some(Piece::all().nth(index).ok_or(RecordError::PieceCode(index as u8))?);
        }
        let mv = u16::from_le_bytes([bytes[36], bytes[37]]);
        // Not `i as u8`: the destination's 9 bits would wrap onto a square.
        let square = |i: u16| u8::try_from(i).ok().and_then(Square::new).ok_or(RecordError::Move(mv));
        let best = Move::new(square(mv % 128)?, square(mv / 128)?).ok_or(RecordError::Move(mv))?;
        let outcome = match bytes[38] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            r => return Err(RecordError::Result(r)),
        };
        let flags = bytes[39];
        Ok(Record {
            board,
            side: if flags & FLAG_BLACK_TO_MOVE != 0 { Color::Black } else { Color::Red },
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            ply: u16::from_le_bytes([bytes[34], bytes[35]]),
            best,
            outcome,
            in_check: flags & FLAG_IN_CHECK != 0,
            capture: flags & FLAG_CAPTURE != 0,
            mate_score: flags & FLAG_MATE_SCORE != 0,
            game_end: flags & FLAG_GAME_END != 0,
        })
    }

    /// The position (its FEN is checked as any other: kings, squares, the
    /// side not to move not in check).
    pub fn position(&self) -> Result<Position, FenError> {
        position_of(&self.board, self.side)
    }
}

/// The position of a record's board and side to move, checked as any FEN.
pub fn position_of(board: &[Option<Piece>; 90], side: Color) -> Result<Position, FenError> {
    let side = if side == Color::Red { 'w' } else { 'b' };
    Position::from_fen(&format!("{} {side} - - 0 1", board_fen(|sq| board[sq.index()])))
}

/// The two file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 40-byte records, one a position.
    V1,
    /// Packed games: the first board, then a move and a score a position.
    V2,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::V1 => "v1 (40-byte records)",
            Format::V2 => "v2 (packed games)",
        })
    }
}

/// Both formats' headers are this long.
pub const HEADER_BYTES: usize = RECORD_BYTES;

/// The format a file's first bytes announce, with the seed a version 2
/// header records (`None` when not known).
pub fn detect(header: &[u8]) -> Option<(Format, Option<u64>)> {
    if header.len() >= RECORD_BYTES && header[..RECORD_BYTES] == Record::header() {
        return Some((Format::V1, None));
    }
    packed::header_seed(header).map(|seed| (Format::V2, seed))
}

/// The header of a new file.
pub fn header_of(format: Format, seed: Option<u64>) -> [u8; HEADER_BYTES] {
    match format {
        Format::V1 => Record::header(),
        Format::V2 => packed::header(seed),
    }
}

/// Appends one whole game's records to `out` in `format`.
pub fn encode_game(format: Format, records: &[Record], out: &mut Vec<u8>) {
    match format {
        Format::V1 => records.iter().for_each(|r| out.extend_from_slice(&r.encode())),
        Format::V2 => packed::encode_game(records, out),
    }
}

/// Opens `path` for appending whole games: a new file gets the version 2
/// header (with `seed`); an existing one must start with a header, and a
/// game cut short by an interrupted run is cut off. A version 2 file that
/// records another seed is refused (its games would not be this run's).
/// Returns the file, positioned at its end, the number of whole games in
/// it and its format. The file stays locked while it is open: a second run
/// on the same file is refused, since both would write from their own idea
/// of the end.
pub fn open_for_append(path: &Path, seed: u64) -> io::Result<(std::fs::File, u64, Format)> {
    let mut file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
    // A file system without locks (the other error) is written unguarded.
    if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
        let text = "another run is writing it (the file is locked)";
        return Err(io::Error::new(io::ErrorKind::WouldBlock, text));
    }
    let len = file.metadata()?.len();
    if len == 0 {
        file.write_all(&packed::header(Some(seed)))?;
        return Ok((file, 0, Format::V2));
    }
    let bad_header = || io::Error::new(io::ErrorKind::InvalidData, "not a chariot datagen file (bad header)");
    let mut header = [0u8; HEADER_BYTES];
    if len < HEADER_BYTES as u64 || file.read_exact(&mut header).is_err() {
        return Err(bad_header());
    }
    let (format, recorded) = detect(&header).ok_or_else(bad_header)?;
    if let Some(recorded) = recorded.filter(|&r| r != seed) {
        let text = format!("the file was made with --seed {recorded}, not {seed}");
        return Err(io::Error::new(io::ErrorKind::InvalidInput, text));
    }
    let (games, whole_end) = match format {
        Format::V1 => whole_games_v1(&mut file, len)?,
        Format::V2 => {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)?;
            let mut at = 0;
            let mut games = 0;
            while let Some(length) = packed::game_length(&bytes[at..]) {
                at += length;
                games += 1;
            }
            if !packed::is_game_prefix(&bytes[at..]) {
                let offset = HEADER_BYTES + at;
                let text = format!("game {} (byte {offset}) is corrupt, not cut short; see --check", games + 1);
                return Err(io::Error::new(io::ErrorKind::InvalidData, text));
            }
            (games, (HEADER_BYTES + at) as u64)
        }
    };
    if whole_end < len {
        log::warn!("{}: cut {} bytes of an unfinished game", path.display(), len - whole_end);
        file.set_len(whole_end)?;
    }
    file.seek(SeekFrom::Start(whole_end))?;
    Ok((file, games, format))
}

/// The whole games of a version 1 file after its header, and where they end.
fn whole_games_v1(file: &mut std::fs::File, len: u64) -> io::Result<(u64, u64)> {
    let mut games = 0;
    let mut whole_end = RECORD_BYTES as u64;
    let mut reader = io::BufReader::new(file);
    let mut at = RECORD_BYTES as u64;
    let mut rec = [0u8; RECORD_BYTES];
    while at + RECORD_BYTES as u64 <= len {
        reader.read_exact(&mut rec)?;
        at += RECORD_BYTES as u64;
        if rec[39] & FLAG_GAME_END != 0 {
            games += 1;
            whole_end = at;
        }
    }
    Ok((games, whole_end))
}

/// What is wrong with one 40-byte record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Squares beyond the board, or more than 32 pieces.
    Occupancy,
    /// A piece code beyond the 14 pieces.
    PieceCode(u8),
    /// The best move's squares (bytes 36-37) are not a move.
    Move(u16),
    /// The result byte (38) is not 0, 1 or 2.
    Result(u8),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Occupancy => write!(f, "bad occupancy"),
            RecordError::PieceCode(code) => write!(f, "bad piece code {code}"),
            RecordError::Move(bits) => write!(f, "bad move {bits:#06x}"),
            RecordError::Result(r) => write!(f, "bad result {r}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Why [`read_file`] failed: the file, and what went wrong with it.
#[derive(Debug)]
pub enum FileError {
    Read {
        path: PathBuf,
        error: io::Error,
    },
    /// The file does not start with the datagen header.
    BadHeader {
        path: PathBuf,
    },
    /// Record `number` (1-based, after the header), at byte `offset`.
    BadRecord {
        path: PathBuf,
        number: usize,
        offset: usize,
        error: RecordError,
    },
    /// Game `number` (1-based): what is wrong at byte `offset` of the file.
    BadGame {
        path: PathBuf,
        number: usize,
        offset: usize,
        error: GameError,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            FileError::BadHeader { path } => write!(f, "{}: not a chariot datagen file (bad header)", path.display()),
            FileError::BadRecord { path, number, offset, error } => {
                write!(f, "{}: record {number} (byte {offset}): {error}", path.display())
            }
            FileError::BadGame { path, number, offset, error } => {
                write!(f, "{}: game {number} (byte {offset}): {error}", path.display())
            }
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { error, .. } => Some(error),
            FileError::BadRecord { error, .. } => Some(error),
            FileError::BadGame { error, .. } => Some(error),
            FileError::BadHeader { .. } => None,
        }
    }
}

/// For callers that report errors as text (the command line).
impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

/// A datagen file read whole.
#[derive(Debug)]
pub struct DataFile {
    pub format: Format,
    /// The seed a version 2 header records.
    pub seed: Option<u64>,
    pub records: Vec<Record>,
}

/// Reads every record of a datagen file, either format.
pub fn read_file(path: &Path) -> Result<Vec<Record>, FileError> {
    read_data(path).map(|d| d.records)
}

/// Reads a datagen file, either format: its format, seed and records.
pub fn read_data(path: &Path) -> Result<DataFile, FileError> {
    let bytes = std::fs::read(path).map_err(|error| FileError::Read { path: path.to_path_buf(), error })?;
    let (format, seed) = detect(&bytes).ok_or_else(|| FileError::BadHeader { path: path.to_path_buf() })?;
    let records = match format {
        Format::V1 => decode_v1(path, &bytes[RECORD_BYTES..])?,
        Format::V2 => decode_v2(path, &bytes[HEADER_BYTES..])?,
    };
    Ok(DataFile { format, seed, records })
}

fn decode_v1(path: &Path, body: &[u8]) -> Result<Vec<Record>, FileError> {
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            Record::decode(chunk.try_into().expect("record size")).map_err(|error| FileError::BadRecord {
                path: path.to_path_buf(),
                number: i + 1,
                offset: RECORD_BYTES * (i + 1),
                error,
            })
        })
        .collect()
}

fn decode_v2(path: &Path, body: &[u8]) -> Result<Vec<Record>, FileError> {
    let mut records = Vec::new();
    let mut at = 0;
    let mut number = 0;
    while at < body.len() {
        number += 1;
        let (game, length) = packed::decode_game(&body[at..]).map_err(|(within, error)| FileError::BadGame {
            path: path.to_path_buf(),
            number,
            offset: HEADER_BYTES + at + within,
            error,
        })?;
        records.extend(game);
        at += length;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of `fen` with its last legal move as the best move.
    fn sample(fen: &str) -> Record {
        let pos = Position::from_fen(fen).unwrap();
        Record {
            board: Record::board_of(&pos),
            side: pos.side_to_move(),
            score: -1234,
            ply: 77,
            best: *pos.legal_moves().last().unwrap(),
            outcome: Outcome::Win,
            in_check: pos.in_check(),
            capture: true,
            mate_score: false,
            game_end: true,
        }
    }

    #[test]
    fn a_record_survives_encoding_and_gives_back_its_position() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3k5/9/9/9/9/9/9/3R5/9/5K3 b - - 0 1",
            "2b1ka3/4a4/4b4/9/2p3p2/9/2P3P2/4B4/4A4/2BAK4 w - - 0 1",
        ] {
            let rec = sample(fen);
            let back = Record::decode(&rec.encode()).unwrap();
            assert_eq!(back, rec);
            let pos = back.position().unwrap();
            let original = Position::from_fen(fen).unwrap();
            assert_eq!(pos.key(), original.key(), "{fen}");
        }
    }

    #[test]
    fn corrupt_records_are_refused() {
        let mut bytes = sample("3k5/9/9/9/9/9/9/3R5/9/5K3 b - - 0 1").encode();
        bytes[38] = 7;
        assert_eq!(Record::decode(&bytes), Err(RecordError::Result(7)));
        let mut bytes = sample("3k5/9/9/9/9/9/9/3R5/9/5K3 b - - 0 1").encode();
        bytes[15] = 0xff; // squares beyond the board
        assert_eq!(Record::decode(&bytes), Err(RecordError::Occupancy));
        let mut bytes = sample("3k5/9/9/9/9/9/9/3R5/9/5K3 b - - 0 1").encode();
        bytes[16] = 0x0f; // the first piece's code is 15
        assert_eq!(Record::decode(&bytes), Err(RecordError::PieceCode(15)));
    }

    #[test]
    fn file_errors_name_the_file_the_record_and_its_offset() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let good = sample("3k5/9/9/9/9/9/9/3R5/9/5K3 b - - 0 1").encode();
        let mut bad = good;
        bad[38] = 9;
        let bytes: Vec<u8> = [Record::header(), good, bad].concat();
        std::fs::write(&path, &bytes).unwrap();
        let error = read_file(&path).unwrap_err();
        assert!(
            matches!(error, FileError::BadRecord { number: 2, offset: 80, error: RecordError::Result(9), .. }),
            "{error:?}"
        );
        assert_eq!(error.to_string(), format!("{}: record 2 (byte 80): bad result 9", path.display()));
        std::fs::write(&path, b"not a datagen file, but long enough for a header").unwrap();
        assert!(matches!(read_file(&path), Err(FileError::BadHeader { .. })));
        let error = read_file(&dir.join("missing.bin")).unwrap_err();
        assert!(matches!(error, FileError::Read { .. }));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_file_being_appended_to_is_refused_to_a_second_run() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let first = open_for_append(&path, 5).unwrap();
        let error = open_for_append(&path, 5).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::WouldBlock);
        assert!(error.to_string().contains("another run"), "{error}");
        drop(first);
        let (_, games, format) = open_for_append(&path, 5).unwrap();
        assert_eq!((games, format), (0, Format::V2));
        std::fs::remove_dir_all(dir).ok();
    }
}
