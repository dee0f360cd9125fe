//! `chariot tune`: fits the evaluation's weights (`eval/params.rs`) to
//! positions of `chariot datagen` files by gradient descent (Adam).
//!
//! The model is the evaluation itself, in real numbers: each position's
//! [`Trace`] says how often every linear weight counts (tapered by the
//! phase: middlegame weights by phase / max, endgame ones by the rest) and
//! gives the inputs of the king-safety term, whose weights enter through a
//! square and a cap; its gradient follows the chain rule. The target of a
//! position blends the game result and the search score:
//! `lambda * sigmoid(score / k) + (1 - lambda) * result`, and the loss is
//! the mean squared difference to `sigmoid(eval / k)`, with `k` fitted to the
//! data first. Positions in check, with a capture as best move or a mate
//! score are left out (their static evaluation is not what the search
//! sees). A tenth (a flag) is held out to show over-fitting.

pub mod nnue;

use crate::datagen::format::{Outcome, Record};
use crate::eval::endgame::SCALE_NORMAL;
use crate::eval::params::{KING_DANGER_DIVISOR, PHASE_MAX, WEIGHTS, Weights};
use crate::eval::{KingInputs, Trace, terms_traced};
use crate::rng::Rng;
use crate::types::Color;
use std::fmt;

/// How a weight enters the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Tapered by phase / max.
    Middlegame,
    /// Tapered by (max - phase) / max.
    Endgame,
    /// Not tapered (the tempo).
    Flat,
    /// A king-safety weight: attack weight of piece kind `k`, the danger
    /// cap, missing advisor, missing elephant.
    KingAttack(usize),
    KingDangerMax,
    MissingAdvisor,
    MissingElephant,
}

impl Kind {
    /// Whether the weight enters the model linearly (times its count).
    fn is_linear(self) -> bool {
        matches!(self, Kind::Middlegame | Kind::Endgame | Kind::Flat)
    }
}

/// How each weight enters the model, in `Weights::params_mut` order.
fn kinds() -> Vec<Kind> {
    WEIGHTS
        .clone()
        .params_mut()
        .into_iter()
        .map(|(n, _)| {
            if let Some(k) = n.strip_prefix("king_attack_weight[") {
                Kind::KingAttack(k.trim_end_matches(']').parse().expect("an index"))
            } else if n == "king_danger_max" {
                Kind::KingDangerMax
            } else if n == "missing_advisor" {
                Kind::MissingAdvisor
            } else if n == "missing_elephant" {
                Kind::MissingElephant
            } else if n == "tempo" {
                Kind::Flat
            } else if n.contains("_mg") || n.ends_with(".mg") {
                Kind::Middlegame
            } else if n.contains("_eg") || n.ends_with(".eg") {
                Kind::Endgame
            } else {
                panic!("the tuner does not know how weight '{n}' enters the evaluation")
            }
        })
        .collect()
}

/// The values of all weights, in `Weights::params_mut` order.
fn flatten(w: &Weights) -> Vec<f64> {
    w.values().into_iter().map(f64::from).collect()
}

fn unflatten(values: &[f64]) -> Weights {
    let mut w = WEIGHTS.clone();
    for ((_, v), x) in w.params_mut().into_iter().zip(values) {
        *v = x.round() as i32;
    }
    w
}

/// One position, as the model needs it.
#[derive(Clone, Debug)]
struct Sample {
    /// The linear weights' (index, Red-minus-Black count).
    coefs: Vec<(u16, i16)>,
    /// Phase / max, 0..=1.
    rho: f64,
    king: [KingInputs; 2],
    /// The endgame factors of Red's advantage and Black's (1 = unscaled).
    scale: [f64; 2],
    /// Red's view: the search score (cp) and the result (0, 0.5, 1).
    score: f64,
    result: f64,
}

