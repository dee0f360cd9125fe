//! The search: iterative deepening with aspiration windows over a principal
//! variation search, quiescence search, a shared transposition table and
//! Lazy SMP threads. It never prints: results go to a [`Listener`].
//!
//! The calling thread is the main search thread: it alone watches the clock
//! and reports. Helper threads search the same root, sharing the TT.

mod history;
pub mod params;
mod picker;
pub mod root;
pub mod time;
pub mod tt;
mod worker;

use crate::nnue::Network;
use crate::position::Position;
use crate::rules::PathEntry;
use crate::types::Move;
use crate::types::score::mated_in;
use history::ThreadTables;
use params::*;
pub use root::RootFilter;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
pub use time::Clock;
use time::TimeBudget;
pub use tt::{Bound, TranspositionTable};
use worker::Worker;

/// The game since the last capture: the position then, and the moves played
/// since. The search judges repetitions against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHistory {
    pub base: Position,
    pub moves: Vec<Move>,
}

impl GameHistory {
    pub fn new(base: Position) -> GameHistory {
        GameHistory { base, moves: Vec::new() }
    }

    /// Records `m`, played in `before` (a capture starts a new history).
    pub fn record(&mut self, before: &Position, m: Move) {
        if before.is_capture(m) {
            let mut after = *before;
            after.make_move(m);
            self.base = after;
            self.moves.clear();
        } else {
            self.moves.push(m);
        }
    }

    /// The positions of the history as path entries (base first) and the
    /// position at the end.
    pub fn replay(&self) -> (Vec<PathEntry>, Position) {
        let mut pos = self.base;
        let mut entries = vec![PathEntry { key: pos.key(), checked: pos.in_check() }];
        for &m in &self.moves {
            pos.make_move(m);
            entries.push(PathEntry { key: pos.key(), checked: pos.in_check() });
        }
        (entries, pos)
    }
}

/// What the search keeps between searches: the transposition table, and
/// each thread's histories (kept for the whole game, cleared by a new game).
pub struct Searcher {
    pub tt: TranspositionTable,
    /// Thread `i`'s tables at index `i`, while no search runs.
    tables: Mutex<Vec<ThreadTables>>,
    /// The late-move reductions of the last search's LMR parameters (base,
    /// divisor), made again only when they change.
    lmr: Mutex<Option<CachedLmr>>,
}

/// A late-move reduction table and the (base, divisor) it was made of.
struct CachedLmr {
    key: (i32, i32),
    table: Arc<LmrTable>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { tt: TranspositionTable::new(hash_mb), tables: Mutex::new(Vec::new()), lmr: Mutex::new(None) }
    }

    /// The late-move reductions for `params`.
    fn lmr_table(&self, params: &SearchParams) -> Arc<LmrTable> {
        let key = (params.lmr_base, params.lmr_divisor);
        let mut cached = self.lmr.lock().unwrap_or_else(|e| e.into_inner());
        match &*cached {
            Some(c) if c.key == key => c.table.clone(),
            _ => {
                let table: Arc<LmrTable> = Arc::from(lmr_table(params));
                *cached = Some(CachedLmr { key, table: table.clone() });
                table
            }
        }
    }

    /// Forgets what the threads learnt (a new game), keeping the tables'
    /// memory.
    pub fn clear_histories(&self) {
        self.lock_tables().iter_mut().for_each(ThreadTables::clear);
    }

    /// Keeps the tables of the first `threads` threads only.
    pub fn resize(&self, threads: usize) {
        self.lock_tables().truncate(threads);
    }

    fn lock_tables(&self) -> std::sync::MutexGuard<'_, Vec<ThreadTables>> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The tables for `threads` threads, new ones where none are kept.
    fn take_tables(&self, threads: usize) -> Vec<ThreadTables> {
        let mut kept = std::mem::take(&mut *self.lock_tables());
        kept.resize_with(threads.max(kept.len()), ThreadTables::default);
        kept
    }

    /// Gives back thread `i`'s tables as `(i, tables)`, in any order.
    /// (A thread that lost its tables, a helper that panicked, starts
    /// afresh next time.)
    fn return_tables(&self, tables: Vec<(usize, ThreadTables)>) {
        // Placed by id without making a new set for a slot that is filled
        // at once: a set is megabytes to zero, more than a short search.
        let mut slots: Vec<Option<ThreadTables>> = Vec::new();
        for (id, t) in tables {
            if slots.len() <= id {
                slots.resize_with(id + 1, || None);
            }
            slots[id] = Some(t);
        }
        let mut kept = self.lock_tables();
        kept.clear();
        kept.extend(slots.into_iter().map(Option::unwrap_or_default));
    }
}

/// What to search for and how long (the `go` command, parsed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<i64>,
    /// Stop when a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Only these root moves (UCI `searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
    /// Root moves that must not be played (UCCI `banmoves`).
    pub banmoves: Vec<Move>,
    /// When the GUI's clock started for this move (the `go` arrived); `None`:
    /// when the search starts.
    pub clock_start: Option<Instant>,
}

