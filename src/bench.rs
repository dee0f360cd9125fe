//! `bench`: a fixed set of positions searched to a fixed depth by one
//! engine with one thread and a 16 MB hash, cleared once at the start. The total node count is deterministic: the
//! "bench signature" every search or evaluation change reports.

use crate::engine::Engine;
use crate::nnue::Network;
use crate::search::{Limits, Signals, Silent};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 9;

/// (FEN or "startpos", moves from it).
const POSITIONS: &[(&str, &str)] = &[
    ("startpos", "b2e2 b9c7 b0c2 a9b9"),
    ("startpos", "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 h7h3 c3c4"),
    ("startpos", "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 b0a2 g7f5"),
    ("startpos", "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6"),
    ("startpos", "h2e2 h7e7 b0c2 h9g7 g3g4 b7b4 a0a1 d9e8"),
    ("startpos", "h2e2 b7e7 h0g2 b9c7 i0h0 a9b9"),
    ("startpos", "h2e2 b9c7 b0c2 h7f7 f0e1 g6g5"),
    ("startpos", "c3c4 b7d7 b0c2 g9e7 b2b8 a9a8 b8b4 h9f8 g3g4"),
    ("startpos", "c3c4 g6g5 b2b4 h7h5 h0g2 h5i5 h2i2"),
    ("startpos", "c3c4 g9e7 h0g2 h7h5 b2e2 h5a5 e2e6 d9e8 b0a2"),
    ("startpos", "g3g4 c6c5 h2h4 f9e8 i3i4 b7b5 h0g2 b9c7 c0e2"),
    ("startpos", "c0e2 b7f7 b0c2 g6g5 b2b8 a9a8 b8b5"),
    ("startpos", "c0e2 g6g5 c3c4 h9g7 b0c2 b9c7 i3i4"),
    ("startpos", "c0e2 h7e7 b0c2 h9g7 h2h4 i9h9 h4c4"),
    ("startpos", "b0c2 g6g5 g0e2 h7h5"),
    ("startpos", "b0c2 h9g7 h0g2 c9e7 b2b4 i6i5"),
    ("startpos", "b2d2 c6c5 h2h4 b7g7"),
    ("startpos", "h2d2 c6c5 h0g2 b7b5 b2b4 h9g7 a3a4"),
    ("startpos", "h2d2 h7e7 h0g2 g6g5 f0e1 b7b3 a3a4"),
    ("startpos", "b2c2 h9g7 c2c6 g6g5 d0e1 c9e7 c0e2 i6i5 h2h6"),
    ("3ak4/4a4/4b4/9/9/2N6/9/9/9/4K4 w - - 0 1", ""), // horse vs full-ish defence
    ("2bak4/4a4/4b4/9/4p4/9/9/9/4C4/3K5 b - - 0 1", ""), // cannon vs pawn and defenders
    ("3k5/9/9/9/9/9/9/3R5/9/4K4 b - - 0 1", ""),      // rook check
    ("5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1", ""),      // stalemated red king
    ("3aka3/9/9/9/9/9/4P4/9/4R4/3K5 w - - 0 1", ""),  // rook and pawn vs advisors
    ("3k5/4a4/5a3/9/9/6N2/4P4/9/9/4K4 w - - 0 1", ""), // horse and pawn vs advisors
    ("4ka3/4a4/4b4/9/9/9/9/4B4/4A4/3AKC3 w - - 0 1", ""), // cannon and defenders
    ("2b1ka3/4a4/4b4/9/2p3p2/9/2P3P2/4B4/4A4/2BAK4 w - - 0 1", ""), // pawns and defenders
    ("3k5/9/4b4/9/2r6/9/9/4B4/4A4/3AK1R2 w - - 0 1", ""), // rook vs rook
    ("4k4/4a4/3a5/9/9/9/9/4C4/9/3K5 b - - 0 1", ""),  // cannon, black to move
];

pub struct BenchResult {
    pub positions: usize,
    pub depth: i32,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
}

impl BenchResult {
    /// The time, node count and speed lines that both `chariot bench` and
    /// the protocol's `bench` print (scripts read `Nodes searched`).
    pub fn count_lines(&self) -> [String; 3] {
        [
            format!("Total time (ms) : {}", self.time_ms),
            format!("Nodes searched  : {}", self.nodes),
            format!("Nodes/second    : {}", self.nps),
        ]
    }