impl Sample {
    fn new(record: &Record, kinds: &[Kind]) -> Option<Sample> {
        let pos = record.position().ok()?;
        let mut trace = Trace::default();
        let terms = terms_traced(&pos, &mut trace);
        let coefs = trace
            .coefs
            .values()
            .into_iter()
            .enumerate()
            .filter(|&(i, c)| c != 0 && kinds[i].is_linear())
            .map(|(i, c)| (i as u16, c as i16))
            .collect();
        let red = if record.side == Color::Red { 1.0 } else { -1.0 };
        let result = match record.outcome {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        };
        Some(Sample {
            coefs,
            rho: f64::from(terms.phase.min(PHASE_MAX)) / f64::from(PHASE_MAX),
            king: trace.king,
            scale: terms.scale.map(|f| f64::from(f) / f64::from(SCALE_NORMAL)),
            score: red * f64::from(record.score),
            result: if red > 0.0 { result } else { 1.0 - result },
        })
    }
}

pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model: the evaluation (Red's view) of `s` with weights `w`, and
/// if `grad` is given, adds `scale` times its gradient to it.
fn model(s: &Sample, w: &[f64], kinds: &[Kind], king_index: &KingIndex, grad: Option<(&mut [f64], f64)>) -> f64 {
    let taper = |k: Kind| match k {
        Kind::Middlegame => s.rho,
        Kind::Endgame => 1.0 - s.rho,
        _ => 1.0,
    };
    // The tempo is added after the endgame scaling, as in the engine.
    let mut eval = 0.0;
    let mut flat = 0.0;
    for &(i, c) in &s.coefs {
        let term = f64::from(c) * w[i as usize] * taper(kinds[i as usize]);
        if kinds[i as usize] == Kind::Flat {
            flat += term;
        } else {
            eval += term;
        }
    }
    // King safety: each side's pressure (capped square of the danger) and
    // weakness, counted fully in the middlegame and half in the endgame.
    let king_taper = s.rho + (1.0 - s.rho) / 2.0;
    let divisor = f64::from(KING_DANGER_DIVISOR);
    let mut king_parts = [(0.0, false, 0.0); 2];
    for (side, k) in s.king.iter().enumerate() {
        let danger: f64 = (0..7).map(|p| f64::from(k.attacks[p]) * w[king_index.attack[p]]).sum();
        let raw = danger * danger / divisor;
        let capped = raw >= w[king_index.danger_max];
        let pressure = if capped { w[king_index.danger_max] } else { raw };
        let weakness = (f64::from(k.missing_advisors) * w[king_index.missing_advisor]
            + f64::from(k.missing_elephants) * w[king_index.missing_elephant])
            * f64::from(k.attackers)
            / 6.0;
        let sign = if side == 0 { 1.0 } else { -1.0 };
        eval += sign * king_taper * (pressure + weakness);
        king_parts[side] = (danger, capped, sign);
    }
    let factor = if eval > 0.0 { s.scale[0] } else { s.scale[1] };
    if let Some((g, scale)) = grad {
        for &(i, c) in &s.coefs {
            let f = if kinds[i as usize] == Kind::Flat { 1.0 } else { factor };
            g[i as usize] += scale * f * f64::from(c) * taper(kinds[i as usize]);
        }
        let scale = scale * factor;
        for (side, k) in s.king.iter().enumerate() {
            let (danger, capped, sign) = king_parts[side];
            let f = scale * sign * king_taper;
            if capped {
                g[king_index.danger_max] += f;
            } else {
                for p in 0..7 {
                    g[king_index.attack[p]] += f * 2.0 * danger * f64::from(k.attacks[p]) / divisor;
                }
            }
            g[king_index.missing_advisor] += f * f64::from(k.missing_advisors) * f64::from(k.attackers) / 6.0;
            g[king_index.missing_elephant] += f * f64::from(k.missing_elephants) * f64::from(k.attackers) / 6.0;
        }
    }
    eval * factor + flat
}

/// Where the king-safety weights are in the flat list.
#[derive(Clone, Debug)]
struct KingIndex {
    attack: [usize; 7],
    danger_max: usize,
    missing_advisor: usize,
    missing_elephant: usize,
}

impl KingIndex {
    fn new(kinds: &[Kind]) -> KingIndex {
        let find = |want: Kind| kinds.iter().position(|&k| k == want).expect("a king-safety weight");
        KingIndex {
            attack: std::array::from_fn(|p| find(Kind::KingAttack(p))),
            danger_max: find(Kind::KingDangerMax),
            missing_advisor: find(Kind::MissingAdvisor),
            missing_elephant: find(Kind::MissingElephant),
        }
    }
}

/// The tuner's settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Weight of the search score in the target (the rest is the result).
    pub lambda: f64,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per Adam step (0: all of them, one step per epoch).
    pub batch_size: usize,
    pub learning_rate: f64,
    pub threads: usize,
    /// Fraction of the positions held out.
    pub validation: f64,
    /// Use at most this many positions (drawn at random with `seed`).
    pub max_positions: usize,
    /// Leave out positions before this ply.
    pub min_ply: u16,
    pub seed: u64,
    /// Report every this many epochs.
    pub report_every: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            lambda: 0.5,
            epochs: 400,
            batch_size: 0,
            learning_rate: 1.0,
            threads: 1,
            validation: 0.1,
            max_positions: usize::MAX,
            min_ply: 0,
            seed: 1,
            report_every: 25,
        }
    }
}

