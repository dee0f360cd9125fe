//! Search constants, named in one place.

pub const MAX_PLY: usize = 128;
// Every mate the search can find must read as one (`types::score`).
const _: () = assert!(2 * MAX_PLY as i32 <= crate::types::score::MAX_MATE_PLIES);

/// Declares the tunable search parameters once: the [`SearchParams`]
/// fields, their defaults and the [`PARAMS`] table (name, default, range,
/// SPSA step) that `setoption`, `chariot search-params` and the SPSA driver
/// read. A new parameter is one line here.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident $name:literal = $default:literal, $min:literal..=$max:literal, step $step:literal;)*) => {
        /// The search constants worth tuning, read by the search from its
        /// [`Config`](super::Config), so engines and threads in one process
        /// may differ. Depths are plies, margins centipawns.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every tunable parameter, in declaration order.
        pub const PARAMS: &[ParamSpec] = &[
            $(ParamSpec { name: $name, default: $default, min: $min, max: $max, step: $step },)*
        ];

        impl SearchParams {
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                $(if name.eq_ignore_ascii_case($name) {
                    return Some(&mut self.$field);
                })*
                None
            }

            /// The value of the parameter called `name` (any case).
            pub fn get(&self, name: &str) -> Option<i32> {
                $(if name.eq_ignore_ascii_case($name) {
                    return Some(self.$field);
                })*
                None
            }
        }
    };
}

/// One tunable parameter: its `setoption` name, today's value, the range
/// it may take and the SPSA perturbation for it (`c` of the first step).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: f64,
}

/// The parameter called `name` (any case).
pub fn find_param(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

impl SearchParams {
    /// Sets the parameter called `name`; an unknown name or a value out of
    /// its range changes nothing and says why.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let spec = find_param(name).ok_or_else(|| format!("unknown search parameter '{name}'"))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(format!(
                "search parameter '{}' value {value} is outside {}..{}",
                spec.name, spec.min, spec.max
            ));
        }
        *self.slot(spec.name).expect("every table entry has a field") = value;
        Ok(())
    }
}

/// Late-move reductions by depth and move number.
pub type LmrTable = [[i32; 64]; MAX_PLY + 1];

