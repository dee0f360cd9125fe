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
use crate::nnue::{self, DEFAULT_SCALE, Features, HIDDEN, Network, PIECE_SQUARES, QA, QB, output_bucket};
use crate::position::{Position, board_fen};
use crate::rng::Rng;
use crate::types::{Color, Piece, PieceKind, Square};
use arrayvec::ArrayVec;
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
    /// The network's inputs.
    pub features: Features,
    /// Output buckets by the number of pieces (1: one output).
    pub output_buckets: usize,
    /// Networks whose held-out loss is shown before training, on the same
    /// held-out positions and `k`: the yardstick of a new one.
    pub references: Vec<Reference>,
    /// Start from this network (fine-tuning) instead of random weights;
    /// its inputs and output buckets must be the options'.
    pub init: Option<Network>,
}

/// A network to compare against, with the name it is shown by.
#[derive(Clone)]
pub struct Reference {
    pub name: String,
    pub network: Network,
}

impl std::fmt::Debug for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Reference({})", self.name)
    }
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
            features: Features::Plain,
            output_buckets: 1,
            references: Vec::new(),
            init: None,
        }
    }
}

/// The largest magnitude of a trained weight: 1.98 stays within the
/// quantised limits (`nnue::MAX_HIDDEN_WEIGHT / QA`, `MAX_OUTPUT_WEIGHT / QB`).
const WEIGHT_CLIP: f32 = 1.98;

/// One training position: the side to move's piece-square inputs (the
/// other side's, and both sides' king buckets, follow from them), its
/// search score and result, from the side to move.
#[derive(Clone, Copy)]
struct Sample {
    features: [u16; 32],
    count: u8,
    score: f32,
    result: f32,
}