/// The fitted weights and what the fit did.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    pub k: f64,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Loss before and after, on the training and the held-out positions.
    pub train_before: f64,
    pub train_after: f64,
    pub validation_before: f64,
    pub validation_after: f64,
}

/// Prepared positions and the model's bookkeeping.
struct Problem {
    kinds: Vec<Kind>,
    king_index: KingIndex,
    train: Vec<Sample>,
    validation: Vec<Sample>,
}

impl Problem {
    fn new(records: &[Record], options: &Options) -> Problem {
        let kinds = kinds();
        let mut chosen: Vec<&Record> =
            records.iter().filter(|r| !r.in_check && !r.capture && !r.mate_score && r.ply >= options.min_ply).collect();
        let mut rng = Rng::new(options.seed);
        // Fisher-Yates: a random subset and a random split.
        for i in (1..chosen.len()).rev() {
            chosen.swap(i, rng.below(i as u64 + 1) as usize);
        }
        chosen.truncate(options.max_positions);
        let samples = parallel_map(&chosen, options.threads, |r| Sample::new(r, &kinds));
        let mut samples: Vec<Sample> = samples.into_iter().flatten().collect();
        let held = ((samples.len() as f64) * options.validation).round() as usize;
        let validation = samples.split_off(samples.len() - held.min(samples.len()));
        Problem { king_index: KingIndex::new(&kinds), kinds, train: samples, validation }
    }

