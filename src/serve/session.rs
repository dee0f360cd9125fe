//! One browser session: an engine of its own, the game on the board, and
//! the commands the page sends. Everything here is independent of the
//! network, so the tests drive a `Session` directly: `handle` takes one
//! command and returns the messages to send; `poll` returns what the search
//! reported since (and plays the engine's move when its search ends).
//!
//! Commands are one line of words, as in UCI:
//!
//! ```text
//! new [fen <FEN>] [moves <m1> <m2> ...]   a new game (the start position when no FEN)
//! play <move>                             the player's move (ICCS h2e2, WXF C2.5 or Chinese 炮二平五)
//! engine red|black|none                   the side the engine plays
//! level full|friendly|elo <N>|<rank>      the engine's strength (rank: pinyin or Chinese name)
//! time movetime <ms> | time clock <base ms> <increment ms>
//! go | stop | takeback
//! draw | accept | resign                  offer a draw (the engine answers with its next move),
//!                                         accept the engine's offer, resign
//! analyse on|off                          infinite analysis of the position on the board
//! view <ply> | view end                   show (and analyse) the position after that many plies;
//!                                         a move played there replaces the rest of the game
//! multipv <N> | threads <N> | hash <MB>
//! load <PGN or a move list>              (the rest of the message; XBoard's files too)
//! (a binary message)                     a game file (XQF, or PGN as bytes): loaded as by `load`
//! review [movetime <ms> | depth <N>] | review stop
//!                                         the game analysis of the game on the board, in the
//!                                         background: progress, then the annotated game
//! ```
//!
//! Messages to the page are JSON objects with a `type`: `welcome`, `state`,
//! `info`, `review_progress`, `review` (the `chariot analyze --format json`
//! document in English and Chinese, and the annotated PGN), `error`.

use super::json::{object, string, strings};
use crate::analysis::{self, SearchLimit, output};
use crate::engine::Engine;
use crate::notation::{self, Notation};
use crate::position::Position;
use crate::record;
use crate::record::GameRecord;
use crate::rules::{self, GameResult};
use crate::search::{Clock, Iteration, Limits, Listener};
use crate::strength::verdict::{DrawPolicy, Verdict};
use crate::strength::{self, RANKS};
use crate::types::score::{DisplayScore, wdl};
use crate::types::{Color, Move};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// What one session may use; set by `chariot serve`'s options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    pub max_threads: usize,
    pub max_hash_mb: usize,
    pub max_multipv: usize,
    /// Longest command (a pasted game included).
    pub max_message_bytes: usize,
    /// Longest game (plies) a session keeps.
    pub max_plies: usize,
}

impl Default for SessionLimits {
    fn default() -> SessionLimits {
        SessionLimits { max_threads: 2, max_hash_mb: 256, max_multipv: 8, max_message_bytes: 1 << 20, max_plies: 1000 }
    }
}

/// How long the engine thinks on a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeControl {
    MoveTime(i64),
    /// Both sides' clocks: base and increment in milliseconds.
    Clock {
        base_ms: i64,
        inc_ms: i64,
    },
}

/// The clocks of a game with a time control.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    remaining_ms: [i64; 2],
    inc_ms: i64,
    /// When the side to move's time started running.
    turn_start: Instant,
}

