//! Game-level rules the search and the referee commands share: judging a
//! repetition cycle. (Perpetual check is judged here now; the perpetual
//! chase judgement plugs into [`judge_cycle`].)

/// One position of the game or of the search path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PathEntry {
    pub key: u64,
    /// The side to move in this position is in check.
    pub checked: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CycleVerdict {
    Draw,
    /// The side to move at the repeated position wins (the other side
    /// repeated a forbidden pattern).
    SideToMoveWins,
    SideToMoveLoses,
}

/// Judges a repetition cycle. `cycle` runs from the earlier occurrence of a
/// position to its repetition (both included), so it has an odd length and
/// its first and last entries have the same side to move.
pub fn judge_cycle(cycle: &[PathEntry]) -> CycleVerdict {
    debug_assert!(cycle.len() >= 3 && cycle.len() % 2 == 1);
    // The move from entry k to k+1 gave check when entry k+1 is in check.
    // The side to move at the end ("us") made the moves into entries 1, 3, ..;
    // the other side made the moves into entries 2, 4, .., last.
    let we_check_always = cycle.iter().skip(1).step_by(2).all(|e| e.checked);
    let they_check_always = cycle.iter().skip(2).step_by(2).all(|e| e.checked);
    match (we_check_always, they_check_always) {
        (false, true) => CycleVerdict::SideToMoveWins,
        (true, false) => CycleVerdict::SideToMoveLoses,
        _ => CycleVerdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(checked: bool) -> PathEntry {
        PathEntry { key: 0, checked }
    }

    #[test]
    fn perpetual_check_loses() {
        // They check on every move, we only evade: we win.
        let cycle = [e(true), e(false), e(true), e(false), e(true)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::SideToMoveWins);
        let cycle = [e(false), e(true), e(false), e(true), e(false)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::SideToMoveLoses);
        let cycle = [e(false), e(false), e(false), e(false), e(false)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::Draw);
        let cycle = [e(true), e(true), e(true), e(true), e(true)];
        assert_eq!(judge_cycle(&cycle), CycleVerdict::Draw, "both check perpetually");
    }
}
