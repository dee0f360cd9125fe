//! Games as PGN: ICCS moves, each engine move with a `{score/depth time}`
//! comment, the reason of the result in a comment before it and in the
//! `Termination` tag. The `Round` tag holds the game's number in the match,
//! which is how a resumed match finds its place.

use super::game::{Game, MoveInfo};
use super::process::Score;
use crate::position::Position;
use crate::types::Color;
use crate::types::score::pawns_text;

/// Tags that every game of a match shares.
#[derive(Clone, Debug, Default)]
pub struct MatchTags {
    pub event: String,
    pub date: String,
    pub time_control: String,
}

/// One game as PGN text (ends with a blank line).
pub fn write_game(game: &Game, number: usize, tags: &MatchTags) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    tag("Event", &tags.event);
    tag("Site", "chariot match");
    tag("Date", &tags.date);
    tag("Round", &number.to_string());
    tag("Red", &game.red);
    tag("Black", &game.black);
    tag("Result", &game.result.to_string());
    tag("Variant", "xiangqi");
    tag("Format", "ICCS");
    if game.start != Position::startpos() {
        tag("FEN", &game.start.to_fen());
    }
    if !tags.time_control.is_empty() {
        tag("TimeControl", &tags.time_control);
    }
    tag("PlyCount", &game.moves.len().to_string());
    tag("Termination", game.ending.termination());
    out.push('\n');

    let mut words = Vec::new();
    let mut pos = game.start;
    let mut number = pos.fullmove_number().max(1);
    for (i, (&mv, info)) in game.moves.iter().zip(&game.infos).enumerate() {
        let red = pos.side_to_move() == Color::Red;
        if red {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(mv.to_string());
        words.push(match info {
            Some(info) => format!("{{{}}}", move_comment(info)),
            None => "{book}".to_string(),
        });
        if !red {
            number += 1;
        }
        pos.make_move(mv);
    }
    words.push(format!("{{{}}}", game.summary().replace('}', ")")));
    words.push(game.result.to_string());
    out.push_str(&wrap(&words, 79));
    out.push_str("\n\n");
    out
}

/// `+0.35/12 0.512s` (score in pawns from the mover's view, as engines
/// and GUIs write it; `+M5` for a mate).
pub fn move_comment(info: &MoveInfo) -> String {
    let mut text = match info.score {
        Some(Score::Cp(cp)) => pawns_text(cp),
        Some(Score::Mate(m)) if m > 0 => format!("+M{m}"),
        Some(Score::Mate(m)) => format!("-M{}", -m),
        None => String::new(),
    };
    if let Some(depth) = info.depth {
        text.push_str(&format!("/{depth}"));
    }
    if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(&format!("{:.3}s", info.elapsed_ms as f64 / 1000.0));
    text
}

fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

/// Today's date in UTC as `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a Gregorian date (the well-known era
/// arithmetic: 400-year eras of 146,097 days, years starting in March).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameResult, Reason};
    use crate::tournament::game::Ending;
    use crate::types::Move;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn a_game_reads_back_with_its_moves_and_result() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"].iter().map(|m| Move::parse(m).unwrap()).collect();
        let info = MoveInfo { score: Some(Score::Cp(35)), depth: Some(12), elapsed_ms: 512 };
        let game = Game {
            red: "A".into(),
            black: "B \"x\"".into(),
            start: Position::startpos(),
            moves: moves.clone(),
            infos: vec![None, Some(info), Some(MoveInfo { score: Some(Score::Mate(-3)), ..info })],
            result: GameResult::BlackWins,
            ending: Ending::Rules(Reason::PerpetualCheck),
        };
        let text = write_game(&game, 7, &MatchTags::default());
        assert!(text.contains("1. h2e2 {book} h9g7 {+0.35/12 0.512s} 2. h0g2 {-M3/12 0.512s}"), "{text}");
        assert!(text.contains("{A (Red) loses: perpetual-check} 0-1"), "{text}");
        let read = crate::record::read_games(&text).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].moves, moves);
        assert_eq!(read[0].tag("Round"), Some("7"));
        assert_eq!(read[0].tag("Black"), Some("B \"x\""));
        assert_eq!(read[0].result, Some(GameResult::BlackWins));
    }
}