/// The reductions of `params`' LMR base and divisor. A few thousand
/// logarithms: the searcher keeps the table between searches (a datagen
/// search of a few thousand nodes would spend more on them than on its
/// nodes).
pub fn lmr_table(params: &SearchParams) -> Box<LmrTable> {
    let base = f64::from(params.lmr_base) / 100.0;
    let divisor = f64::from(params.lmr_divisor) / 100.0;
    let mut lmr = Box::new([[0i32; 64]; MAX_PLY + 1]);
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

search_params! {
    /// Aspiration windows from this depth, this wide at first.
    aspiration_min_depth "AspirationMinDepth" = 4, 1..=10, step 1.0;
    aspiration_delta "AspirationDelta" = 30, 5..=200, step 5.0;
    /// Reverse futility pruning: up to this depth, this margin a ply.
    rfp_max_depth "RfpMaxDepth" = 7, 1..=14, step 1.0;
    rfp_margin "RfpMargin" = 100, 20..=300, step 10.0;
    /// Null move from this depth; its reduction is the base, a ply per
    /// divisor of depth, and a ply per eval divisor of the static eval
    /// above beta (at most the eval maximum).
    null_min_depth "NullMinDepth" = 3, 1..=8, step 1.0;
    null_base_reduction "NullBaseReduction" = 3, 1..=6, step 0.5;
    null_depth_divisor "NullDepthDivisor" = 4, 1..=12, step 0.5;
    null_eval_divisor "NullEvalDivisor" = 200, 50..=800, step 20.0;
    null_eval_max_reduction "NullEvalMaxReduction" = 3, 0..=6, step 0.5;
    /// Futility pruning of quiet moves: up to this depth, static eval plus
    /// base plus this per ply at most alpha.
    futility_max_depth "FutilityMaxDepth" = 6, 1..=14, step 1.0;
    futility_base "FutilityBase" = 120, 0..=400, step 10.0;
    futility_per_depth "FutilityPerDepth" = 110, 20..=300, step 10.0;
    /// Move count pruning up to this depth: `(base + depth²)` quiets,
    /// halved when not improving.
    lmp_max_depth "LmpMaxDepth" = 6, 1..=14, step 1.0;
    lmp_base "LmpBase" = 3, 0..=16, step 1.0;
    /// Late move reductions from this depth: `base + ln d · ln m / divisor`
    /// (base and divisor in hundredths).
    lmr_min_depth "LmrMinDepth" = 3, 2..=6, step 1.0;
    lmr_base "LmrBase" = 75, 0..=200, step 8.0;
    lmr_divisor "LmrDivisor" = 225, 100..=500, step 15.0;
    /// Quiet moves' reductions shrink by a ply per this much history score.
    lmr_history_divisor "LmrHistoryDivisor" = 12_000, 2_000..=40_000, step 1_000.0;
    /// Quiet moves are pruned up to this depth when their history score is
    /// below minus this margin per ply.
    history_prune_max_depth "HistoryPruneMaxDepth" = 4, 0..=10, step 1.0;
    history_prune_margin "HistoryPruneMargin" = 4_000, 500..=16_000, step 300.0;
    /// The history bonus of a cutoff: this much per ply of depth, less the
    /// offset, at most the maximum (and the malus of the moves before it).
    history_bonus_per_depth "HistoryBonusPerDepth" = 150, 20..=600, step 15.0;
    history_bonus_offset "HistoryBonusOffset" = 100, 0..=600, step 15.0;
    history_bonus_max "HistoryBonusMax" = 1_600, 200..=8_000, step 100.0;
    /// Quiets that lose more than this per ply by SEE are pruned up to
    /// the depth; captures likewise with theirs.
    see_quiet_margin "SeeQuietMargin" = -60, -300..=0, step 6.0;
    see_quiet_max_depth "SeeQuietMaxDepth" = 8, 1..=14, step 1.0;
    see_capture_margin "SeeCaptureMargin" = -100, -400..=0, step 10.0;
    see_capture_max_depth "SeeCaptureMaxDepth" = 6, 1..=14, step 1.0;
    /// Quiescence delta pruning: a capture whose victim cannot lift the
    /// stand-pat within this of alpha is skipped.
    qsearch_delta_margin "QsearchDeltaMargin" = 200, 0..=800, step 20.0;
    /// The evaluation's correction learns `(score - eval) · depth /` this.
    correction_depth_divisor "CorrectionDepthDivisor" = 8, 1..=32, step 1.0;
    /// Move ordering: captures by victim value (MVV-LVA) times this plus
    /// capture history ...
    capture_victim_weight "CaptureVictimWeight" = 16, 1..=64, step 2.0;
    /// ... quiet moves by the main history and the continuation histories
    /// of the moves one, two and four plies back, so weighted (in
    /// sixteenths: 32 is 2, 16 is 1; the scale does not matter).
    quiet_main_weight "QuietMainWeight" = 32, 0..=96, step 3.0;
    quiet_cont1_weight "QuietCont1Weight" = 32, 0..=96, step 3.0;
    quiet_cont2_weight "QuietCont2Weight" = 16, 0..=96, step 3.0;
    quiet_cont4_weight "QuietCont4Weight" = 16, 0..=96, step 3.0;
    /// Lazy SMP: odd-numbered helper threads reduce late quiet moves this
    /// many plies more than the main thread. They run ahead of it on a
    /// leaner tree and fill the shared table with the deeper entries it
    /// then cuts off on; helpers that search exactly like the main thread
    /// mostly repeat its work.
    helper_extra_reduction "HelperExtraReduction" = 2, 0..=4, step 1.0;
    /// Time: moves assumed left in a sudden-death game.
    default_moves_to_go "DefaultMovesToGo" = 32, 8..=80, step 2.0;
    /// Time: share of the net increment planned for a move (the search
    /// often runs past the optimum to finish an iteration).
    inc_share_percent "IncSharePercent" = 75, 0..=100, step 5.0;
    /// Time: the hard deadline is at most this many times the optimum ...
    max_over_optimum "MaxOverOptimum" = 5, 1..=10, step 0.5;
    /// ... and at most this share of the clock after the lag.
    max_share_percent "MaxSharePercent" = 40, 5..=90, step 3.0;
    /// Time: the last move before the next time control may use this share.
    last_move_share_percent "LastMoveSharePercent" = 80, 20..=95, step 3.0;
}

/// How often (in nodes) a thread adds its nodes to the shared count and the
/// main thread looks at the clock: about every millisecond on one thread, so
/// the hard deadline is kept to within a millisecond or two.
pub const TIME_CHECK_INTERVAL: u64 = 256;

/// A timed search stops once its depth is this much beyond twice the
/// distance (in plies) of a mate it found.
pub const MATE_STOP_EXTRA_DEPTH: i32 = 4;

/// Stack of a Lazy SMP helper thread.
pub const HELPER_STACK_BYTES: usize = 8 * 1024 * 1024;
/// After the main thread stops, how long it waits for the helpers' votes
/// before it answers (a helper the scheduler has not run yet loses its vote).
pub const HELPER_VOTE_GRACE: std::time::Duration = std::time::Duration::from_millis(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sound() {
        let defaults = SearchParams::default();
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}: {} not in {}..{}", p.name, p.default, p.min, p.max);
            assert!(p.step > 0.0 && p.step <= f64::from(p.max - p.min), "{}: step {}", p.name, p.step);
            assert_eq!(defaults.get(p.name), Some(p.default), "{}", p.name);
            assert!(PARAMS[..i].iter().all(|q| !q.name.eq_ignore_ascii_case(p.name)), "{} twice", p.name);
        }
        // Divisors cannot reach zero.
        for name in ["NullDepthDivisor", "NullEvalDivisor", "LmrDivisor", "LmrHistoryDivisor", "CorrectionDepthDivisor"]
        {
            assert!(find_param(name).unwrap().min > 0, "{name}");
        }
    }

    #[test]
    fn set_checks_the_range_and_changes_nothing_else() {
        let mut p = SearchParams::default();
        p.set("rfpmargin", 140).unwrap();
        assert_eq!(p.rfp_margin, 140);
        assert_eq!(SearchParams { rfp_margin: 100, ..p }, SearchParams::default());
        let e = p.set("RfpMargin", 10_000).unwrap_err();
        assert!(e.contains("outside 20..300"), "{e}");
        assert!(p.set("NoSuchParam", 1).is_err());
        assert_eq!(p.rfp_margin, 140);
    }

    /// The LMR table of the defaults is the one the constants 0.75 and 2.25
    /// gave.
    #[test]
    fn the_default_lmr_table_is_unchanged() {
        let t = lmr_table(&SearchParams::default());
        for (d, m) in [(1, 1), (3, 4), (8, 20), (20, 63), (128, 63)] {
            let want = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            assert_eq!(t[d][m], want, "{d} {m}");
        }
        assert_eq!(t[0][5], 0);
    }
}
