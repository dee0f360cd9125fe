//! Match statistics: W/D/L, score, Elo with its 95% interval, likelihood of
//! superiority, pentanomial counts of game pairs, and the SPRT.
//!
//! Elo is the logistic Elo of the score. Its interval comes from the
//! spread of the pair scores when pairs have been played (pairs of games
//! on one opening with colours reversed are correlated, so the pentanomial
//! spread is the honest one), else from the spread of single games.
//!
//! The SPRT is the generalized SPRT (GSPRT) on normalized Elo with
//! pentanomial statistics, as fishtest and fastchess run it, written from
//! Michel Van den Bergh's notes ("Normalized Elo" and "A GSPRT for
//! pentanomial results", https://www.cantate.be/Fishtest/; fishtest's
//! LLRcalc.py follows them). The pair score (points / 2) takes the values
//! 0, 1/4, 1/2, 3/4, 1. Normalized Elo is nElo = t_game * 800 / ln 10 with
//! t_game = (mu - 1/2) / sigma_game, and sigma_game = sqrt(2) * sigma_pair,
//! so a hypothesis nElo_j is the t-value t_j = sqrt(2) * nElo_j * ln 10 /
//! 800 of the pair score. Under each hypothesis the distribution of the five
//! outcomes is the one of largest likelihood for the observed counts among
//! those whose t-value is t_j (a Lagrange problem, solved below by a fixed
//! point over a one-dimensional root); the LLR is N times the sum of
//! observed frequency times log(p1 / p0). Near the hypotheses this equals
//! the quadratic formula N (mu1 - mu0) (2 mu - mu0 - mu1) / (2 var); far
//! from them the quadratic one overstates the LLR (by 2x for 100 pairs at
//! +400 Elo), so the exact one is used.
//! Bounds are Wald's: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).

use std::fmt;

/// Results of one engine against another, from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs by the first engine's points in them, in half points: LL,
    /// LD, DD or WL, WD, WW.
    pub pairs: [u64; 5],
}

/// The 95% two-sided normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo per unit of normalized t-value: 800 / ln 10.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

impl Tally {
    /// Adds one game: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn add_game(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Adds a finished pair: the first engine's half points in its two games.
    pub fn add_pair(&mut self, half_points: u8) {
        self.pairs[usize::from(half_points.min(4))] += 1;
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pair_count(&self) -> u64 {
        self.pairs.iter().sum()
    }

    /// The first engine's share of the points (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// Elo and its 95% interval (low, high). The interval is that of the
    /// score mapped to Elo, so it is not symmetric, and it is unbounded
    /// when the score's interval reaches 0 or 1.
    pub fn elo(&self) -> (f64, f64, f64) {
        let score = self.score();
        // No spread measured (no games, or all alike): no interval.
        let Some(error) = self.score_error().filter(|&e| e > 0.0) else {
            return (elo_of_score(score), f64::NEG_INFINITY, f64::INFINITY);
        };
        let low = elo_of_score(score - Z95 * error);
        let high = elo_of_score(score + Z95 * error);
        (elo_of_score(score), low, high)
    }

    /// Standard error of the mean score per game.
    fn score_error(&self) -> Option<f64> {
        if self.pair_count() > 0 {
            // A pair score is the mean of two games. Pairs that all scored
            // the same (say, every pair one win one loss) say nothing of
            // the spread: the games' spread is used then.
            let (_, var) = pair_mean_and_variance(&self.pairs.map(|n| n as f64));
            if var > 0.0 {
                return Some((var / self.pair_count() as f64).sqrt());
            }
        }
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n as f64;
        Some((var / n as f64).sqrt())
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses (draws say nothing).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// Normalized Elo from the pairs, if any.
    pub fn normalized_elo(&self) -> Option<f64> {
        if self.pair_count() == 0 {
            return None;
        }
        let (mean, var) = pair_mean_and_variance(&self.pairs.map(|n| n as f64));
        (var > 0.0).then(|| (mean - 0.5) / (2.0 * var).sqrt() * NELO_SCALE)
    }
}

/// Mean and variance of the pair score (points / 2, in 0..=1) for counts
/// of pairs with 0, 1/4, 1/2, 3/4 and 1.
fn pair_mean_and_variance(counts: &[f64; 5]) -> (f64, f64) {
    let total: f64 = counts.iter().sum();
    mean_and_variance(&counts.map(|n| n / total))
}

/// The pair score of each pentanomial outcome.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over the five outcomes that gives the `observed`
/// frequencies the largest likelihood among those with t-value
/// (mu - 1/2) / sigma = `t`. The Lagrange conditions give
/// p_i = observed_i / (1 + x v_i), v_i = a_i - 1/2 - t sigma (1 + ((a_i -
/// mu) / sigma)^2) / 2, with mu and sigma those of p itself: iterate from
/// the observed distribution, solving for x each time.
fn most_likely_with_t(observed: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = *observed;
    for _ in 0..100 {
        let (mu, var) = mean_and_variance(&p);
        let sigma = var.sqrt();
        let v: [f64; 5] = std::array::from_fn(|i| {
            PAIR_SCORES[i] - 0.5 - t * sigma * (1.0 + ((PAIR_SCORES[i] - mu) / sigma).powi(2)) / 2.0
        });
        let x = root_of_weighted_sum(observed, &v);
        let next: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + x * v[i]));
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

/// The x with sum of w_i v_i / (1 + x v_i) = 0 and every 1 + x v_i > 0.
/// The sum falls as x grows, from +inf to -inf across that interval, so
/// bisection finds it (v must have both signs, which every hypothesis
/// strictly between scores 0 and 1 gives).
fn root_of_weighted_sum(w: &[f64; 5], v: &[f64; 5]) -> f64 {
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    if max <= 0.0 || min >= 0.0 {
        return 0.0;
    }
    let (mut low, mut high) = (-1.0 / max, -1.0 / min);
    let sum = |x: f64| (0..5).map(|i| w[i] * v[i] / (1.0 + x * v[i])).sum::<f64>();
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if sum(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// Mean and variance of the pair score under frequencies `p` (summing to 1).
fn mean_and_variance(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
    let var: f64 = (0..5).map(|i| p[i] * (PAIR_SCORES[i] - mean).powi(2)).sum();
    (mean, var)
}

/// Logistic Elo of a score (infinite at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// An SPRT of H0: nElo = elo0 against H1: nElo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the first engine is at least elo1 stronger.
    AcceptH1,
    /// H0 accepted.
    AcceptH0,
    Continue,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::Continue => "continue",
        })
    }
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order; the
    /// defaults are those values).
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Sprt, String> {
        let mut sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(|| format!("--sprt: '{word}' is not key=value"))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("--sprt: '{word}': bad number"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(format!("--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)")),
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
            return Err("--sprt: alpha and beta must be in (0, 0.5)".into());
        }
        Ok(sprt)
    }

