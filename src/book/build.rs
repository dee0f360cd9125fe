//! Building a book from games: every move of the first plies of each game
//! is counted with the game's result for the side that played it; a move's
//! weight is its result points times the user's preference for it.

use super::{Book, Entry};
use crate::position::Position;
use crate::record::GameRecord;
use crate::rules::GameResult;
use crate::types::Move;
use std::collections::{HashMap, HashSet};

/// Result points of one game for the side that played the move: wins
/// count most, losses least but still count (a loss in self-play is seldom
/// the opening's fault). Games without a result count as draws.
pub const WIN_POINTS: u32 = 4;
pub const DRAW_POINTS: u32 = 2;
pub const LOSS_POINTS: u32 = 1;

pub const DEFAULT_MAX_PLY: usize = 20;
pub const DEFAULT_MIN_GAMES: u32 = 1;
/// Largest preference factor accepted.
pub const MAX_PREFERENCE: f64 = 1000.0;

/// A user preference: the moves of `line`, played from the start
/// position, get their weight multiplied by `factor` (0 takes them out of
/// play). A single move is a line of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Preference {
    pub text: String,
    pub line: Vec<Move>,
    pub factor: f64,
}

/// Parses `LINE=FACTOR`, where LINE is moves (ICCS, WXF or Chinese)
/// separated by commas or spaces (`h2e2=3`, `h2e2,h9g7,h0g2=2`,
/// `C2.5=3`); the line must be legal from the start.
pub fn parse_preference(text: &str) -> Result<Preference, String> {
    let (line_text, factor_text) =
        text.rsplit_once('=').ok_or_else(|| format!("preference '{text}' needs the form MOVES=FACTOR, e.g. h2e2=3"))?;
    let factor = factor_text
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite() && (0.0..=MAX_PREFERENCE).contains(f))
        .ok_or_else(|| format!("preference '{text}': factor '{factor_text}' is not a number in 0..{MAX_PREFERENCE}"))?;
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for word in line_text.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
        let m =
            crate::notation::parse_move(&pos, word).map_err(|e| format!("preference '{text}': move '{word}' {e}"))?;
        pos.make_move(m);
        line.push(m);
    }
    if line.is_empty() {
        return Err(format!("preference '{text}' names no move"));
    }
    Ok(Preference { text: text.to_string(), line, factor })
}

#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Plies of each game that go into the book.
    pub max_ply: usize,
    /// A move needs this many games to stay in the book.
    pub min_games: u32,
    pub preferences: Vec<Preference>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { max_ply: DEFAULT_MAX_PLY, min_games: DEFAULT_MIN_GAMES, preferences: Vec::new() }
    }
}

