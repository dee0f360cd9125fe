//! FEN reader. A FEN that reads gives a position whose moves the fast
//! generator and the slow reference agree on, and whose FEN reads back to
//! the same position.
#![no_main]

use chariot::position::{Position, reference};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else { return };
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut slow: Vec<String> = reference::legal_moves(&pos).iter().map(|m| m.to_string()).collect();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "move generators disagree in {}", pos.to_fen());
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).expect("a written FEN reads back");
    assert_eq!(again.to_fen(), fen);
    let _ = pos.in_check();
});
