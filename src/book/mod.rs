//! The opening book: moves with weights, keyed by the Zobrist key of the
//! position, so a position reached by another move order finds the same
//! moves. A left-right mirror image of a book position finds the mirrored
//! moves when the position itself is not in the book.
//!
//! The file is text, one move per line, sorted by key:
//!
//! ```text
//! chariot-book 1 <start key>
//! # comments
//! <key> <move> <weight> <wins> <draws> <losses> <preference>
//! ```
//!
//! The header names the format version and the key of the start position:
//! a book made with other Zobrist keys is refused instead of giving moves
//! for the wrong positions. `key` is 16 hex digits, `move` ICCS, `weight` a
//! whole number (the move's share of the choice), wins/draws/losses are the
//! game results for the side that played the move (the builder's record,
//! not used in play) and `preference` the user factor the builder applied.

pub mod build;
pub mod reader;
pub mod show;

use crate::position::Position;
use crate::rng::Rng;
use crate::types::{Move, Square};
use crate::zobrist;
use std::fmt;

/// The format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const MAGIC: &str = "chariot-book";

/// The default book, built from Chariot's self-play games by
/// `scripts/make_book.sh`; embedded so it needs no file at run time.
pub const BUILT_IN_TEXT: &str = include_str!("../../book/chariot.book");

/// One book line.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub weight: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub preference: f64,
}

impl Entry {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// A book file that cannot be used: the line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for BookError {}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    /// Sorted by key, then by weight (highest first), then by move.
    entries: Vec<Entry>,
}

/// The book moves of one position, already mapped back to it when they
/// were found through the mirror image.
#[derive(Clone, Debug, PartialEq)]
pub struct Lookup {
    pub entries: Vec<Entry>,
    pub mirrored: bool,
}

impl Book {
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| {
            a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)).then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
        });
        Book { entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of distinct positions.
    pub fn positions(&self) -> usize {
        self.entries.chunk_by(|a, b| a.key == b.key).count()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The lines stored under `key`.
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book moves for `pos`: its own entries, or else those of its
    /// mirror image with the moves mirrored. Legality is not checked here.
    pub fn lookup(&self, pos: &Position) -> Lookup {
        let own = self.entries_for(pos.key());
        if !own.is_empty() {
            return Lookup { entries: own.to_vec(), mirrored: false };
        }
        let mirror_key = mirrored_key(pos);
        if mirror_key == pos.key() {
            return Lookup { entries: Vec::new(), mirrored: false };
        }
        let entries = self
            .entries_for(mirror_key)
            .iter()
            .map(|e| Entry { key: pos.key(), mv: mirror_move(e.mv), ..e.clone() })
            .collect();
        let entries: Vec<Entry> = entries;
        // Found as a mirror image only when the mirror image has moves.
        Lookup { mirrored: !entries.is_empty(), entries }
    }

    /// Reads a book file; any malformed line refuses the whole file.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut lines =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let Some((header_index, header)) = lines.next() else {
            return Err(BookError { line: 1, message: "empty file: no 'chariot-book' header".into() });
        };
        check_header(header).map_err(|message| BookError { line: header_index + 1, message })?;
        let mut entries = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (index, line) in lines {
            let error = |message| BookError { line: index + 1, message };
            let entry = parse_entry(line).map_err(error)?;
            if !seen.insert((entry.key, entry.mv)) {
                return Err(error(format!("move {} of position {:016X} is listed twice", entry.mv, entry.key)));
            }
            entries.push(entry);
        }
        Ok(Book::from_entries(entries))
    }

    /// The file text: header, a comment, then the entries in key order.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = format!("{MAGIC} {FORMAT_VERSION} {:016X}\n", Position::startpos().key());
        for line in comment.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str("# key move weight wins draws losses preference\n");
        for e in &self.entries {
            s.push_str(&format!(
                "{:016X} {} {} {} {} {} {}\n",
                e.key, e.mv, e.weight, e.wins, e.draws, e.losses, e.preference
            ));
        }
        s
    }

    /// The built-in book (parsed once).
    pub fn built_in() -> Result<&'static Book, BookError> {
        static BUILT_IN: once_cell::sync::Lazy<Result<Book, BookError>> =
            once_cell::sync::Lazy::new(|| Book::parse(BUILT_IN_TEXT));
        BUILT_IN.as_ref().map_err(Clone::clone)
    }
}

/// The largest book file read (the built-in book is well under 1 MB): a
/// `BookFile` naming a huge file or a device such as `/dev/zero` is refused
/// instead of read whole.
pub const MAX_BOOK_BYTES: u64 = 64 * 1024 * 1024;

pub use crate::files::ReadProblem;

