//! Training-data records: a record that decodes gives a position and
//! encodes back to the same bytes.
#![no_main]

use chariot::datagen::format::{RECORD_BYTES, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(RECORD_BYTES) {
        let bytes: &[u8; RECORD_BYTES] = chunk.try_into().unwrap();
        if let Ok(record) = Record::decode(bytes) {
            let _ = record.position();
            assert_eq!(Record::decode(&record.encode()).ok(), Some(record));
        }
    }
});
