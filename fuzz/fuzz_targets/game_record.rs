//! Game records: PGN (XBoard's files too), move lists and XQF. A record
//! that reads has moves each legal in the position before it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(games) = chariot::record::read_bytes(data) else { return };
    for game in games {
        let mut pos = game.start;
        for m in game.moves {
            assert!(pos.check_move(m).is_ok(), "{m} illegal in {}", pos.to_fen());
            pos.make_move(m);
        }
    }
});