impl Clocks {
    /// What `side` has left if its time is running now.
    fn left_while_running(&self, side: Color) -> i64 {
        self.remaining_ms[side.index()] - self.turn_start.elapsed().as_millis() as i64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    /// The engine is choosing its move.
    Move,
    Analysis,
}

/// What the search thread reports, passed to the session's thread.
enum SearchEvent {
    Info(Iteration),
    /// The move and its score, from the engine's side.
    Best(Option<Move>, i32),
}

/// A game analysis running on a thread of its own.
struct Review {
    stop: Arc<AtomicBool>,
    events: Receiver<ReviewEvent>,
}

enum ReviewEvent {
    Progress(usize, usize),
    /// The finished `review` message.
    Done(String),
}

impl Drop for Review {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

struct ChannelListener(Sender<SearchEvent>);

impl Listener for ChannelListener {
    fn iteration(&self, info: &Iteration) {
        let _ = self.0.send(SearchEvent::Info(info.clone()));
    }
    fn current_move(&self, _: i32, _: Move, _: usize) {}
    fn best_move(&self, best: Option<Move>, _: Option<Move>, score: i32) {
        let _ = self.0.send(SearchEvent::Best(best, score));
    }
}

pub struct Session {
    engine: Engine,
    limits: SessionLimits,
    start: Position,
    moves: Vec<Move>,
    engine_side: Option<Color>,
    /// The strength the engine plays at; analysis is always at full strength.
    level: strength::Settings,
    time: TimeControl,
    clocks: Option<Clocks>,
    /// Set when the game ended on time (the rules judge knows nothing of clocks).
    time_loss: Option<Color>,
    /// A game ended by agreement or resignation: the result and why, in
    /// English and Chinese.
    agreed: Option<(GameResult, String, String)>,
    /// When the engine offers or accepts a draw, or resigns.
    policy: DrawPolicy,
    /// The player offers a draw; the engine answers with its next move.
    player_offers_draw: bool,
    /// The engine offered a draw with its last move.
    engine_offers_draw: bool,
    searching: Option<Search>,
    analysing: bool,
    /// The ply shown when it is not the last (going through a game).
    view: Option<usize>,
    events: Receiver<SearchEvent>,
    sender: Sender<SearchEvent>,
    review: Option<Review>,
}

/// Why a command was refused; shown on the page.
type Refusal = String;

impl Session {
    pub fn new(limits: SessionLimits) -> Session {
        let (sender, events) = channel();
        let mut engine = Engine::new();
        engine.set_threads(1);
        Session {
            engine,
            limits,
            start: Position::startpos(),
            moves: Vec::new(),
            engine_side: Some(Color::Black),
            level: strength::Settings::default(),
            time: TimeControl::MoveTime(1000),
            clocks: None,
            time_loss: None,
            agreed: None,
            policy: DrawPolicy::default(),
            player_offers_draw: false,
            engine_offers_draw: false,
            searching: None,
            analysing: false,
            view: None,
            events,
            sender,
            review: None,
        }
    }

    /// The first messages of a session: what the page can offer, then the board.
    pub fn welcome(&mut self) -> Vec<String> {
        let ranks: Vec<String> = RANKS
            .iter()
            .map(|r| {
                object(&[("pinyin", string(r.pinyin)), ("chinese", string(r.chinese)), ("elo", r.elo.to_string())])
            })
            .collect();
        let welcome = object(&[
            ("type", string("welcome")),
            ("ranks", format!("[{}]", ranks.join(","))),
            ("max_threads", self.limits.max_threads.to_string()),
            ("max_hash_mb", self.limits.max_hash_mb.to_string()),
            ("max_multipv", self.limits.max_multipv.to_string()),
        ]);
        vec![welcome, self.state()]
    }

