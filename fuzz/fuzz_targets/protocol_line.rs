//! The protocol's line parser: every line is some command (an unknown one
//! at worst), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let _ = chariot::protocol::parse_command(line);
    }
});
