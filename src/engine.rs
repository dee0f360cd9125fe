//! The engine's API: the game position and its history, the options, the
//! transposition table and a search running in the background. It never
//! prints; the protocol layer formats what the search reports.

use crate::book::{self, Book, Entry};
use crate::nnue::Network;
use crate::position::{FenError, Position};
use crate::rng::Rng;
use crate::search::{self, Config, GameHistory, Limits, Listener, Outcome, Request, RootFilter, Searcher, Signals};
use crate::spawn::spawn_or_return;
use crate::strength::{self, GameMemory, PlayContext};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65536;
pub const MAX_THREADS: usize = 1024;
pub const MAX_MULTIPV: usize = 128;

struct Running {
    task: Task,
    signals: Arc<Signals>,
    start: Instant,
}

/// A search in the background, or one that had to run in the foreground
/// (no thread could be had) and is over.
enum Task {
    Thread(JoinHandle<Outcome>),
    Done(Outcome),
}

impl Task {
    fn join(self) -> Option<Outcome> {
        match self {
            Task::Thread(handle) => handle.join().ok(),
            Task::Done(outcome) => Some(outcome),
        }
    }
}

/// Everything a `go` needs, owned, so the search can run on its own thread.
struct SearchJob {
    game: GameHistory,
    position: Position,
    limits: Limits,
    config: Config,
    searcher: Arc<Searcher>,
    signals: Arc<Signals>,
    listener: Arc<dyn Listener + Send + Sync>,
    settings: strength::Settings,
    memory: Arc<Mutex<GameMemory>>,
}

/// A search on the command thread cannot hear `stop`: it gets at most this
/// long when the `go` set no time of its own (infinite, ponder, depth,
/// nodes).
const FOREGROUND_MOVETIME_MS: i64 = 1000;

impl SearchJob {
    fn run(self) -> Outcome {
        let SearchJob { game, position, limits, config, searcher, signals, listener, settings, memory } = self;
        let cx = PlayContext { settings: &settings, memory: &memory };
        let request = Request {
            game: &game,
            limits: &limits,
            config: &config,
            searcher: &searcher,
            signals: &signals,
            listener: &*listener,
        };
        let run = || think(request, &cx);
        // A bug in the search must not leave the GUI waiting for a move:
        // answer with any legal one (the panic itself is reported on stderr
        // by the panic hook).
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
            let best = RootFilter::new(&limits).fallback(&game);
            listener.best_move(best, None, 0);
            Outcome { best, ponder: None, score: 0, depth: 0, nodes: 0 }
        });
        // A ponder search ended by `stop` was a guess the GUI threw away.
        if !signals.pondering.load(Ordering::Acquire)
            && let Some(best) = outcome.best
        {
            memory.lock().unwrap_or_else(|e| e.into_inner()).record_answer(&position, best, outcome.score);
        }
        outcome
    }

    /// Runs the search on the calling thread, which cannot read `stop`
    /// meanwhile: pondering is treated as a hit and a search without a time
    /// limit gets a short one. The threads the search may start itself are
    /// tried (and reported) as usual.
    fn run_here(mut self, error: &std::io::Error) -> Outcome {
        let limits = &mut self.limits;
        let timed = limits.clock.is_some() || limits.movetime_ms.is_some();
        if limits.infinite || !timed {
            limits.movetime_ms =
                Some(limits.movetime_ms.map_or(FOREGROUND_MOVETIME_MS, |t| t.min(FOREGROUND_MOVETIME_MS)));
        }
        limits.infinite = false;
        limits.ponder = false;
        self.signals.pondering.store(false, Ordering::Relaxed);
        self.listener.message(&format!(
            "could not start the search thread ({error}); searching on the command thread, which cannot hear stop"
        ));
        self.run()
    }
}

pub struct Engine {
    /// The hash table and the threads' histories.
    searcher: Arc<Searcher>,
    config: Config,
    /// The game since the last capture (or since the FEN), for repetitions.
    game: GameHistory,
    position: Position,
    banmoves: Vec<Move>,
    running: Option<Running>,
    book: BookState,
    /// Levels, friendly mode, randomness and style.
    strength: strength::Settings,
    /// The game as followed across `position` commands (our scores for the
    /// resign rule, the opponent's moves for the friendly mode).
    memory: Arc<Mutex<GameMemory>>,
    /// Why the last `position` was refused: until the next valid one there
    /// is no position to search (the old board must not be played on).
    refused: Option<String>,
    /// The network from `EvalFile`; `None`: the built-in one.
    network: Option<Arc<Network>>,
    /// Whether the network evaluates (`Use NNUE`), else the hand-crafted
    /// evaluation.
    use_nnue: bool,
}