#[derive(Clone, Debug)]
pub struct BuildReport {
    pub book: Book,
    /// Preferences that named no move of the book.
    pub unused_preferences: Vec<String>,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

pub fn build(games: &[GameRecord], options: &BuildOptions) -> BuildReport {
    let mut tallies: HashMap<(u64, Move), Tally> = HashMap::new();
    for game in games {
        // A position and move repeated inside one game count once.
        let mut seen = HashSet::new();
        let mut pos = game.start;
        for &m in game.moves.iter().take(options.max_ply) {
            if seen.insert((pos.key(), m)) {
                let t = tallies.entry((pos.key(), m)).or_default();
                match game.result {
                    None | Some(GameResult::Draw | GameResult::Ongoing) => t.draws += 1,
                    Some(r) if r == GameResult::win_for(pos.side_to_move()) => t.wins += 1,
                    Some(_) => t.losses += 1,
                }
            }
            pos.make_move(m);
        }
    }

    // Later preferences override earlier ones for the same position and move.
    let mut factors: HashMap<(u64, Move), f64> = HashMap::new();
    // Every preference naming a move, overridden or not: a preference that
    // a later one overrides still names a book move (no warning).
    let mut named_by: HashMap<(u64, Move), Vec<usize>> = HashMap::new();
    for (index, pref) in options.preferences.iter().enumerate() {
        let mut pos = Position::startpos();
        for &m in &pref.line {
            factors.insert((pos.key(), m), pref.factor);
            named_by.entry((pos.key(), m)).or_default().push(index);
            pos.make_move(m);
        }
    }

    let mut used = vec![false; options.preferences.len()];
    let mut entries = Vec::new();
    for (&(key, mv), t) in &tallies {
        if t.wins + t.draws + t.losses < options.min_games {
            continue;
        }
        let preference = factors.get(&(key, mv)).copied().unwrap_or(1.0);
        for &index in named_by.get(&(key, mv)).into_iter().flatten() {
            used[index] = true;
        }
        let points = WIN_POINTS * t.wins + DRAW_POINTS * t.draws + LOSS_POINTS * t.losses;
        let mut weight = (f64::from(points) * preference).round().min(f64::from(u32::MAX)) as u32;
        if preference > 0.0 {
            weight = weight.max(1);
        }
        entries.push(Entry { key, mv, weight, wins: t.wins, draws: t.draws, losses: t.losses, preference });
    }
    let unused_preferences =
        options.preferences.iter().zip(&used).filter(|(_, u)| !**u).map(|(p, _)| p.text.clone()).collect();
    BuildReport { book: Book::from_entries(entries), unused_preferences }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::reader::read_games;

    const GAMES: &str = "h2e2 h9g7 b0c2 i9h9 1-0\n\
                         h2e2 h9g7 b0c2 0-1\n\
                         h2e2 b9c7 1-0\n\
                         b2e2 h9g7 1/2-1/2\n\
                         b0c2 h9g7 h2e2 i9h9 1-0\n";

    fn weights(book: &Book, moves: &[&str]) -> Vec<(String, u32)> {
        let mut pos = Position::startpos();
        pos.play_text_moves(moves.iter().copied()).unwrap();
        book.lookup(&pos).entries.iter().map(|e| (e.mv.to_string(), e.weight)).collect()
    }

    #[test]
    fn weights_come_from_results() {
        let games = read_games(GAMES).unwrap();
        let book = build(&games, &BuildOptions::default()).book;
        // h2e2: two Red wins and a loss = 4+4+1; b0c2: one win; b2e2: a draw.
        assert_eq!(weights(&book, &[]), [("h2e2".to_string(), 9), ("b0c2".to_string(), 4), ("b2e2".to_string(), 2)]);
        // After h2e2, h9g7 won once and lost once for Black: 4+1.
        assert_eq!(weights(&book, &["h2e2"]), [("h9g7".to_string(), 5), ("b9c7".to_string(), 1)]);
        // h2e2 h9g7 b0c2 and b0c2 h9g7 h2e2 reach the same position: the
        // move after it counts the games of both orders (two Black losses).
        let mut pos = Position::startpos();
        pos.play_text_moves(["b0c2", "h9g7", "h2e2"]).unwrap();
        let found = book.lookup(&pos).entries;
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].mv.to_string(), found[0].losses, found[0].weight), ("i9h9".to_string(), 2, 2));
    }

    #[test]
    fn max_ply_min_games_and_preferences() {
        let games = read_games(GAMES).unwrap();
        let options = BuildOptions { max_ply: 1, min_games: 2, preferences: vec![] };
        let book = build(&games, &options).book;
        assert_eq!(weights(&book, &[]), [("h2e2".to_string(), 9)]);
        assert!(weights(&book, &["h2e2"]).is_empty());

        let preferences = vec![
            parse_preference("b2e2=10").unwrap(),
            parse_preference("H2-E2,h9g7=0.5").unwrap(),
            parse_preference("c3c4=2").unwrap(),
        ];
        let report = build(&games, &BuildOptions { preferences, ..BuildOptions::default() });
        assert_eq!(weights(&report.book, &[])[0], ("b2e2".to_string(), 20));
        assert_eq!(weights(&report.book, &[])[1], ("h2e2".to_string(), 5), "9 x 0.5 rounded");
        assert_eq!(weights(&report.book, &["h2e2"])[0], ("h9g7".to_string(), 3), "5 x 0.5 rounded");
        assert_eq!(report.unused_preferences, ["c3c4=2"]);
        // A later preference for the same move wins, and the earlier one
        // still named a book move: no warning for it.
        let preferences = vec![parse_preference("h2e2=3").unwrap(), parse_preference("h2e2=2").unwrap()];
        let report = build(&games, &BuildOptions { preferences, ..BuildOptions::default() });
        assert_eq!(weights(&report.book, &[])[0], ("h2e2".to_string(), 18));
        assert!(report.unused_preferences.is_empty(), "{:?}", report.unused_preferences);
        let zero = build(
            &games,
            &BuildOptions { preferences: vec![parse_preference("h2e2=0").unwrap()], ..BuildOptions::default() },
        );
        assert_eq!(weights(&zero.book, &[])[2], ("h2e2".to_string(), 0));
    }

    #[test]
    fn bad_preferences() {
        assert!(parse_preference("h2e2").unwrap_err().contains("MOVES=FACTOR"));
        assert!(parse_preference("h2e2=x").unwrap_err().contains("factor"));
        assert!(parse_preference("h2e2=-1").unwrap_err().contains("factor"));
        assert!(parse_preference("h2e3=2").unwrap_err().contains("illegal"));
        assert!(parse_preference("=2").unwrap_err().contains("no move"));
    }
}
