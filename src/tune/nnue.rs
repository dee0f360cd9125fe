//! `chariot train-nnue`: trains the network of `nnue` on `chariot datagen`
//! files, in floating point on the CPU, and writes it quantised.
//!
//! The target of a position blends the game result and the search score:
//! `w * result + (1 - w) * sigmoid(score / k)` (`w` is `--result-weight`,
//! the lambda), and the loss is the mean squared difference to
//! `sigmoid(eval / k)`, `eval` the network's output in centipawns; `k` is
//! fitted to the data (the scale at which the search scores best predict
//! the results) unless given. Positions are filtered as for `chariot
//! tune`. The last games (a fraction) are held out and their loss shown
//! after every epoch.
//!
//! Adam on mini-batches. Each position has at most 32 active inputs per
//! perspective, so the hidden layer's forward pass and its gradient touch
//! only their rows. With several threads, each takes a share of the batch
//! into its own gradient buffer and the buffers are summed in thread order,
//! so a run is reproducible for a given thread count.

use super::{minimise_on_log_scale, parallel_map, sigmoid};
use crate::datagen::format::{Outcome, Record};
use crate::eval;
use crate::nnue::{self, DEFAULT_SCALE, HIDDEN, INPUTS, Network, QA, QB};
use crate::position::{Position, board_fen};
use crate::rng::Rng;
use crate::types::{Color, Piece, PieceKind, Square};
use std::time::Instant;

/// The trainer's settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Weight of the game result in the target (the rest is the score).
    pub result_weight: f64,
    /// The sigmoid scale in centipawns; `None`: fitted to the data.
    pub k: Option<f64>,
    pub epochs: usize,
    pub batch_size: usize,
    pub learning_rate: f64,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f64,
    pub threads: usize,
    /// Fraction of the games (the last ones) held out.
    pub validation: f64,
    /// Leave out positions before this ply.
    pub min_ply: u16,
    /// Keep the positions whose best move is a capture (the search
    /// evaluates many positions where a capture is on).
    pub keep_captures: bool,
    /// Also train on every position mirrored left to right (the same
    /// position by the rules: twice the data for nothing).
    pub mirror: bool,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            result_weight: 0.0,
            k: None,
            epochs: 8,
            batch_size: 1024,
            learning_rate: 0.001,
            lr_decay: 0.8,
            threads: 1,
            validation: 0.05,
            min_ply: 0,
            keep_captures: false,
            mirror: false,
            seed: 1,
        }
    }
}

/// The largest magnitude of a trained weight: 1.98 stays within the
/// quantised limits (`nnue::MAX_HIDDEN_WEIGHT / QA`, `MAX_OUTPUT_WEIGHT / QB`).
const WEIGHT_CLIP: f32 = 1.98;

/// One training position: the side to move's inputs (the other side's
/// follow from them), its search score and result, from the side to move.
#[derive(Clone, Copy)]
struct Sample {
    features: [u16; 32],
    count: u8,
    score: f32,
    result: f32,
}

impl Sample {
    fn new(record: &Record) -> Option<Sample> {
        // The board must be a legal position, as in the tuner.
        let pos = record.position().ok()?;
        let result = match record.outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
        Some(Sample { score: f32::from(record.score), result, ..Sample::of(&pos) })
    }

    /// The inputs of `pos` (score and result left at zero).
    fn of(pos: &Position) -> Sample {
        let mut features = [0u16; 32];
        let mut count = 0;
        // A legal position has at most 32 pieces.
        for sq in Square::all() {
            if let Some(piece) = pos.piece_on(sq)
                && count < 32
            {
                features[count] = nnue::feature(pos.side_to_move(), piece, sq) as u16;
                count += 1;
            }
        }
        Sample { features, count: count as u8, score: 0.0, result: 0.0 }
    }

    fn features(&self) -> &[u16] {
        &self.features[..self.count as usize]
    }