/// The opening book settings (options `OwnBook`/`usebook`, `BookFile`/
/// `bookfiles`, `Best Book Move`) and the generator for its choices.
struct BookState {
    enabled: bool,
    best_only: bool,
    /// Loaded book files, searched in order; empty = the built-in book.
    files: Vec<Arc<Book>>,
    rng: Rng,
}

/// The book move chosen for the current position.
#[derive(Clone, Debug, PartialEq)]
pub struct BookChoice {
    pub mv: Move,
    /// The heaviest legal book reply to it, if any.
    pub ponder: Option<Move>,
    pub entry: Entry,
    /// Sum of the weights of the playable book moves here.
    pub total_weight: u64,
    /// Found through the mirror image of the position.
    pub mirrored: bool,
}

/// The answer of a book probe: the move, if one may be played, and notes
/// about book entries that had to be ignored (illegal here).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookProbe {
    pub choice: Option<BookChoice>,
    pub notes: Vec<String>,
}

/// Whether a `go` with these limits may be answered from the book: only a
/// game move on a clock or a fixed move time. Analysis (`infinite`, a bare
/// `go`, `depth`, `nodes`, `mate`) and pondering always search.
pub fn book_allowed(limits: &Limits) -> bool {
    !limits.infinite
        && !limits.ponder
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.mate.is_none()
        && (limits.clock.is_some() || limits.movetime_ms.is_some())
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

/// A move in `position ... moves` that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    pub index: usize,
    pub text: String,
    pub reason: String,
}

impl std::fmt::Display for BadMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {} '{}' {}; kept the position before it", self.index + 1, self.text, self.reason)
    }
}

impl Engine {
    pub fn new() -> Engine {
        let position = Position::startpos();
        let mut engine = Engine {
            searcher: Arc::new(Searcher::new(DEFAULT_HASH_MB)),
            config: Config::default(),
            game: GameHistory::new(position),
            position,
            banmoves: Vec::new(),
            running: None,
            book: BookState { enabled: false, best_only: false, files: Vec::new(), rng: Rng::from_time() },
            strength: strength::Settings::default(),
            memory: Arc::new(Mutex::new(GameMemory::default())),
            refused: None,
            network: None,
            // The built-in network is the default evaluation (docs/training.md, "The network").
            use_nnue: true,
        };
        // The new table holds nothing to clear.
        engine.config.nnue = engine.chosen_network();
        engine
    }

