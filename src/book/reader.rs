//! A minimal reader of game records for the book builder: plain move lists
//! (one game per line) and PGN whose moves are ICCS coordinates. WXF and
//! Chinese move text are refused with a message; a fuller reader can
//! replace this module behind the same [`read_games`] function.
//!
//! Plain lines: `[fen <FEN> moves | startpos moves | moves] m1 m2 ... [result]`;
//! `#` starts a comment, move numbers are skipped. PGN: tags (`FEN` and
//! `Result` are read), move numbers, `{...}` and `;` comments, `(...)`
//! variations (skipped), `$n` annotations, and a result token or `*`
//! ending each game.

use crate::position::Position;
use crate::rules::GameResult;
use crate::types::Move;
use std::fmt;

/// One game: where it starts, its moves (legal, in order) and its result
/// (`Ongoing` when the record gives none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

/// What is wrong with a record: the game's number (1-based), the line it
/// starts on, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub game: usize,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (line {}): {}", self.game, self.line, self.message)
    }
}

impl std::error::Error for ReadError {}

/// Reads every game of `text`: PGN if any line starts with a `[` tag,
/// plain move lists otherwise. The first bad game stops the reading.
pub fn read_games(text: &str) -> Result<Vec<Game>, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.lines().any(|l| l.trim_start().starts_with('[')) { read_pgn(text) } else { read_plain(text) }
}

fn parse_result(token: &str) -> Option<GameResult> {
    match token {
        "1-0" => Some(GameResult::RedWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" | "1/2" | "½-½" => Some(GameResult::Draw),
        "*" => Some(GameResult::Ongoing),
        _ => None,
    }
}

/// ICCS move text as records write it: `h2e2`, `H2-E2`, `h2-e2`, with
/// annotation marks (`!?+#`) after it ignored.
pub(crate) fn parse_move_text(token: &str) -> Option<Move> {
    let t = token.trim_end_matches(['!', '?', '+', '#']).to_ascii_lowercase();
    let t = if t.len() == 5 && t.as_bytes()[2] == b'-' { format!("{}{}", &t[..2], &t[3..]) } else { t };
    Move::parse(&t)
}

/// Plays `tokens` (move texts) from `start`, checking each move.
fn play(start: Position, tokens: &[&str]) -> Result<Vec<Move>, String> {
    let mut pos = start;
    let mut moves = Vec::with_capacity(tokens.len());
    for (i, &token) in tokens.iter().enumerate() {
        let m = parse_move_text(token).ok_or_else(|| {
            format!("move {} '{}' is not an ICCS move such as h2e2 (this reader knows ICCS only)", i + 1, clip(token))
        })?;
        pos.check_move(m).map_err(|e| format!("move {} '{}' is illegal: {}", i + 1, clip(token), e))?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(moves)
}

fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

fn read_plain(text: &str) -> Result<Vec<Game>, ReadError> {
    let mut games = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        // Move numbers (`1.`, `1...`) are allowed and skipped.
        let is_number = |t: &&str| t.trim_end_matches('.').parse::<u32>().is_ok() && t.ends_with('.');
        let tokens: Vec<&str> = line.split_whitespace().filter(|t| !is_number(t)).collect();
        if tokens.is_empty() {
            continue;
        }
        let error = |message: String| ReadError { game: games.len() + 1, line: index + 1, message };
        let game = read_plain_line(&tokens).map_err(error)?;
        games.push(game);
    }
    Ok(games)
}

/// One plain line, split into tokens.
fn read_plain_line(tokens: &[&str]) -> Result<Game, String> {
    let (start, mut rest) = match tokens[0] {
        "startpos" => (Position::startpos(), &tokens[1..]),
        "fen" => {
            // The FEN runs to `moves`, or to the first move or result token.
            let end = tokens[1..]
                .iter()
                .position(|t| *t == "moves" || parse_move_text(t).is_some() || parse_result(t).is_some())
                .map_or(tokens.len(), |i| i + 1);
            let fen = tokens[1..end].join(" ");
            let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{}': {e}", clip(&fen)))?;
            (pos, &tokens[end..])
        }
        _ => (Position::startpos(), tokens),
    };
    if rest.first() == Some(&"moves") {
        rest = &rest[1..];
    }
    let mut result = GameResult::Ongoing;
    if let Some((last, init)) = rest.split_last()
        && let Some(r) = parse_result(last)
    {
        result = r;
        rest = init;
    }
    let moves = play(start, rest)?;
    Ok(Game { start, moves, result })
}

/// One PGN game being read.
#[derive(Default)]
struct PgnGame<'a> {
    first_line: usize,
    fen: Option<String>,
    tag_result: Option<GameResult>,
    moves: Vec<&'a str>,
    started: bool,
}