    /// One command from the page; the messages to send back.
    pub fn handle(&mut self, text: &str) -> Vec<String> {
        if text.len() > self.limits.max_message_bytes {
            let why = format!("message of {} bytes refused (at most {})", text.len(), self.limits.max_message_bytes);
            return vec![error(&why), self.state()];
        }
        let text = text.trim();
        let (command, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let result = match command {
            "new" => self.new_game(&words),
            "play" => self.play(rest),
            "engine" => self.set_engine_side(&words),
            "level" => self.set_level(&words),
            "time" => self.set_time(&words),
            "go" => self.engine_move_now(),
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "takeback" => self.take_back(),
            "draw" => self.offer_draw(),
            "accept" => self.accept_draw(),
            "resign" => self.resign(),
            "analyse" | "analyze" => self.set_analysis(&words),
            "multipv" => {
                self.set_number(&words, "multipv", 1, self.limits.max_multipv).map(|n| self.engine.set_multipv(n))
            }
            "threads" => {
                self.set_number(&words, "threads", 1, self.limits.max_threads).map(|n| self.engine.set_threads(n))
            }
            "hash" => self.set_number(&words, "hash", 1, self.limits.max_hash_mb).map(|n| self.engine.set_hash_mb(n)),
            "load" => self.load(rest),
            "view" => self.set_view(&words),
            "review" => self.start_review(&words),
            "" => Err("empty command".to_string()),
            other => Err(format!("unknown command '{}'", truncated(other))),
        };
        let mut out = match result {
            Ok(()) => Vec::new(),
            Err(why) => vec![error(&why)],
        };
        // Settings that change how the engine searches restart a running analysis.
        if matches!(command, "multipv" | "threads" | "hash" | "view") && self.searching == Some(Search::Analysis) {
            self.stop_search();
        }
        self.start_search_if_due();
        out.push(self.state());
        out
    }

    /// A game file sent as a binary message (the page's upload): XQF or
    /// text, read by its content.
    pub fn handle_file(&mut self, bytes: &[u8]) -> Vec<String> {
        if bytes.len() > self.limits.max_message_bytes {
            let why = format!("file of {} bytes refused (at most {})", bytes.len(), self.limits.max_message_bytes);
            return vec![error(&why), self.state()];
        }
        let mut out = match record::read_bytes(bytes) {
            Ok(games) => match self.load_record(games) {
                Ok(()) => Vec::new(),
                Err(why) => vec![error(&why)],
            },
            Err(e) => vec![error(&format!("load: {e}"))],
        };
        out.push(self.state());
        out
    }

    /// What the search said since the last call; plays the engine's move
    /// when its search is over, and ends the game when a clock runs out.
    pub fn poll(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(review) = &self.review {
            let mut finished = false;
            while let Ok(event) = review.events.try_recv() {
                match event {
                    ReviewEvent::Progress(done, total) => out.push(object(&[
                        ("type", string("review_progress")),
                        ("done", done.to_string()),
                        ("total", total.to_string()),
                    ])),
                    ReviewEvent::Done(message) => {
                        out.push(message);
                        finished = true;
                    }
                }
            }
            if finished {
                self.review = None;
                out.push(self.state());
            }
        }
        while let Ok(event) = self.events.try_recv() {
            match event {
                SearchEvent::Info(info) => out.push(self.info(&info)),
                SearchEvent::Best(best, score) => {
                    let finished = self.searching.take();
                    self.engine.wait();
                    if finished == Some(Search::Move)
                        && let Some(m) = best
                        && self.result().is_none()
                    {
                        self.engine_answers(m, score);
                    }
                    self.start_search_if_due();
                    out.push(self.state());
                }
            }
        }
        if self.flag_fell() {
            self.stop_search();
            out.push(self.state());
        }
        out
    }

    /// Whether a search is running (the page shows "thinking").
    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }

    fn new_game(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let moves_at = words.iter().position(|&w| w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match head {
            [] => Position::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => {
                Position::from_fen(&fen.join(" ")).map_err(|e| format!("bad FEN: {e}"))?
            }
            _ => return Err("new: expected 'new [fen <FEN>] [moves <move> ...]'".to_string()),
        };
        if moves.len() > self.limits.max_plies {
            return Err(format!("new: {} moves, at most {}", moves.len(), self.limits.max_plies));
        }
        let mut pos = start;
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = notation::parse_move(&pos, text)
                .map_err(|e| format!("new: move {} '{}': {e}", i + 1, truncated(text)))?;
            pos.make_move(m);
            played.push(m);
        }
        self.stop_search();
        self.engine.new_game();
        self.start = start;
        self.moves = played;
        self.view = None;
        self.restart_clocks();
        self.sync_engine();
        Ok(())
    }