    /// Mean loss over `samples` with weights `w`, scale `k`, and (if asked)
    /// its gradient.
    fn loss(
        &self,
        samples: &[Sample],
        w: &[f64],
        k: f64,
        lambda: f64,
        threads: usize,
        with_grad: bool,
    ) -> (f64, Vec<f64>) {
        let chunks: Vec<&[Sample]> = samples.chunks(samples.len().div_ceil(threads.max(1)).max(1)).collect();
        let parts = parallel_map(&chunks, threads, |chunk| {
            let mut grad = if with_grad { vec![0.0; w.len()] } else { Vec::new() };
            let mut sum = 0.0;
            for s in chunk.iter() {
                let target = lambda * sigmoid(s.score / k) + (1.0 - lambda) * s.result;
                let eval = model(s, w, &self.kinds, &self.king_index, None);
                let p = sigmoid(eval / k);
                sum += (p - target).powi(2);
                if with_grad {
                    let scale = 2.0 * (p - target) * p * (1.0 - p) / k;
                    model(s, w, &self.kinds, &self.king_index, Some((&mut grad, scale)));
                }
            }
            (sum, grad)
        });
        let n = samples.len().max(1) as f64;
        let mut total = 0.0;
        let mut grad = if with_grad { vec![0.0; w.len()] } else { Vec::new() };
        for (sum, g) in parts {
            total += sum;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        for g in &mut grad {
            *g /= n;
        }
        (total / n, grad)
    }

    /// The sigmoid scale that best fits the current weights' evaluations
    /// to the game results (golden-section search on a log scale).
    fn fit_k(&self, w: &[f64], threads: usize) -> f64 {
        minimise_on_log_scale(30.0, 2000.0, |k| self.loss(&self.train, w, k, 0.0, threads, false).0)
    }
}

/// The `x` in `lo..hi` where `f` is least (a golden-section search on a
/// log scale: `f` is assumed to have one minimum there).
pub(crate) fn minimise_on_log_scale(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo.ln(), hi.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c.exp()) < f(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fits the weights to `records`; `progress` gets a line every
/// `report_every` epochs.
pub fn tune(records: &[Record], options: &Options, progress: &mut dyn FnMut(&str)) -> Result<Fit, String> {
    let problem = Problem::new(records, options);
    if problem.train.is_empty() {
        return Err("no usable positions (quiet, not in check, no mate score)".into());
    }
    let start = flatten(&WEIGHTS);
    let threads = options.threads.max(1);
    let k = problem.fit_k(&start, threads);
    let train_before = problem.loss(&problem.train, &start, k, options.lambda, threads, false).0;
    let validation_before = problem.loss(&problem.validation, &start, k, options.lambda, threads, false).0;
    progress(&format!(
        "{} training and {} held-out positions, {} weights; k = {k:.1}; loss {train_before:.6} (held out {validation_before:.6})",
        problem.train.len(),
        problem.validation.len(),
        start.len()
    ));
    let mut w = start.clone();
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let batch = if options.batch_size == 0 { problem.train.len() } else { options.batch_size };
    let mut step = 0;
    for epoch in 1..=options.epochs {
        // One pass over the training positions, a step per mini-batch (the
        // positions were shuffled when loaded).
        let mut loss_sum = 0.0;
        for samples in problem.train.chunks(batch) {
            let (loss, grad) = problem.loss(samples, &w, k, options.lambda, threads, true);
            loss_sum += loss * samples.len() as f64;
            step += 1;
            for i in 0..w.len() {
                m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
                v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
                let m_hat = m[i] / (1.0 - beta1.powi(step));
                let v_hat = v[i] / (1.0 - beta2.powi(step));
                w[i] -= options.learning_rate * m_hat / (v_hat.sqrt() + eps);
            }
        }
        if epoch % options.report_every.max(1) == 0 || epoch == options.epochs {
            let held = problem.loss(&problem.validation, &w, k, options.lambda, threads, false).0;
            let loss = loss_sum / problem.train.len() as f64;
            progress(&format!("epoch {epoch}: loss {loss:.6} (during the pass), held out {held:.6}"));
        }
    }
    let weights = unflatten(&w);
    let rounded = flatten(&weights);
    Ok(Fit {
        train_after: problem.loss(&problem.train, &rounded, k, options.lambda, threads, false).0,
        validation_after: problem.loss(&problem.validation, &rounded, k, options.lambda, threads, false).0,
        weights,
        k,
        train_positions: problem.train.len(),
        validation_positions: problem.validation.len(),
        train_before,
        validation_before,
    })
}

/// `f` over `items` on `threads` threads, results in order.
pub(crate) fn parallel_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let size = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            items.chunks(size).map(|chunk| scope.spawn(|| chunk.iter().map(&f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("a tuner thread panicked")).collect()
    })
}

/// Why the weights cannot be written into a `params.rs` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// No field line `    name: type = ...` for this weight.
    WeightNotFound { name: String },
    /// The weight's line (1-based) has no ` = ` after the name.
    NoValue { name: String, line: usize },
    /// No `;` outside brackets ends the value that starts on `line`.
    Unterminated { name: String, line: usize },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::WeightNotFound { name } => write!(f, "weight '{name}' not found"),
            ParamsError::NoValue { name, line } => write!(f, "line {line}: no ' = ' after weight '{name}'"),
            ParamsError::Unterminated { name, line } => write!(f, "line {line}: no ';' ends weight '{name}'"),
        }
    }
}