    /// What `chariot bench` prints: the positions and depth, then
    /// [`BenchResult::count_lines`]. (The protocol says the first two in
    /// one `info` line.)
    pub fn report(&self) -> Vec<String> {
        let mut lines =
            vec![format!("Positions       : {}", self.positions), format!("Depth           : {}", self.depth)];
        lines.extend(self.count_lines());
        lines
    }
}

/// Searches every bench position to `depth` with the default evaluation
/// (the built-in network): the bench signature.
pub fn run(depth: i32) -> BenchResult {
    run_with(depth, 1, Evaluation::Network)
}

/// The evaluation a bench searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The built-in network (the default, `Use NNUE` true).
    Network,
    /// The hand-crafted evaluation (`Use NNUE` false), which the strength
    /// levels play with; its node count is a signature of its own.
    HandCrafted,
}

/// [`run`] with `threads` search threads (the time to depth of Lazy SMP)
/// and the evaluation `eval`.
pub fn run_with(depth: i32, threads: usize, eval: Evaluation) -> BenchResult {
    run_with_network(depth, threads, (eval == Evaluation::Network).then(Network::embedded))
}

/// [`run`] with `threads` search threads and the evaluation `net` (`None`:
/// the hand-crafted one), such as a network file to measure.
pub fn run_with_network(depth: i32, threads: usize, net: Option<Arc<Network>>) -> BenchResult {
    bench(depth, threads, net, &Signals::default()).expect("nothing stops this bench")
}

/// [`run`] with the evaluation `net` (`None`: the hand-crafted one) that
/// gives up (`None`) once `signals.stop` is raised: the protocol's `bench`
/// runs in the background with the engine's evaluation, and `stop` ends
/// it. (A search that ends by itself leaves the signals unraised, so one
/// set serves all.)
pub fn run_until(depth: i32, net: Option<Arc<Network>>, signals: &Signals) -> Option<BenchResult> {
    bench(depth, 1, net, signals)
}

fn bench(depth: i32, threads: usize, net: Option<Arc<Network>>, signals: &Signals) -> Option<BenchResult> {
    let depth = depth.clamp(1, 64);
    let mut nodes = 0;
    let start = Instant::now();
    // One engine, as in a game: the hash table (cleared once, here) and the
    // histories carry over from position to position. One thread, so the
    // count still depends only on the code.
    let mut engine = Engine::new();
    engine.set_threads(threads);
    engine.set_network_in_use(net);
    engine.clear_hash();
    engine.new_game();
    for (fen, moves) in POSITIONS {
        let fen = (*fen != "startpos").then_some(*fen);
        let moves: Vec<&str> = moves.split_whitespace().collect();
        match engine.set_position(fen, &moves) {
            Ok(None) => {}
            other => panic!("bench position {fen:?} {moves:?} is broken: {other:?}"),
        }
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        nodes += engine.search_blocking_with(&limits, &Silent, signals).nodes;
        if signals.stop.load(Ordering::Relaxed) {
            return None;
        }
    }
    let time_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    Some(BenchResult { positions: POSITIONS.len(), depth, nodes, time_ms, nps: nodes * 1000 / time_ms.max(1) })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_report_lines_are_the_ones_scripts_read() {
        let result = super::BenchResult { positions: 30, depth: 9, nodes: 489684, time_ms: 1500, nps: 326456 };
        let lines = [
            "Positions       : 30",
            "Depth           : 9",
            "Total time (ms) : 1500",
            "Nodes searched  : 489684",
            "Nodes/second    : 326456",
        ];
        assert_eq!(result.report(), lines);
        assert_eq!(result.count_lines(), lines[2..]);
    }

    /// The depth-5 node counts of today's search (depth 9, the signature:
    /// 431637, `--hce` 440839), so that the defaults of the tunable search
    /// parameters stay the constants they were. A change to the search or
    /// the evaluation updates them with the signature.
    const DEPTH_5_NODES: u64 = 37471;
    const DEPTH_5_NODES_HCE: u64 = 40822;

    #[test]
    fn bench_signature_is_deterministic() {
        let a = super::run(5);
        let b = super::run(5);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.nodes, DEPTH_5_NODES);
        assert!(a.positions >= 30);
    }

    #[test]
    fn the_hand_crafted_bench_is_deterministic_and_its_own() {
        let a = super::run_with(5, 1, super::Evaluation::HandCrafted);
        let b = super::run_with(5, 1, super::Evaluation::HandCrafted);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.nodes, DEPTH_5_NODES_HCE);
        assert_ne!(a.nodes, super::run(5).nodes);
    }
}