    /// The same position mirrored left to right.
    fn mirrored(&self) -> Sample {
        let mut s = *self;
        for f in &mut s.features[..self.count as usize] {
            let (kind, sq) = (*f / 90, *f % 90);
            *f = kind * 90 + (sq / 9) * 9 + (8 - sq % 9);
        }
        s
    }
}

/// The input the other perspective sees for the side to move's input `f`:
/// own and other pieces swap, and the board turns across the river.
#[inline]
fn other_view(f: u16) -> usize {
    let (kind, sq) = (f as usize / 90, f as usize % 90);
    let kind = if kind < 7 { kind + 7 } else { kind - 7 };
    kind * 90 + Square::from_index(sq).flip_rank().index()
}

// Parameter layout in one vector: hidden weights (input-major), hidden
// biases, output weights (side to move, then other), output bias, and the
// factoriser: one hidden row per piece kind (own and other), added to the
// row of that kind on every point. It learns what a piece is worth
// anywhere, so that points where a piece is rarely seen start from that
// and not from noise; the exported rows include it.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
const FACTOR: usize = B2 + 1;
const PARAMS: usize = FACTOR + 14 * HIDDEN;

/// The parameter ranges of input `f`'s own row and its factoriser row.
#[inline]
fn input_rows(f: usize) -> [std::ops::Range<usize>; 2] {
    let kind = f / 90;
    [W1 + f * HIDDEN..W1 + (f + 1) * HIDDEN, FACTOR + kind * HIDDEN..FACTOR + (kind + 1) * HIDDEN]
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNetwork {
    p: Vec<f32>,
}

impl FloatNetwork {
    /// Small random weights: the hidden sums start around the activation's
    /// bend, where it has a gradient. The points' own rows start at zero:
    /// an input never seen is worth its piece's factoriser row.
    fn random(seed: u64) -> FloatNetwork {
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f64| ((rng.next_f64() * 2.0 - 1.0) * r) as f32;
        let mut p = vec![0.0; PARAMS];
        for w in &mut p[FACTOR..] {
            *w = uniform(0.1);
        }
        for w in &mut p[B1..W2] {
            *w = 0.3 + uniform(0.1);
        }
        for w in &mut p[W2..B2] {
            *w = uniform(1.0 / (2.0 * HIDDEN as f64).sqrt());
        }
        FloatNetwork { p }
    }

    /// The hidden sums of both perspectives (side to move first).
    fn hidden(&self, s: &Sample) -> [[f32; HIDDEN]; 2] {
        let mut acc = [[0f32; HIDDEN]; 2];
        let bias = &self.p[B1..W2];
        acc[0].copy_from_slice(bias);
        acc[1].copy_from_slice(bias);
        for &f in s.features() {
            for (half, f) in [(0, f as usize), (1, other_view(f))] {
                for rows in input_rows(f) {
                    for (a, w) in acc[half].iter_mut().zip(&self.p[rows]) {
                        *a += w;
                    }
                }
            }
        }
        acc
    }

    /// The output (1.0 = `DEFAULT_SCALE` centipawns) from the hidden sums.
    fn output(&self, acc: &[[f32; HIDDEN]; 2]) -> f32 {
        let mut out = self.p[B2];
        for (half, w2) in acc.iter().zip(self.p[W2..B2].chunks_exact(HIDDEN)) {
            for (a, w) in half.iter().zip(w2) {
                let h = a.clamp(0.0, 1.0);
                out += h * h * w;
            }
        }
        out
    }

    /// The evaluation in centipawns, side to move's view.
    fn eval(&self, s: &Sample) -> f64 {
        f64::from(self.output(&self.hidden(s))) * f64::from(DEFAULT_SCALE)
    }

    /// Evaluates `pos` (side to move's view, centipawns); for tests.
    pub fn evaluate_position(&self, pos: &Position) -> f64 {
        self.eval(&Sample::of(pos))
    }

    /// Adds the gradient of `(sigmoid(eval / k) - target)²` to `grad`;
    /// returns the loss.
    fn backward(&self, s: &Sample, target: f64, k: f64, grad: &mut [f32]) -> f64 {
        let acc = self.hidden(s);
        let out = self.output(&acc);
        let p = sigmoid(f64::from(out) * f64::from(DEFAULT_SCALE) / k);
        let d_out = (2.0 * (p - target) * p * (1.0 - p) * f64::from(DEFAULT_SCALE) / k) as f32;
        grad[B2] += d_out;
        let mut d_acc = [[0f32; HIDDEN]; 2];
        for half in 0..2 {
            let w2 = &self.p[W2 + half * HIDDEN..W2 + (half + 1) * HIDDEN];
            let g2 = &mut grad[W2 + half * HIDDEN..W2 + (half + 1) * HIDDEN];
            for i in 0..HIDDEN {
                let a = acc[half][i];
                let h = a.clamp(0.0, 1.0);
                g2[i] += d_out * h * h;
                d_acc[half][i] = if a > 0.0 && a < 1.0 { d_out * w2[i] * 2.0 * a } else { 0.0 };
            }
        }
        for (g, (a, b)) in grad[B1..W2].iter_mut().zip(d_acc[0].iter().zip(&d_acc[1])) {
            *g += a + b;
        }
        for &f in s.features() {
            for (half, f) in [(0, f as usize), (1, other_view(f))] {
                for rows in input_rows(f) {
                    for (g, d) in grad[rows].iter_mut().zip(&d_acc[half]) {
                        *g += d;
                    }
                }
            }
        }
        (p - target).powi(2)
    }

    /// The network rounded to the engine's integers.
    pub fn quantise(&self) -> Network {
        let q = |v: f32, scale: i32| (v * scale as f32).round() as i16;
        let hidden_weights = (0..INPUTS)
            .map(|f| {
                let [own, factor] = input_rows(f);
                std::array::from_fn(|i| q(self.p[own.start + i] + self.p[factor.start + i], QA))
            })
            .collect();
        let hidden_bias = std::array::from_fn(|i| q(self.p[B1 + i], QA));
        let output_weights =
            [std::array::from_fn(|i| q(self.p[W2 + i], QB)), std::array::from_fn(|i| q(self.p[W2 + HIDDEN + i], QB))];
        let output_bias = (self.p[B2] * (QA * QB) as f32).round() as i32;
        Network::from_parts(hidden_weights, hidden_bias, output_weights, output_bias, DEFAULT_SCALE)
    }
}

/// What the trainer prepared: the positions, split, and the scale.
struct Data {
    train: Vec<Sample>,
    validation: Vec<Sample>,
    k: f64,
}

/// Records to samples: the last games held out, then the filter.
fn prepare(records: &[Record], options: &Options, progress: &mut dyn FnMut(&str)) -> Result<Data, String> {
    let games = records.iter().filter(|r| r.game_end).count().max(1);
    let held_games = ((games as f64) * options.validation).round() as usize;
    // The index where the held-out games start: after the end of game
    // number `games - held_games`.
    let mut split = records.len();
    if held_games > 0 {
        let mut ends = 0;
        for (i, r) in records.iter().enumerate() {
            if r.game_end {
                ends += 1;
                if ends == games - held_games {
                    split = i + 1;
                    break;
                }
            }
        }
        if games == held_games {
            split = 0;
        }
    }
    let usable =
        |r: &&Record| !r.in_check && (options.keep_captures || !r.capture) && !r.mate_score && r.ply >= options.min_ply;
    let to_samples = |part: &[Record]| -> Vec<Sample> {
        let chosen: Vec<&Record> = part.iter().filter(usable).collect();
        let chunks: Vec<&[&Record]> = chosen.chunks(4096).collect();
        parallel_map(&chunks, options.threads, |chunk| chunk.iter().filter_map(|r| Sample::new(r)).collect::<Vec<_>>())
            .into_iter()
            .flatten()
            .collect()
    };
    let mut train = to_samples(&records[..split]);
    if options.mirror {
        let mirrored: Vec<Sample> = train.iter().map(Sample::mirrored).collect();
        train.extend(mirrored);
    }
    let validation = to_samples(&records[split..]);
    if train.is_empty() {
        return Err("no usable positions (quiet, not in check, no mate score)".into());
    }
    let k = match options.k {
        Some(k) => k,
        None => fit_k(&train),
    };
    progress(&format!(
        "{} records in {games} games; {} training positions, {} held out (the last {held_games} games); k = {k:.1}",
        records.len(),
        train.len(),
        validation.len()
    ));
    Ok(Data { train, validation, k })
}

/// The scale at which the search scores best predict the results
/// (golden-section search on a log scale).
fn fit_k(samples: &[Sample]) -> f64 {
    minimise_on_log_scale(30.0, 3000.0, |k| {
        samples.iter().map(|s| (sigmoid(f64::from(s.score) / k) - f64::from(s.result)).powi(2)).sum::<f64>()
    })
}

fn target(s: &Sample, k: f64, result_weight: f64) -> f64 {
    result_weight * f64::from(s.result) + (1.0 - result_weight) * sigmoid(f64::from(s.score) / k)
}

/// Mean loss of `eval` (centipawns) over `samples`.
fn mean_loss(samples: &[Sample], k: f64, w: f64, threads: usize, eval: impl Fn(&Sample) -> f64 + Sync) -> f64 {
    let chunks: Vec<&[Sample]> = samples.chunks(4096).collect();
    let sums = parallel_map(&chunks, threads, |chunk| {
        chunk.iter().map(|s| (sigmoid(eval(s) / k) - target(s, k, w)).powi(2)).sum::<f64>()
    });
    sums.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// The trained network and what training did.
pub struct Trained {
    pub float: FloatNetwork,
    pub network: Network,
    pub k: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Held-out loss after each epoch (floating-point network).
    pub validation_losses: Vec<f64>,
}

/// Trains a network on `records`. `progress` gets a line per epoch;
/// `checkpoint` gets each epoch's quantised network.
pub fn train(
    records: &[Record],
    options: &Options,
    progress: &mut dyn FnMut(&str),
    checkpoint: &mut dyn FnMut(usize, &Network) -> Result<(), String>,
) -> Result<Trained, String> {
    let start = Instant::now();
    let data = prepare(records, options, progress)?;
    let (k, w, threads) = (data.k, options.result_weight, options.threads.max(1));
    // References: how well the search scores themselves and the
    // hand-crafted evaluation fit the held-out targets.
    if !data.validation.is_empty() {
        let by_score = mean_loss(&data.validation, k, w, threads, |s| f64::from(s.score));
        progress(&format!("held-out loss of the search scores themselves: {by_score:.6}"));
    }
    let mut net = FloatNetwork::random(options.seed);
    let mut m = vec![0f32; PARAMS];
    let mut v = vec![0f32; PARAMS];
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8f32);
    let mut rng = Rng::new(options.seed ^ 0x5eed);
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut lr = options.learning_rate;
    let mut step = 0i32;
    let mut validation_losses = Vec::new();
    for epoch in 1..=options.epochs {
        let epoch_start = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut loss_sum = 0.0;
        for batch in order.chunks(options.batch_size.max(1)) {
            let per_thread = batch.len().div_ceil(threads);
            let shares: Vec<&[u32]> = batch.chunks(per_thread.max(1)).collect();
            let parts = parallel_map(&shares, threads, |share| {
                let mut grad = vec![0f32; PARAMS];
                let mut loss = 0.0;
                for &i in share.iter() {
                    let s = &data.train[i as usize];
                    loss += net.backward(s, target(s, k, w), k, &mut grad);
                }
                (loss, grad)
            });
            let mut parts = parts.into_iter();
            let (mut loss, mut grad) = parts.next().expect("one share at least");
            for (l, g) in parts {
                loss += l;
                for (a, b) in grad.iter_mut().zip(&g) {
                    *a += b;
                }
            }
            loss_sum += loss;
            step += 1;
            let n = batch.len() as f32;
            let c1 = (1.0 - beta1.powi(step)) as f32;
            let c2 = (1.0 - beta2.powi(step)) as f32;
            let rate = lr as f32;
            let (b1, b2) = (beta1 as f32, beta2 as f32);
            for i in 0..PARAMS {
                let g = grad[i] / n;
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                let p = net.p[i] - rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                net.p[i] = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        }
        let held = mean_loss(&data.validation, k, w, threads, |s| net.eval(s));
        validation_losses.push(held);
        progress(&format!(
            "epoch {epoch}: training loss {:.6} (during the pass), held out {held:.6}, lr {lr:.6}, {:.0} s, {:.0} positions/s ({:.0} s in all)",
            loss_sum / data.train.len() as f64,
            epoch_start.elapsed().as_secs_f64(),
            data.train.len() as f64 / epoch_start.elapsed().as_secs_f64().max(1e-9),
            start.elapsed().as_secs_f64()
        ));
        checkpoint(epoch, &net.quantise())?;
        lr *= options.lr_decay;
    }
    let network = net.quantise();
    if !data.validation.is_empty() {
        let quantised = mean_loss(&data.validation, k, w, threads, |s| {
            let pos = position_of(s);
            f64::from(network.evaluate_position(&pos))
        });
        let hand = mean_loss(&data.validation, k, w, threads, |s| f64::from(eval::evaluate(&position_of(s))));
        progress(&format!("held out: quantised network {quantised:.6}, hand-crafted evaluation {hand:.6}"));
    }
    Ok(Trained {
        float: net,
        network,
        k,
        train_positions: data.train.len(),
        validation_positions: data.validation.len(),
        validation_losses,
    })
}

/// The position of a sample, rebuilt from its inputs with the side to
/// move as Red (the same position seen from the other side when Black is
/// to move: both evaluations score it alike).
fn position_of(s: &Sample) -> Position {
    let mut board = [None; 90];
    for &f in s.features() {
        let (kind, sq) = (f as usize / 90, f as usize % 90);
        let color = if kind < 7 { Color::Red } else { Color::Black };
        board[sq] = Some(Piece::new(color, PieceKind::ALL[kind % 7]));
    }
    let fen = format!("{} w - - 0 1", board_fen(|sq| board[sq.index()]));
    Position::from_fen(&fen).unwrap_or_else(|_| Position::startpos())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Options as GenOptions, play_game};
    use crate::search::Searcher;

    fn records() -> Vec<Record> {
        let options = GenOptions { nodes: 300, max_plies: 120, ..GenOptions::default() };
        let mut searcher = Searcher::new(1);
        (0..6).flat_map(|i| play_game(i, &options, &mut searcher).records).collect()
    }

    fn positions(records: &[Record]) -> Vec<Position> {
        records.iter().filter_map(|r| r.position().ok()).collect()
    }

    #[test]
    fn the_other_view_is_the_other_perspectives_input() {
        let pos = Position::from_fen("2bakab2/9/1c5c1/p1p1p1p1p/4r4/9/P1P1P1P1P/1C5C1/4R4/2BAK1B2 b - - 0 1").unwrap();
        let mut seen: Vec<usize> = Sample::of(&pos).features().iter().map(|&f| other_view(f)).collect();
        let mut expected: Vec<usize> = Square::all()
            .filter_map(|sq| pos.piece_on(sq).map(|p| nnue::feature(!pos.side_to_move(), p, sq)))
            .collect();
        seen.sort();
        expected.sort();
        assert_eq!(seen, expected);
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let records = records();
        let samples: Vec<Sample> = records.iter().filter_map(Sample::new).take(40).collect();
        let net = FloatNetwork::random(11);
        let k = 400.0;
        let loss = |net: &FloatNetwork| -> f64 {
            samples.iter().map(|s| (sigmoid(net.eval(s) / k) - target(s, k, 0.5)).powi(2)).sum()
        };
        let mut grad = vec![0f32; PARAMS];
        for s in &samples {
            net.backward(s, target(s, k, 0.5), k, &mut grad);
        }
        // Rows of pieces on the board, biases and output weights.
        let f = samples[0].features()[3] as usize;
        let mut checked = 0;
        let factor = FACTOR + (f / 90) * HIDDEN;
        for i in [W1 + f * HIDDEN, W1 + f * HIDDEN + 7, B1 + 2, B1 + 100, W2 + 5, W2 + HIDDEN + 9, B2, factor + 3] {
            let h = 1e-3;
            let mut plus = net.clone();
            plus.p[i] += h;
            let mut minus = net.clone();
            minus.p[i] -= h;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[i]);
            let tolerance = 0.02 * analytic.abs().max(numeric.abs()) + 1e-7;
            assert!((analytic - numeric).abs() <= tolerance, "parameter {i}: analytic {analytic} numeric {numeric}");
            checked += (analytic != 0.0) as usize;
        }
        assert!(checked >= 5, "only {checked} parameters with a gradient");
    }

    #[test]
    fn training_lowers_the_training_loss_and_the_quantised_network_follows_the_float_one() {
        let records = records();
        let options = Options {
            result_weight: 0.3,
            epochs: 3,
            batch_size: 64,
            learning_rate: 0.002,
            lr_decay: 0.9,
            validation: 0.2,
            ..Options::default()
        };
        let mut checkpoints = 0;
        let mut count = |_: usize, _: &Network| -> Result<(), String> {
            checkpoints += 1;
            Ok(())
        };
        let trained = train(&records, &options, &mut |_| {}, &mut count).unwrap();
        assert_eq!(checkpoints, 3);
        assert!(trained.validation_positions > 0);
        assert_eq!(trained.validation_losses.len(), 3);
        // Six games are too few for the held-out loss to fall; the loss on
        // the training positions must.
        let first = FloatNetwork::random(options.seed);
        let data = prepare(&records, &options, &mut |_| {}).unwrap();
        let loss = |net: &FloatNetwork| mean_loss(&data.train, data.k, options.result_weight, 1, |s| net.eval(s));
        let (before, after) = (loss(&first), loss(&trained.float));
        assert!(after < 0.8 * before, "training loss {before} -> {after}");
        // The engine's integer network gives the float network's scores up
        // to rounding.
        // up to rounding (each of the 32 inputs' weights is rounded to
        // 1/255, each output weight to 1/64). Three epochs on six games
        // leave the output weights near their start, about ±0.06, which
        // 1/64 steps round coarsely: about 14 cp on average here. (The
        // shipped network's held-out loss moves from 0.001900 to 0.001923.)
        let mut differences = Vec::new();
        for pos in positions(&records).iter().step_by(3) {
            let float = trained.float.evaluate_position(pos);
            let int = f64::from(trained.network.evaluate_position(pos));
            assert!(
                (float - int).abs() <= 20.0 + 0.05 * float.abs(),
                "{}: float {float} quantised {int}",
                pos.to_fen()
            );
            differences.push((float - int).abs());
        }
        let mean = differences.iter().sum::<f64>() / differences.len() as f64;
        eprintln!("{} positions, mean |float - quantised| {mean:.2} cp", differences.len());
        assert!(mean <= 20.0, "mean |float - quantised| {mean} cp");
        // The file of the trained network reads back the same.
        let bytes = trained.network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), trained.network);
    }
}
