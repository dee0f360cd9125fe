//! Tools for datagen files: check one (every game replays legally and its
//! flags are what the positions say), convert a version 1 file to
//! version 2 (and read it back to prove the records equal), merge shards
//! made with different seeds into one file.

use super::format::{self, DataFile, FileError, Format, HEADER_BYTES, Outcome, RECORD_BYTES, Record};
use super::packed::{self, GameError};
use crate::types::Color;
use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Why a tool failed.
#[derive(Debug)]
pub enum ToolError {
    /// An input that does not read or does not check.
    File(FileError),
    /// The output cannot be written (or exists already).
    Write { path: PathBuf, error: io::Error },
    /// A file in another format than the tool takes.
    WrongFormat { path: PathBuf, format: Format, wanted: Format },
    /// Shards of both formats.
    MixedFormats { path: PathBuf, format: Format, first: Format },
    /// Two shards that record the same seed (the same games twice).
    SameSeed { path: PathBuf, earlier: PathBuf, seed: u64 },
    /// The converted file did not read back as the records it was made of.
    RoundTrip { path: PathBuf, record: usize },
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::File(e) => write!(f, "{e}"),
            ToolError::Write { path, error } => write!(f, "cannot write '{}': {error}", path.display()),
            ToolError::WrongFormat { path, format, wanted } => {
                write!(f, "{}: a {format} file; this takes {wanted}", path.display())
            }
            ToolError::MixedFormats { path, format, first } => {
                write!(f, "{}: a {format} file, the first shard is {first}; convert first", path.display())
            }
            ToolError::SameSeed { path, earlier, seed } => {
                write!(f, "{}: made with seed {seed}, as {} was (the same games)", path.display(), earlier.display())
            }
            ToolError::RoundTrip { path, record } => {
                write!(f, "{}: record {record} does not read back as it was written", path.display())
            }
        }
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolError::File(e) => Some(e),
            ToolError::Write { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for ToolError {
    fn from(e: FileError) -> ToolError {
        ToolError::File(e)
    }
}

/// What a checked (or written) file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    pub format: Format,
    pub seed: Option<u64>,
    pub games: usize,
    pub positions: usize,
    /// Positions not in check, without a capture as best move or a mate score.
    pub quiet: usize,
    /// Red's wins, draws and losses.
    pub red: [usize; 3],
    pub bytes: u64,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seed = self.seed.map_or("not recorded".to_string(), |s| s.to_string());
        writeln!(f, "format {}, seed {seed}", self.format)?;
        writeln!(f, "games {} (Red W {} D {} L {})", self.games, self.red[0], self.red[1], self.red[2])?;
        writeln!(f, "positions {}, quiet {}", self.positions, self.quiet)?;
        let per = if self.positions > 0 { self.bytes as f64 / self.positions as f64 } else { 0.0 };
        write!(f, "bytes {} ({per:.2} a position)", self.bytes)
    }
}

/// The games of `records` (each ending at a game-end flag) and the
/// records after the last one (an unfinished game).
fn split_games(records: &[Record]) -> (Vec<&[Record]>, &[Record]) {
    let mut games = Vec::new();
    let mut start = 0;
    for (i, r) in records.iter().enumerate() {
        if r.game_end {
            games.push(&records[start..=i]);
            start = i + 1;
        }
    }
    (games, &records[start..])
}

/// Every game of a file that read, checked: whole, each record the
/// previous one's position after its best move, flags and result as the
/// positions and the game say. Errors name the game and the byte offset
/// (for version 1, of the record at fault).
fn check_games(path: &Path, data: &DataFile, bytes: u64) -> Result<Counts, FileError> {
    let (games, unfinished) = split_games(&data.records);
    let bad = |number: usize, first_record: usize, error: GameError| {
        let index = match &error {
            GameError::Inconsistent { index, .. } => *index,
            _ => 0,
        };
        // Version 2 games are consistent by construction; the offset is
        // exact for version 1, whose records have their own places.
        let offset = HEADER_BYTES + RECORD_BYTES * (first_record + index);
        FileError::BadGame { path: path.to_path_buf(), number, offset, error }
    };
    let mut counts = Counts {
        format: data.format,
        seed: data.seed,
        games: games.len(),
        positions: data.records.len(),
        quiet: 0,
        red: [0; 3],
        bytes,
    };
    let mut first_record = 0;
    for (i, game) in games.iter().enumerate() {
        packed::check_consistent(game).map_err(|e| bad(i + 1, first_record, e))?;
        let last = game.last().expect("a game has a record");
        let red_won = match last.outcome {
            Outcome::Draw => 1,
            o if (o == Outcome::Win) == (last.side == Color::Red) => 0,
            _ => 2,
        };
        counts.red[red_won] += 1;
        counts.quiet += game.iter().filter(|r| !r.in_check && !r.capture && !r.mate_score).count();
        first_record += game.len();
    }
    if !unfinished.is_empty() {
        return Err(bad(games.len() + 1, first_record, GameError::Unfinished));
    }
    Ok(counts)
}