/// Settings that come from engine options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: i64,
    /// The network that evaluates; `None`: the hand-crafted evaluation.
    pub nnue: Option<Arc<Network>>,
    /// The tunable search constants (hidden options, `chariot search-params`).
    pub params: SearchParams,
}

impl Default for Config {
    fn default() -> Config {
        Config { threads: 1, multipv: 1, move_overhead_ms: 30, nnue: None, params: SearchParams::default() }
    }
}

/// One principal variation line of an iteration.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: i32,
    /// `Some(Lower)` for a fail-high, `Some(Upper)` for a fail-low.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// Receives the search's output.
pub trait Listener: Sync {
    fn iteration(&self, info: &Iteration);
    fn current_move(&self, depth: i32, mv: Move, number: usize);
    /// The final answer; `best` is `None` only when there is no legal move.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>, score: i32);
    /// A note for the user (the protocol shows it as `info string`).
    fn message(&self, _text: &str) {}
    /// Whether `iteration` and `current_move` want to hear at all: a
    /// report costs a PV copy, a hash-table sample and a clock read, which
    /// datagen's many short silent searches would pay at every depth.
    fn wants_reports(&self) -> bool {
        true
    }
}

/// A listener that ignores everything (bench, tests).
pub struct Silent;

impl Listener for Silent {
    fn iteration(&self, _: &Iteration) {}
    fn current_move(&self, _: i32, _: Move, _: usize) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>, _: i32) {}
    fn wants_reports(&self) -> bool {
        false
    }
}

/// Flags the engine uses to steer a running search from another thread.
#[derive(Default)]
pub struct Signals {
    pub stop: AtomicBool,
    /// Set while pondering; cleared by `ponderhit`.
    pub pondering: AtomicBool,
    /// Nanoseconds from the search start to the ponderhit (the clock starts
    /// then).
    ponderhit_nanos: AtomicU64,
}

impl Signals {
    pub fn ponderhit(&self, search_start: Instant) {
        self.ponderhit_nanos.store(search_start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }
}

/// The final result.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
}

/// Everything the threads of one search share.
struct Context<'a> {
    tt: &'a TranspositionTable,
    /// The helpers' tables when they end: (thread id, tables).
    returned_tables: Mutex<Vec<(usize, ThreadTables)>>,
    signals: &'a Signals,
    listener: &'a dyn Listener,
    start: Instant,
    budget: Option<TimeBudget>,
    node_limit: Option<u64>,
    depth_limit: i32,
    mate_limit: Option<u32>,
    infinite: bool,
    multipv: usize,
    threads: usize,
    /// The network that evaluates, if any (else the hand-crafted evaluation).
    nnue: Option<&'a Network>,
    params: SearchParams,
    lmr: &'a LmrTable,
    /// Nodes of all threads, flushed every few thousand nodes.
    nodes: AtomicU64,
    /// Results of the helper threads: (move, score, completed depth).
    votes: Mutex<Vec<(Move, i32, i32)>>,
    /// Helper threads that have voted (or had nothing to vote).
    helpers_done: AtomicUsize,
    /// The search's own end (its time, node or depth limit, or the main
    /// thread done), for every thread. Kept apart from `signals.stop`, the
    /// caller's: those signals stay unraised and can serve the next search.
    finished: AtomicBool,
}

impl Context<'_> {
    /// Time since the clock started (the search start, or the ponderhit).
    fn elapsed(&self) -> Duration {
        let offset = Duration::from_nanos(self.signals.ponderhit_nanos.load(Ordering::Relaxed));
        self.start.elapsed().saturating_sub(offset)
    }

    fn stopped(&self) -> bool {
        self.finished.load(Ordering::Relaxed) || self.signals.stop.load(Ordering::Relaxed)
    }

    /// Ends the search on every thread.
    fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    fn pondering(&self) -> bool {
        self.signals.pondering.load(Ordering::Acquire)
    }
}

/// One search: the game, what to search for, the settings, what the search
/// keeps between searches, the caller's signals and where results go.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub game: &'a GameHistory,
    pub limits: &'a Limits,
    pub config: &'a Config,
    pub searcher: &'a Searcher,
    pub signals: &'a Signals,
    pub listener: &'a dyn Listener,
}

