//! Time management: how long to think, from the clock or a fixed move time.
//!
//! Every move costs what the search spends plus the GUI's lag (`Move
//! Overhead`) and brings the increment back. The plan keeps a reserve on the
//! clock (the lag of the next moves to come, and a little more) and spends a
//! share of what lies above it, plus the increment net of the lag. Below the
//! reserve the spending falls towards nothing as the clock empties, so a
//! short increment fills the clock up again instead of it draining to zero:
//! the clock settles where a move's cost equals the increment.

use super::params::SearchParams;
use std::time::Duration;

/// A clock for the side to move, in milliseconds (times may be zero or
/// negative: the engine must still move, at once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: i64,
    pub inc_ms: i64,
    pub moves_to_go: Option<u32>,
}

/// The two budgets: stop starting new iterations after `optimum`, stop
/// searching at `maximum` (the hard deadline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// Clock values, increments and move times beyond this (about 35 years) are
/// taken as this: a GUI's "no hurry" must not overflow the arithmetic.
pub const MAX_CLOCK_MS: i64 = 1 << 40;
const MAX_MOVES_TO_GO: i64 = 80;
/// The reserve holds the GUI's lag for this many of the moves to come (or
/// for all of them when fewer are left in the period).
const LAG_MOVES: i64 = 10;
/// And this much on top, so that a zero `Move Overhead` still keeps some.
const BASE_RESERVE_MS: i64 = 20;
// The shares and factors of the plan are tunable (`SearchParams`: the
// moves to go of sudden death, the increment's share, the deadline's
// factor and shares).

/// The budgets for `clock`, `params` giving the plan's shares.
pub fn budget_for_clock(clock: Clock, overhead_ms: i64, params: &SearchParams) -> TimeBudget {
    let time = clock.time_ms.clamp(0, MAX_CLOCK_MS);
    let inc = clock.inc_ms.clamp(0, MAX_CLOCK_MS);
    let overhead = overhead_ms.clamp(0, MAX_CLOCK_MS);
    let mtg =
        clock.moves_to_go.map_or(i64::from(params.default_moves_to_go), |m| i64::from(m).clamp(1, MAX_MOVES_TO_GO));
    let reserve = overhead * mtg.min(LAG_MOVES) + BASE_RESERVE_MS;
    // The increment is only worth what is left of it after the lag.
    let net_inc = (inc - overhead).max(0) * i64::from(params.inc_share_percent) / 100;
    let optimum = if time >= reserve {
        (time - reserve) / mtg + net_inc
    } else {
        // Falls to nothing as the clock empties: with any increment larger
        // than the real lag, the clock climbs back towards the reserve.
        (i128::from(net_inc) * i128::from(time) / i128::from(reserve)) as i64
    };
    // What may be spent at all: the clock less this move's lag.
    let usable = (time - overhead).max(0);
    let share = i64::from(if mtg == 1 { params.last_move_share_percent } else { params.max_share_percent });
    let maximum = if mtg == 1 {
        usable * share / 100
    } else {
        (optimum * i64::from(params.max_over_optimum)).min(usable * share / 100)
    };
    let optimum = optimum.min(maximum);
    TimeBudget { optimum: millis(optimum), maximum: millis(maximum) }
}

pub fn budget_for_movetime(movetime_ms: i64, overhead_ms: i64) -> TimeBudget {
    let t = millis(movetime_ms.clamp(0, MAX_CLOCK_MS) - overhead_ms.clamp(0, MAX_CLOCK_MS));
    TimeBudget { optimum: t, maximum: t }
}