impl std::error::Error for ParamsError {}

/// For callers that report errors as text (the command line).
impl From<ParamsError> for String {
    fn from(e: ParamsError) -> String {
        e.to_string()
    }
}

/// Where the value of weight `name` is in `source` (the text of
/// `eval/params.rs`): from after `name: type = ` to the `;` that ends it
/// (the first one outside brackets).
fn value_span(source: &str, name: &str) -> Result<std::ops::Range<usize>, ParamsError> {
    let start = source
        .find(&format!("\n    {name}: "))
        .ok_or_else(|| ParamsError::WeightNotFound { name: name.to_string() })?
        + 1;
    let line = source[..start].lines().count() + 1;
    // ` = ` on the weight's own line.
    let line_end = source[start..].find('\n').map_or(source.len(), |i| start + i);
    let equals =
        source[start..line_end].find(" = ").ok_or_else(|| ParamsError::NoValue { name: name.to_string(), line })?;
    let value_start = start + equals + 3;
    let mut depth = 0i32;
    for (i, c) in source[value_start..].char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ';' if depth == 0 => return Ok(value_start..value_start + i),
            _ => {}
        }
    }
    Err(ParamsError::Unterminated { name: name.to_string(), line })
}

/// `source` (the text of `eval/params.rs`) with every weight's value
/// replaced by the one in `w`; the comments and layout around them stay.
pub fn rewrite_params(source: &str, w: &Weights) -> Result<String, ParamsError> {
    let mut out = source.to_string();
    for line in w.to_source().lines() {
        // "    name: type = value;", as `to_source` writes every weight.
        let name = line.trim_start().split(':').next().expect("to_source names each weight");
        let (_, value) = line.split_once(" = ").expect("to_source gives each weight a value");
        let span = value_span(&out, name)?;
        out.replace_range(span, &layout(value.trim_end_matches(';')));
    }
    Ok(out)
}

