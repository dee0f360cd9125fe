//! Perft speed: nodes per second of bulk-counted perft from a few positions,
//! single thread. Prints the median of several runs. `cargo bench`.

use chariot::perft::perft;
use chariot::position::Position;
use std::time::Instant;

const POSITIONS: [(&str, &str, u32); 3] = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 5),
    ("middlegame", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 4),
    ("endgame", "3k5/4a4/4ba3/9/2b6/9/4C4/9/4A4/2BAK4 w - - 0 1", 6),
];

fn main() {
    let runs = std::env::var("CHARIOT_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5usize);
    for (name, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FEN is valid");
        let mut rates = Vec::new();
        let mut nodes = 0;
        for _ in 0..runs {
            let start = Instant::now();
            nodes = perft(&pos, depth);
            rates.push(nodes as f64 / start.elapsed().as_secs_f64());
        }
        rates.sort_by(|a, b| a.total_cmp(b));
        println!(
            "perft {name:<10} depth {depth}: {nodes} nodes, median {:.1} Mnps (min {:.1}, max {:.1}, {runs} runs)",
            rates[runs / 2] / 1e6,
            rates[0] / 1e6,
            rates[runs - 1] / 1e6
        );
    }
}