fn file_size(path: &Path) -> Result<u64, FileError> {
    std::fs::metadata(path).map(|m| m.len()).map_err(|error| FileError::Read { path: path.to_path_buf(), error })
}

/// Checks a datagen file of either format.
pub fn check(path: &Path) -> Result<Counts, FileError> {
    let data = format::read_data(path)?;
    check_games(path, &data, file_size(path)?)
}

/// Creates `path`, which must not exist, with `bytes`; removes it again
/// if writing fails.
fn write_new(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), ToolError> {
    let fail = |error| ToolError::Write { path: path.to_path_buf(), error };
    let file = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(fail)?;
    let mut out = io::BufWriter::new(file);
    let written = write(&mut out).and_then(|()| out.flush());
    if let Err(error) = written {
        drop(out);
        let _ = std::fs::remove_file(path);
        return Err(fail(error));
    }
    Ok(())
}

/// Converts the version 1 file `input` into the new version 2 file
/// `output` (which must not exist), then reads `output` back and compares
/// every record with the input's. Returns the output's counts.
pub fn convert(input: &Path, output: &Path) -> Result<Counts, ToolError> {
    let data = format::read_data(input)?;
    if data.format != Format::V1 {
        return Err(ToolError::WrongFormat { path: input.to_path_buf(), format: data.format, wanted: Format::V1 });
    }
    check_games(input, &data, file_size(input)?)?;
    let (games, _) = split_games(&data.records);
    write_new(output, |out| {
        out.write_all(&format::header_of(Format::V2, None))?;
        let mut bytes = Vec::new();
        for game in games {
            bytes.clear();
            packed::encode_game(game, &mut bytes);
            out.write_all(&bytes)?;
        }
        Ok(())
    })?;
    let back = format::read_data(output)?;
    if let Some(record) =
        (0..data.records.len().max(back.records.len())).find(|&i| data.records.get(i) != back.records.get(i))
    {
        return Err(ToolError::RoundTrip { path: output.to_path_buf(), record: record + 1 });
    }
    Ok(check_games(output, &back, file_size(output)?)?)
}

/// The format and seed in a file's header, from its first bytes alone.
fn peek(path: &Path) -> Result<(Format, Option<u64>), FileError> {
    let mut header = [0u8; HEADER_BYTES];
    let mut file = std::fs::File::open(path).map_err(|error| FileError::Read { path: path.to_path_buf(), error })?;
    let read = file.read(&mut header).map_err(|error| FileError::Read { path: path.to_path_buf(), error })?;
    format::detect(&header[..read]).ok_or_else(|| FileError::BadHeader { path: path.to_path_buf() })
}

