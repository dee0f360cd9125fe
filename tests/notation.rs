//! Notation against references that share no code with Chariot: WXF from
//! Fairy-Stockfish and Chinese from the `cchess` package, recorded in
//! `tests/data/notation_fixture.txt` by `tests/data/notation_fixture.py`.

use chariot::notation::{parse_chinese, parse_iccs, parse_move, parse_wxf, to_chinese, to_wxf};
use chariot::position::Position;

const FIXTURE: &str = include_str!("data/notation_fixture.txt");

#[test]
fn moves_match_the_reference_programs() {
    let (mut wxf_checked, mut zh_checked, mut numbered_read) = (0, 0, 0);
    let mut failures = Vec::new();
    for (n, line) in FIXTURE.lines().enumerate() {
        let fields: Vec<&str> = line.split(';').collect();
        assert!(fields.len() >= 4, "line {}: {line}", n + 1);
        let pos = Position::from_fen(fields[0]).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let m = parse_iccs(&pos, fields[1]).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let mut fail = |what: &str, got: String| failures.push(format!("line {}: {what}: {got} ({line})", n + 1));
        if fields[2] != "-" {
            wxf_checked += 1;
            if to_wxf(&pos, m) != fields[2] {
                fail("WXF written", to_wxf(&pos, m));
            }
            if parse_wxf(&pos, fields[2]) != Ok(m) {
                fail("WXF read", format!("{:?}", parse_wxf(&pos, fields[2])));
            }
        }
        if fields[3] != "-" {
            zh_checked += 1;
            if to_chinese(&pos, m) != fields[3] {
                fail("Chinese written", to_chinese(&pos, m));
            }
            if parse_chinese(&pos, fields[3]) != Ok(m) {
                fail("Chinese read", format!("{:?}", parse_chinese(&pos, fields[3])));
            }
        }
        // Fairy-Stockfish's numbered pawns (`15=6`) are read where the
        // number cannot be mistaken for the official middle-pawn form.
        if let Some(&numbered) = fields.get(4) {
            let digits: Vec<char> = numbered.chars().take(2).collect();
            if digits.iter().all(char::is_ascii_digit) && digits[0] != digits[1] {
                numbered_read += 1;
                if parse_move(&pos, numbered) != Ok(m) {
                    fail("numbered WXF read", format!("{:?}", parse_move(&pos, numbered)));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(40)].join("\n"));
    assert!(
        wxf_checked >= 1000 && zh_checked >= 1000 && numbered_read >= 20,
        "{wxf_checked} {zh_checked} {numbered_read}"
    );
}