/// Searches the position at the end of `request.game` and reports to its
/// listener; ends with exactly one `best_move` call.
pub fn search(request: Request) -> Outcome {
    let Request { game, limits, config, searcher, signals, listener } = request;
    let tt = &searcher.tt;
    let start = limits.clock_start.unwrap_or_else(Instant::now);
    let (_, root_position) = game.replay();
    let root = &root_position;
    tt.new_search();
    let budget = if let Some(mt) = limits.movetime_ms {
        Some(time::budget_for_movetime(mt, config.move_overhead_ms))
    } else if limits.infinite {
        None
    } else {
        limits.clock.map(|c| time::budget_for_clock(c, config.move_overhead_ms, &config.params))
    };
    let lmr = searcher.lmr_table(&config.params);
    let ctx = Context {
        tt,
        returned_tables: Mutex::new(Vec::new()),
        signals,
        listener,
        start,
        budget,
        node_limit: limits.nodes,
        depth_limit: limits.depth.unwrap_or(MAX_PLY as i32 - 1).clamp(1, MAX_PLY as i32 - 1),
        mate_limit: limits.mate,
        infinite: limits.infinite,
        multipv: config.multipv.max(1),
        threads: config.threads.max(1),
        nnue: config.nnue.as_deref(),
        params: config.params,
        lmr: &lmr,
        nodes: AtomicU64::new(0),
        votes: Mutex::new(Vec::new()),
        helpers_done: AtomicUsize::new(0),
        finished: AtomicBool::new(false),
    };

    let root_moves = RootFilter::new(limits).root_moves(root);

    let mut outcome = Outcome { best: None, ponder: None, score: mated_in(0), depth: 0, nodes: 0 };
    if root_moves.is_empty() {
        wait_while_told_to(&ctx);
        listener.best_move(None, None, mated_in(0));
        return outcome;
    }

    let mut tables = searcher.take_tables(ctx.threads).into_iter();
    let main_tables = tables.next().unwrap_or_default();
    let helper_tables: Vec<ThreadTables> = tables.collect();
    let mut main = Worker::new(&ctx, 0, game, &root_moves, main_tables);
    std::thread::scope(|scope| {
        let helpers = spawn_helpers(scope, &ctx, game, &root_moves, helper_tables);
        main.iterate();
        wait_while_told_to(&ctx);
        ctx.finish();
        // The helpers' votes count, but the GUI's clock does not wait for a
        // helper the scheduler has not run yet: answer, then let the scope
        // join the helpers.
        let grace = Instant::now();
        while ctx.helpers_done.load(Ordering::Acquire) < helpers && grace.elapsed() < HELPER_VOTE_GRACE {
            std::thread::yield_now();
        }
        let (best, ponder, score, depth) = main.best_with_votes();
        outcome.best = Some(best);
        outcome.ponder = ponder.or_else(|| ponder_from_tt(root, best, tt));
        outcome.score = score;
        outcome.depth = depth;
        outcome.nodes = ctx.nodes.load(Ordering::Relaxed);
        listener.best_move(outcome.best, outcome.ponder, score);
    });
    // The scope has joined the helpers: every table is back.
    let main_tables = main.into_tables();
    let mut returned = ctx.returned_tables.into_inner().unwrap_or_else(|e| e.into_inner());
    returned.push((0, main_tables));
    searcher.return_tables(returned);
    outcome
}

/// Starts the Lazy SMP helpers (`Threads` - 1, at most one per core beyond
/// the main thread) and returns how many run. A thread the system refuses
/// (process or memory limit) ends the spawning: the search goes on with the
/// threads it has, and the listener is told.
fn spawn_helpers<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    ctx: &'env Context<'env>,
    game: &'env GameHistory,
    root_moves: &'env [Move],
    tables: Vec<ThreadTables>,
) -> usize {
    if ctx.threads <= 1 {
        return 0;
    }
    let cores = std::thread::available_parallelism().map_or(usize::MAX, |n| n.get());
    let wanted = ctx.threads.min(cores.max(1));
    if wanted < ctx.threads {
        // More threads than cores only share the cores, and the main thread
        // (which keeps the clock) gets a slice of one: its deadline and the
        // answer to `stop` would wait for the scheduler.
        ctx.listener.message(&format!(
            "Threads {} is more than the {cores} cores this process may use; searching with {wanted}",
            ctx.threads
        ));
    }
    let mut helpers = 0;
    let mut tables = tables.into_iter();
    for id in 1..wanted {
        let own_tables = tables.next().unwrap_or_default();
        let spawned = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(HELPER_STACK_BYTES)
            .spawn_scoped(scope, move || {
                // The answer may be out before the scope joins this thread:
                // a panic here must not reach the join (which would answer
                // a second time); the helper just does not vote.
                let run = || {
                    let mut helper = Worker::new(ctx, id, game, root_moves, own_tables);
                    helper.iterate();
                    let vote = helper.vote();
                    ctx.returned_tables.lock().unwrap_or_else(|e| e.into_inner()).push((id, helper.into_tables()));
                    vote
                };
                if let Ok(Some(vote)) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
                    ctx.votes.lock().unwrap_or_else(|e| e.into_inner()).push(vote);
                }
                ctx.helpers_done.fetch_add(1, Ordering::Release);
            });
        match spawned {
            Ok(_) => helpers += 1,
            Err(e) => {
                log::warn!("search thread {} not started: {e}", id + 1);
                ctx.listener.message(&format!(
                    "could not start search thread {} ({e}); searching with {} thread(s)",
                    id + 1,
                    helpers + 1
                ));
                break;
            }
        }
    }
    helpers
}

/// In infinite and ponder mode the answer waits for `stop` (or `ponderhit`).
fn wait_while_told_to(ctx: &Context) {
    while (ctx.infinite || ctx.pondering()) && !ctx.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A ponder move from the TT when the PV is one move long.
fn ponder_from_tt(root: &Position, best: Move, tt: &TranspositionTable) -> Option<Move> {
    let mut child = *root;
    child.make_move(best);
    let m = tt.probe(child.key())?.mv?;
    child.check_move(m).ok().map(|_| m)
}