    fn play(&mut self, text: &str) -> Result<(), Refusal> {
        if text.is_empty() {
            return Err("play: which move?".to_string());
        }
        if self.view.is_none()
            && let Some(result) = self.result()
        {
            return Err(format!("the game is over ({})", result.0));
        }
        if self.searching == Some(Search::Move) {
            return Err("the engine is thinking; 'stop' first".to_string());
        }
        let pos = self.shown_position();
        let m = notation::parse_move(&pos, text)
            .map_err(|e| format!("'{}' is not a legal move here: {e}", truncated(text)))?;
        self.stop_search();
        if let Some(ply) = self.view.take() {
            self.moves.truncate(ply);
        }
        if self.moves.len() >= self.limits.max_plies {
            self.sync_engine();
            return Err(format!("the game has reached {} plies, the most a session keeps", self.limits.max_plies));
        }
        self.apply(m);
        Ok(())
    }

    fn set_engine_side(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let side = match words {
            ["red"] => Some(Color::Red),
            ["black"] => Some(Color::Black),
            ["none"] => None,
            _ => return Err("engine: expected red, black or none".to_string()),
        };
        if self.searching == Some(Search::Move) && side != Some(self.position().side_to_move()) {
            self.stop_search();
        }
        self.engine_side = side;
        if side.is_some() {
            self.view = None;
            self.analysing = false;
            if self.searching == Some(Search::Analysis) {
                self.stop_search();
            }
        }
        Ok(())
    }

    fn set_level(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let settings = &mut self.level;
        match words {
            ["full"] => {
                settings.limit = false;
                settings.friendly = false;
            }
            ["friendly"] => {
                settings.limit = false;
                settings.friendly = true;
            }
            ["elo", n] => {
                let elo: i32 = n.parse().map_err(|_| format!("level elo: '{}' is not a number", truncated(n)))?;
                if !(strength::MIN_ELO..=strength::MAX_ELO).contains(&elo) {
                    return Err(format!("level elo: {elo} is outside {}..{}", strength::MIN_ELO, strength::MAX_ELO));
                }
                settings.elo = elo;
                settings.limit = true;
                settings.friendly = false;
            }
            [name] => {
                settings.friendly = false;
                if !settings.set_level(name) {
                    return Err(format!("level: unknown rank '{}'", truncated(name)));
                }
            }
            _ => return Err("level: expected full, friendly, elo <N> or a rank".to_string()),
        }
        Ok(())
    }

    fn set_time(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let ms = |w: &str, what: &str, min: i64| -> Result<i64, Refusal> {
            match w.parse::<i64>() {
                Ok(n) if (min..=24 * 3_600_000).contains(&n) => Ok(n),
                _ => Err(format!("time: {what} '{}' must be {min} to 86400000 ms", truncated(w))),
            }
        };
        self.time = match words {
            ["movetime", n] => TimeControl::MoveTime(ms(n, "movetime", 10)?),
            ["clock", base, inc] => {
                TimeControl::Clock { base_ms: ms(base, "base", 1000)?, inc_ms: ms(inc, "increment", 0)? }
            }
            _ => return Err("time: expected 'movetime <ms>' or 'clock <base ms> <increment ms>'".to_string()),
        };
        self.restart_clocks();
        Ok(())
    }

    fn engine_move_now(&mut self) -> Result<(), Refusal> {
        if let Some(result) = self.result() {
            return Err(format!("the game is over ({})", result.0));
        }
        if self.searching == Some(Search::Move) {
            return Ok(());
        }
        self.stop_search();
        self.analysing = false;
        self.view = None;
        self.sync_engine();
        self.engine_side = Some(self.position().side_to_move());
        Ok(())
    }

    fn take_back(&mut self) -> Result<(), Refusal> {
        if self.moves.is_empty() {
            return Err("takeback: no move to take back".to_string());
        }
        self.stop_search();
        self.clear_game_end();
        self.view = None;
        self.moves.pop();
        // Against the engine, take back its answer and the player's move.
        if let Some(side) = self.engine_side
            && self.position().side_to_move() == side
            && !self.moves.is_empty()
        {
            self.moves.pop();
        }
        if let Some(clocks) = &mut self.clocks {
            clocks.turn_start = Instant::now();
        }
        self.sync_engine();
        Ok(())
    }

