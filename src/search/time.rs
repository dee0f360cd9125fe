//! Time management: how long to think, from the clock or a fixed move time.

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
/// searching at `maximum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// Moves we assume are left in a sudden-death game.
const DEFAULT_MOVES_TO_GO: i64 = 32;
/// Never plan to use more than this share of the remaining time on one move.
const MAX_SHARE_PERCENT: i64 = 40;

pub fn budget_for_clock(clock: Clock, overhead_ms: i64) -> TimeBudget {
    let mtg = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| (m as i64).clamp(1, 80));
    // What we can spend safely: the clock minus the GUI's lag per move,
    // minus a reserve for the moves still to come in this period.
    let reserve = overhead_ms * mtg.min(10);
    let usable = (clock.time_ms - reserve).max(0);
    let inc = clock.inc_ms.max(0);
    let mut optimum = usable / mtg + inc * 3 / 4;
    let mut maximum =
        if mtg == 1 { usable * 8 / 10 } else { (optimum * 5).min(usable * MAX_SHARE_PERCENT / 100 + inc) };
    // Hard ceiling: never beyond what is on the clock minus the lag.
    let ceiling = (clock.time_ms - overhead_ms).max(0);
    maximum = maximum.min(ceiling * 9 / 10);
    optimum = optimum.min(maximum);
    TimeBudget {
        optimum: Duration::from_millis(optimum.max(1) as u64),
        maximum: Duration::from_millis(maximum.max(1) as u64),
    }
}

pub fn budget_for_movetime(movetime_ms: i64, overhead_ms: i64) -> TimeBudget {
    let t = (movetime_ms - overhead_ms).max(1) as u64;
    TimeBudget { optimum: Duration::from_millis(t), maximum: Duration::from_millis(t) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_sane() {
        let b = budget_for_clock(Clock { time_ms: 10_000, inc_ms: 100, moves_to_go: None }, 30);
        assert!(b.optimum <= b.maximum);
        assert!(b.maximum < Duration::from_millis(4_200));
        assert!(b.optimum >= Duration::from_millis(200));
        // Zero or negative time still gives a (tiny) budget.
        let b = budget_for_clock(Clock { time_ms: -50, inc_ms: 0, moves_to_go: None }, 30);
        assert_eq!(b.maximum, Duration::from_millis(1));
        let b = budget_for_clock(Clock { time_ms: 1000, inc_ms: 10, moves_to_go: None }, 30);
        assert!(b.maximum <= Duration::from_millis(900));
        // Last move of a period may use most of the time.
        let b = budget_for_clock(Clock { time_ms: 5000, inc_ms: 0, moves_to_go: Some(1) }, 50);
        assert!(b.maximum >= Duration::from_millis(3000) && b.maximum < Duration::from_millis(4500));
    }
}