    /// (lower, upper) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pairs played so far.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pair_count() == 0 {
            return 0.0;
        }
        // Empty cells get a small count (as fishtest and fastchess do), so
        // that one-sided early results keep every outcome possible.
        let counts = tally.pairs.map(|n| if n == 0 { 1e-3 } else { n as f64 });
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let t_of = |nelo: f64| std::f64::consts::SQRT_2 * nelo / NELO_SCALE;
        let p0 = most_likely_with_t(&observed, t_of(self.elo0));
        let p1 = most_likely_with_t(&observed, t_of(self.elo1));
        n * (0..5).map(|i| observed[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    pub fn decision(&self, tally: &Tally) -> SprtDecision {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(w: u64, d: u64, l: u64, pairs: [u64; 5]) -> Tally {
        Tally { wins: w, draws: d, losses: l, pairs }
    }

    #[test]
    fn elo_score_and_los() {
        let even = tally(10, 10, 10, [0; 5]);
        assert_eq!(even.score(), 0.5);
        assert!(even.elo().0.abs() < 1e-9);
        assert!((even.los() - 0.5).abs() < 1e-9);
        // 75%: +190.8 Elo.
        let t = tally(30, 0, 10, [0; 5]);
        assert!((t.elo().0 - 190.85).abs() < 0.01, "{}", t.elo().0);
        assert!(t.los() > 0.99);
        // Trinomial interval of 30-0-10: se = sqrt(0.1875 / 40) = 0.0685,
        // scores 0.616..0.884 -> Elo 82.0..353.6.
        let (_, low, high) = t.elo();
        assert!((low - 82.0).abs() < 0.5 && (high - 353.6).abs() < 0.5, "{low} {high}");
        assert_eq!(tally(3, 0, 0, [0; 5]).elo(), (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY));
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt::parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
        // Pair counts of a clearly stronger engine decide for H1 ...
        let strong = tally(0, 0, 0, [20, 100, 300, 200, 80]);
        assert!(sprt.llr(&strong) > upper);
        assert_eq!(sprt.decision(&strong), SprtDecision::AcceptH1);
        // ... mirror-image counts for H0, and a balanced few continue.
        let weak = tally(0, 0, 0, [80, 200, 300, 100, 20]);
        assert_eq!(sprt.decision(&weak), SprtDecision::AcceptH0);
        let few = tally(0, 0, 0, [1, 2, 3, 2, 1]);
        assert_eq!(sprt.decision(&few), SprtDecision::Continue);
        assert!(Sprt::parse(["elo0=5", "elo1=0"]).is_err());
        assert!(Sprt::parse(["gamma=1"]).is_err());
    }

    #[test]
    fn llr_matches_an_independent_implementation() {
        // The same counts through the SPRT of the shared tools' referee.py
        // (its own GSPRT code, written separately from this one).
        let cases: [(f64, f64, [u64; 5], f64); 5] = [
            (0.0, 5.0, [0, 1, 22, 7, 70], 1.719397),
            (0.0, 10.0, [20, 100, 300, 200, 80], 8.359687),
            (0.0, 5.0, [10, 20, 40, 20, 10], -0.020709),
            (-3.0, 1.0, [30, 110, 250, 95, 25], -0.411874),
            (0.0, 2.0, [1, 2, 3, 2, 1], -0.000298),
        ];
        for (elo0, elo1, pairs, expected) in cases {
            let sprt = Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 };
            let llr = sprt.llr(&tally(0, 0, 0, pairs));
            assert!((llr - expected).abs() < 2e-5, "{pairs:?}: {llr} vs {expected}");
        }
        // Near the hypotheses it is the quadratic formula: pairs [10, 20,
        // 40, 20, 10] have mean 1/2, var 0.075; mu1 - mu0 = 5 / 347.44 *
        // sqrt(0.15) = 0.005574; LLR = 100 * 0.005574 * -0.005574 / 0.15.
        assert!((-100.0 * 0.005574f64.powi(2) / 0.15 - (-0.020709)).abs() < 1e-4);
    }
}
