//! The forward pass: from the hidden layer's sums to a score.
//!
//! The activation is the squared clipped ReLU, `clamp(x, 0, 1)²`, of both
//! perspectives' sums (the side to move's first), then one output, chosen
//! among the network's output buckets by the number of pieces on the board.

use super::accumulator::Accumulator;
use super::network::{Network, QA, QB, output_bucket};
use super::simd;
use crate::position::Position;
use crate::types::Color;

impl Network {
    /// The evaluation in centipawns of `pos`, whose accumulator `acc` is,
    /// from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let bucket = match self.outputs.len() {
            1 => 0,
            n => output_bucket(pos.occupied().count() as usize, n),
        };
        self.evaluate_bucket(acc, pos.side_to_move(), bucket)
    }

    /// The evaluation by output bucket `bucket` with `side` to move.
    #[inline]
    fn evaluate_bucket(&self, acc: &Accumulator, side: Color, bucket: usize) -> i32 {
        let output = &self.outputs[bucket];
        let halves = [&acc.values[side.index()], &acc.values[(!side).index()]];
        let mut sum = 0i64;
        for (half, weights) in halves.into_iter().zip(&output.weights) {
            // One half's sum fits i32 (see MAX_OUTPUT_WEIGHT); the two
            // are added in i64, so that 256 units fit as well as 128.
            let half_sum = simd::output_half(half, weights);
            sum += i64::from(half_sum);
        }
        // The sum is in QA²·QB units: one QA goes first, then the bias
        // (QA·QB units) joins it.
        let out = sum / i64::from(QA) + i64::from(output.bias);
        (out * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch (tests, the `eval` command).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::refresh(self, pos), pos)
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::HIDDEN;
    use super::*;

    #[test]
    fn output_buckets_split_the_piece_counts_evenly() {
        assert_eq!(output_bucket(32, 1), 0);
        assert_eq!(output_bucket(2, 8), 0);
        assert_eq!(output_bucket(32, 8), 7);
        let counts: Vec<usize> = (0..8).map(|b| (2..=32).filter(|&p| output_bucket(p, 8) == b).count()).collect();
        assert!(counts.iter().all(|&c| (3..=5).contains(&c)), "{counts:?}");
    }

    #[test]
    fn the_embedded_network_loads_and_evaluates_sensibly() {
        let net = Network::embedded();
        let start = Position::startpos();
        let a = net.evaluate_position(&start);
        assert_eq!(a, net.evaluate_position(&start));
        assert!(a.abs() < 150, "start position {a}");
        // A rook up in the full middlegame is good for its owner, whoever
        // is to move. (Not a lone rook against advisors and elephants: a
        // book draw, which the network of 2026-12-05 rightly scores near level.)
        let board = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let up = Position::from_fen(&format!("{board} w - - 0 1")).unwrap();
        assert!(net.evaluate_position(&up) > 300, "{}", net.evaluate_position(&up));
        let down = Position::from_fen(&format!("{board} b - - 0 1")).unwrap();
        assert!(net.evaluate_position(&down) < -300, "{}", net.evaluate_position(&down));
    }

    /// The output layer in 16-bit steps equals the plain 32-bit formula.
    #[test]
    fn the_output_layer_equals_its_plain_formula() {
        let net = super::super::network::tests::random_network_with(super::super::Features::Plain, 3, 11);
        let mut rng = crate::rng::Rng::new(12);
        for _ in 0..200 {
            let mut acc = Accumulator::default();
            for half in &mut acc.values {
                half.0 = std::array::from_fn(|_| rng.below(700) as i16 - 200);
            }
            for (side, bucket) in Color::BOTH.into_iter().flat_map(|side| (0..3).map(move |b| (side, b))) {
                let output = &net.outputs[bucket];
                let halves = [&acc.values[side.index()], &acc.values[(!side).index()]];
                let mut sum = 0i64;
                for (half, weights) in halves.into_iter().zip(&output.weights) {
                    for i in 0..HIDDEN {
                        let v = i64::from(half.0[i].clamp(0, QA as i16));
                        sum += v * v * i64::from(weights.0[i]);
                    }
                }
                let out = sum / i64::from(QA) + i64::from(output.bias);
                let expected = out * i64::from(net.scale) / i64::from(QA * QB);
                assert_eq!(i64::from(net.evaluate_bucket(&acc, side, bucket)), expected);
            }
        }
    }
}
