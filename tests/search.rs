//! Search behaviour through the engine API: mates, the repetition rules,
//! limits and determinism.

use chariot::engine::Engine;
use chariot::search::{Iteration, Limits, Listener, Silent};
use chariot::types::Move;
use chariot::types::score::{MATE_BOUND, mate_in};

fn engine_at(fen: &str, moves: &[&str]) -> Engine {
    let mut e = Engine::new();
    assert_eq!(e.set_position(Some(fen), moves), Ok(None));
    e
}

fn depth(d: i32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

#[test]
fn finds_mate_in_one() {
    // Ra0-a9 or Ra0-d0 mates: the pawn on c8 covers c9 and d8, the red
    // king's file covers e9.
    let mut e = engine_at("3k5/2P6/9/9/9/9/9/9/9/R3K4 w - - 0 1", &[]);
    let out = e.search_blocking(&depth(4), &Silent);
    let best = out.best.expect("a move");
    assert!(["a0a9", "a0d0"].contains(&best.to_string().as_str()), "{best}");
    assert_eq!(out.score, mate_in(1));
    let mut after = *e.position();
    after.make_move(best);
    assert!(after.in_check() && after.legal_moves().is_empty());
}

#[test]
fn a_side_with_no_legal_move_has_lost() {
    // Red's king can go nowhere (d1 and e0 are covered): stalemate loses.
    let mut e = engine_at("5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", &[]);
    let out = e.search_blocking(&depth(3), &Silent);
    assert_eq!(out.best, None);
    assert!(out.score <= -MATE_BOUND);
}

#[test]
fn avoids_perpetual_check_when_repeating_would_lose() {
    // Red is behind (a rook against two horses and a cannon) and could check forever with the rook between a8
    // and a9. The game has already gone round the cycle once; checking
    // again repeats it, and one-sided perpetual check loses ([棋例 2(1)]).
    let fen = "4k4/R8/9/2n3n2/4c4/9/9/9/9/3K5 w - - 0 1";
    let history = ["a8a9", "e9e8", "a9a8", "e8e9"];
    let mut e = engine_at(fen, &history);
    let out = e.search_blocking(&depth(6), &Silent);
    let best = out.best.map(|m| m.to_string()).unwrap_or_default();
    assert_ne!(best, "a8a9", "repeating the check loses under the rules");
    assert!(out.score > -MATE_BOUND, "deviating is bad but not lost");
}

#[test]
fn the_checked_side_keeps_the_cycle_going() {
    // Black, being checked perpetually, steps back into the cycle: the
    // repetition is a win for the side that is checked.
    let fen = "4k4/R8/9/2n3n2/4c4/9/9/9/9/3K5 w - - 0 1";
    let mut e = engine_at(fen, &["a8a9", "e9e8", "a9a8", "e8e9", "a8a9"]);
    let out = e.search_blocking(&depth(4), &Silent);
    assert_eq!(out.best.map(|m| m.to_string()).as_deref(), Some("e9e8"));
    assert!(out.score >= MATE_BOUND, "red's next check would lose by the rules");
}

#[test]
fn node_limited_search_is_deterministic() {
    let run = || {
        let mut e = Engine::new();
        e.set_position(None, &["h2e2", "h9g7"]).unwrap();
        e.search_blocking(&Limits { nodes: Some(20_000), ..Limits::default() }, &Silent)
    };
    let (a, b) = (run(), run());
    assert_eq!(a.best, b.best);
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes >= 20_000 && a.nodes < 22_000, "{}", a.nodes);
}

/// Counts the reports it hears; `wants` says whether it asks for them.
struct Counting {
    wants: bool,
    iterations: std::sync::atomic::AtomicUsize,
}

impl Listener for Counting {
    fn iteration(&self, _: &Iteration) {
        self.iterations.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    fn current_move(&self, _: i32, _: Move, _: usize) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>, _: i32) {}
    fn wants_reports(&self) -> bool {
        self.wants
    }
}

#[test]
fn a_listener_that_wants_no_reports_gets_none_and_the_same_search() {
    let run = |wants| {
        let listener = Counting { wants, iterations: Default::default() };
        let mut e = Engine::new();
        e.set_position(None, &["h2e2", "h9g7"]).unwrap();
        let out = e.search_blocking(&Limits { nodes: Some(20_000), ..Limits::default() }, &listener);
        ((out.best, out.score, out.depth, out.nodes), listener.iterations.into_inner())
    };
    let ((quiet_search, quiet_reports), (told_search, told_reports)) = (run(false), run(true));
    assert_eq!(quiet_reports, 0);
    assert!(told_reports >= 5, "{told_reports} reports");
    assert_eq!(quiet_search, told_search);
}

#[test]
fn banned_and_searchmoves_restrict_the_root() {
    let mut e = Engine::new();
    e.set_position(None, &[]).unwrap();
    let only = chariot::types::Move::parse("a3a4").unwrap();
    let out = e.search_blocking(&Limits { depth: Some(3), searchmoves: vec![only], ..Limits::default() }, &Silent);
    assert_eq!(out.best, Some(only));
    let rejected = e.set_banmoves(&["h2e2", "b2e2", "zzzz"]);
    assert_eq!(rejected, vec!["zzzz".to_string()]);
    let out = e.search_blocking(&depth(4), &Silent);
    // Engine::search_blocking takes banmoves from the limits; the engine
    // adds its own list in `go`. Check the list is kept.
    assert_eq!(e.banmoves().len(), 2);
    assert!(out.best.is_some());
}

#[test]
fn avoids_perpetual_chase_when_repeating_would_lose() {
    // The red rook has chased the unprotected cannon between the a- and
    // b-files ([棋例 2(4), 4(3)]); chasing it once more repeats the cycle with
    // Red chasing on every move and Black idle: Red would lose. Red is two
    // horses down, so without the chase rule the repetition (a draw) would be
    // its best move: an engine judging only perpetual check plays a2b2 here.
    let fen = "4k4/9/c8/5n3/7n1/9/9/1R7/9/3K5 w - - 0 1";
    let mut e = engine_at(fen, &["b2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7"]);
    let out = e.search_blocking(&depth(6), &Silent);
    let best = out.best.map(|m| m.to_string()).unwrap_or_default();
    assert_ne!(best, "a2b2", "the next chase completes a forbidden cycle");
    assert!(out.score > -MATE_BOUND);
}

/// Every search parameter at either end of its range still gives a sound
/// search (no panic, a legal move, within the clock): SPSA may go anywhere
/// in the ranges.
#[test]
fn every_search_parameter_is_safe_at_both_ends_of_its_range() {
    let fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1";
    let clock = chariot::search::Clock { time_ms: 2000, inc_ms: 20, moves_to_go: None };
    let limits = Limits { depth: Some(5), clock: Some(clock), ..Limits::default() };
    for p in chariot::search::params::PARAMS {
        for value in [p.min, p.max] {
            let mut e = engine_at(fen, &[]);
            e.set_use_nnue(false);
            e.set_search_param(p.name, value).unwrap();
            let start = std::time::Instant::now();
            let out = e.search_blocking(&limits, &Silent);
            let best = out.best.unwrap_or_else(|| panic!("{} = {value}: no move", p.name));
            assert!(e.position().legal_moves().contains(&best), "{} = {value}: {best}", p.name);
            assert!(start.elapsed().as_millis() < 5000, "{} = {value}: {:?}", p.name, start.elapsed());
        }
    }
}
