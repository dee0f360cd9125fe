//! Property test: no `position ... moves` input can make the engine panic,
//! and a bad move never corrupts the position (the moves before it stay
//! played, nothing after it is applied).

mod common;

use chariot::engine::Engine;
use chariot::position::Position;
use common::Rng;

#[test]
fn random_move_lists_never_panic_and_stop_at_the_first_bad_move() {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let alphabet: Vec<char> = "abcdefghijz0123456789-+ \u{00e9}".chars().collect();
    let mut engine = Engine::new();
    let mut bad_seen = 0;
    for _ in 0..3000 {
        // Mostly legal moves from a real game, with random junk mixed in.
        let mut pos = Position::startpos();
        let mut tokens: Vec<String> = Vec::new();
        let mut legal_prefix = 0;
        let mut broken = false;
        for _ in 0..rng.below(60) {
            let legal = pos.legal_moves();
            let token = if legal.is_empty() || rng.below(10) == 0 {
                (0..rng.below(6)).map(|_| alphabet[rng.below(alphabet.len())]).collect()
            } else {
                legal[rng.below(legal.len())].to_string()
            };
            if !broken {
                match pos.play_text_moves([token.as_str()]) {
                    Ok(()) => legal_prefix += 1,
                    Err(_) => broken = true,
                }
            }
            tokens.push(token);
        }
        let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let result = engine.set_position(None, &refs).expect("the start FEN is valid");
        match result {
            Some(bad) => {
                bad_seen += 1;
                assert_eq!(bad.index, legal_prefix, "the report names the first bad move");
            }
            None => assert_eq!(legal_prefix, tokens.len()),
        }
        // The engine's position is the prefix that was legal.
        assert_eq!(engine.position(), &pos);
    }
    assert!(bad_seen > 100, "junk moves must have been exercised");
}
