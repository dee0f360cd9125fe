//! Texel-style tuning of the evaluation weights (`src/eval/params.rs`).
//!
//! Input: lines `FEN|score|result`, where `score` is a reference engine's
//! search score for the side to move (centipawns of that engine) and
//! `result` the game's result for the side to move (1, 0.5, 0). The target
//! of each position mixes the two: `LAMBDA * sigmoid(score) + (1 - LAMBDA) *
//! result`. Each position is first resolved to the end of its capture
//! sequence (a small quiescence search with the current weights), so the
//! static evaluation is only asked about quiet positions. Then coordinate
//! descent changes one weight at a time while the mean squared error on the
//! training part falls; a tenth of the positions is held out to show
//! over-fitting.
//!
//! Usage: `cargo run --release --example tune -- LABELS... [--passes N] [--reg R]`.
//! Prints the new `weights!` body on stdout.

use chariot::eval::evaluate_with;
use chariot::eval::params::{WEIGHTS, Weights};
use chariot::position::{GenType, Position};

const LAMBDA: f64 = 0.75;

struct Sample {
    leaf: Position,
    /// +1 if the leaf's side to move is the labelled side, else -1.
    sign: i32,
    target: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fail-soft capture search returning the score and the quiet leaf.
fn quiesce(pos: &Position, mut alpha: i32, beta: i32, w: &Weights, depth: u32) -> (i32, Position, i32) {
    let stand = evaluate_with(pos, w);
    if stand >= beta || depth == 0 {
        return (stand, *pos, 1);
    }
    let mut best = (stand, *pos, 1);
    alpha = alpha.max(stand);
    for m in pos.legal_moves_of(GenType::Captures) {
        let mut child = *pos;
        child.make_move(m);
        if child.in_check() || child.legal_moves().is_empty() {
            continue;
        }
        let (s, leaf, sign) = quiesce(&child, -beta, -alpha, w, depth - 1);
        let s = -s;
        if s > best.0 {
            best = (s, leaf, -sign);
            if s >= beta {
                break;
            }
            alpha = alpha.max(s);
        }
    }
    best
}

/// Mean squared error plus a pull towards the starting weights: weights
/// that the data hardly separates (advisor material against missing-advisor
/// danger, say) stay where they were instead of drifting to odd values.
fn loss(samples: &[Sample], w: &Weights, k: f64, reg: f64) -> f64 {
    let mut start = WEIGHTS;
    let mut now = w.clone();
    let drift: f64 = start
        .params_mut()
        .iter()
        .zip(now.params_mut().iter())
        .map(|((_, a), (_, b))| ((**a - **b) as f64 / 100.0).powi(2))
        .sum();
    error(samples, w, k) + reg * drift
}

fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = (evaluate_with(&s.leaf, w) * s.sign) as f64;
            let d = sigmoid(k * e) - s.target;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut passes = 20;
    let mut reg = 2e-4;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--passes" {
            passes = it.next().and_then(|v| v.parse().ok()).unwrap_or(passes);
        } else if a == "--reg" {
            reg = it.next().and_then(|v| v.parse().ok()).unwrap_or(reg);
        } else {
            files.push(a.clone());
        }
    }
    let mut raw: Vec<(Position, f64, f64)> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        for line in text.lines() {
            let parts: Vec<&str> = line.split('|').collect();
            let [fen, score, result] = parts[..] else { continue };
            let (Ok(pos), Ok(score), Ok(result)) =
                (Position::from_fen(fen), score.parse::<f64>(), result.parse::<f64>())
            else {
                continue;
            };
            if pos.in_check() || score.abs() >= 1500.0 {
                continue;
            }
            raw.push((pos, score, result));
        }
    }
    // The reference's score scale: fit sigmoid(c * score) to the results.
    let c = fit(|c| raw.iter().map(|&(_, s, r)| (sigmoid(c * s) - r).powi(2)).sum::<f64>());
    eprintln!("{} positions; reference scale c = {c:.5}", raw.len());
    let mut samples: Vec<Sample> = raw
        .iter()
        .map(|&(pos, score, result)| {
            let (_, leaf, sign) = quiesce(&pos, -30_000, 30_000, &WEIGHTS, 8);
            Sample { leaf, sign, target: LAMBDA * sigmoid(c * score) + (1.0 - LAMBDA) * result }
        })
        .collect();
    // A fixed tenth held out (every tenth position).
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (i, s) in samples.drain(..).enumerate() {
        if i % 10 == 9 { test.push(s) } else { train.push(s) }
    }
    let mut w = WEIGHTS;
    let k = fit(|k| error(&train, &w, k));
    eprintln!("our scale k = {k:.5}; error train {:.6} test {:.6}", error(&train, &w, k), error(&test, &w, k));
    let mut steps = vec![8i32; w.params_mut().len()];
    let mut best = loss(&train, &w, k, reg);
    for pass in 0..passes {
        let mut improved = 0;
        for (i, &step) in steps.iter().enumerate() {
            for dir in [1, -1] {
                let delta = step * dir;
                *w.params_mut()[i].1 += delta;
                let e = loss(&train, &w, k, reg);
                if e < best {
                    best = e;
                    improved += 1;
                    break;
                }
                *w.params_mut()[i].1 -= delta;
            }
        }
        if improved == 0 {
            if steps.iter().all(|&s| s <= 1) {
                break;
            }
            for s in &mut steps {
                *s = (*s / 2).max(1);
            }
        }
        eprintln!(
            "pass {pass}: {improved} changes, loss {best:.6}, error train {:.6} test {:.6}",
            error(&train, &w, k),
            error(&test, &w, k)
        );
    }
    print!("{}", w.to_source());
}

/// Minimises a one-dimensional error over a positive scale by golden
/// section search on a log scale.
fn fit(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = ((1e-4f64).ln(), (1e-1f64).ln());
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if f(a.exp()) < f(b.exp()) { hi = b } else { lo = a }
    }
    ((lo + hi) / 2.0).exp()
}
