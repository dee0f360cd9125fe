//! The whole command loop on a script of commands (UCI or UCCI, chosen by
//! the first line), to the end of the input: it must return, with every
//! search answered. Searches are stopped by the end of input, so each run
//! is short; perft, bench and hash sizes are left out because they are
//! slow or big by design, not by bug.
#![no_main]

use chariot::protocol::{Output, run};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let lower = String::from_utf8_lossy(data).to_lowercase();
    if ["perft", "bench", "hash", "evalfile", "bookfile", "threads"].iter().any(|w| lower.contains(w)) {
        return;
    }
    let sink = Sink::default();
    run(std::io::Cursor::new(data.to_vec()), Output::new(Box::new(sink.clone())));
    let out = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
    for line in out.lines() {
        assert_eq!(line.trim_end(), line, "trailing blank in {line:?}");
    }
});