/// A weight's value as written into `params.rs`: as printed, except that
/// an array of long rows (the piece-square tables) gets a row per kind and
/// a line per rank (5 entries), so that the tables can be read.
fn layout(value: &str) -> String {
    let Some(inner) = value.strip_prefix("[[").and_then(|v| v.strip_suffix("]]")) else {
        return value.to_string();
    };
    let rows: Vec<Vec<&str>> = inner.split("], [").map(|row| row.split(", ").collect()).collect();
    if rows.iter().any(|r| r.len() <= 16 || r.len() % 5 != 0) {
        return value.to_string();
    }
    let mut s = String::from("[\n");
    for row in rows {
        s += "        [\n";
        for rank in row.chunks(5) {
            s += &format!("            {},\n", rank.join(", "));
        }
        s += "        ],\n";
    }
    s + "    ]"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{Options as GenOptions, play_game};
    use crate::eval::evaluate;
    use crate::search::Searcher;

    fn records() -> Vec<Record> {
        let options = GenOptions { nodes: 300, max_plies: 120, ..GenOptions::default() };
        let mut searcher = Searcher::new(1);
        (0..4).flat_map(|i| play_game(i, &options, &mut searcher).records).collect()
    }

    /// The model's evaluation of `record` with the engine's weights, and
    /// the engine's own (Red's view).
    fn model_and_engine(record: &Record) -> (f64, i32) {
        let kinds = kinds();
        let sample = Sample::new(record, &kinds).unwrap();
        let pos = record.position().unwrap();
        let engine = evaluate(&pos) * if pos.side_to_move() == Color::Red { 1 } else { -1 };
        (model(&sample, &flatten(&WEIGHTS), &kinds, &KingIndex::new(&kinds), None), engine)
    }

    #[test]
    fn the_model_is_the_engine_evaluation_up_to_rounding() {
        for r in records() {
            let (model, engine) = model_and_engine(&r);
            // Integer divisions in the engine (taper per term, king safety).
            assert!((model - f64::from(engine)).abs() <= 8.0, "model {model} engine {engine}");
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let records = records();
        let options = Options { validation: 0.0, ..Options::default() };
        let problem = Problem::new(&records, &options);
        assert!(problem.train.len() > 50);
        let mut w = flatten(&WEIGHTS);
        // Keep the king danger below its cap so that every king weight has a
        // gradient (the cap is a kink).
        w[problem.king_index.danger_max] = 1e6;
        let (k, lambda) = (300.0, 0.5);
        let (_, grad) = problem.loss(&problem.train, &w, k, lambda, 2, true);
        let mut checked = 0;
        for i in 0..w.len() {
            let h = 0.01;
            let mut plus = w.clone();
            plus[i] += h;
            let mut minus = w.clone();
            minus[i] -= h;
            let numeric = (problem.loss(&problem.train, &plus, k, lambda, 2, false).0
                - problem.loss(&problem.train, &minus, k, lambda, 2, false).0)
                / (2.0 * h);
            let tolerance = 1e-4 * grad[i].abs().max(numeric.abs()) + 1e-10;
            assert!((grad[i] - numeric).abs() <= tolerance, "weight {i}: analytic {} numeric {numeric}", grad[i]);
            if grad[i] != 0.0 {
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} weights with a gradient");
    }

    #[test]
    fn tuning_lowers_the_loss_and_the_params_file_takes_the_new_weights() {
        let records = records();
        let options = Options { epochs: 30, validation: 0.0, threads: 2, report_every: 10, ..Options::default() };
        let mut lines = Vec::new();
        let fit = tune(&records, &options, &mut |l| lines.push(l.to_string())).unwrap();
        assert!(fit.train_after < fit.train_before, "{fit:?}");
        assert_eq!(lines.len(), 4);
        let source = include_str!("../eval/params.rs");
        let rewritten = rewrite_params(source, &fit.weights).unwrap();
        assert_ne!(rewritten, source);
        // Each weight's value in the new text is the fitted one (whatever
        // form the old one had: a repeat expression, rustfmt's layout).
        for line in fit.weights.to_source().lines() {
            let name = line.trim_start().split(':').next().unwrap();
            let (_, value) = line.split_once(" = ").unwrap();
            let span = value_span(&rewritten, name).unwrap();
            let plain = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>().replace(",]", "]");
            assert_eq!(plain(&rewritten[span]), plain(value.trim_end_matches(';')), "{name}");
        }
        // Written again, the text does not change.
        assert_eq!(rewrite_params(&rewritten, &fit.weights).unwrap(), rewritten);
        let docs = |text: &str| text.lines().filter(|l| l.trim_start().starts_with("///")).count();
        assert_eq!(docs(&rewritten), docs(source));
    }

    #[test]
    fn a_broken_params_file_is_refused_with_the_weight_and_line() {
        let source = include_str!("../eval/params.rs");
        let name = WEIGHTS.to_source().lines().next().unwrap().trim_start().split(':').next().unwrap().to_string();
        let field = format!("\n    {name}: ");
        // The newlines up to and including the one before the field, plus one.
        let line = source[..=source.find(&field).unwrap()].matches('\n').count() + 1;
        let missing = source.replace(&field, "\n    renamed_weight: ");
        assert_eq!(rewrite_params(&missing, &WEIGHTS), Err(ParamsError::WeightNotFound { name: name.clone() }));
        // The field's value cut off before its `;` (the file ends there).
        let at = source.find(&field).unwrap();
        let cut = &source[..at + field.len() + source[at + field.len()..].find(" = ").unwrap() + 4];
        let error = rewrite_params(cut, &WEIGHTS).unwrap_err();
        assert_eq!(error, ParamsError::Unterminated { name: name.clone(), line });
        assert_eq!(error.to_string(), format!("line {line}: no ';' ends weight '{name}'"));
        let no_value = source.replacen(&field, &format!("{field}\n"), 1);
        assert_eq!(rewrite_params(&no_value, &WEIGHTS), Err(ParamsError::NoValue { name, line }));
    }
}
