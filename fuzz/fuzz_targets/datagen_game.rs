//! Packed training games (datagen format v2): a game that decodes is legal
//! move by move, its records are consistent, and it encodes back to the
//! same bytes.
#![no_main]

use chariot::datagen::packed::{check_consistent, decode_game, encode_game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rest = data;
    while !rest.is_empty() {
        let Ok((records, used)) = decode_game(rest) else { return };
        assert!(used > 0 && used <= rest.len());
        assert!(check_consistent(&records).is_ok(), "a decoded game is consistent");
        let mut again = Vec::new();
        encode_game(&records, &mut again);
        assert_eq!(again, rest[..used], "a decoded game encodes back to its bytes");
        rest = &rest[used..];
    }
});
