//! The browser board's commands (`chariot serve`): every line gets an
//! answer ending with the state, whatever came before it in the session.
#![no_main]

use chariot::serve::{Session, SessionLimits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(SessionLimits::default());
    for line in text.lines().take(64) {
        let out = session.handle(line);
        assert!(out.last().is_some_and(|l| l.contains("\"type\":\"state\"")), "{line:?}: {out:?}");
        let _ = session.poll();
        let _ = session.handle("engine none");
        let _ = session.handle("stop");
    }
});