/// Merges `inputs` (all of one format, whole games, no seed twice) into
/// the new file `output`, in that format, games in input order. Each
/// input is checked as [`check`] does before its games are written; on an
/// error `output` is removed. Returns the output's counts.
pub fn merge(inputs: &[PathBuf], output: &Path) -> Result<Counts, ToolError> {
    let mut first: Option<Format> = None;
    let mut seeds: Vec<(u64, &PathBuf)> = Vec::new();
    for path in inputs {
        let (format, seed) = peek(path)?;
        let first = *first.get_or_insert(format);
        if format != first {
            return Err(ToolError::MixedFormats { path: path.clone(), format, first });
        }
        if let Some(seed) = seed {
            if let Some((_, earlier)) = seeds.iter().find(|s| s.0 == seed) {
                return Err(ToolError::SameSeed { path: path.clone(), earlier: (*earlier).clone(), seed });
            }
            seeds.push((seed, path));
        }
    }
    let Some(format) = first else { return Err(ToolError::File(FileError::BadHeader { path: output.to_path_buf() })) };
    // Read one shard at a time, so that memory holds one, not all.
    let mut failure = None;
    write_new(output, |out| {
        out.write_all(&format::header_of(format, None))?;
        for path in inputs {
            let data = match format::read_data(path).and_then(|d| file_size(path).map(|n| (d, n))) {
                Ok(d) => d,
                Err(e) => {
                    failure = Some(e);
                    return Err(io::Error::other("an input failed"));
                }
            };
            if let Err(e) = check_games(path, &data.0, data.1) {
                failure = Some(e);
                return Err(io::Error::other("an input failed"));
            }
            let mut bytes = Vec::new();
            for game in split_games(&data.0.records).0 {
                bytes.clear();
                format::encode_game(format, game, &mut bytes);
                out.write_all(&bytes)?;
            }
        }
        Ok(())
    })
    .map_err(|e| failure.take().map_or(e, ToolError::File))?;
    Ok(check(output)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Options, play_game, run};
    use crate::rng::Rng;
    use crate::search::Searcher;
    use std::sync::atomic::AtomicBool;

    fn quick() -> Options {
        Options { nodes: 300, max_plies: 60, ..Options::default() }
    }

    fn records_of(games: std::ops::Range<u64>, options: &Options) -> Vec<Record> {
        let mut searcher = Searcher::new(1);
        games.flat_map(|i| play_game(i, options, &mut searcher).records).collect()
    }

    fn v1_file(records: &[Record]) -> Vec<u8> {
        let mut bytes = Record::header().to_vec();
        format::encode_game(Format::V1, records, &mut bytes);
        bytes
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-tools-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn real_games_survive_packing_in_a_few_bytes_a_position() {
        let mut searcher = Searcher::new(1);
        let mut positions = 0;
        let mut bytes = Vec::new();
        for i in 0..4 {
            let game = play_game(i, &quick(), &mut searcher);
            let mut packed = Vec::new();
            packed::encode_game(&game.records, &mut packed);
            let (back, length) = packed::decode_game(&packed).unwrap();
            assert_eq!(back, game.records, "game {i}");
            assert_eq!(length, packed.len());
            assert_eq!(packed::game_length(&packed), Some(length));
            assert_eq!(packed::check_consistent(&game.records), Ok(()));
            positions += game.records.len();
            bytes.extend(packed);
        }
        assert!(bytes.len() < 6 * positions, "{} bytes for {positions} positions", bytes.len());
    }

    #[test]
    fn a_version_1_file_converts_and_reads_back_equal() {
        let dir = scratch("convert");
        let records = records_of(0..3, &quick());
        let (v1, v2) = (dir.join("v1.bin"), dir.join("v2.bin"));
        std::fs::write(&v1, v1_file(&records)).unwrap();
        let counts = convert(&v1, &v2).unwrap();
        assert_eq!((counts.format, counts.games, counts.positions), (Format::V2, 3, records.len()));
        assert_eq!(format::read_file(&v2).unwrap(), records);
        assert_eq!(check(&v1).unwrap().positions, records.len());
        // The output is new, and a v2 file is not converted again.
        assert!(matches!(convert(&v1, &v2), Err(ToolError::Write { .. })));
        assert!(matches!(convert(&v2, &dir.join("again.bin")), Err(ToolError::WrongFormat { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_merge_once_each_and_in_one_format() {
        let dir = scratch("merge");
        let stop = AtomicBool::new(false);
        let shard = |seed: u64| {
            let path = dir.join(format!("s{seed}.bin"));
            run(&path, &Options { games: 2, seed, ..quick() }, &stop, &mut |_| {}).unwrap();
            path
        };
        let (a, b) = (shard(1), shard(2));
        let all = dir.join("all.bin");
        let counts = merge(&[a.clone(), b.clone()], &all).unwrap();
        let mut expected = format::read_file(&a).unwrap();
        expected.extend(format::read_file(&b).unwrap());
        assert_eq!(format::read_file(&all).unwrap(), expected);
        assert_eq!((counts.games, counts.seed), (4, None));
        assert!(matches!(merge(&[a.clone(), a.clone()], &dir.join("twice.bin")), Err(ToolError::SameSeed { .. })));
        assert!(!dir.join("twice.bin").exists());
        let old = dir.join("old.bin");
        std::fs::write(&old, v1_file(&records_of(0..1, &quick()))).unwrap();
        assert!(matches!(merge(&[a, old], &dir.join("mixed.bin")), Err(ToolError::MixedFormats { .. })));
        // A shard that does not check leaves no output behind.
        let cut = dir.join("cut.bin");
        let bytes = std::fs::read(&b).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(merge(&[cut], &dir.join("bad.bin")), Err(ToolError::File(FileError::BadGame { .. }))));
        assert!(!dir.join("bad.bin").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn corrupt_files_give_errors_not_panics() {
        let dir = scratch("corrupt");
        let records = records_of(0..2, &quick());
        let mut v2 = format::header_of(Format::V2, Some(3)).to_vec();
        let (games, _) = split_games(&records);
        for g in &games {
            packed::encode_game(g, &mut v2);
        }
        let path = dir.join("x.bin");
        let read = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            (format::read_file(&path), check(&path))
        };
        assert_eq!(read(&v2).0.unwrap(), records);
        // Every truncation: an error naming a game or the header, or (at a
        // game boundary) fewer whole games.
        for len in 0..v2.len() {
            match read(&v2[..len]).0 {
                Ok(r) => assert!(r.len() < records.len(), "length {len}"),
                Err(FileError::BadGame { offset, .. }) => assert!(offset <= len, "length {len}"),
                Err(FileError::BadHeader { .. }) => assert!(len < HEADER_BYTES),
                Err(e) => panic!("length {len}: {e:?}"),
            }
        }
        // Flipped bytes: anything but a panic (a flipped score still reads).
        let mut rng = Rng::new(11);
        for _ in 0..2000 {
            let mut bytes = v2.clone();
            let at = HEADER_BYTES + rng.below((v2.len() - HEADER_BYTES) as u64) as usize;
            bytes[at] ^= 1 << rng.below(8);
            let _ = read(&bytes);
        }
        // Random bodies after a sound header, and a sound game followed by
        // random bytes: errors, never a panic.
        for _ in 0..500 {
            let length = rng.below(200) as usize;
            let noise: Vec<u8> = (0..length).map(|_| rng.below(256) as u8).collect();
            let mut bytes = format::header_of(Format::V2, None).to_vec();
            if rng.below(2) == 0 {
                packed::encode_game(games[0], &mut bytes);
            }
            bytes.extend(noise);
            let _ = read(&bytes);
            assert!(packed::game_length(&bytes[HEADER_BYTES..]).is_none_or(|n| n <= bytes.len()));
            let _ = packed::is_game_prefix(&bytes[HEADER_BYTES..]);
        }
        // A huge count is refused before anything is allocated for it.
        let mut huge = v2.clone();
        huge[HEADER_BYTES..HEADER_BYTES + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let error = read(&huge).0.unwrap_err();
        assert!(matches!(error, FileError::BadGame { number: 1, offset: 40, error: GameError::Truncated { .. }, .. }));
        assert!(error.to_string().starts_with(&format!("{}: game 1 (byte 40): truncated game", path.display())));
        // An illegal move names its byte.
        let mut illegal = v2.clone();
        let occupied = &v2[HEADER_BYTES + 7..HEADER_BYTES + 19];
        let pieces: u32 = occupied.iter().map(|b| b.count_ones()).sum();
        let first_move = HEADER_BYTES + 19 + (pieces as usize).div_ceil(2);
        illegal[first_move..first_move + 2].copy_from_slice(&(4u16 + 128 * 85).to_le_bytes());
        let error = read(&illegal).0.unwrap_err();
        assert!(
            matches!(error, FileError::BadGame { offset, error: GameError::IllegalMove { index: 0, .. }, .. } if offset == first_move),
            "{error:?}"
        );
        // Version 1: a wrong flag and an unfinished game fail the check.
        let mut v1 = v1_file(&records);
        v1[RECORD_BYTES * 3 + 39] ^= format::FLAG_IN_CHECK;
        let (_, checked) = read(&v1);
        assert!(
            matches!(
                checked,
                Err(FileError::BadGame {
                    number: 1,
                    offset: 120,
                    error: GameError::Inconsistent { index: 2, field: "in-check flag" },
                    ..
                })
            ),
            "{checked:?}"
        );
        let v1 = v1_file(&records);
        let (_, checked) = read(&v1[..v1.len() - RECORD_BYTES]);
        assert!(
            matches!(checked, Err(FileError::BadGame { number: 2, error: GameError::Unfinished, .. })),
            "{checked:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
