//! Game records for the book builder, read with the full record reader
//! (`crate::record`: moves in ICCS, WXF or Chinese notation).
//!
//! Three layouts. PGN (any line starts with a `[` tag): as `record` reads
//! it, any number of games. Plain move lists: one game per line, `#`
//! starts a comment, each line `[fen <FEN> [moves] | startpos [moves] |
//! moves] m1 m2 ... [result]` (a FEN may be followed by its moves without
//! the word `moves`). XQF files (binary, one game): told apart by their
//! first bytes ([`read_bytes`]).

use crate::record::{self, GameRecord};
use std::fmt;

/// What is wrong with a record: the game's number (1-based), the line it
/// is on, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub game: usize,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            // A binary (XQF) record has no lines; the message may name a ply.
            0 if self.message.starts_with("ply ") => write!(f, "game {}, {}", self.game, self.message),
            0 => write!(f, "game {}: {}", self.game, self.message),
            line => write!(f, "game {} (line {line}): {}", self.game, self.message),
        }
    }
}

/// Reads the games of a file's bytes: XQF (first bytes `XQ`, one game) or
/// UTF-8 text for [`read_games`].
pub fn read_bytes(bytes: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    if record::xqf::is_xqf(bytes) {
        let game = record::xqf::read(bytes).map_err(|e| ReadError { game: 1, line: 0, message: without_place(&e) })?;
        return Ok(vec![game]);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ReadError {
        game: 1,
        line: 0,
        message: "not UTF-8 text and not an XQF file (convert a GBK file first: iconv -f gbk -t utf-8)".to_string(),
    })?;
    read_games(text)
}

impl std::error::Error for ReadError {}

/// Reads every game of `text`: PGN if any line starts with a `[` tag,
/// plain move lists (one game per line) otherwise. The first bad game
/// stops the reading.
pub fn read_games(text: &str) -> Result<Vec<GameRecord>, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.lines().any(|l| l.trim_start().starts_with('[')) {
        let games = record::read_games(text).map_err(|e| ReadError {
            game: e.game,
            line: e.line,
            message: without_place(&e),
        })?;
        return Ok(games);
    }
    let mut games = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let error = |message: String| ReadError { game: games.len() + 1, line: index + 1, message };
        let read = record::read_games(&with_moves_word(line)).map_err(|e| error(without_place(&e)))?;
        games.extend(read);
    }
    Ok(games)
}

/// The record error without its "game N, line N" prefix (the book's error
/// gives its own place; the ply stays).
fn without_place(e: &record::RecordError) -> String {
    let text = e.to_string();
    let prefix = match e.line {
        0 => format!("game {}", e.game),
        line => format!("game {}, line {line}", e.game),
    };
    let rest = text.strip_prefix(&prefix).unwrap_or(&text);
    rest.trim_start_matches([',', ':', ' ']).to_string()
}

/// `fen <board> <side> [- - 0 1] m1 m2 ...` -> the same with `moves` after
/// the FEN, which the record reader needs to see where the FEN ends. The
/// FEN's fields after the side to move are `-` or numbers; a move never is.
fn with_moves_word(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let fen_at = match words.first() {
        Some(w) if w.eq_ignore_ascii_case("position") => 1,
        _ => 0,
    };
    if !words.get(fen_at).is_some_and(|w| w.eq_ignore_ascii_case("fen"))
        || words.iter().any(|w| w.eq_ignore_ascii_case("moves"))
    {
        return line.to_string();
    }
    // fen, board, side, then at most four `-` or number fields.
    let mut end = (fen_at + 3).min(words.len());
    while end < words.len() && end < fen_at + 7 && (words[end] == "-" || words[end].bytes().all(|b| b.is_ascii_digit()))
    {
        end += 1;
    }
    if end == words.len() {
        return line.to_string();
    }
    format!("{} moves {}", words[..end].join(" "), words[end..].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::rules::GameResult;

    fn texts(g: &GameRecord) -> Vec<String> {
        g.moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn plain_lines() {
        let text = "# a comment\n\
                    1. h2e2 h9g7 2. h0g2 1-0\n\
                    \n\
                    startpos moves b2e2 b9c7 1/2-1/2\n\
                    fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves c3c4\n\
                    fen 4k4/9/9/9/9/9/9/9/7R1/3K5 w h1h9 0-1  # FEN without counters, no moves word\n\
                    fen 4k4/9/9/9/9/9/9/9/7R1/3K5 w - - 0 1 h1h9\n\
                    h2e2\n";
        let games = read_games(text).expect("reads");
        assert_eq!(games.len(), 6, "one game per line");
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[0].result, Some(GameResult::RedWins));
        assert_eq!(games[1].result, Some(GameResult::Draw));
        assert_eq!(games[2].result, None, "no result given");
        assert_eq!(texts(&games[3]), ["h1h9"]);
        assert_eq!(games[3].result, Some(GameResult::BlackWins));
        assert_eq!(texts(&games[4]), ["h1h9"]);
        assert_eq!(texts(&games[5]), ["h2e2"], "a line without result does not run into the next");
    }

    #[test]
    fn wxf_and_chinese_moves_read_like_iccs() {
        let iccs = read_games("h2e2 h9g7 h0g2 i9h9 1-0\n").unwrap();
        let wxf = read_games("C2.5 H8+7 H2+3 R9.8 1-0\n").unwrap();
        let chinese = read_games("炮二平五 马8进7 马二进三 车9平8 1-0\n").unwrap();
        assert_eq!(iccs, wxf);
        assert_eq!(iccs, chinese);
        let pgn = read_games("[Event \"x\"]\n[Result \"1-0\"]\n1. C2.5 H8+7 2. H2+3 R9.8 1-0\n").unwrap();
        let game = |g: &GameRecord| (g.start, g.moves.clone(), g.result);
        assert_eq!(game(&iccs[0]), game(&pgn[0]), "the PGN adds only its tags");
    }

    #[test]
    fn pgn_with_comments_variations_and_numbers() {
        let text = r#"[Event "test"]
[Red "a"]
[Result "0-1"]

1. h2e2 {central cannon} h9g7 (1... b9c7 2. h0g2) 2. H0-G2 $1 ; rest of line
i9h9 0-1

[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]
[Result "1/2-1/2"]
1. d0d1 e9e8 *
"#;
        let games = read_games(text).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(games[0].result, Some(GameResult::BlackWins));
        assert_eq!(texts(&games[1]), ["d0d1", "e9e8"]);
        assert_ne!(games[1].start, Position::startpos());
    }

    #[test]
    fn errors_name_the_game_line_and_move() {
        let e = read_games("h2e2 h9g7\n\n# note\nh2e2 h2e2\n").expect_err("illegal");
        assert_eq!((e.game, e.line), (2, 4));
        assert!(e.message.contains("ply 2") && e.message.contains("'h2e2'"), "{e}");
        let e = read_games("[Event \"x\"]\n1. C2.5 X9+9 1-0\n").expect_err("unreadable");
        assert_eq!((e.game, e.line), (1, 2));
        assert!(e.message.contains("'X9+9'"), "{e}");
        let e = read_games("fen nonsense moves h2e2\n").expect_err("bad FEN");
        assert!(e.message.contains("bad FEN"), "{e}");
    }
}