    fn set_analysis(&mut self, words: &[&str]) -> Result<(), Refusal> {
        match words {
            ["on"] => {
                if self.searching == Some(Search::Move) {
                    self.stop_search();
                }
                self.analysing = true;
                self.engine_side = None;
            }
            ["off"] => {
                self.analysing = false;
                if self.searching == Some(Search::Analysis) {
                    self.stop_search();
                }
            }
            _ => return Err("analyse: expected on or off".to_string()),
        }
        Ok(())
    }

    fn set_number(&self, words: &[&str], what: &str, min: usize, max: usize) -> Result<usize, Refusal> {
        match words {
            [n] => match n.parse::<usize>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(format!("{what}: '{}' must be a number from {min} to {max}", truncated(n))),
            },
            _ => Err(format!("{what}: expected one number from {min} to {max}")),
        }
    }

    fn load(&mut self, text: &str) -> Result<(), Refusal> {
        let games = record::read_games(text).map_err(|e| format!("load: {e}"))?;
        self.load_record(games)
    }

    fn load_record(&mut self, games: Vec<GameRecord>) -> Result<(), Refusal> {
        let game = games.into_iter().next().ok_or_else(|| "load: no game in the text".to_string())?;
        if game.moves.len() > self.limits.max_plies {
            return Err(format!("load: {} moves, at most {}", game.moves.len(), self.limits.max_plies));
        }
        self.stop_search();
        self.engine.new_game();
        self.start = game.start;
        self.moves = game.moves;
        self.view = None;
        self.engine_side = None;
        self.clocks = None;
        self.clear_game_end();
        self.sync_engine();
        Ok(())
    }

    fn set_view(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let ply = match words {
            ["end"] => None,
            [n] => match n.parse::<usize>() {
                Ok(n) if n <= self.moves.len() => (n < self.moves.len()).then_some(n),
                _ => {
                    return Err(format!(
                        "view: '{}' must be a ply from 0 to {} or 'end'",
                        truncated(n),
                        self.moves.len()
                    ));
                }
            },
            _ => return Err("view: expected a ply or 'end'".to_string()),
        };
        if ply.is_some() && self.engine_side.is_some() {
            return Err("view: going through the game is for analysis; set 'engine none' first".to_string());
        }
        self.view = ply;
        self.sync_engine();
        Ok(())
    }

    /// The moves up to the position shown.
    fn shown_moves(&self) -> &[Move] {
        &self.moves[..self.view.unwrap_or(self.moves.len())]
    }

    /// The position after the last move of the game.
    fn start_review(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let limit = match words {
            ["stop"] => {
                self.review = None;
                return Ok(());
            }
            [] => SearchLimit::MoveTimeMs(500),
            ["movetime", n] => match n.parse::<u64>() {
                Ok(ms) if (50..=60_000).contains(&ms) => SearchLimit::MoveTimeMs(ms),
                _ => return Err(format!("review: movetime '{}' must be 50 to 60000 ms", truncated(n))),
            },
            ["depth", n] => match n.parse::<i32>() {
                Ok(d) if (1..=30).contains(&d) => SearchLimit::Depth(d),
                _ => return Err(format!("review: depth '{}' must be 1 to 30", truncated(n))),
            },
            _ => {
                return Err(
                    "review: expected 'review', 'review movetime <ms>', 'review depth <N>' or 'review stop'".into()
                );
            }
        };
        if self.moves.is_empty() {
            return Err("review: the game has no moves yet".to_string());
        }
        if self.review.is_some() {
            return Err("review: one is running; 'review stop' first".to_string());
        }
        let record = GameRecord { tags: Vec::new(), start: self.start, moves: self.moves.clone(), result: None };
        let (sender, events) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new().name("serve-review".into()).spawn(move || {
            let progress_sender = sender.clone();
            let mut progress = |done, total| {
                let _ = progress_sender.send(ReviewEvent::Progress(done, total));
            };
            let game = analysis::analyze_until(&record, limit, &mut progress, &flag);
            let games = [game];
            let en = output::Style { lang: output::Lang::En, notation: Notation::Wxf };
            let zh = output::Style { lang: output::Lang::Zh, notation: Notation::Chinese };
            let message = object(&[
                ("type", string("review")),
                ("en", output::json(&games, en)),
                ("zh", output::json(&games, zh)),
                ("pgn_en", string(&output::pgn(&games[0], en))),
                ("pgn_zh", string(&output::pgn(&games[0], zh))),
            ]);
            let _ = sender.send(ReviewEvent::Done(message));
        });
        spawned.map_err(|e| format!("review: no thread could be had: {e}"))?;
        self.review = Some(Review { stop, events });
        Ok(())
    }