    /// The current position. After a refused `position` this is the last
    /// valid one, which must not be searched: check [`Engine::refused_position`].
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Why the last `position` was refused, while there is no valid one.
    pub fn refused_position(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// Leaves the engine without a position (a `position` command it could
    /// not read), until the next valid one.
    pub fn refuse_position(&mut self, why: &str) {
        self.stop();
        self.refused = Some(why.to_string());
    }

    /// The game since the last capture.
    pub fn game(&self) -> &GameHistory {
        &self.game
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Sets the position from a FEN (or the start) and moves. On a bad move
    /// the moves before it stay played and the error says which one failed.
    /// A refused FEN leaves the engine without a position (see
    /// [`Engine::refused_position`]) until the next valid one.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<Option<BadMove>, FenError> {
        self.stop();
        let base = Position::from_fen_or_start(fen).inspect_err(|e| self.refused = Some(e.to_string()))?;
        self.refused = None;
        self.position = base;
        self.game = GameHistory::new(base);
        self.banmoves.clear();
        let mut played = Vec::with_capacity(moves.len());
        let mut bad = None;
        for (index, &text) in moves.iter().enumerate() {
            match self.position.parse_legal_move(text) {
                Ok(m) => {
                    self.play(m);
                    played.push(m);
                }
                Err(reason) => {
                    bad = Some(BadMove { index, text: text.to_string(), reason });
                    break;
                }
            }
        }
        self.memory().follow(&base, &played, &self.position);
        Ok(bad)
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, GameMemory> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Our scores in the game so far (one per answered `go`), oldest first.
    pub fn game_scores(&self) -> Vec<i32> {
        self.memory().scores().to_vec()
    }

    pub fn strength_mut(&mut self) -> &mut strength::Settings {
        &mut self.strength
    }

    fn play(&mut self, m: Move) {
        self.game.record(&self.position, m);
        self.position.make_move(m);
    }

    /// Moves the repetition rules forbid here (UCCI `banmoves`); cleared by
    /// the next `set_position`. Illegal or unparsable ones are returned.
    pub fn set_banmoves(&mut self, moves: &[&str]) -> Vec<String> {
        self.banmoves.clear();
        let mut rejected = Vec::new();
        for &text in moves {
            match Move::parse(text).filter(|&m| self.position.check_move(m).is_ok()) {
                Some(m) => self.banmoves.push(m),
                None => rejected.push(text.to_string()),
            }
        }
        rejected
    }

    pub fn banmoves(&self) -> &[Move] {
        &self.banmoves
    }

    /// `limits` with the engine's `banmoves` added: the root rule of every
    /// move chosen here (search, book, fallback).
    fn with_banmoves(&self, limits: &Limits) -> Limits {
        let mut limits = limits.clone();
        for &m in &self.banmoves {
            if !limits.banmoves.contains(&m) {
                limits.banmoves.push(m);
            }
        }
        limits
    }

    /// Starts a search in the background. Exactly one `best_move` reaches
    /// the listener for every call. If the system refuses the search thread
    /// (process or memory limit), a shorter search runs on the calling
    /// thread instead and has answered when this returns.
    pub fn go(&mut self, mut limits: Limits, listener: Arc<dyn Listener + Send + Sync>) {
        // The GUI's clock runs from now, not from when the search starts.
        let start = Instant::now();
        self.stop();
        limits = self.with_banmoves(&limits);
        limits.clock_start = Some(start);
        let signals = Arc::new(Signals::default());
        signals.pondering.store(limits.ponder, Ordering::Relaxed);
        let job = SearchJob {
            game: self.game.clone(),
            position: self.position,
            limits,
            config: self.config.clone(),
            searcher: Arc::clone(&self.searcher),
            signals: Arc::clone(&signals),
            listener,
            settings: self.strength.clone(),
            memory: Arc::clone(&self.memory),
        };
        let builder = std::thread::Builder::new().name("search-main".to_string()).stack_size(16 * 1024 * 1024);
        let task = match spawn_or_return(builder, job, SearchJob::run) {
            Ok(handle) => Task::Thread(handle),
            Err((job, e)) => {
                log::warn!("search thread not started: {e}");
                Task::Done(job.run_here(&e))
            }
        };
        self.running = Some(Running { task, signals, start });
    }

    /// Like `search_blocking`, but the move is chosen as `go` would choose
    /// it: through the strength model when a level, the friendly mode,
    /// randomness or a style is set (and the answer is remembered).
    pub fn play_blocking(&mut self, limits: &Limits, listener: &dyn Listener) -> Outcome {
        self.stop();
        let signals = Signals::default();
        let cx = PlayContext { settings: &self.strength, memory: &self.memory };
        let limits = self.with_banmoves(limits);
        let outcome = think(self.request(&limits, &signals, listener), &cx);
        if let Some(best) = outcome.best {
            self.memory().record_answer(&self.position, best, outcome.score);
        }
        outcome
    }

    /// Runs a search on the calling thread and returns its outcome.
    pub fn search_blocking(&mut self, limits: &Limits, listener: &dyn Listener) -> Outcome {
        self.search_blocking_with(limits, listener, &Signals::default())
    }

    /// [`Engine::search_blocking`] that another thread can end early
    /// through `signals.stop`.
    pub fn search_blocking_with(&mut self, limits: &Limits, listener: &dyn Listener, signals: &Signals) -> Outcome {
        self.stop();
        let limits = self.with_banmoves(limits);
        search::search(self.request(&limits, signals, listener))
    }

    /// A search of the current game with the engine's settings and tables.
    fn request<'a>(&'a self, limits: &'a Limits, signals: &'a Signals, listener: &'a dyn Listener) -> Request<'a> {
        Request { game: &self.game, limits, config: &self.config, searcher: &self.searcher, signals, listener }
    }

    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| matches!(&r.task, Task::Thread(h) if !h.is_finished()))
    }

    /// Ends a running search (its best move is reported) and waits for it.
    pub fn stop(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        running.signals.stop.store(true, Ordering::Relaxed);
        running.task.join()
    }

    /// Waits for a running search to end by itself.
    pub fn wait(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        running.task.join()
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) -> bool {
        match &self.running {
            Some(r) if r.signals.pondering.load(Ordering::Relaxed) => {
                r.signals.ponderhit(r.start);
                true
            }
            _ => false,
        }
    }

    /// Cheap: a GUI may send it before every move. The hash is kept (its
    /// entries are checked against the full key; `clear_hash` empties it);
    /// the search threads' histories are forgotten.
    pub fn new_game(&mut self) {
        self.stop();
        self.memory().reset();
        self.searcher.clear_histories();
    }

