//! Tournament-grade reliability through the binary: absurd clocks, and
//! threads that cannot be had.

mod common;

use common::Session;
use std::time::Duration;

/// Clock values near the integer limits once wrapped the budget and made
/// the engine move at once. A huge clock means "no hurry": the search must
/// still be thinking when `stop` comes.
#[test]
fn huge_clocks_do_not_wrap_into_an_instant_move() {
    let cases: [(bool, &str); 4] = [
        (false, "wtime 300000000000000000 btime 300000000000000000"),
        (
            false,
            "wtime 4611686018427387904 btime 4611686018427387904 winc 4611686018427387904 binc 4611686018427387904",
        ),
        (true, "time 1e16 opptime 1e16"),
        (true, "time 1e16 increment 1e16 opptime 1e16 oppincrement 1e16"),
    ];
    for (ucci, args) in cases {
        let mut s = if ucci { Session::ucci() } else { Session::uci() };
        s.send("position startpos");
        s.send(&format!("go {args}"));
        // Whatever the speed of the machine, an answer before `stop` is the bug.
        std::thread::sleep(Duration::from_millis(300));
        let before = s.sync();
        assert!(!before.iter().any(|l| common::is_answer(l)), "go {args} answered before stop: {before:?}");
        s.send("stop");
        assert!(s.answer().starts_with("bestmove "), "{}", s.dump());
        s.quit(ucci);
    }
}