/// One perspective's active inputs: each input in the network's numbering
/// and its piece-square input (0..1260, for the factorisers).
type Inputs = ArrayVec<(u32, u16), 32>;

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

    /// Its output bucket among `buckets`.
    fn bucket(&self, buckets: usize) -> usize {
        output_bucket(self.count as usize, buckets)
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

    /// Both perspectives' inputs in `features`' numbering, the side to
    /// move's first.
    fn inputs(&self, features: Features) -> [Inputs; 2] {
        // The side to move's piece-square inputs are relative to it; the
        // other side's are the same pieces seen across the river with the
        // colours swapped. Each side's own king (kind 0) gives its view;
        // the relative points read as Red's, whose view turns nothing.
        let theirs: ArrayVec<u16, 32> = self.features().iter().map(|&f| other_view(f) as u16).collect();
        let mut out = [Inputs::new(), Inputs::new()];
        for (half, plain) in [self.features(), &theirs[..]].into_iter().enumerate() {
            let king = plain.iter().find(|&&f| f < 90).map_or(4, |&f| f as usize);
            let view = features.view(Color::Red, Square::from_index(king));
            for &f in plain {
                let kind = f as usize / 90;
                let piece = Piece::new(if kind < 7 { Color::Red } else { Color::Black }, PieceKind::ALL[kind % 7]);
                let input = view.feature(piece, Square::from_index(f as usize % 90));
                out[half].push((input as u32, (input % PIECE_SQUARES) as u16));
            }
        }
        out
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

/// Where each part of the network sits in the one parameter vector.
///
/// Hidden weights (input-major), hidden biases, each output bucket's
/// weights (side to move, then other), the buckets' output biases, then
/// the factorisers, which exist only
/// in training and are folded into the hidden weights on export: with king
/// buckets, one row per piece-square input shared by all buckets; always,
/// one row per piece kind (own and other), added on every point. They
/// learn what a piece is worth on a point whatever the king's place, and
/// anywhere, so that rarely seen inputs start from that and not from noise.
#[derive(Clone, Copy, Debug)]
struct Layout {
    features: Features,
    buckets: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    /// The piece-square factoriser's first parameter (king buckets only).
    square_factor: Option<usize>,
    kind_factor: usize,
    params: usize,
}

impl Layout {
    fn new(features: Features, buckets: usize) -> Layout {
        let b1 = features.inputs() * HIDDEN;
        let w2 = b1 + HIDDEN;
        let b2 = w2 + buckets * 2 * HIDDEN;
        // The factorisers start on a row boundary after the output biases.
        let after = (b2 + buckets).div_ceil(HIDDEN) * HIDDEN;
        let (square_factor, kind_factor) = match features {
            Features::Plain => (None, after),
            Features::KingBuckets => (Some(after), after + PIECE_SQUARES * HIDDEN),
        };
        Layout { features, buckets, b1, w2, b2, square_factor, kind_factor, params: kind_factor + 14 * HIDDEN }
    }

    /// The first parameter of each row that `input` (with piece-square
    /// input `plain`) adds to the hidden sums: its own, then the
    /// factorisers'.
    #[inline]
    fn input_rows(&self, input: u32, plain: u16) -> ArrayVec<usize, 3> {
        let mut rows = ArrayVec::new();
        rows.push(input as usize * HIDDEN);
        if let Some(start) = self.square_factor {
            rows.push(start + plain as usize * HIDDEN);
        }
        rows.push(self.kind_factor + (plain as usize / 90) * HIDDEN);
        rows
    }

    /// The dense part, always updated: the biases and output weights.
    fn dense(&self) -> std::ops::Range<usize> {
        self.b1..self.b2 + self.buckets
    }

    /// Output bucket `bucket`'s weights (both halves).
    fn output_weights(&self, bucket: usize) -> std::ops::Range<usize> {
        self.w2 + bucket * 2 * HIDDEN..self.w2 + (bucket + 1) * 2 * HIDDEN
    }
}

/// The network in floating point.
#[derive(Clone)]
pub struct FloatNetwork {
    layout: Layout,
    p: Vec<f32>,
}

impl FloatNetwork {
    /// Small random weights: the hidden sums start around the activation's
    /// bend, where it has a gradient. The inputs' own rows (and the
    /// piece-square factoriser) start at zero: an input never seen is
    /// worth its piece's factoriser row.
    fn random(features: Features, buckets: usize, seed: u64) -> FloatNetwork {
        let layout = Layout::new(features, buckets);
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f64| ((rng.next_f64() * 2.0 - 1.0) * r) as f32;
        let mut p = vec![0.0; layout.params];
        for w in &mut p[layout.kind_factor..] {
            *w = uniform(0.1);
        }
        for w in &mut p[layout.b1..layout.w2] {
            *w = 0.3 + uniform(0.1);
        }
        for w in &mut p[layout.w2..layout.b2] {
            *w = uniform(1.0 / (2.0 * HIDDEN as f64).sqrt());
        }
        FloatNetwork { layout, p }
    }

    /// The float network whose quantisation is `network` (the rounding
    /// undone): training goes on from there. Each input row is split
    /// between the input's own row and its piece kind's factoriser row
    /// (the midpoint of the kind's rows, unit by unit), so that every
    /// part stays within the trainer's clip; the piece-square factoriser
    /// starts at zero.
    fn from_network(network: &Network) -> FloatNetwork {
        let layout = Layout::new(network.features(), network.output_buckets());
        let (hidden_weights, hidden_bias, outputs) = network.to_parts();
        let qa = QA as f32;
        let mut p = vec![0.0; layout.params];
        for kind in 0..14 {
            let rows = || hidden_weights.iter().enumerate().filter(move |(i, _)| i % PIECE_SQUARES / 90 == kind);
            for unit in 0..HIDDEN {
                let (lo, hi) = rows().fold((f32::MAX, f32::MIN), |(lo, hi), (_, row)| {
                    let w = f32::from(row[unit]) / qa;
                    (lo.min(w), hi.max(w))
                });
                let factor = ((lo + hi) / 2.0).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
                p[layout.kind_factor + kind * HIDDEN + unit] = factor;
                for (input, row) in rows() {
                    p[input * HIDDEN + unit] = f32::from(row[unit]) / qa - factor;
                }
            }
        }
        for (i, &b) in hidden_bias.iter().enumerate() {
            p[layout.b1 + i] = f32::from(b) / qa;
        }
        for (bucket, (weights, bias)) in outputs.iter().enumerate() {
            let start = layout.output_weights(bucket).start;
            for (i, &w) in weights.iter().flatten().enumerate() {
                p[start + i] = f32::from(w) / QB as f32;
            }
            p[layout.b2 + bucket] = *bias as f32 / (QA * QB) as f32;
        }
        FloatNetwork { layout, p }
    }

    /// The float network with `features` and `buckets` that starts as
    /// `network` does, where the shapes allow: a piece-square network's
    /// rows become the king buckets' shared piece-square factoriser (every
    /// bucket's own rows start at zero, so the king's place is learnt on
    /// top of what the smaller network knows, not from nothing), and one
    /// output is copied to every output bucket. Where no king's view is
    /// mirrored (a king on file f), it scores every position as `network`.
    /// Fewer inputs or buckets than the network's: an error.
    fn grown(network: &Network, features: Features, buckets: usize) -> Result<FloatNetwork, String> {
        let source = FloatNetwork::from_network(network);
        let from = source.layout;
        let widen = (from.features, features) == (Features::Plain, Features::KingBuckets);
        if (from.features != features && !widen) || (from.buckets != buckets && from.buckets != 1) {
            return Err(format!(
                "the network to start from has {} inputs and {} output buckets: it can only grow to {} (or palace king buckets from piece-square) and {} (or any number from one), not to {} and {}",
                from.features.name(),
                from.buckets,
                from.features.name(),
                from.buckets,
                features.name(),
                buckets
            ));
        }
        let layout = Layout::new(features, buckets);
        let mut p = vec![0.0; layout.params];
        if widen {
            let start = layout.square_factor.expect("king buckets have a piece-square factoriser");
            p[start..start + from.b1].copy_from_slice(&source.p[..from.b1]);
        } else {
            // The same inputs: every row and factoriser as it is.
            p[..layout.b1].copy_from_slice(&source.p[..from.b1]);
            if let (Some(to), Some(at)) = (layout.square_factor, from.square_factor) {
                p[to..layout.kind_factor].copy_from_slice(&source.p[at..from.kind_factor]);
            }
        }
        p[layout.kind_factor..].copy_from_slice(&source.p[from.kind_factor..]);
        p[layout.b1..layout.w2].copy_from_slice(&source.p[from.b1..from.w2]);
        for bucket in 0..buckets {
            let source_bucket = if from.buckets == 1 { 0 } else { bucket };
            p[layout.output_weights(bucket)].copy_from_slice(&source.p[from.output_weights(source_bucket)]);
            p[layout.b2 + bucket] = source.p[from.b2 + source_bucket];
        }
        Ok(FloatNetwork { layout, p })
    }

    /// The hidden sums of both perspectives (side to move first).
    fn hidden(&self, inputs: &[Inputs; 2]) -> [[f32; HIDDEN]; 2] {
        let mut acc = [[0f32; HIDDEN]; 2];
        let bias = &self.p[self.layout.b1..self.layout.w2];
        for (half, inputs) in acc.iter_mut().zip(inputs) {
            half.copy_from_slice(bias);
            for &(input, plain) in inputs {
                for start in self.layout.input_rows(input, plain) {
                    for (a, w) in half.iter_mut().zip(&self.p[start..start + HIDDEN]) {
                        *a += w;
                    }
                }
            }
        }
        acc
    }

    /// The output (1.0 = `DEFAULT_SCALE` centipawns) of output bucket
    /// `bucket` from the hidden sums.
    fn output(&self, acc: &[[f32; HIDDEN]; 2], bucket: usize) -> f32 {
        let mut out = self.p[self.layout.b2 + bucket];
        for (half, w2) in acc.iter().zip(self.p[self.layout.output_weights(bucket)].chunks_exact(HIDDEN)) {
            for (a, w) in half.iter().zip(w2) {
                let h = a.clamp(0.0, 1.0);
                out += h * h * w;
            }
        }
        out
    }

    /// The evaluation in centipawns, side to move's view.
    fn eval(&self, s: &Sample) -> f64 {
        let inputs = s.inputs(self.layout.features);
        f64::from(self.output(&self.hidden(&inputs), s.bucket(self.layout.buckets))) * f64::from(DEFAULT_SCALE)
    }

    /// Evaluates `pos` (side to move's view, centipawns); for tests.
    pub fn evaluate_position(&self, pos: &Position) -> f64 {
        self.eval(&Sample::of(pos))
    }

    /// Adds the gradient of `(sigmoid(eval / k) - target)²` to `grad`;
    /// returns the loss.
    fn backward(&self, s: &Sample, target: f64, k: f64, grad: &mut Gradient) -> f64 {
        let layout = &self.layout;
        let inputs = s.inputs(layout.features);
        let acc = self.hidden(&inputs);
        let bucket = s.bucket(layout.buckets);
        let out = self.output(&acc, bucket);
        let p = sigmoid(f64::from(out) * f64::from(DEFAULT_SCALE) / k);
        let d_out = (2.0 * (p - target) * p * (1.0 - p) * f64::from(DEFAULT_SCALE) / k) as f32;
        grad.values[layout.b2 + bucket] += d_out;
        let mut d_acc = [[0f32; HIDDEN]; 2];
        let w2_start = layout.output_weights(bucket).start;
        for half in 0..2 {
            let w2 = &self.p[w2_start + half * HIDDEN..w2_start + (half + 1) * HIDDEN];
            let g2 = &mut grad.values[w2_start + half * HIDDEN..w2_start + (half + 1) * HIDDEN];
            for i in 0..HIDDEN {
                let a = acc[half][i];
                let h = a.clamp(0.0, 1.0);
                g2[i] += d_out * h * h;
                d_acc[half][i] = if a > 0.0 && a < 1.0 { d_out * w2[i] * 2.0 * a } else { 0.0 };
            }
        }
        for (g, (a, b)) in grad.values[layout.b1..layout.w2].iter_mut().zip(d_acc[0].iter().zip(&d_acc[1])) {
            *g += a + b;
        }
        for (inputs, d) in inputs.iter().zip(&d_acc) {
            for &(input, plain) in inputs {
                for start in layout.input_rows(input, plain) {
                    grad.touch(start / HIDDEN);
                    for (g, d) in grad.values[start..start + HIDDEN].iter_mut().zip(d) {
                        *g += d;
                    }
                }
            }
        }
        (p - target).powi(2)
    }

    /// The network rounded to the engine's integers.
    pub fn quantise(&self) -> Network {
        let layout = &self.layout;
        let q = |v: f32, scale: i32| (v * scale as f32).round() as i16;
        let hidden_weights = (0..layout.features.inputs())
            .map(|input| {
                let rows = layout.input_rows(input as u32, (input % PIECE_SQUARES) as u16);
                std::array::from_fn(|i| q(rows.iter().map(|&start| self.p[start + i]).sum(), QA))
            })
            .collect();
        let hidden_bias = std::array::from_fn(|i| q(self.p[layout.b1 + i], QA));
        let outputs = (0..layout.buckets)
            .map(|bucket| {
                let w2 = layout.output_weights(bucket).start;
                let weights = [
                    std::array::from_fn(|i| q(self.p[w2 + i], QB)),
                    std::array::from_fn(|i| q(self.p[w2 + HIDDEN + i], QB)),
                ];
                (weights, (self.p[layout.b2 + bucket] * (QA * QB) as f32).round() as i32)
            })
            .collect();
        Network::from_parts(layout.features, hidden_weights, hidden_bias, outputs, DEFAULT_SCALE)
    }
}

/// One thread's gradient: every parameter, and which rows of `HIDDEN` of
/// the inputs' weights and the factorisers it touched, so that summing,
/// stepping and clearing visit only those (a batch touches a small part of
/// the input layer) and the dense part.
struct Gradient {
    values: Vec<f32>,
    touched: Vec<u32>,
    marked: Vec<bool>,
}

impl Gradient {
    fn new(layout: &Layout) -> Gradient {
        Gradient {
            values: vec![0.0; layout.params],
            touched: Vec::new(),
            marked: vec![false; layout.params.div_ceil(HIDDEN)],
        }
    }

    #[inline]
    fn touch(&mut self, row: usize) {
        if !self.marked[row] {
            self.marked[row] = true;
            self.touched.push(row as u32);
        }
    }

    /// Adds `other` into this one (its touched rows and the dense part).
    fn add(&mut self, other: &Gradient, layout: &Layout) {
        for &row in &other.touched {
            self.touch(row as usize);
            let start = row as usize * HIDDEN;
            for (a, b) in self.values[start..start + HIDDEN].iter_mut().zip(&other.values[start..start + HIDDEN]) {
                *a += b;
            }
        }
        for i in layout.dense() {
            self.values[i] += other.values[i];
        }
    }

    /// Zeroes what was written: the touched rows and the dense part.
    fn clear(&mut self, layout: &Layout) {
        for &row in &self.touched {
            let start = row as usize * HIDDEN;
            self.values[start..start + HIDDEN].fill(0.0);
            self.marked[row as usize] = false;
        }
        self.touched.clear();
        self.values[layout.dense()].fill(0.0);
    }
}

/// Adam's state and step, applied to the dense part and the touched rows
/// only. A row no position of the batch touched keeps its moments as
/// they are (lazy Adam): its gradient is zero, and decaying the moments
/// of thousands of idle rows at every step would cost more than the step.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f32 = 1e-8;

    fn new(params: usize) -> Adam {
        Adam { m: vec![0.0; params], v: vec![0.0; params], step: 0 }
    }

    /// One step of `rate` along `grad` (a sum over `n` positions).
    fn step(&mut self, net: &mut FloatNetwork, grad: &Gradient, n: f32, rate: f32) {
        self.step += 1;
        let c1 = (1.0 - Self::BETA1.powi(self.step)) as f32;
        let c2 = (1.0 - Self::BETA2.powi(self.step)) as f32;
        let (b1, b2) = (Self::BETA1 as f32, Self::BETA2 as f32);
        let mut update = |range: std::ops::Range<usize>| {
            for i in range {
                let g = grad.values[i] / n;
                self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
                self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
                let p = net.p[i] - rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + Self::EPS);
                net.p[i] = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            }
        };
        update(net.layout.dense());
        for &row in &grad.touched {
            let start = row as usize * HIDDEN;
            update(start..start + HIDDEN);
        }
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
        for reference in &options.references {
            let loss = quantised_loss(&reference.network, &data.validation, k, w, threads);
            progress(&format!("held-out loss of {}: {loss:.6}", reference.name));
        }
    }
    let mut net = match &options.init {
        Some(init) => FloatNetwork::grown(init, options.features, options.output_buckets)?,
        None => FloatNetwork::random(options.features, options.output_buckets, options.seed),
    };
    let layout = net.layout;
    let mut adam = Adam::new(layout.params);
    // One gradient per thread, kept across batches: only what a batch
    // wrote is cleared after it.
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::new(&layout)).collect();
    let mut rng = Rng::new(options.seed ^ 0x5eed);
    let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
    let mut lr = options.learning_rate;
    let mut validation_losses = Vec::new();
    let mut last_checkpoint = None;
    for epoch in 1..=options.epochs {
        let epoch_start = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut loss_sum = 0.0;
        for batch in order.chunks(options.batch_size.max(1)) {
            let per_thread = batch.len().div_ceil(threads).max(1);
            let net_ref = &net;
            let train = &data.train;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(per_thread)
                    .zip(grads.iter_mut())
                    .map(|(share, grad)| {
                        scope.spawn(move || {
                            let mut loss = 0.0;
                            for &i in share {
                                let s = &train[i as usize];
                                loss += net_ref.backward(s, target(s, k, w), k, grad);
                            }
                            loss
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a trainer thread panicked")).collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            // The shares' gradients summed in thread order (the same
            // network for the same thread count).
            let (first, rest) = grads.split_first_mut().expect("one thread at least");
            for other in rest.iter_mut() {
                first.add(other, &layout);
                other.clear(&layout);
            }
            adam.step(&mut net, first, batch.len() as f32, lr as f32);
            first.clear(&layout);
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
        let network = quantise_matched(&net, &data.train);
        checkpoint(epoch, &network)?;
        last_checkpoint = Some(network);
        lr *= options.lr_decay;
    }
    // The last epoch's checkpoint is the result (no epochs: the start).
    let network = last_checkpoint.unwrap_or_else(|| quantise_matched(&net, &data.train));
    if !data.validation.is_empty() {
        let quantised = quantised_loss(&network, &data.validation, k, w, threads);
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

/// The float network rounded to the engine's integers, each output
/// bucket's bias then moved so that the rounded network's mean evaluation
/// over `samples` (100,000 of them at most, evenly spread) is the float
/// network's. Rounding can move every evaluation alike: a network
/// fine-tuned from a rounded one moves many weights by less than half a
/// rounding step in the same direction, and rounding drops all those moves
/// at once (15 cp too high for the side to move on one run, which cost
/// more held-out loss than a generation of data gains); the output bias
/// takes that back.
fn quantise_matched(net: &FloatNetwork, samples: &[Sample]) -> Network {
    let mut network = net.quantise();
    let buckets = network.output_buckets();
    let mut sums = vec![(0.0f64, 0usize); buckets];
    for s in samples.iter().step_by((samples.len() / 100_000).max(1)) {
        let bucket = s.bucket(buckets);
        sums[bucket].0 += net.eval(s) - f64::from(network.evaluate_position(&position_of(s)));
        sums[bucket].1 += 1;
    }
    for (bucket, (sum, n)) in sums.into_iter().enumerate() {
        if n > 0 {
            network.shift_output(bucket, sum / n as f64);
        }
    }
    network
}

/// Mean loss of the quantised `network` over `samples`.
fn quantised_loss(network: &Network, samples: &[Sample], k: f64, w: f64, threads: usize) -> f64 {
    mean_loss(samples, k, w, threads, |s| f64::from(network.evaluate_position(&position_of(s))))
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

    /// The bucketed inputs the trainer derives from a sample are the
    /// engine's inputs of the position, for both perspectives.
    #[test]
    fn the_trainers_inputs_are_the_engines() {
        let records = records();
        for features in [Features::Plain, Features::KingBuckets] {
            for pos in positions(&records).iter().step_by(7) {
                let sample = Sample::of(pos);
                let [ours, theirs] = sample.inputs(features);
                let stm = pos.side_to_move();
                for (inputs, c) in [(ours, stm), (theirs, !stm)] {
                    let view = features.view(c, pos.king_square(c));
                    let mut seen: Vec<usize> = inputs.iter().map(|&(f, _)| f as usize).collect();
                    let mut expected: Vec<usize> =
                        Square::all().filter_map(|sq| pos.piece_on(sq).map(|p| view.feature(p, sq))).collect();
                    seen.sort();
                    expected.sort();
                    assert_eq!(seen, expected, "{} {features:?}", pos.to_fen());
                }
            }
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let records = records();
        let samples: Vec<Sample> = records.iter().filter_map(Sample::new).take(40).collect();
        for (features, buckets) in [(Features::Plain, 1), (Features::KingBuckets, 1), (Features::Plain, 8)] {
            let net = FloatNetwork::random(features, buckets, 11);
            let layout = net.layout;
            let k = 400.0;
            let loss = |net: &FloatNetwork| -> f64 {
                samples.iter().map(|s| (sigmoid(net.eval(s) / k) - target(s, k, 0.5)).powi(2)).sum()
            };
            let mut grad = Gradient::new(&layout);
            for s in &samples {
                net.backward(s, target(s, k, 0.5), k, &mut grad);
            }
            // Rows of pieces on the board (and their factorisers), biases
            // and output weights.
            let (input, plain) = samples[0].inputs(features)[0][3];
            let rows = layout.input_rows(input, plain);
            let bucket = samples[0].bucket(buckets);
            let w2 = layout.output_weights(bucket).start;
            let mut params = vec![layout.b1 + 2, layout.b1 + 100, w2 + 5, w2 + HIDDEN + 9, layout.b2 + bucket];
            for &start in &rows {
                params.extend([start, start + 7]);
            }
            let mut checked = 0;
            for i in params {
                let h = 1e-3;
                let mut plus = net.clone();
                plus.p[i] += h;
                let mut minus = net.clone();
                minus.p[i] -= h;
                let numeric = (loss(&plus) - loss(&minus)) / (2.0 * f64::from(h));
                let analytic = f64::from(grad.values[i]);
                let tolerance = 0.02 * analytic.abs().max(numeric.abs()) + 1e-7;
                assert!(
                    (analytic - numeric).abs() <= tolerance,
                    "{features:?} parameter {i}: analytic {analytic} numeric {numeric}"
                );
                checked += (analytic != 0.0) as usize;
            }
            assert!(checked >= 5, "only {checked} parameters with a gradient");
            // Every row with a gradient was noted as touched, and clearing
            // leaves nothing behind.
            for (row, values) in grad.values.chunks(HIDDEN).enumerate() {
                let dense = layout.dense();
                let in_dense = row * HIDDEN < dense.end && (row + 1) * HIDDEN > dense.start;
                if !in_dense && values.iter().any(|&v| v != 0.0) {
                    assert!(grad.marked[row], "{features:?} row {row} has a gradient but is not marked");
                }
            }
            grad.clear(&layout);
            assert!(grad.values.iter().all(|&v| v == 0.0) && grad.touched.is_empty());
        }
    }

    /// Fine-tuning starts exactly where the given network is: the float
    /// network made from it quantises back to it, weight for weight (the
    /// shipped network has input weights beyond the trainer's clip, which
    /// the kind factorisers must absorb).
    #[test]
    fn a_network_to_start_from_quantises_back_to_itself() {
        let shipped = (*Network::embedded()).clone();
        assert_eq!(FloatNetwork::from_network(&shipped).quantise(), shipped);
        let net = FloatNetwork::from_network(&shipped);
        assert!(net.p.iter().all(|w| w.abs() <= WEIGHT_CLIP), "every part within the clip");
        let records = records();
        for (features, output_buckets) in [(Features::KingBuckets, 1), (Features::Plain, 4)] {
            let options = Options { features, output_buckets, epochs: 1, batch_size: 64, ..Options::default() };
            let trained = train(&records, &options, &mut |_| {}, &mut |_, _| Ok(())).unwrap();
            assert_eq!(FloatNetwork::from_network(&trained.network).quantise(), trained.network);
            // A larger start is refused: a network never shrinks.
            let plain = Options { init: Some(trained.network.clone()), ..Options::default() };
            assert!(train(&records, &plain, &mut |_| {}, &mut |_, _| Ok(())).is_err());
        }
    }

    /// A network grown into king buckets, output buckets or both scores
    /// every position as before where no king stands on file f, and where
    /// both do, as before the position's mirror image (both kings' buckets
    /// see the board mirrored).
    #[test]
    fn a_grown_network_starts_as_the_smaller_one() {
        // The shipped network (trained weights; the largest shape, which
        // may be its own) and a one-output piece-square one, which can grow
        // into every shape.
        let shipped = (*Network::embedded()).clone();
        let one_output = FloatNetwork::random(Features::Plain, 1, 7).quantise();
        // The games' positions (no king on file d or f in both) and two
        // with both kings on file f.
        let mut positions = positions(&records());
        for fen in ["3a1k3/4a4/9/9/5P3/9/9/9/4A4/3A1K3 w - - 0 1", "3a1k3/4a4/4b4/9/9/5n3/2P6/9/4A4/3A1K3 b - - 0 1"] {
            positions.push(Position::from_fen(fen).unwrap());
        }
        for (base, features, buckets) in [
            (&one_output, Features::KingBuckets, 1),
            (&one_output, Features::Plain, 4),
            (&one_output, Features::KingBuckets, 8),
            (&shipped, Features::KingBuckets, 8),
        ] {
            let grown = FloatNetwork::grown(base, features, buckets).unwrap().quantise();
            assert_eq!((grown.features(), grown.output_buckets()), (features, buckets));
            let (mut same, mut mirrored) = (0, 0);
            for pos in &positions {
                let on_f = [Color::Red, Color::Black].map(|c| pos.king_square(c).file() == 5);
                let after = grown.evaluate_position(pos);
                if features == Features::Plain || on_f == [false; 2] {
                    assert_eq!(after, base.evaluate_position(pos), "{}", pos.to_fen());
                    same += 1;
                } else if on_f == [true; 2] {
                    let mirror = position_of(&Sample::of(pos).mirrored());
                    assert_eq!(after, base.evaluate_position(&mirror), "{}", pos.to_fen());
                    mirrored += 1;
                }
            }
            assert!(same > 100, "{same} positions compared as they are");
            eprintln!("{features:?} x {buckets}: {same} positions compared as they are, {mirrored} as mirror images");
            assert!(features == Features::Plain || mirrored == 2, "{mirrored} compared as mirror images");
        }
        // Growing the grown network again to the same shape changes nothing;
        // its outputs, no longer one, cannot be split again.
        let grown = FloatNetwork::grown(&one_output, Features::KingBuckets, 4).unwrap().quantise();
        assert_eq!(FloatNetwork::grown(&grown, Features::KingBuckets, 4).unwrap().quantise(), grown);
        assert!(FloatNetwork::grown(&grown, Features::KingBuckets, 8).is_err());
    }

    #[test]
    fn training_lowers_the_training_loss_and_the_quantised_network_follows_the_float_one() {
        for (features, output_buckets) in [(Features::Plain, 1), (Features::KingBuckets, 1), (Features::Plain, 4)] {
            training_lowers_the_loss(features, output_buckets);
        }
    }

    fn training_lowers_the_loss(features: Features, output_buckets: usize) {
        let records = records();
        let options = Options {
            features,
            output_buckets,
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
        let mut lines_before = Vec::new();
        let trained = train(&records, &options, &mut |l| lines_before.push(l.to_string()), &mut count).unwrap();
        assert_eq!(checkpoints, 3);
        assert!(trained.validation_positions > 0);
        assert_eq!(trained.validation_losses.len(), 3);
        // Six games are too few for the held-out loss to fall; the loss on
        // the training positions must.
        let first = FloatNetwork::random(features, output_buckets, options.seed);
        let data = prepare(&records, &options, &mut |_| {}).unwrap();
        let loss = |net: &FloatNetwork| mean_loss(&data.train, data.k, options.result_weight, 1, |s| net.eval(s));
        let (before, after) = (loss(&first), loss(&trained.float));
        assert!(after < 0.8 * before, "training loss {before} -> {after}");
        // The engine's integer network gives the float network's scores up
        // up to rounding (each of the 32 inputs' weights is rounded to
        // 1/255, each output weight to 1/64). Three epochs on six games
        // leave the output weights near their start, about ±0.06, which
        // 1/64 steps round coarsely: about 14 cp on average here, now and
        // then over 20 on one position. (The shipped network's held-out
        // loss moves from 0.001900 to 0.001923.)
        let all = positions(&records);
        let mut differences = Vec::new();
        for pos in all.iter().step_by(3) {
            let float = trained.float.evaluate_position(pos);
            let int = f64::from(trained.network.evaluate_position(pos));
            assert!(
                (float - int).abs() <= 40.0 + 0.05 * float.abs(),
                "{}: float {float} quantised {int}",
                pos.to_fen()
            );
            differences.push((float - int).abs());
        }
        let mean = differences.iter().sum::<f64>() / differences.len() as f64;
        eprintln!("{} positions, mean |float - quantised| {mean:.2} cp", differences.len());
        assert!(mean <= 20.0, "mean |float - quantised| {mean} cp");
        // The output bias takes back what rounding moved on average.
        let signed = all
            .iter()
            .map(|pos| trained.float.evaluate_position(pos) - f64::from(trained.network.evaluate_position(pos)))
            .sum::<f64>()
            / all.len() as f64;
        eprintln!("mean float - quantised {signed:.2} cp");
        assert!(signed.abs() <= 3.0, "mean float - quantised {signed} cp");
        // The file of the trained network reads back the same.
        let bytes = trained.network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), trained.network);
        // A reference network is scored on the same held-out positions as
        // the new one: given the network just trained, the two agree.
        let reference = Reference { name: "again".into(), network: trained.network.clone() };
        let again = Options { epochs: 0, references: vec![reference], ..options.clone() };
        let mut lines = Vec::new();
        train(&records, &again, &mut |l| lines.push(l.to_string()), &mut |_, _| Ok(())).unwrap();
        let quantised = lines_before.iter().find_map(|l| l.strip_prefix("held out: quantised network ")).unwrap();
        let quantised = quantised.split(',').next().unwrap();
        assert!(lines.contains(&format!("held-out loss of again: {quantised}")), "{lines:?} against {quantised}");
    }
}