    /// The engine's move is in: with it, it may accept the player's draw
    /// offer, offer one, or resign, as its policy says.
    fn engine_answers(&mut self, m: Move, score: i32) {
        let before = self.position();
        let engine_side = before.side_to_move();
        let scores = self.engine.game_scores();
        let earlier = &scores[..scores.len().saturating_sub(1)];
        let offered = std::mem::take(&mut self.player_offers_draw);
        match self.policy.verdict(&before, score, earlier, offered) {
            Some(Verdict::Resign) => {
                let en = format!("Chariot ({}) resigns: {} wins", engine_side.name(), (!engine_side).name());
                let zh = format!("{}认输，{}胜", side_zh(engine_side), side_zh(!engine_side));
                self.agreed = Some((GameResult::win_for(!engine_side), en, zh));
            }
            Some(Verdict::AcceptDraw) => {
                self.agreed =
                    Some((GameResult::Draw, "Chariot accepts the draw".to_string(), "电脑同意和棋".to_string()));
            }
            Some(Verdict::OfferDraw) => {
                self.apply(m);
                self.engine_offers_draw = true;
            }
            None => self.apply(m),
        }
    }

    fn offer_draw(&mut self) -> Result<(), Refusal> {
        self.game_goes_on()?;
        if self.engine_side.is_none() {
            return Err("draw: there is no engine to offer it to".to_string());
        }
        self.player_offers_draw = true;
        Ok(())
    }

    fn accept_draw(&mut self) -> Result<(), Refusal> {
        self.game_goes_on()?;
        if !self.engine_offers_draw {
            return Err("accept: the engine has not offered a draw".to_string());
        }
        self.stop_search();
        self.agreed = Some((GameResult::Draw, "draw agreed".to_string(), "双方同意和棋".to_string()));
        Ok(())
    }

    fn resign(&mut self) -> Result<(), Refusal> {
        self.game_goes_on()?;
        // The player's side: the one the engine does not play, or the side to move.
        let side = match self.engine_side {
            Some(engine) => !engine,
            None => self.position().side_to_move(),
        };
        self.stop_search();
        let en = format!("{} resigns: {} wins", side.name(), (!side).name());
        let zh = format!("{}认输，{}胜", side_zh(side), side_zh(!side));
        self.agreed = Some((GameResult::win_for(!side), en, zh));
        Ok(())
    }

    fn game_goes_on(&self) -> Result<(), Refusal> {
        match self.result() {
            Some(result) => Err(format!("the game is over ({})", result.0)),
            None => Ok(()),
        }
    }

    fn position(&self) -> Position {
        let mut pos = self.start;
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }

    /// The position on the board (the game's last, or the ply viewed).
    fn shown_position(&self) -> Position {
        let mut pos = self.start;
        for &m in self.shown_moves() {
            pos.make_move(m);
        }
        pos
    }

    /// Plays `m` (legal in the current position) and runs the clocks.
    fn apply(&mut self, m: Move) {
        self.engine_offers_draw = false;
        let mover = self.position().side_to_move();
        if let Some(clocks) = &mut self.clocks {
            let side = mover.index();
            clocks.remaining_ms[side] = clocks.left_while_running(mover);
            if clocks.remaining_ms[side] < 0 {
                self.time_loss = Some(mover);
            } else {
                clocks.remaining_ms[side] += clocks.inc_ms;
            }
            clocks.turn_start = Instant::now();
        }
        if self.time_loss.is_none() {
            self.moves.push(m);
        }
        self.sync_engine();
    }

