//! The engine's API: the game position and its history, the options, the
//! transposition table and a search running in the background. It never
//! prints; the protocol layer formats what the search reports.

use crate::position::{FenError, Position};
use crate::search::{self, Config, GameHistory, Limits, Listener, Outcome, Signals, TranspositionTable};
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
    handle: JoinHandle<Outcome>,
    signals: Arc<Signals>,
    start: Instant,
}

pub struct Engine {
    tt: Arc<TranspositionTable>,
    config: Config,
    /// The game since the last capture (or since the FEN), for repetitions.
    game: GameHistory,
    position: Position,
    banmoves: Vec<Move>,
    running: Option<Running>,
    /// Levels, friendly mode, randomness and style.
    strength: strength::Settings,
    /// The game as followed across `position` commands (our scores for the
    /// resign rule, the opponent's moves for the friendly mode).
    memory: Arc<Mutex<GameMemory>>,
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
        Engine {
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            config: Config::default(),
            game: GameHistory::new(position),
            position,
            banmoves: Vec::new(),
            running: None,
            strength: strength::Settings::default(),
            memory: Arc::new(Mutex::new(GameMemory::default())),
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
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
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<Option<BadMove>, FenError> {
        let base = match fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::startpos(),
        };
        self.stop();
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

    pub fn strength(&self) -> &strength::Settings {
        &self.strength
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

    /// Starts a search in the background. Exactly one `best_move` reaches
    /// the listener for every call.
    pub fn go(&mut self, mut limits: Limits, listener: Arc<dyn Listener + Send + Sync>) {
        self.stop();
        limits.banmoves.extend(self.banmoves.iter().copied());
        let signals = Arc::new(Signals::default());
        signals.pondering.store(limits.ponder, Ordering::Relaxed);
        let start = Instant::now();
        let (tt, config, position, game) =
            (Arc::clone(&self.tt), self.config.clone(), self.position, self.game.clone());
        let (settings, memory) = (self.strength.clone(), Arc::clone(&self.memory));
        let thread_signals = Arc::clone(&signals);
        let handle = std::thread::Builder::new()
            .name("search-main".to_string())
            .stack_size(16 * 1024 * 1024)
            .spawn(move || {
                let run = || {
                    if settings.active() {
                        let cx = PlayContext { settings: &settings, memory: &memory };
                        strength::play(&game, &limits, &config, &tt, &thread_signals, &*listener, &cx)
                    } else {
                        search::search(&game, &limits, &config, &tt, &thread_signals, &*listener)
                    }
                };
                // A bug in the search must not leave the GUI waiting for a
                // move: answer with any legal one (the panic itself is
                // reported on stderr by the panic hook).
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|_| {
                    let best = fallback_move(&position, &limits);
                    listener.best_move(best, None, 0);
                    Outcome { best, ponder: None, score: 0, depth: 0, nodes: 0 }
                });
                // A ponder search ended by `stop` was a guess the GUI threw away.
                if !thread_signals.pondering.load(Ordering::Acquire)
                    && let Some(best) = outcome.best
                {
                    memory.lock().unwrap_or_else(|e| e.into_inner()).record_answer(&position, best, outcome.score);
                }
                outcome
            })
            .expect("spawning the search thread");
        self.running = Some(Running { handle, signals, start });
    }

    /// Like `search_blocking`, but the move is chosen as `go` would choose
    /// it: through the strength model when a level, the friendly mode,
    /// randomness or a style is set (and the answer is remembered).
    pub fn play_blocking(&mut self, limits: &Limits, listener: &dyn Listener) -> Outcome {
        self.stop();
        let signals = Signals::default();
        let outcome = if self.strength.active() {
            let cx = PlayContext { settings: &self.strength, memory: &self.memory };
            strength::play(&self.game, limits, &self.config, &self.tt, &signals, listener, &cx)
        } else {
            search::search(&self.game, limits, &self.config, &self.tt, &signals, listener)
        };
        if let Some(best) = outcome.best {
            self.memory().record_answer(&self.position, best, outcome.score);
        }
        outcome
    }

    /// Runs a search on the calling thread and returns its outcome.
    pub fn search_blocking(&mut self, limits: &Limits, listener: &dyn Listener) -> Outcome {
        self.stop();
        let signals = Signals::default();
        search::search(&self.game, limits, &self.config, &self.tt, &signals, listener)
    }

    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.handle.is_finished())
    }

    /// Ends a running search (its best move is reported) and waits for it.
    pub fn stop(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        running.signals.stop.store(true, Ordering::Relaxed);
        running.handle.join().ok()
    }

    /// Waits for a running search to end by itself.
    pub fn wait(&mut self) -> Option<Outcome> {
        let running = self.running.take()?;
        running.handle.join().ok()
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
    /// entries are checked against the full key); `clear_hash` empties it.
    pub fn new_game(&mut self) {
        self.stop();
        self.memory().reset();
    }

    pub fn clear_hash(&mut self) {
        self.stop();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb())),
        }
    }

    pub fn set_hash_mb(&mut self, mb: usize) {
        self.stop();
        let mb = mb.clamp(1, MAX_HASH_MB);
        if self.tt.size_mb() != mb {
            // Drop the old table first so both never exist at once.
            self.tt = Arc::new(TranspositionTable::new(1));
            self.tt = Arc::new(TranspositionTable::new(mb));
        }
    }

    pub fn probe_tt(&self, key: u64) -> Option<crate::search::tt::TtData> {
        self.tt.probe(key)
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.config.threads = n.clamp(1, MAX_THREADS);
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.config.multipv = n.clamp(1, MAX_MULTIPV);
    }

    pub fn set_move_overhead_ms(&mut self, ms: i64) {
        self.config.move_overhead_ms = ms.clamp(0, 60_000);
    }
}

/// A legal move the limits allow, for when the search could not answer.
fn fallback_move(pos: &Position, limits: &Limits) -> Option<Move> {
    let allowed =
        |m: &Move| !limits.banmoves.contains(m) && (limits.searchmoves.is_empty() || limits.searchmoves.contains(m));
    pos.legal_moves().into_iter().find(allowed)
}