    pub fn clear_hash(&mut self) {
        self.stop();
        match Arc::get_mut(&mut self.searcher) {
            Some(searcher) => searcher.tt.clear(),
            None => self.searcher = Arc::new(Searcher::new(self.searcher.tt.size_mb())),
        }
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.stop();
        let mb = mb.clamp(1, MAX_HASH_MB);
        if self.searcher.tt.size_mb() != mb {
            // Drop the old table first so both never exist at once.
            self.searcher = Arc::new(Searcher::new(1));
            self.searcher = Arc::new(Searcher::new(mb));
        }
    }

    pub fn probe_tt(&self, key: u64) -> Option<crate::search::tt::TtData> {
        self.searcher.tt.probe(key)
    }

    pub fn hash_mb(&self) -> usize {
        self.searcher.tt.size_mb()
    }

    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.config.threads = n.clamp(1, MAX_THREADS);
        self.searcher.resize(self.config.threads);
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.config.multipv = n.clamp(1, MAX_MULTIPV);
    }

    pub fn set_move_overhead_ms(&mut self, ms: i64) {
        self.config.move_overhead_ms = ms.clamp(0, 60_000);
    }

    /// Sets a tunable search constant (`search::params`) for the searches
    /// to come; out of range or unknown, nothing changes and the error says
    /// why.
    pub fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.config.params.set(name, value)
    }

    // ------------------------------------------------------------- evaluation

    /// Chooses the network (`true`) or the hand-crafted evaluation.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.stop();
        self.use_nnue = on;
        self.apply_evaluation();
    }

    pub fn use_nnue(&self) -> bool {
        self.use_nnue
    }

    /// The network that evaluates (`None`: the hand-crafted evaluation).
    pub fn network_in_use(&self) -> Option<Arc<Network>> {
        self.config.nnue.clone()
    }

    /// Evaluates with `net`, or with the hand-crafted evaluation for `None`;
    /// either way `net` replaces a network loaded by `EvalFile`.
    pub fn set_network_in_use(&mut self, net: Option<Arc<Network>>) {
        self.stop();
        self.use_nnue = net.is_some();
        self.network = net;
        self.apply_evaluation();
    }

    /// Loads the network file `path`; an empty name or `<default>` selects
    /// the built-in network. On an error the current network stays. Ok: a
    /// summary of what is loaded.
    pub fn set_eval_file(&mut self, path: &str) -> Result<String, String> {
        self.stop();
        let path = path.trim();
        if path.is_empty() || BUILT_IN_NAMES.iter().any(|b| b.eq_ignore_ascii_case(path)) {
            self.network = None;
            self.apply_evaluation();
            return Ok("the built-in network".to_string());
        }
        let net = Network::load(std::path::Path::new(path)).map_err(|e| format!("{e}; keeping the current network"))?;
        self.network = Some(Arc::new(net));
        self.apply_evaluation();
        Ok(format!("network {path} loaded"))
    }

    /// Puts the chosen evaluation into the search settings. Evaluations
    /// in the hash table came from the other one: it is cleared when the
    /// evaluation changes.
    fn apply_evaluation(&mut self) {
        let nnue = self.chosen_network();
        if nnue != self.config.nnue {
            self.config.nnue = nnue;
            self.clear_hash();
        }
    }

    /// The network `Use NNUE` and `EvalFile` choose (`None`: the
    /// hand-crafted evaluation).
    fn chosen_network(&self) -> Option<Arc<Network>> {
        self.use_nnue.then(|| self.network.clone().unwrap_or_else(Network::embedded))
    }

    /// The static evaluation of the current position (side to move's
    /// view) by the evaluation in use.
    pub fn evaluate(&self) -> i32 {
        match &self.config.nnue {
            Some(net) => crate::eval::network_score(&self.position, net.evaluate_position(&self.position)),
            None => crate::eval::evaluate(&self.position),
        }
    }

    // ------------------------------------------------------------ opening book

    pub fn set_own_book(&mut self, on: bool) {
        self.book.enabled = on;
    }

    pub fn own_book(&self) -> bool {
        self.book.enabled
    }

    /// Always the heaviest book move instead of a weighted random choice.
    pub fn set_best_book_move(&mut self, on: bool) {
        self.book.best_only = on;
    }

    pub fn set_book_seed(&mut self, seed: u64) {
        self.book.rng = Rng::new(seed);
    }

    /// Loads the book files named in `spec` (separated by `;`), searched in
    /// that order; an empty spec selects the built-in book (`Ok(None)`). On
    /// any error the built-in book is used and the error returned. Ok: a
    /// summary of the files loaded.
    pub fn set_book_files(&mut self, spec: &str) -> Result<Option<String>, String> {
        self.book.files.clear();
        let names: Vec<&str> = spec.split(';').map(str::trim).filter(|n| !n.is_empty()).collect();
        if names.iter().all(|n| BUILT_IN_NAMES.iter().any(|b| b.eq_ignore_ascii_case(n))) {
            return Ok(None);
        }
        let mut loaded = Vec::new();
        for name in &names {
            let book = book::load_file(name).map_err(|e| format!("{e}; using the built-in book"))?;
            loaded.push(Arc::new(book));
        }
        let positions: usize = loaded.iter().map(|b| b.positions()).sum();
        self.book.files = loaded;
        Ok(Some(format!("{} book file(s), {positions} positions", names.len())))
    }

    /// A book move for the current position, or `None` with the reasons
    /// for ignoring book entries. Only a move the root rule allows without a
    /// search is chosen ([`RootFilter::unsearched_moves`]: legal, within the
    /// limits' `searchmoves`, not in their or the engine's `banmoves`, not
    /// completing a forbidden repetition).
    pub fn book_move(&mut self, limits: &Limits) -> BookProbe {
        let mut probe = BookProbe::default();
        let books: Vec<&Book> = if self.book.files.is_empty() {
            match Book::built_in() {
                Ok(b) => vec![b],
                Err(e) => {
                    probe.notes.push(format!("the built-in book is unusable: {e}"));
                    return probe;
                }
            }
        } else {
            self.book.files.iter().map(|b| &**b).collect()
        };
        let pos = self.position;
        let Some(found) = books.iter().map(|b| b.lookup(&pos)).find(|l| !l.entries.is_empty()) else {
            return probe;
        };
        let mut candidates = Vec::new();
        for e in &found.entries {
            match pos.check_move(e.mv) {
                Ok(()) => candidates.push(e.clone()),
                Err(why) => probe.notes.push(format!("book entry {} is illegal here ({why}); ignored", e.mv)),
            }
        }
        if !candidates.is_empty() {
            let limits = self.with_banmoves(limits);
            let playable = RootFilter::new(&limits).unsearched_moves(&self.game);
            candidates.retain(|e| playable.contains(&e.mv));
        }
        let Some(chosen) = book::choose(&candidates, self.book.best_only, &mut self.book.rng).cloned() else {
            return probe;
        };
        let mut child = pos;
        child.make_move(chosen.mv);
        let ponder = books
            .iter()
            .map(|b| b.lookup(&child))
            .find(|l| !l.entries.is_empty())
            .and_then(|l| l.entries.into_iter().find(|e| e.weight > 0 && child.check_move(e.mv).is_ok()))
            .map(|e| e.mv);
        let total_weight = candidates.iter().map(|e| u64::from(e.weight)).sum();
        probe.choice =
            Some(BookChoice { mv: chosen.mv, ponder, entry: chosen, total_weight, mirrored: found.mirrored });
        probe
    }

    /// Answers a `go` at once with `best` (a book move, or none when there
    /// is no position): the listener gets its `best_move` from a short-lived
    /// thread, so `stop` and `quit` behave as after a search that ended by
    /// itself. Without a thread to be had, it answers here.
    pub fn answer_now(&mut self, best: Option<Move>, ponder: Option<Move>, listener: Arc<dyn Listener + Send + Sync>) {
        self.stop();
        let answer = move |listener: Arc<dyn Listener + Send + Sync>| {
            listener.best_move(best, ponder, 0);
            Outcome { best, ponder, score: 0, depth: 0, nodes: 0 }
        };
        let task = match spawn_or_return(std::thread::Builder::new().name("answer".to_string()), listener, answer) {
            Ok(handle) => Task::Thread(handle),
            // Without a thread, answer from this one.
            Err((listener, _)) => Task::Done(answer(listener)),
        };
        self.running = Some(Running { task, signals: Arc::new(Signals::default()), start: Instant::now() });
    }
}

/// `BookFile` values that mean the built-in book (GUIs send `<empty>` for
/// an empty string).
const BUILT_IN_NAMES: &[&str] = &["<empty>", "<built-in>", "built-in", "builtin", "default", "<default>"];

/// The move for a `go`: through the strength model when a level, the
/// friendly mode, randomness or a style is set, else the plain search.
fn think(request: Request, cx: &PlayContext) -> Outcome {
    if cx.settings.active() { strength::play(request, cx) } else { search::search(request) }
}
