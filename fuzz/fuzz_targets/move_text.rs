//! Move texts (ICCS, WXF, Chinese, XBoard SAN) in several positions: a text
//! that reads is a legal move of its position.
#![no_main]

use chariot::position::Position;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const FENS: [&str; 5] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3",
    "3k5/4P4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    "2bak4/4a4/4b4/4C4/2p1P1p2/9/4c4/4B4/4A4/2BAK4 b - - 0 1",
    "4k4/9/9/9/4P4/4P4/4P4/9/9/3K5 w - - 0 1",
];

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| FENS.iter().map(|f| Position::from_fen(f).unwrap()).collect())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for pos in positions() {
        if let Ok(m) = chariot::notation::parse_move(pos, &text) {
            assert!(pos.check_move(m).is_ok(), "'{text}' read as {m}, not legal in {}", pos.to_fen());
        }
    }
});
