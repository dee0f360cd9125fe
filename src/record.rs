//! Game records: PGN files (one or more games) and plain move lists, read
//! into a start position and the legal moves played from it.
//!
//! PGN: tags `[Name "value"]` (a `[FEN "..."]` tag sets the start), then
//! movetext: moves in ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`), Chinese
//! (`炮二平五`) or XBoard's SAN (`Hg2`, `Rxe4`, `E5e7`, `Hc2d4`; ranks
//! decided per game, see [`read_games_each`]), move numbers (`1.`, `1...`, also glued: `1.h2e2`), comments
//! `{...}` and `; ...`, variations `(...)` (skipped, nested), NAGs `$2`,
//! annotation marks (`C2=5!?`, `h2e2+`), `%` escape lines, and a result
//! (`1-0`, `0-1`, `1/2-1/2`, `*`, or 红胜 / 黑胜 / 和棋). A tag after
//! movetext (or any text after a result) starts the next game.
//!
//! Plain move list: the same movetext, optionally preceded by a start: a
//! FEN on the first line, or `[position] fen <FEN> [moves] ...`, or
//! `[position] startpos [moves] ...` (the UCI/UCCI `position` command).
//!
//! Binary XQF files (XQStudio and its successors) are read by [`xqf`];
//! [`read_bytes`] tells the two kinds apart by their first bytes.
//!
//! Nothing here panics on bad input: every problem is a [`RecordError`]
//! naming the game, line, ply and text that failed.

use crate::notation::{self, NotationError, RankBase};
use crate::position::{FenError, Position};
use crate::rules::GameResult;
use crate::types::Move;
use std::fmt;

pub mod xqf;

/// One game read from a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The PGN tags in the order given (empty for a move list).
    pub tags: Vec<(String, String)>,
    /// The position before the first move (the `FEN` tag, or the start).
    pub start: Position,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The result the record states (movetext first, else the `Result`
    /// tag); `Some(GameResult::Ongoing)` for `*`, `None` when none is given.
    pub result: Option<GameResult>,
}

impl GameRecord {
    /// The value of a tag (names compared without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The positions before each move, then the final one (`moves.len() + 1`).
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &m in &self.moves {
            pos.make_move(m);
            out.push(pos);
        }
        out
    }
}

