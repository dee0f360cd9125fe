//! Search constants, named in one place.

pub const MAX_PLY: usize = 128;
// Every mate the search can find must read as one (`types::score`).
const _: () = assert!(2 * MAX_PLY as i32 <= crate::types::score::MAX_MATE_PLIES);

pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 30;

pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: i32 = 100;

pub const NULL_MIN_DEPTH: i32 = 3;
pub const NULL_BASE_REDUCTION: i32 = 3;
pub const NULL_DEPTH_DIVISOR: i32 = 4;

pub const FUTILITY_MAX_DEPTH: i32 = 6;
pub const FUTILITY_BASE: i32 = 120;
pub const FUTILITY_PER_DEPTH: i32 = 110;

pub const LMP_MAX_DEPTH: i32 = 6;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_CAPTURE_MARGIN: i32 = -100;

/// Quiet moves' reductions shrink by a ply per this much history score.
pub const LMR_HISTORY_DIVISOR: i32 = 12_000;

/// Quiet moves are pruned up to this depth when their history score is
/// below minus this margin per ply.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
pub const HISTORY_PRUNE_MARGIN: i32 = 4_000;

/// The history bonus of a cutoff: this much per ply of depth, less the
/// offset, at most the maximum.
pub const HISTORY_BONUS_PER_DEPTH: i32 = 150;
pub const HISTORY_BONUS_OFFSET: i32 = 100;
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// How often (in nodes) a thread adds its nodes to the shared count and the
/// main thread looks at the clock: about every millisecond on one thread, so
/// the hard deadline is kept to within a millisecond or two.
pub const TIME_CHECK_INTERVAL: u64 = 256;

/// A timed search stops once its depth is this much beyond twice the
/// distance (in plies) of a mate it found.
pub const MATE_STOP_EXTRA_DEPTH: i32 = 4;

/// Lazy SMP: odd-numbered helper threads reduce late quiet moves this many
/// plies more than the main thread. They run ahead of it on a leaner tree
/// and fill the shared table with the deeper entries it then cuts off on;
/// helpers that search exactly like the main thread mostly repeat its work.
pub const HELPER_EXTRA_REDUCTION: i32 = 2;

/// Stack of a Lazy SMP helper thread.
pub const HELPER_STACK_BYTES: usize = 8 * 1024 * 1024;
/// After the main thread stops, how long it waits for the helpers' votes
/// before it answers (a helper the scheduler has not run yet loses its vote).
pub const HELPER_VOTE_GRACE: std::time::Duration = std::time::Duration::from_millis(5);
