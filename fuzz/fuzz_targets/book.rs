//! The opening book's text format: a book that reads can be looked up.
#![no_main]

use chariot::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(book) = chariot::book::Book::parse(text) else { return };
    let _ = book.lookup(&Position::startpos());
});