/// What went wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The game in the text, from 1.
    pub game: usize,
    /// The line in the text, from 1; 0 in a binary (XQF) record.
    pub line: usize,
    /// The ply of the move that failed (from 1), for move errors.
    pub ply: Option<usize>,
    /// The text that failed (shortened if long).
    pub token: String,
    pub kind: RecordErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The text holds no game (no tag and no move).
    NoGame,
    BadFen(FenError),
    BadMove(NotationError),
    /// A `[` that does not open a `[Name "value"]` tag.
    BadTag,
    /// A comment, variation or tag opened by this character is never closed.
    Unclosed(char),
    /// A binary XQF record that cannot be read.
    Xqf(xqf::XqfError),
    /// Neither XQF nor UTF-8 text.
    NotText,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if self.line > 0 {
            write!(f, ", line {}", self.line)?;
        }
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        match &self.kind {
            RecordErrorKind::NoGame => write!(f, ": no game found (no tag and no move)"),
            RecordErrorKind::BadFen(e) => write!(f, ": bad FEN '{}': {e}", self.token),
            RecordErrorKind::BadMove(e) => write!(f, ": move '{}' {e}", self.token),
            RecordErrorKind::BadTag => write!(f, ": '{}' is not a tag [Name \"value\"]", self.token),
            RecordErrorKind::Unclosed(c) => write!(f, ": '{c}' is never closed"),
            RecordErrorKind::Xqf(e) => write!(f, ": {e}"),
            RecordErrorKind::NotText => {
                write!(f, ": not UTF-8 text and not an XQF file (convert a GBK file first: iconv -f gbk -t utf-8)")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Reads every game of a PGN file or move list; the first error fails the
/// whole read (use [`read_games_each`] to skip bad games).
pub fn read_games(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let games: Result<Vec<GameRecord>, RecordError> = read_games_each(text).into_iter().collect();
    let games = games?;
    if games.is_empty() {
        return Err(RecordError { game: 1, line: 1, ply: None, token: String::new(), kind: RecordErrorKind::NoGame });
    }
    Ok(games)
}

/// Reads the games of a file by its content: an XQF file (first bytes
/// `XQ`) holds one game; anything else must be UTF-8 text for
/// [`read_games`].
pub fn read_bytes(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    if xqf::is_xqf(bytes) {
        return xqf::read(bytes).map(|game| vec![game]);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| RecordError {
        game: 1,
        line: 0,
        ply: None,
        token: String::new(),
        kind: RecordErrorKind::NotText,
    })?;
    read_games(text)
}

/// Reads every game; each is a record or the error that stopped it (the
/// reader goes on with the next game).
///
/// SAN ranks, decided per game (XBoard writes 0..9 or 1..10 depending on
/// version and settings, and says nothing about it): a game with a SAN
/// move to or from rank 10 is read with ranks 1..10, any other with 0..9;
/// a game that fails on a move that way but reads to the end the other
/// way is taken the other way (when neither reads it, the error is the one
/// of the way that read more moves).
pub fn read_games_each(text: &str) -> Vec<Result<GameRecord, RecordError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (preset, offset) = match plain_start(text) {
        Ok(found) => found,
        Err((line, token, e)) => {
            let kind = RecordErrorKind::BadFen(e);
            return vec![Err(RecordError { game: 1, line, ply: None, token, kind })];
        }
    };
    let mut lexer = Lexer { text, at: offset, line: 1 + text[..offset].matches('\n').count() };
    let mut games = Vec::new();
    let mut game = Builder::new(1, preset);
    while let Some(lexeme) = lexer.next() {
        match lexeme {
            Err((line, token, kind)) => game.fail(line, token, kind),
            Ok(Lexeme::Tag { name, value, line }) => {
                if game.has_movetext {
                    let next = Builder::new(game.number + 1, None);
                    games.push(std::mem::replace(&mut game, next).finish());
                }
                game.tag(name, value, line);
            }
            Ok(Lexeme::Word { text, line }) => {
                if game.result.is_some() {
                    let next = Builder::new(game.number + 1, None);
                    games.push(std::mem::replace(&mut game, next).finish());
                }
                game.word(text, line);
            }
        }
    }
    if game.has_movetext || !game.tags.is_empty() || game.error.is_some() || game.preset.is_some() {
        games.push(game.finish());
    }
    games
}

// ------------------------------------------------------------ one game

/// A game being read. Its moves are collected as words and played at the
/// end, when the whole game shows how its SAN numbers the ranks.
struct Builder<'a> {
    number: usize,
    tags: Vec<(String, String)>,
    /// The start from a move list's preamble.
    preset: Option<Position>,
    /// The FEN tag's text and line.
    fen: Option<(String, usize)>,
    /// The move words and their lines, in order.
    words: Vec<(&'a str, usize)>,
    result: Option<GameResult>,
    has_movetext: bool,
    /// An error that is not about a move (it stops the collecting: every
    /// move word comes before it).
    error: Option<RecordError>,
}

impl<'a> Builder<'a> {
    fn new(number: usize, preset: Option<Position>) -> Builder<'a> {
        Builder {
            number,
            tags: Vec::new(),
            preset,
            fen: None,
            words: Vec::new(),
            result: None,
            has_movetext: false,
            error: None,
        }
    }

    fn fail(&mut self, line: usize, token: String, kind: RecordErrorKind) {
        if self.error.is_none() {
            self.error = Some(RecordError { game: self.number, line, ply: None, token: clip(&token), kind });
        }
    }

    fn tag(&mut self, name: String, value: String, line: usize) {
        if name.eq_ignore_ascii_case("FEN") && self.preset.is_none() {
            self.fen = Some((value.clone(), line));
        }
        self.tags.push((name, value));
    }

    fn word(&mut self, word: &'a str, line: usize) {
        self.has_movetext = true;
        if self.error.is_some() {
            return;
        }
        if let Some(result) = result_of(word) {
            self.result = Some(result);
            return;
        }
        if is_move_number(word) || word.eq_ignore_ascii_case("moves") {
            return;
        }
        self.words.push((word, line));
    }

    /// Plays the words from `start` with SAN ranks as `ranks` says.
    fn play(&self, start: &Position, ranks: RankBase) -> Result<Vec<Move>, RecordError> {
        let mut pos = *start;
        let mut moves = Vec::with_capacity(self.words.len());
        for &(word, line) in &self.words {
            match read_move(&pos, word, ranks) {
                Ok(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                Err(e) => {
                    return Err(RecordError {
                        game: self.number,
                        line,
                        ply: Some(moves.len() + 1),
                        token: clip(word),
                        kind: RecordErrorKind::BadMove(e),
                    });
                }
            }
        }
        Ok(moves)
    }

    fn finish(self) -> Result<GameRecord, RecordError> {
        let start = match (&self.preset, &self.fen) {
            (Some(p), _) => *p,
            (None, Some((fen, line))) => match Position::from_fen(fen) {
                Ok(p) => p,
                // A bad FEN stops the game at its first move, before any
                // later error; with no move, an earlier error comes first.
                Err(e) => {
                    let bad_fen = RecordError {
                        game: self.number,
                        line: *line,
                        ply: None,
                        token: clip(fen),
                        kind: RecordErrorKind::BadFen(e),
                    };
                    return Err(if self.words.is_empty() { self.error.unwrap_or(bad_fen) } else { bad_fen });
                }
            },
            (None, None) => Position::startpos(),
        };
        let ranks = if self.words.iter().any(|&(w, _)| notation::has_rank_ten(bare(w))) {
            RankBase::One
        } else {
            RankBase::Zero
        };
        // When neither numbering reads the game, the one that got further
        // tells where it goes wrong.
        let moves = match self.play(&start, ranks) {
            Err(e) => self.play(&start, ranks.other()).map_err(|other| if other.ply > e.ply { other } else { e })?,
            Ok(moves) => moves,
        };
        // Every move came before the other error.
        if let Some(e) = self.error {
            return Err(e);
        }
        let result = self.result.or_else(|| result_of(self.tag_value("Result")?.trim()));
        Ok(GameRecord { tags: self.tags, start, moves, result })
    }

    fn tag_value(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A move word without its move number and marks (`12.Rh10+!` -> `Rh10`).
fn bare(word: &str) -> &str {
    strip_move_number(word).trim_end_matches(['!', '?', '+', '#'])
}

/// A move word: as written, then without a move-number prefix (`1.h2e2`),
/// then also without annotation marks (`C2=5!?`, `h2e2+`, `h2e2#`); each
/// in ICCS, WXF, Chinese or XBoard SAN. The error is the first one that is
/// about a readable move.
fn read_move(pos: &Position, word: &str, ranks: RankBase) -> Result<Move, NotationError> {
    let text = strip_move_number(word);
    let unmarked = text.trim_end_matches(['!', '?']);
    let unchecked = unmarked.trim_end_matches(['+', '#']);
    let mut error = None;
    for candidate in [word, text, unmarked, unchecked] {
        if candidate.is_empty() {
            continue;
        }
        match notation::parse_any(pos, candidate, ranks) {
            Ok(m) => return Ok(m),
            Err(e) if e != NotationError::Unreadable => {
                error.get_or_insert(e);
            }
            Err(_) => {}
        }
    }
    Err(error.unwrap_or(NotationError::Unreadable))
}

/// `1.h2e2` -> `h2e2`, `12...C2=5` -> `C2=5`; other words unchanged.
fn strip_move_number(word: &str) -> &str {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == word.len() || !rest.starts_with(['.', '…']) {
        return word;
    }
    rest.trim_start_matches(['.', '…'])
}

fn result_of(word: &str) -> Option<GameResult> {
    match word {
        "1-0" | "红胜" | "紅勝" => Some(GameResult::RedWins),
        "0-1" | "黑胜" | "黑勝" => Some(GameResult::BlackWins),
        "1/2-1/2" | "½-½" | "和棋" => Some(GameResult::Draw),
        "*" => Some(GameResult::Ongoing),
        _ => None,
    }
}

/// `1.`, `12...`, `...`, `1…`: numbering, not a move.
fn is_move_number(word: &str) -> bool {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    !rest.is_empty() && rest.chars().all(|c| c == '.' || c == '…')
}

fn clip(text: &str) -> String {
    const MAX_CHARS: usize = 60;
    let t: String = text.chars().take(MAX_CHARS).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.chars().nth(MAX_CHARS).is_some() { format!("{t}...") } else { t }
}

// ------------------------------------------------------ move-list preamble

/// A start at the top of a move list: `fen <FEN> [moves]`, `startpos
/// [moves]` (each maybe after `position`), or a FEN on the first line.
/// Returns the start (if any) and where the movetext begins; Err(line,
/// text, error) for a FEN that is given but bad.
type PlainStart = Result<(Option<Position>, usize), (usize, String, FenError)>;

fn plain_start(text: &str) -> PlainStart {
    let skipped = text.len() - text.trim_start().len();
    let line = 1 + text[..skipped].matches('\n').count();
    let first_line = text[skipped..].lines().next().unwrap_or("");
    let words = word_spans(first_line);
    let mut i = 0;
    if words.first().is_some_and(|(_, w)| w.eq_ignore_ascii_case("position")) {
        i += 1;
    }
    let Some(&(at, word)) = words.get(i) else { return Ok((None, 0)) };
    if word.eq_ignore_ascii_case("startpos") {
        return Ok((Some(Position::startpos()), skipped + at + word.len()));
    }
    let fen_from = if word.eq_ignore_ascii_case("fen") {
        i + 1
    } else if word.matches('/').count() == 9 {
        // A first line that starts with a FEN board (ten ranks).
        i
    } else {
        return Ok((None, 0));
    };
    let fen_end = words[fen_from..].iter().position(|(_, w)| w.eq_ignore_ascii_case("moves")).map(|k| fen_from + k);
    let fen: Vec<&str> = words[fen_from..fen_end.unwrap_or(words.len())].iter().map(|&(_, w)| w).collect();
    let fen = fen.join(" ");
    let movetext = match fen_end {
        Some(k) => words[k].0 + words[k].1.len(),
        None => first_line.len(),
    };
    match Position::from_fen(&fen) {
        Ok(p) => Ok((Some(p), skipped + movetext)),
        Err(e) => Err((line, clip(&fen), e)),
    }
}

/// The whitespace-separated words of a line with their byte offsets.
fn word_spans(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

// ------------------------------------------------------------ lexer

enum Lexeme<'a> {
    Tag { name: String, value: String, line: usize },
    Word { text: &'a str, line: usize },
}

type LexError = (usize, String, RecordErrorKind);

/// Splits movetext into tags and words; skips comments, variations, NAGs
/// and escape lines.
struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.text[..self.at].rsplit('\n').next().is_some_and(|before| before.trim().is_empty())
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// Skips to the `close` matching an `open` just read; nested pairs and
    /// `{...}` comments inside are skipped too.
    fn skip_group(&mut self, open: char, close: char) -> Result<(), LexError> {
        let line = self.line;
        let mut depth = 1;
        while let Some(c) = self.bump() {
            if c == '{' && open != '{' {
                self.skip_group('{', '}')?;
            } else if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
        }
        Err((line, open.to_string(), RecordErrorKind::Unclosed(open)))
    }

    fn tag(&mut self) -> Result<Lexeme<'a>, LexError> {
        let line = self.line;
        let begin = self.at;
        let mut in_quotes = false;
        let mut escaped = false;
        let mut end = None;
        while let Some(c) = self.bump() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_quotes => escaped = true,
                '"' => in_quotes = !in_quotes,
                ']' if !in_quotes => {
                    end = Some(self.at - 1);
                    break;
                }
                '\n' if !in_quotes => break,
                _ => {}
            }
        }
        let inner = &self.text[begin..end.unwrap_or(self.at)];
        let bad = || (line, format!("[{}", inner.trim_end()), RecordErrorKind::BadTag);
        if end.is_none() {
            return Err(if in_quotes { (line, "[".into(), RecordErrorKind::Unclosed('[')) } else { bad() });
        }
        let inner = inner.trim();
        let name_end = inner.find(|c: char| c.is_whitespace() || c == '"').unwrap_or(inner.len());
        let (name, rest) = inner.split_at(name_end);
        let rest = rest.trim();
        let valid_name = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !valid_name || rest.len() < 2 || !rest.starts_with('"') || !rest.ends_with('"') {
            return Err(bad());
        }
        let value = unescape(&rest[1..rest.len() - 1]);
        Ok(Lexeme::Tag { name: name.to_string(), value, line })
    }

    fn next(&mut self) -> Option<Result<Lexeme<'a>, LexError>> {
        loop {
            let c = self.peek()?;
            if c.is_whitespace() {
                self.bump();
                continue;
            }
            if c == '%' && self.at_line_start() {
                self.skip_line();
                continue;
            }
            match c {
                '{' | '(' => {
                    self.bump();
                    let close = if c == '{' { '}' } else { ')' };
                    if let Err(e) = self.skip_group(c, close) {
                        return Some(Err(e));
                    }
                }
                ';' => self.skip_line(),
                ')' | '}' | ']' => {
                    self.bump();
                }
                '$' => {
                    self.bump();
                    while self.peek().is_some_and(|d| d.is_ascii_digit()) {
                        self.bump();
                    }
                }
                '[' => {
                    self.bump();
                    return Some(self.tag());
                }
                _ => {
                    let line = self.line;
                    let begin = self.at;
                    while self.peek().is_some_and(|d| !d.is_whitespace() && !"{}()[];$".contains(d)) {
                        self.bump();
                    }
                    return Some(Ok(Lexeme::Word { text: &self.text[begin..self.at], line }));
                }
            }
        }
    }
}

/// A PGN tag value with `\"` and `\\` unescaped.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