/// At least a millisecond: zero or negative time still gets a move (the
/// first iteration always completes).
fn millis(ms: i64) -> Duration {
    Duration::from_millis(ms.max(1) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The budgets of the default plan.
    fn budget_for_clock(clock: Clock, overhead_ms: i64) -> TimeBudget {
        super::budget_for_clock(clock, overhead_ms, &SearchParams::default())
    }

    fn ms(b: TimeBudget) -> (u64, u64) {
        (b.optimum.as_millis() as u64, b.maximum.as_millis() as u64)
    }

    fn clock(time_ms: i64, inc_ms: i64) -> Clock {
        Clock { time_ms, inc_ms, moves_to_go: None }
    }

    #[test]
    fn budgets_are_sane() {
        let b = budget_for_clock(clock(10_000, 100), 30);
        assert!(b.optimum <= b.maximum);
        assert!(b.maximum < Duration::from_millis(4_200));
        assert!(b.optimum >= Duration::from_millis(200));
        // Zero or negative time still gives a (tiny) budget.
        let b = budget_for_clock(clock(-50, 0), 30);
        assert_eq!(b.maximum, Duration::from_millis(1));
        let b = budget_for_clock(clock(1000, 10), 30);
        assert!(b.maximum <= Duration::from_millis(900));
        // Last move of a period may use most of the time.
        let b = budget_for_clock(Clock { time_ms: 5000, inc_ms: 0, moves_to_go: Some(1) }, 50);
        assert!(b.maximum >= Duration::from_millis(3000) && b.maximum < Duration::from_millis(4500));
    }

    /// The old plan spent the whole increment on a low clock and did not
    /// take the lag off it: every move cost the increment plus the lag.
    #[test]
    fn a_low_clock_spends_less_than_the_increment_less_the_lag() {
        for (time, inc, overhead) in
            [(300, 10, 30), (50, 10, 30), (20, 5, 30), (200, 5, 30), (100, 50, 10), (0, 1000, 30)]
        {
            let (opt, max) = ms(budget_for_clock(clock(time, inc), overhead));
            let net = (inc - overhead).max(0) as u64;
            assert!(opt <= net.max(1), "{time}+{inc} overhead {overhead}: optimum {opt}");
            assert!(max as i64 <= (time - overhead).max(1), "{time}+{inc} overhead {overhead}: maximum {max}");
        }
        // Spending grows with the clock, so the clock settles.
        let mut last = 0;
        for time in (0..=2000).step_by(10) {
            let (opt, _) = ms(budget_for_clock(clock(time, 40), 10));
            assert!(opt >= last, "{time}");
            last = opt;
        }
    }

    /// Simulated games where every move costs twice its optimum (capped by
    /// the maximum) plus a real lag of half the increment (at most the
    /// overhead): the clock must settle well above zero however long the game.
    #[test]
    fn the_clock_converges_instead_of_draining() {
        for (base, inc, overhead) in [(1000, 10, 30), (200, 5, 30), (10_000, 100, 30), (2000, 50, 10), (1000, 10, 0)] {
            let mut time = base;
            let mut lowest = i64::MAX;
            for _ in 0..500 {
                let b = budget_for_clock(clock(time, inc), overhead);
                let spent =
                    (b.optimum.as_millis() as i64 * 2).min(b.maximum.as_millis() as i64) + (inc / 2).min(overhead);
                time = time - spent + inc;
                lowest = lowest.min(time);
            }
            assert!(
                lowest >= base.min(BASE_RESERVE_MS + overhead * LAG_MOVES) / 2,
                "{base}+{inc}: the clock fell to {lowest}"
            );
        }
    }

    #[test]
    fn huge_clocks_saturate_instead_of_wrapping() {
        for (time, inc) in [(300_000_000_000_000_000, 0), (1 << 62, 1 << 62), (i64::MAX, i64::MAX), (1 << 62, 0)] {
            let b = budget_for_clock(clock(time, inc), 30);
            assert!(b.optimum >= Duration::from_secs(3600), "{time}+{inc}: {b:?}");
            assert!(b.optimum <= b.maximum);
        }
        // A huge increment cannot be spent before it arrives.
        let (opt, max) = ms(budget_for_clock(clock(1000, 1 << 62), 30));
        assert!(opt >= 100 && (300..=970).contains(&max), "{opt} {max}");
        let b = budget_for_clock(clock(i64::MAX, 0), i64::MAX);
        assert_eq!(b.maximum, Duration::from_millis(1));
        let b = budget_for_clock(Clock { time_ms: i64::MAX, inc_ms: i64::MAX, moves_to_go: Some(u32::MAX) }, 0);
        assert!(b.optimum >= Duration::from_secs(3600));
        assert!(budget_for_movetime(i64::MAX, 30).maximum >= Duration::from_secs(3600));
        assert_eq!(budget_for_movetime(i64::MIN, i64::MAX).maximum, Duration::from_millis(1));
    }
}
