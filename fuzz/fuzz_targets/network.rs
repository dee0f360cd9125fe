//! The network file. A file that reads writes back the same bytes and
//! evaluates without overflow (debug assertions are on in fuzz builds).
#![no_main]

use chariot::nnue::Network;
use chariot::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(net) = Network::from_bytes(data) else { return };
    assert_eq!(net.to_bytes(), data, "a network that reads writes back its own bytes");
    let _ = net.evaluate_position(&Position::startpos());
    let crowded = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
    let _ = net.evaluate_position(&crowded);
});
