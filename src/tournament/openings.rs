//! Opening files: PGN, move lists (one opening a line: `h2e2 h9g7`,
//! `startpos moves ...`, `fen F moves ...`), bare FEN lines, and EPD lines
//! (`board side - - opcode ...;`, the opcodes ignored).

use super::game::Opening;
use crate::book::reader;
use crate::rng::Rng;

/// Reads every opening of `text`. Errors name the game and line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_pgn = text.lines().any(|l| l.trim_start().starts_with('['));
    let rewritten = if is_pgn {
        text.to_string()
    } else {
        // Line by line, so that the reader's line numbers stay right.
        text.lines().map(fen_line_as_move_list).collect::<Vec<_>>().join("\n")
    };
    let games = reader::read_games(&rewritten).map_err(|e| e.to_string())?;
    if games.is_empty() {
        return Err("no openings in it".into());
    }
    Ok(games.into_iter().map(|g| Opening { start: g.start, moves: g.moves }).collect())
}

/// A line that starts with a FEN board (no `fen` word), possibly EPD, as
/// `fen <board> <side> [fields] [moves ...]`; other lines unchanged.
fn fen_line_as_move_list(line: &str) -> String {
    let content = line.split('#').next().unwrap_or("");
    let words: Vec<&str> = content.split_whitespace().collect();
    if !words.first().is_some_and(|w| w.contains('/')) {
        return line.to_string();
    }
    let mut fen: Vec<&str> = words.iter().take(2).copied().collect();
    let mut rest = &words[fen.len()..];
    while let Some((&w, tail)) = rest.split_first() {
        if fen.len() >= 6 || !(w == "-" || w.bytes().all(|b| b.is_ascii_digit())) {
            break;
        }
        fen.push(w);
        rest = tail;
    }
    // EPD: the rest is opcodes (`bm h2e2; id "x";`), not moves.
    if content.contains(';') {
        rest = &[];
    }
    let mut out = format!("fen {}", fen.join(" "));
    if !rest.is_empty() {
        out.push_str(" moves ");
        out.push_str(&rest.join(" "));
    }
    out
}

/// Shuffles the openings in an order that depends only on `seed`.
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..openings.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        openings.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn every_layout_reads() {
        let text = "# comment\n\
                    h2e2 h9g7\n\
                    startpos moves b2e2\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 h2e2\n\
                    3k5/9/9/9/9/9/9/9/4R4/4K4 w - - bm e1e9; id \"epd 1\";\n";
        let openings = parse_openings(text).unwrap();
        assert_eq!(openings.len(), 5);
        assert_eq!(openings[0].moves.len(), 2);
        assert_eq!(openings[2], Opening::startpos());
        assert_eq!(openings[3].moves.len(), 1);
        assert!(openings[4].moves.is_empty());
        assert_ne!(openings[4].start, Position::startpos());
        let pgn = "[Event \"x\"]\n\n1. h2e2 h9g7 *\n\n[Event \"y\"]\n\n1. c3c4 *\n";
        assert_eq!(parse_openings(pgn).unwrap().len(), 2);
    }

    #[test]
    fn bad_files_say_where() {
        let err = parse_openings("h2e2\nh2e2 h2e3\n").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
        assert!(parse_openings("# nothing\n").is_err());
    }

    #[test]
    fn shuffling_depends_only_on_the_seed() {
        let mut a: Vec<Opening> = parse_openings("h2e2\nb2e2\nc3c4\ng3g4\nh0g2\n").unwrap();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut c = b.clone();
        shuffle(&mut c, 8);
        assert_ne!(a, c, "another seed, another order (for these five)");
    }
}
