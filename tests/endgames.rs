//! The static evaluations (hand-crafted, and the network's as the search
//! uses it) against the book verdicts of `tests/data/endgames.tsv` (its
//! header cites the source of every verdict): in a won ending they favour
//! the winner (the hand-crafted one not scaled down); in a book draw they
//! are scaled towards 0.

use chariot::eval::endgame::{SCALE_NORMAL, scale};
use chariot::eval::evaluate;
use chariot::position::Position;
use chariot::types::Color;

/// A book draw may keep at most this much of an advantage (centipawns, the
/// evaluation of the side to move; a pawn is about 110).
const DRAW_BOUND: i32 = 200;

struct Case {
    line: usize,
    fen: String,
    verdict: String,
    balance: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/endgames.tsv");
    let text = std::fs::read_to_string(path).expect("tests/data/endgames.tsv is readable");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() >= 4, "line {}: fen, verdict, balance and source needed", i + 1);
            Case { line: i + 1, fen: cols[0].into(), verdict: cols[1].into(), balance: cols[2].into() }
        })
        .collect()
}

#[test]
fn the_file_covers_the_standard_balances() {
    let cases = cases();
    let balances: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.balance.as_str()).collect();
    assert!(cases.len() >= 100, "{} positions", cases.len());
    assert!(balances.len() >= 35, "{} balances", balances.len());
    for verdict in ["red-wins", "black-wins", "draw"] {
        assert!(cases.iter().any(|c| c.verdict == verdict), "no {verdict} position");
    }
}

#[test]
fn the_evaluation_agrees_with_every_book_verdict() {
    let mut wrong = Vec::new();
    for c in cases() {
        let pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("line {}: {e:?}", c.line));
        let to_move = evaluate(&pos);
        let red = if pos.side_to_move() == Color::Red { to_move } else { -to_move };
        let ok = match c.verdict.as_str() {
            "red-wins" => red > 0 && scale(&pos, Color::Red) == SCALE_NORMAL,
            "black-wins" => red < 0 && scale(&pos, Color::Black) == SCALE_NORMAL,
            "draw" => to_move.abs() <= DRAW_BOUND,
            v => panic!("line {}: unknown verdict {v}", c.line),
        };
        if !ok {
            wrong.push(format!("line {} ({}, {}): {} (Red's view {red})", c.line, c.balance, c.verdict, c.fen));
        }
    }
    assert!(wrong.is_empty(), "{} positions disagree:\n{}", wrong.len(), wrong.join("\n"));
}

/// The network's score as the search uses it (`eval::network_score`: the
/// endgame factor applied, this evaluation where the favoured side has
/// nothing to win with) gets every verdict right too. The raw network got
/// 52 of the 152 wrong, almost all book draws scored as the material counts.
#[test]
fn the_network_agrees_with_every_book_verdict() {
    let net = chariot::nnue::Network::embedded();
    let mut wrong = Vec::new();
    for c in cases() {
        let pos = Position::from_fen(&c.fen).unwrap_or_else(|e| panic!("line {}: {e:?}", c.line));
        let to_move = chariot::eval::network_score(&pos, net.evaluate_position(&pos));
        let red = if pos.side_to_move() == Color::Red { to_move } else { -to_move };
        let ok = match c.verdict.as_str() {
            "red-wins" => red > 0,
            "black-wins" => red < 0,
            "draw" => to_move.abs() <= DRAW_BOUND,
            v => panic!("line {}: unknown verdict {v}", c.line),
        };
        if !ok {
            wrong.push(format!("line {} ({}, {}): {} (Red's view {red})", c.line, c.balance, c.verdict, c.fen));
        }
    }
    assert!(wrong.is_empty(), "{} positions disagree:\n{}", wrong.len(), wrong.join("\n"));
}
