//! `chariot nnue-speed`: what each step of the network costs.

use super::accumulator::Accumulator;
use super::network::{HIDDEN, Network};
use crate::position::Position;
use crate::types::Move;

/// Times `net` (`chariot nnue-speed`, the built-in network unless a file
/// is named): nanoseconds per full refresh, per incremental update (a king
/// move that changes its side's inputs refreshes that side) and per
/// output-layer evaluation, over the positions and moves of random games.
pub fn speed_report(net: &Network) -> String {
    use std::hint::black_box;
    use std::time::Instant;
    let mut rng = crate::rng::Rng::new(1);
    let mut steps: Vec<(Position, Move)> = Vec::new();
    let mut pos = Position::startpos();
    while steps.len() < 10_000 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.rule60_count() > 100 {
            pos = Position::startpos();
            continue;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        steps.push((pos, m));
        pos.make_move(m);
    }
    let rounds = 20;
    let per_call = |start: Instant| start.elapsed().as_nanos() as f64 / (rounds * steps.len()) as f64;
    let start = Instant::now();
    for _ in 0..rounds {
        for (pos, _) in &steps {
            black_box(Accumulator::refresh(net, black_box(pos)));
        }
    }
    let refresh = per_call(start);
    let accs: Vec<Accumulator> = steps.iter().map(|(p, _)| Accumulator::refresh(net, p)).collect();
    let start = Instant::now();
    for _ in 0..rounds {
        for ((pos, m), acc) in steps.iter().zip(&accs) {
            black_box(black_box(acc).after_move(net, pos, *m));
        }
    }
    let update = per_call(start);
    let start = Instant::now();
    for _ in 0..rounds {
        for ((pos, _), acc) in steps.iter().zip(&accs) {
            black_box(net.evaluate(black_box(acc), pos));
        }
    }
    let output = per_call(start);
    format!(
        "network {} ({}x{HIDDEN}x2 -> 1 of {} outputs), {} loops, {} positions x {rounds}\n\
         full refresh      : {refresh:.1} ns\n\
         incremental update: {update:.1} ns\n\
         output layer      : {output:.1} ns\n",
        net.features().name(),
        net.features().inputs(),
        net.output_buckets(),
        super::simd::version(),
        steps.len()
    )
}