    fn sync_engine(&mut self) {
        let fen = self.start.to_fen();
        let texts: Vec<String> = self.shown_moves().iter().map(|m| m.to_string()).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        // The moves are legal by construction, so neither error can happen.
        let _ = self.engine.set_position(Some(&fen), &refs);
    }

    /// Forgets a game end that was not the board's (time, agreement,
    /// resignation) and any open draw offer.
    fn clear_game_end(&mut self) {
        self.time_loss = None;
        self.agreed = None;
        self.player_offers_draw = false;
        self.engine_offers_draw = false;
    }

    fn restart_clocks(&mut self) {
        self.clear_game_end();
        self.clocks = match self.time {
            TimeControl::Clock { base_ms, inc_ms } => {
                Some(Clocks { remaining_ms: [base_ms; 2], inc_ms, turn_start: Instant::now() })
            }
            TimeControl::MoveTime(_) => None,
        };
    }

    /// True once, when the side to move's clock has just run out.
    fn flag_fell(&mut self) -> bool {
        // Polled every few milliseconds: the clock first, the judge (which
        // goes through the whole game) only when the time is up.
        let Some(clocks) = &self.clocks else { return false };
        let side = self.position().side_to_move();
        if clocks.left_while_running(side) >= 0 || self.time_loss.is_some() || self.result().is_some() {
            return false;
        }
        self.time_loss = Some(side);
        true
    }

    /// The result and its explanation lines (English, Chinese), once the game is over.
    fn result(&self) -> Option<(String, Vec<String>, Vec<String>)> {
        if let Some((result, en, zh)) = &self.agreed {
            let how = if *result == GameResult::Draw { "agreement" } else { "resignation" };
            return Some((format!("{result} {how}"), vec![en.clone()], vec![zh.clone()]));
        }
        if let Some(loser) = self.time_loss {
            let winner = GameResult::win_for(!loser);
            let en = format!("{} ran out of time: {} wins", loser.name(), (!loser).name());
            let zh = format!("{}超时，{}胜", side_zh(loser), side_zh(!loser));
            return Some((format!("{winner} time"), vec![en], vec![zh]));
        }
        let report = rules::judge_game(&self.start, &self.moves).ok()?;
        if report.result == GameResult::Ongoing {
            return None;
        }
        let (mut en, mut zh) = (Vec::new(), Vec::new());
        for line in rules::explain::explain(&report) {
            match line.split_once(" / ") {
                Some((e, z)) => {
                    en.push(e.to_string());
                    zh.push(z.to_string());
                }
                None => en.push(line),
            }
        }
        Some((format!("{} {}", report.result, report.reason), en, zh))
    }

    fn start_search_if_due(&mut self) {
        if self.searching.is_some() {
            return;
        }
        let pos = self.position();
        if self.engine_side == Some(pos.side_to_move()) && self.result().is_none() {
            let mut limits = Limits::default();
            match (self.time, &self.clocks) {
                (TimeControl::Clock { .. }, Some(clocks)) => {
                    let left = clocks.left_while_running(pos.side_to_move());
                    limits.clock = Some(Clock { time_ms: left.max(1), inc_ms: clocks.inc_ms, moves_to_go: None });
                }
                (TimeControl::MoveTime(ms), _) | (TimeControl::Clock { base_ms: ms, .. }, None) => {
                    limits.movetime_ms = Some(ms)
                }
            }
            *self.engine.strength_mut() = self.level.clone();
            self.searching = Some(Search::Move);
            self.engine.go(limits, Arc::new(ChannelListener(self.sender.clone())));
        } else if self.analysing && self.shown_position().has_legal_move() {
            let limits = Limits { infinite: true, ..Limits::default() };
            *self.engine.strength_mut() = strength::Settings::default();
            self.searching = Some(Search::Analysis);
            self.engine.go(limits, Arc::new(ChannelListener(self.sender.clone())));
        }
    }