/// Why [`load_file`] failed; `name` is the file as the user gave it.
#[derive(Debug)]
pub enum FileError {
    Read {
        name: String,
        problem: ReadProblem,
    },
    /// Not UTF-8 text: the offset of the first byte that is not.
    NotText {
        name: String,
        offset: usize,
    },
    /// Text, but not a valid book (the line and why).
    Unusable {
        name: String,
        error: BookError,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Read { name, problem } => write!(f, "cannot read book '{name}': {problem}"),
            FileError::NotText { name, offset } => {
                write!(f, "book '{name}' is not a Chariot book (not text: byte {offset} is not UTF-8)")
            }
            FileError::Unusable { name, error } => write!(f, "book '{name}' is unusable: {error}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Read { problem: ReadProblem::Io(e), .. } => Some(e),
            FileError::Unusable { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// For callers that report errors as text (the command line).
impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

/// Reads a book file. A relative path that does not exist from the working
/// directory is also tried next to the executable (GUIs start engines in
/// their own directory).
pub fn load_file(name: &str) -> Result<Book, FileError> {
    let path = std::path::Path::new(name);
    let beside_exe = || Some(std::env::current_exe().ok()?.parent()?.join(path)).filter(|p| p.exists());
    let path = if path.is_relative() && !path.exists() {
        beside_exe().unwrap_or(path.to_path_buf())
    } else {
        path.to_path_buf()
    };
    let name = name.to_string();
    let bytes = match crate::files::read_regular_file(&path, MAX_BOOK_BYTES) {
        Ok(bytes) => bytes,
        Err(problem) => return Err(FileError::Read { name, problem }),
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => return Err(FileError::NotText { name, offset: e.utf8_error().valid_up_to() }),
    };
    Book::parse(&text).map_err(|error| FileError::Unusable { name, error })
}

fn check_header(line: &str) -> Result<(), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.first() != Some(&MAGIC) {
        return Err(format!("not a Chariot book: the first line must start with '{MAGIC}'"));
    }
    let version: u32 = fields.get(1).and_then(|v| v.parse().ok()).ok_or("the header has no format version")?;
    if version != FORMAT_VERSION {
        return Err(format!("book format {version}, this engine reads format {FORMAT_VERSION}"));
    }
    let start_key = fields.get(2).and_then(|k| u64::from_str_radix(k, 16).ok()).ok_or("the header has no start key")?;
    let ours = Position::startpos().key();
    if start_key != ours {
        return Err(format!(
            "the book was made with other hash keys (start key {start_key:016X}, this engine {ours:016X}); rebuild it"
        ));
    }
    Ok(())
}

fn parse_entry(line: &str) -> Result<Entry, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 7 {
        return Err(format!("expected 7 fields (key move weight wins draws losses preference), got {}", f.len()));
    }
    let key = u64::from_str_radix(f[0], 16).map_err(|_| format!("'{}' is not a hex key", clip(f[0])))?;
    let mv = Move::parse(f[1]).ok_or_else(|| format!("'{}' is not an ICCS move", clip(f[1])))?;
    let number =
        |i: usize, what: &str| f[i].parse::<u32>().map_err(|_| format!("{what} '{}' is not a count", clip(f[i])));
    let preference = f[6].parse::<f64>().ok().filter(|p| p.is_finite() && *p >= 0.0);
    Ok(Entry {
        key,
        mv,
        weight: number(2, "weight")?,
        wins: number(3, "wins")?,
        draws: number(4, "draws")?,
        losses: number(5, "losses")?,
        preference: preference.ok_or_else(|| format!("preference '{}' is not a number >= 0", clip(f[6])))?,
    })
}

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// A square's mirror image across the centre file.
fn mirror_square(sq: Square) -> Square {
    Square::from_file_rank(8 - sq.file(), sq.rank()).unwrap_or(sq)
}

pub fn mirror_move(m: Move) -> Move {
    Move::new(mirror_square(m.from()), mirror_square(m.to())).unwrap_or(m)
}

/// The Zobrist key of the position mirrored left to right.
pub fn mirrored_key(pos: &Position) -> u64 {
    let mut key = zobrist::side(pos.side_to_move());
    for sq in Square::all() {
        if let Some(p) = pos.piece_on(sq) {
            key ^= zobrist::piece_square(p, mirror_square(sq));
        }
    }
    key
}

/// Picks one of `candidates` (weight > 0): the heaviest when `best_only`,
/// else at random with probability proportional to weight.
pub fn choose<'a>(candidates: &'a [Entry], best_only: bool, rng: &mut Rng) -> Option<&'a Entry> {
    let candidates: Vec<&Entry> = candidates.iter().filter(|e| e.weight > 0).collect();
    if best_only {
        // Entries are sorted heaviest first; ties go to the first.
        return candidates.into_iter().reduce(|best, e| if e.weight > best.weight { e } else { best });
    }
    let total: u64 = candidates.iter().map(|e| u64::from(e.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    for e in candidates {
        if pick < u64::from(e.weight) {
            return Some(e);
        }
        pick -= u64::from(e.weight);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_errors_say_which_file_and_what_is_wrong() {
        let dir = std::env::temp_dir().join(format!("chariot-book-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("binary.book");
        std::fs::write(&binary, b"chariot-book 1\n\xff\xfe").unwrap();
        let name = binary.to_str().unwrap();
        let error = load_file(name).unwrap_err();
        assert!(matches!(error, FileError::NotText { offset: 15, .. }), "{error:?}");
        assert!(error.to_string().contains(name) && error.to_string().contains("byte 15"), "{error}");
        let bad_line = dir.join("bad.book");
        let header = BUILT_IN_TEXT.lines().next().unwrap();
        std::fs::write(&bad_line, format!("{header}\n0123 h2e2 1 0 0 0\n")).unwrap();
        let error = load_file(bad_line.to_str().unwrap()).unwrap_err();
        assert!(matches!(&error, FileError::Unusable { error: BookError { line: 2, .. }, .. }), "{error:?}");
        assert!(error.to_string().contains("is unusable: line 2: expected 7 fields"), "{error}");
        let error = load_file(dir.to_str().unwrap()).unwrap_err();
        assert!(matches!(error, FileError::Read { problem: ReadProblem::NotRegularFile, .. }), "{error:?}");
        let missing = dir.join("missing.book");
        let error = load_file(missing.to_str().unwrap()).unwrap_err();
        assert!(matches!(error, FileError::Read { problem: ReadProblem::Io(_), .. }), "{error:?}");
        assert!(error.to_string().starts_with("cannot read book '"), "{error}");
        std::fs::remove_dir_all(dir).ok();
    }

    fn entry(key: u64, mv: &str, weight: u32) -> Entry {
        Entry { key, mv: Move::parse(mv).unwrap(), weight, wins: 1, draws: 0, losses: 0, preference: 1.0 }
    }

    #[test]
    fn text_round_trip_and_lookup() {
        let start = Position::startpos();
        let book =
            Book::from_entries(vec![entry(start.key(), "b2e2", 3), entry(start.key(), "h2e2", 5), entry(7, "a0a1", 1)]);
        let text = book.to_text("a test\nsecond line");
        let again = Book::parse(&text).expect("parses");
        assert_eq!(again, book);
        let found = again.lookup(&start);
        assert!(!found.mirrored);
        let moves: Vec<String> = found.entries.iter().map(|e| e.mv.to_string()).collect();
        assert_eq!(moves, ["h2e2", "b2e2"], "heaviest first");
        assert_eq!(again.positions(), 2);
    }

    #[test]
    fn mirror_images_are_found() {
        let mut after = Position::startpos();
        after.play_text_moves(["h2e2"]).unwrap();
        let mut mirror = Position::startpos();
        mirror.play_text_moves(["b2e2"]).unwrap();
        assert_eq!(mirrored_key(&after), mirror.key());
        let book = Book::from_entries(vec![entry(after.key(), "h9g7", 4)]);
        let found = book.lookup(&mirror);
        assert!(found.mirrored);
        assert_eq!(found.entries[0].mv.to_string(), "b9c7");
        assert_eq!(found.entries[0].key, mirror.key());
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let key = Position::startpos().key();
        let good_header = format!("{MAGIC} {FORMAT_VERSION} {key:016X}\n");
        assert!(Book::parse("").unwrap_err().message.contains("header"));
        assert_eq!(Book::parse("hello\n").unwrap_err().line, 1);
        let e = Book::parse(&format!("{MAGIC} 9 {key:016X}\n")).unwrap_err();
        assert!(e.message.contains("format 9"), "{e}");
        let e = Book::parse(&format!("{MAGIC} {FORMAT_VERSION} 0123456789ABCDEF\n")).unwrap_err();
        assert!(e.message.contains("other hash keys"), "{e}");
        let e = Book::parse(&format!("{good_header}# c\n{key:016X} h2e2 1 0 0 0 1\n{key:016X} h2e2 x 0 0 0 1\n"))
            .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("weight 'x'"), "{e}");
        let e =
            Book::parse(&format!("{good_header}{key:016X} h2e2 1 0 0 0 1\n{key:016X} h2e2 2 0 0 0 1\n")).unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = Book::parse(&format!("{good_header}{key:016X} z9z9 1 0 0 0 1\n")).unwrap_err();
        assert!(e.message.contains("not an ICCS move"), "{e}");
    }

    #[test]
    fn choice_follows_the_weights() {
        let entries = vec![entry(1, "h2e2", 3), entry(1, "b2e2", 1), entry(1, "c3c4", 0)];
        let mut rng = Rng::new(42);
        assert_eq!(choose(&entries, true, &mut rng).unwrap().mv.to_string(), "h2e2");
        let mut counts = std::collections::HashMap::new();
        for _ in 0..4000 {
            *counts.entry(choose(&entries, false, &mut rng).unwrap().mv.to_string()).or_insert(0) += 1;
        }
        assert!(!counts.contains_key("c3c4"), "weight 0 is never played");
        let share = counts["h2e2"] as f64 / 4000.0;
        assert!((0.70..0.80).contains(&share), "h2e2 share {share}");
        assert!(choose(&entries[2..], false, &mut rng).is_none());
    }

    #[test]
    fn the_built_in_book_loads() {
        let book = Book::built_in().expect("the built-in book parses; rebuild it with scripts/make_book.sh");
        assert!(!book.lookup(&Position::startpos()).entries.is_empty());
    }
}
