//! `chariot match`'s options, checked in the library: any words for the
//! engines, the time control and the SPRT give a configuration or a typed
//! error. Lines of the input fill the fields: `e ...` an engine's tokens,
//! `each ...`, `tc ...`, `sprt ...`, `rounds N`, `games N`, `conc N`.
#![no_main]

use chariot::tournament::config::{MatchOptions, match_config};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut options = MatchOptions { games_per_round: 2, concurrency: 1, ..MatchOptions::default() };
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let words: Vec<String> = rest.split_whitespace().map(String::from).collect();
        let number = rest.trim().parse::<u64>().ok();
        match key {
            "e" => options.engines.push(words),
            "each" => options.each.extend(words),
            "tc" => options.tc = Some(rest.to_string()),
            "sprt" => options.sprt = Some(words),
            "rounds" => options.rounds = number,
            "games" => options.games_per_round = number.unwrap_or(0),
            "conc" => options.concurrency = number.unwrap_or(0),
            "movetime" => options.movetime_ms = number,
            "nodes" => options.nodes = number,
            _ => {}
        }
    }
    let _ = match_config(&options);
});