    /// Stops a running search and forgets what it had still to say.
    fn stop_search(&mut self) {
        if self.searching.take().is_some() {
            self.engine.stop();
        }
        while self.events.try_recv().is_ok() {}
    }

    fn state(&self) -> String {
        let pos = self.shown_position();
        let mut before = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            moves.push(object(&[
                ("iccs", string(&m.to_string())),
                ("wxf", string(&notation::format_move(&before, m, Notation::Wxf))),
                ("chinese", string(&notation::format_move(&before, m, Notation::Chinese))),
            ]));
            before.make_move(m);
        }
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let ended = self.result();
        let result = match &ended {
            None => "null".to_string(),
            Some((text, en, zh)) => object(&[("text", string(text)), ("en", strings(en)), ("zh", strings(zh))]),
        };
        // At the game's end nothing more may be played; at a ply viewed
        // earlier, a move starts a new line from there.
        let legal = if ended.is_none() || self.view.is_some() { strings(&legal) } else { "[]".to_string() };
        let clock = match &self.clocks {
            None => "null".to_string(),
            Some(c) => {
                let running = ended.is_none().then(|| self.position().side_to_move());
                let mut left = c.remaining_ms;
                if let Some(side) = running {
                    left[side.index()] = c.left_while_running(side);
                }
                object(&[
                    ("red_ms", left[Color::Red.index()].max(0).to_string()),
                    ("black_ms", left[Color::Black.index()].max(0).to_string()),
                    ("running", running.map_or("null".to_string(), |s| string(color_name(s)))),
                ])
            }
        };
        object(&[
            ("type", string("state")),
            ("start_fen", string(&self.start.to_fen())),
            ("fen", string(&pos.to_fen())),
            ("turn", string(color_name(pos.side_to_move()))),
            ("check", pos.in_check().to_string()),
            ("moves", format!("[{}]", moves.join(","))),
            ("legal", legal),
            ("result", result),
            ("engine", self.engine_side.map_or("null".to_string(), |s| string(color_name(s)))),
            ("thinking", (self.searching == Some(Search::Move)).to_string()),
            ("analysing", (self.searching == Some(Search::Analysis)).to_string()),
            ("clock", clock),
            ("view", self.view.map_or("null".to_string(), |v| v.to_string())),
            ("reviewing", self.review.is_some().to_string()),
            ("engine_offers_draw", self.engine_offers_draw.to_string()),
            ("player_offers_draw", self.player_offers_draw.to_string()),
        ])
    }

    fn info(&self, it: &Iteration) -> String {
        let pos = self.shown_position();
        let score = match DisplayScore::of(it.score) {
            DisplayScore::Mate(moves) => object(&[("mate", moves.to_string())]),
            DisplayScore::Cp(cp) => object(&[("cp", cp.to_string())]),
        };
        let (w, d, l) = wdl(it.score);
        let line = |n| notation::format_line(&pos, &it.pv, n);
        object(&[
            ("type", string("info")),
            ("mode", string(if self.searching == Some(Search::Analysis) { "analysis" } else { "move" })),
            ("multipv", it.multipv.to_string()),
            ("depth", it.depth.to_string()),
            ("seldepth", it.seldepth.to_string()),
            ("score", score),
            ("wdl", format!("[{w},{d},{l}]")),
            ("nodes", it.nodes.to_string()),
            ("nps", it.nps.to_string()),
            ("time_ms", it.time_ms.to_string()),
            ("pv", strings(&line(Notation::Iccs))),
            ("pv_wxf", strings(&line(Notation::Wxf))),
            ("pv_chinese", strings(&line(Notation::Chinese))),
        ])
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

fn error(message: &str) -> String {
    object(&[("type", string("error")), ("message", string(message))])
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn side_zh(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

/// A word of the page's, cut short for an error message.
fn truncated(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}