fn read_pgn(text: &str) -> Result<Vec<Game>, ReadError> {
    let mut games = Vec::new();
    let mut current = PgnGame::default();
    // Nesting of `(...)` variations and whether we are inside `{...}`.
    let mut variation_depth = 0usize;
    let mut in_comment = false;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let trimmed = line.trim();
        if !in_comment && variation_depth == 0 && trimmed.starts_with('[') {
            // A tag after moves starts a new game (a game without result).
            if !current.moves.is_empty() {
                finish_pgn_game(&mut games, std::mem::take(&mut current), None)?;
            }
            if !current.started {
                current = PgnGame { first_line: line_no, started: true, ..PgnGame::default() };
            }
            read_tag(&mut current, trimmed);
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(i) => {
                        in_comment = false;
                        rest = &rest[i + 1..];
                        continue;
                    }
                    None => break,
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    in_comment = true;
                    rest = &rest[1..];
                    continue;
                }
                ';' => break,
                '(' => {
                    variation_depth += 1;
                    rest = &rest[1..];
                    continue;
                }
                ')' => {
                    variation_depth = variation_depth.saturating_sub(1);
                    rest = &rest[1..];
                    continue;
                }
                _ => {}
            }
            let end = rest.find(|c: char| c.is_whitespace() || "{}();".contains(c)).unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if variation_depth > 0 {
                continue;
            }
            if !current.started {
                current = PgnGame { first_line: line_no, started: true, ..PgnGame::default() };
            }
            if let Some(result) = parse_result(token) {
                finish_pgn_game(&mut games, std::mem::take(&mut current), Some(result))?;
                continue;
            }
            // Move numbers (`12.`, `12...`, `12.h2e2`) and annotations.
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if token.is_empty() || token.starts_with('$') {
                continue;
            }
            current.moves.push(token);
        }
    }
    if current.started && (!current.moves.is_empty() || current.fen.is_some()) {
        finish_pgn_game(&mut games, current, None)?;
    }
    Ok(games)
}

/// Reads `[Name "value"]`; only `FEN` and `Result` matter here.
fn read_tag(game: &mut PgnGame, line: &str) {
    let inner = line.trim_start_matches('[').trim_end().trim_end_matches(']');
    let Some((name, value)) = inner.split_once(char::is_whitespace) else { return };
    let value = value.trim().trim_matches('"');
    match name {
        "FEN" => game.fen = Some(value.to_string()),
        "Result" => game.tag_result = parse_result(value),
        _ => {}
    }
}

fn finish_pgn_game(games: &mut Vec<Game>, g: PgnGame, result: Option<GameResult>) -> Result<(), ReadError> {
    let error = |message: String| ReadError { game: games.len() + 1, line: g.first_line.max(1), message };
    let start = match &g.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| error(format!("bad FEN tag '{}': {e}", clip(fen))))?,
        None => Position::startpos(),
    };
    let moves = play(start, &g.moves).map_err(error)?;
    // The result after the moves wins over the tag; `*` there means none.
    let result = match result {
        Some(GameResult::Ongoing) | None => g.tag_result.unwrap_or(GameResult::Ongoing),
        Some(r) => r,
    };
    games.push(Game { start, moves, result });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(g: &Game) -> Vec<String> {
        g.moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn plain_lines() {
        let text = "# a comment\n\
                    1. h2e2 h9g7 2. h0g2 1-0\n\
                    \n\
                    startpos moves b2e2 b9c7 1/2-1/2\n\
                    fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves c3c4\n\
                    fen 4k4/9/9/9/9/9/9/9/7R1/3K5 w h1h9 0-1  # FEN without counters, no moves word\n";
        let games = read_games(text).expect("reads");
        assert_eq!(games.len(), 4);
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[0].result, GameResult::RedWins);
        assert_eq!(games[1].result, GameResult::Draw);
        assert_eq!(games[2].result, GameResult::Ongoing);
        assert_eq!(texts(&games[3]), ["h1h9"]);
        assert_eq!(games[3].result, GameResult::BlackWins);
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
        assert_eq!(games[0].result, GameResult::BlackWins);
        assert_eq!(texts(&games[1]), ["d0d1", "e9e8"]);
        assert_eq!(games[1].result, GameResult::Draw, "`*` after the moves leaves the tag's result");
        assert_ne!(games[1].start, Position::startpos());
    }

    #[test]
    fn errors_name_the_game_line_and_move() {
        let e = read_games("h2e2 h9g7\nh2e2 h2e2\n").expect_err("illegal");
        assert_eq!((e.game, e.line), (2, 2));
        assert!(e.message.contains("move 2 'h2e2' is illegal"), "{e}");
        let e = read_games("[Event \"x\"]\n1. C2.5 H8+7 1-0\n").expect_err("WXF");
        assert!(e.message.contains("'C2.5' is not an ICCS move"), "{e}");
        let e = read_games("fen nonsense moves h2e2\n").expect_err("bad FEN");
        assert!(e.message.contains("bad FEN"), "{e}");
    }
}
