//! `chariot book show`: a position's book moves as a table.

use super::Book;
use crate::position::Position;

/// The lines that show `pos` and its moves in `book`: the FEN, the key
/// (and whether the position was found as a mirror image), then one line
/// per move with its weight, share, games and preference; a move illegal
/// in `pos` is marked.
pub fn lines(book: &Book, pos: &Position) -> Vec<String> {
    let found = book.lookup(pos);
    let mirror = if found.mirrored { " (found as the mirror image of a book position)" } else { "" };
    let mut lines = vec![format!("position {}", pos.to_fen()), format!("key {:016X}{mirror}", pos.key())];
    if found.entries.is_empty() {
        lines.push("no book moves".into());
        return lines;
    }
    let total: u64 = found.entries.iter().map(|e| u64::from(e.weight)).sum();
    lines.push("move  weight  share  games  wins draws losses  pref".into());
    for e in &found.entries {
        let share = if total > 0 { 100.0 * f64::from(e.weight) / total as f64 } else { 0.0 };
        let legal = if pos.check_move(e.mv).is_ok() { "" } else { "  (illegal here: ignored)" };
        lines.push(format!(
            "{}  {:>6} {:>5.1}%  {:>5}  {:>4} {:>5} {:>6}  {}{legal}",
            e.mv,
            e.weight,
            share,
            e.games(),
            e.wins,
            e.draws,
            e.losses,
            e.preference
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_book_moves_and_a_bare_king_has_none() {
        let book = Book::built_in().expect("the built-in book");
        let start = lines(book, &Position::startpos());
        assert!(start[0].starts_with("position rnbakabnr/"), "{start:?}");
        assert_eq!(start[1], format!("key {:016X}", Position::startpos().key()));
        assert_eq!(start[2], "move  weight  share  games  wins draws losses  pref");
        assert!(start[3..].iter().any(|l| l.starts_with("h2e2  ")), "{start:?}");
        // The shares of all moves add up to the whole.
        let shares: f64 = start[3..]
            .iter()
            .map(|l| l.split('%').next().unwrap().rsplit(' ').next().unwrap().parse::<f64>().unwrap())
            .sum();
        assert!((shares - 100.0).abs() < 0.1 * start.len() as f64, "{shares}");
        let endgame = Position::from_fen("3k5/9/9/9/9/9/9/3R5/9/4K4 b - - 0 1").unwrap();
        assert_eq!(lines(book, &endgame)[2..], ["no book moves"]);
        // Neither it nor its mirror image is in the book: no word of a
        // mirror image.
        assert_eq!(lines(book, &endgame)[1], format!("key {:016X}", endgame.key()));
    }
}
