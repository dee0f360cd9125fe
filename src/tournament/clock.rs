//! Time controls and the clock of one side: what to put in `go`, how long
//! to wait for the answer, and whether the answer came in time.

use std::fmt;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `base` for `moves` moves (every move when `None`), `increment`
    /// added after each move; all in milliseconds.
    Clock {
        moves: Option<u32>,
        base_ms: u64,
        increment_ms: u64,
    },
    /// A fixed time per move.
    MoveTime {
        ms: u64,
    },
    Depth(u32),
    Nodes(u64),
}

impl TimeControl {
    /// Parses `40/60+0.5`, `10+0.1`, `0:30+0.2` or `60` (seconds, as
    /// cutechess-cli and fastchess write it).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control '{text}': write [MOVES/]BASE[+INC] in seconds, e.g. 10+0.1 or 40/60");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.trim().parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?), rest),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => seconds_to_ms(min)
                .and_then(|min| min.checked_mul(60)?.checked_add(seconds_to_ms(sec)?))
                .filter(|&ms| ms <= MAX_CLOCK_MS)
                .ok_or_else(bad)?,
            None => seconds_to_ms(base).ok_or_else(bad)?,
        };
        let increment_ms = seconds_to_ms(inc).ok_or_else(bad)?;
        if base_ms == 0 && increment_ms == 0 {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl::Clock { moves, base_ms, increment_ms })
    }
}

/// The longest clock or increment taken, about 31 years: the clock's sums
/// stay far from overflow (found by fuzzing: `--tc 2222...2:22+5`
/// overflowed the minutes' product).
const MAX_CLOCK_MS: u64 = 1_000_000_000_000;

/// Seconds as text (`0.1`, `60`) to milliseconds, `None` if not a number
/// of seconds from 0 to [`MAX_CLOCK_MS`].
fn seconds_to_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    let ms = (seconds * 1000.0).round();
    (ms.is_finite() && (0.0..=MAX_CLOCK_MS as f64).contains(&ms)).then_some(ms as u64)
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/60+0.5`, `movetime=1`, `depth=8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match *self {
            TimeControl::Clock { moves, base_ms, increment_ms } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", secs(base_ms))?;
                if increment_ms > 0 {
                    write!(f, "+{}", secs(increment_ms))?;
                }
                Ok(())
            }
            TimeControl::MoveTime { ms } => write!(f, "movetime={}", secs(ms)),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub control: TimeControl,
    /// Time left, in ms (negative once overstepped).
    pub remaining_ms: i64,
    /// Moves made in the current period.
    moves_in_period: u32,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let remaining_ms = match control {
            TimeControl::Clock { base_ms, .. } => base_ms as i64,
            _ => 0,
        };
        Clock { control, remaining_ms, moves_in_period: 0 }
    }

    /// Moves left until the next time control, for `movestogo`.
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_in_period),
            _ => None,
        }
    }

    /// How long the engine may take before it has lost on time (or, for
    /// depth and nodes, is taken to hang): the time it has plus `margin_ms`;
    /// `fixed_timeout_ms` for depth and nodes.
    pub fn allowed_ms(&self, margin_ms: u64, fixed_timeout_ms: u64) -> u64 {
        match self.control {
            TimeControl::Clock { .. } => self.remaining_ms.max(0) as u64 + margin_ms,
            TimeControl::MoveTime { ms } => ms + margin_ms,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => fixed_timeout_ms,
        }
    }

    /// Charges a move that took `elapsed_ms`. False if the engine overstepped
    /// its time by more than `margin_ms` (depth and nodes have no clock).
    pub fn charge(&mut self, elapsed_ms: u64, margin_ms: u64) -> bool {
        match self.control {
            TimeControl::Clock { moves, base_ms, increment_ms } => {
                self.remaining_ms -= elapsed_ms as i64;
                if self.remaining_ms < -(margin_ms as i64) {
                    return false;
                }
                // Within the margin counts as in time; the clock does not
                // carry the overstep into the next move.
                self.remaining_ms = self.remaining_ms.max(0) + increment_ms as i64;
                self.moves_in_period += 1;
                if moves == Some(self.moves_in_period) {
                    self.moves_in_period = 0;
                    self.remaining_ms += base_ms as i64;
                }
                true
            }
            TimeControl::MoveTime { ms } => elapsed_ms <= ms + margin_ms,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        let tc = TimeControl::parse_clock("40/60+0.5").unwrap();
        assert_eq!(tc, TimeControl::Clock { moves: Some(40), base_ms: 60_000, increment_ms: 500 });
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock { moves: None, base_ms: 10_000, increment_ms: 100 }
        );
        assert_eq!(
            TimeControl::parse_clock("1:30").unwrap(),
            TimeControl::Clock { moves: None, base_ms: 90_000, increment_ms: 0 }
        );
        for bad in ["", "x", "0/10", "10+", "-1+1", "0+0", "40/"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        // Beyond the longest clock: refused, not wrapped or saturated.
        let huge_minutes = format!("{}:22+5", "2".repeat(130));
        for bad in [huge_minutes.as_str(), "1e300", "10+1e300", "inf", "NaN+1", "16666667:00"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(
            TimeControl::parse_clock("16666666:00").unwrap(),
            TimeControl::Clock { moves: None, base_ms: 999_999_960_000, increment_ms: 0 }
        );
    }

    #[test]
    fn the_clock_counts_increments_periods_and_oversteps() {
        let mut clock = Clock::new(TimeControl::Clock { moves: Some(2), base_ms: 1000, increment_ms: 100 });
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(clock.charge(300, 0));
        assert_eq!(clock.remaining_ms, 800);
        assert_eq!(clock.moves_to_go(), Some(1));
        assert!(clock.charge(800, 0));
        // A new period: the base again, plus what was left.
        assert_eq!(clock.remaining_ms, 1100);
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(clock.charge(1150, 50), "within the margin");
        assert!(!clock.charge(200, 50), "100 ms left, 200 used");
        let mut fixed = Clock::new(TimeControl::MoveTime { ms: 100 });
        assert!(fixed.charge(140, 50));
        assert!(!fixed.charge(151, 50));
        assert_eq!(Clock::new(TimeControl::Depth(5)).allowed_ms(50, 9000), 9000);
    }
}
