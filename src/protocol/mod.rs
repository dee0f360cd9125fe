//! The protocol front end: UCCI 3.0 and UCI (Pikafish dialect), chosen by
//! the first command (`ucci` or `uci`; the last one wins). Every input line
//! is parsed into a typed [`Command`] first (`parse`), then acted on here.
//! Output lines go through [`Output`], which flushes each line at once.
//! Nothing here panics on input, and every `go` ends in exactly one
//! `bestmove` / `nobestmove` / `bestmove (none)`.
//!
//! The search runs on its own thread, so this loop keeps reading while it
//! thinks: `stop`, `ponderhit`, `isready` and `quit` are answered at once.

mod options;
mod parse;
mod report;

pub use parse::{Command, GoArgs, MAX_PERFT_DEPTH, parse_command};

use crate::bench;
use crate::engine::{Engine, book_allowed};
use crate::eval;
use crate::perft;
use crate::position::Position;
use crate::search::{Iteration, Limits, Listener, Signals};
use crate::spawn::spawn_or_return;
use crate::strength::verdict::DrawPolicy;
use crate::types::Move;
use options::OPTIONS;
use parse::clip;
use report::ProtocolListener;
use std::io::{BufRead, ErrorKind, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Uci,
    Ucci,
}

/// Input lines longer than this are dropped whole (a game of 300 moves in
/// one `position` line is under 2 KB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The longest `info string` text; longer ones are cut.
pub const MAX_INFO_CHARS: usize = 400;

/// The protocol's writer: one whole line at a time, flushed, shared with the
/// search thread.
pub struct Output {
    writer: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Arc<Output> {
        Arc::new(Output { writer: Mutex::new(writer) })
    }

    pub fn line(&self, text: &str) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        // A closed stdout is not our problem to report; keep serving.
        let _ = writeln!(w, "{}", text.trim_end());
        let _ = w.flush();
    }

    pub fn lines(&self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }

    /// An `info string` line. Its text may quote the input, so control
    /// characters are replaced and it is cut to [`MAX_INFO_CHARS`]: one
    /// line in, at most one short line out.
    fn info(&self, text: &str) {
        self.line(&format!("info string {}", parse::clip_to(text, MAX_INFO_CHARS)));
    }
}

/// Protocol-level settings that are not engine options.
pub(crate) struct Session {
    pub dialect: Dialect,
    pub engine: Engine,
    pub out: Arc<Output>,
    /// UCCI times are in milliseconds instead of seconds.
    pub use_millisec: bool,
    pub show_wdl: bool,
    /// The GUI may ponder (informational: pondering is the GUI's choice).
    pub ponder: bool,
    /// UCCI `debug`: extra `info string` lines about what was understood.
    pub debug: bool,
    /// Draw and resign behaviour (the words in UCCI, hints in UCI).
    pub policy: DrawPolicy,
    /// The listener of the last `go`, for `ponderhit draw`.
    listener: Option<Arc<ProtocolListener>>,
    /// A `go perft` or `bench` running in the background.
    job: Option<Job>,
}

/// A finite piece of work that prints its own result (`go perft`, `bench`).
/// It runs beside the loop like a search, so `isready` is answered at once
/// and `stop` or `quit` end it; any other command waits for it to finish,
/// which keeps the output in the order a piping client expects.
struct Job {
    handle: JoinHandle<()>,
    signals: Arc<Signals>,
}

impl Session {
    /// A search is running and has not answered yet.
    fn thinking(&self) -> bool {
        self.engine.is_searching() && self.listener.as_ref().is_some_and(|l| !l.answered())
    }
}

/// The line printed at start-up, before any command, as Stockfish and
/// Pikafish print theirs; GUIs skip lines they do not know.
pub fn banner() -> String {
    format!("Chariot {} by the Chariot developers", env!("CARGO_PKG_VERSION"))
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run(mut input: impl BufRead, out: Arc<Output>) {
    out.line(&banner());
    let mut s = Session {
        dialect: Dialect::Uci,
        engine: Engine::new(),
        out,
        use_millisec: false,
        show_wdl: false,
        ponder: false,
        debug: false,
        policy: DrawPolicy::default(),
        listener: None,
        job: None,
    };
    let mut raw = Vec::new();
    while let Some(dropped) = read_line(&mut input, &mut raw) {
        if dropped > 0 {
            let len = raw.len() + dropped;
            s.out.info(&format!("input line of {len} bytes is longer than {MAX_LINE_BYTES}; ignored"));
            continue;
        }
        // Lossy: a stray non-UTF-8 byte must not end the session.
        let text = String::from_utf8_lossy(&raw);
        let command = parse_command(&text);
        if !handle(&mut s, command) {
            return;
        }
    }
    // End of input counts as `quit`: an unfinished search still answers,
    // and a perft or bench piped in still prints its result.
    end_job(&mut s, false);
    s.engine.stop();
}

/// Starts `work` as the session's background job; without a thread to run
/// it on, it runs here.
fn start_job(s: &mut Session, name: &str, work: impl FnOnce(&Output, &Signals) + Send + 'static) {
    end_job(s, false);
    s.engine.stop();
    let signals = Arc::new(Signals::default());
    let builder = std::thread::Builder::new().name(name.to_string()).stack_size(16 * 1024 * 1024);
    let payload = (work, Arc::clone(&s.out), Arc::clone(&signals));
    match spawn_or_return(builder, payload, |(work, out, signals)| work(&out, &signals)) {
        Ok(handle) => s.job = Some(Job { handle, signals }),
        Err(((work, out, signals), e)) => {
            log::warn!("no thread for {name} ({e}); running it in the protocol loop");
            work(&out, &signals);
        }
    }
}

/// Waits for the background job, after asking it to stop if `cancel`.
fn end_job(s: &mut Session, cancel: bool) {
    let Some(job) = s.job.take() else { return };
    if cancel {
        job.signals.stop.store(true, Ordering::Relaxed);
    }
    // A panic in the job was reported by the panic hook; keep serving.
    let _ = job.handle.join();
}

/// The `info string` for commands that need a position while the last
/// `position` was refused (the phrase xiangqibench recognises).
fn unsupported(s: &Session) -> Option<String> {
    s.engine.refused_position().map(|e| format!("Unsupported position: {e}"))
}

/// Reads one line (without its `\n`) into `buf`, keeping at most
/// [`MAX_LINE_BYTES`]. Returns how many bytes were dropped beyond that, or
/// `None` at the end of input (a read error counts as the end).
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<usize> {
    buf.clear();
    let mut dropped = 0;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        let keep = part.len().min(MAX_LINE_BYTES - buf.len());
        buf.extend_from_slice(&part[..keep]);
        dropped += part.len() - keep;
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Some(dropped);
        }
    }
    read_any.then_some(dropped)
}

/// Acts on one command; false = quit.
fn handle(s: &mut Session, command: Command) -> bool {
    match command {
        Command::Empty | Command::IsReady | Command::Help | Command::Unknown(_) | Command::Invalid(_) => {}
        // A perft or bench that `stop` ends says so itself; it is not a
        // search, so UCCI's `nobestmove` for a `stop` without one follows.
        Command::Stop | Command::Quit => {
            end_job(s, true);
        }
        _ => {
            end_job(s, false);
        }
    }
    match command {
        Command::Empty => {}
        Command::Uci => {
            s.dialect = Dialect::Uci;
            s.out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
            s.out.line("id author the Chariot developers");
            for opt in OPTIONS.iter().filter(|o| o.uci_listed()) {
                s.out.line(&opt.uci_line());
            }
            if options::search_params_listed() {
                for line in options::search_param_lines(false) {
                    s.out.line(&line);
                }
            }
            s.out.line("uciok");
        }
        Command::Ucci => {
            s.dialect = Dialect::Ucci;
            s.out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
            s.out.line("id author the Chariot developers");
            for opt in OPTIONS.iter().filter(|o| o.ucci_listed()) {
                s.out.line(&opt.ucci_line());
            }
            if options::search_params_listed() {
                for line in options::search_param_lines(true) {
                    s.out.line(&line);
                }
            }
            s.out.line("ucciok");
        }
        Command::IsReady => s.out.line("readyok"),
        Command::UciNewGame => s.engine.new_game(),
        Command::SetOption { name, value } => options::set(s, &name, value.as_deref()),
        Command::Position { fen, moves } => match s.engine.set_position(fen.as_deref(), &refs(&moves)) {
            Ok(bad) => {
                // A move that cannot be played ends the list quietly, as in
                // Pikafish and Stockfish: a client that checks moves with
                // `go perft 1` reads any line saying "illegal" as a verdict.
                if s.debug {
                    if let Some(bad) = bad {
                        s.out.info(&format!("position: {bad}"));
                    }
                    s.out.info(&format!("position {}", s.engine.position().to_fen()));
                }
            }
            Err(e) => s.out.info(&format!("Unsupported position: {e}; no position until the next valid one")),
        },
        Command::BadPosition(why) => {
            s.engine.refuse_position(&why);
            s.out.info(&format!("Unsupported position: {why}; no position until the next valid one"));
        }
        Command::BanMoves(moves) => {
            let rejected = s.engine.set_banmoves(&refs(&moves));
            if !rejected.is_empty() {
                let list: Vec<String> = rejected.iter().map(|m| clip(m)).collect();
                s.out.info(&format!("banmoves ignored (not legal here): {}", list.join(" ")));
            }
        }
        Command::Go(args) => go(s, args),
        Command::Perft(depth) => {
            if let Some(why) = unsupported(s) {
                s.out.info(&why);
                s.out.line("Nodes searched: 0");
                return true;
            }
            let pos = *s.engine.position();
            start_job(s, "perft", move |out, signals| {
                let start = Instant::now();
                match perft::divide_report_until(&pos, depth, &signals.stop) {
                    Some((lines, total)) => {
                        for line in &lines {
                            out.line(line);
                        }
                        log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
                    }
                    None => out.info(&format!("perft {depth} stopped after {} ms", start.elapsed().as_millis())),
                }
            });
        }
        Command::Stop => {
            // A search that already answered by itself counts as answered:
            // the GUI's `stop` crossed our `bestmove` on the wire.
            if s.engine.stop().is_none() && s.dialect == Dialect::Ucci {
                s.out.line("nobestmove");
            }
        }
        Command::PonderHit { draw } => {
            if !s.thinking() {
                s.out.info("ponderhit ignored: not searching");
            } else {
                if draw && let Some(l) = &s.listener {
                    l.offer_draw();
                }
                if !s.engine.ponderhit() {
                    s.out.info("ponderhit: not pondering; the search goes on");
                }
            }
        }
        Command::Probe { fen, moves } => probe(s, fen.as_deref(), &moves),
        Command::Debug(on) => s.debug = on,
        Command::Display | Command::Eval if unsupported(s).is_some() => {
            s.out.info(&unsupported(s).unwrap_or_default());
        }
        Command::Display => s.out.lines(&s.engine.position().pretty()),
        Command::Eval => {
            s.out.lines(&eval::explain(s.engine.position()));
            if s.engine.use_nnue() {
                s.out.line(&format!("NNUE evaluation (in use), side to move: {}", s.engine.evaluate()));
            }
        }
        Command::Bench(depth) => {
            let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
            let net = s.engine.network_in_use();
            start_job(s, "bench", move |out, signals| match bench::run_until(depth, net, signals) {
                Some(result) => {
                    out.info(&format!("bench positions {} depth {}", result.positions, result.depth));
                    for line in result.count_lines() {
                        out.line(&line);
                    }
                }
                None => out.info("bench stopped"),
            });
        }
        Command::Help => s.out.lines(HELP),
        Command::Quit => {
            // The running search answers first, then `bye`.
            s.engine.stop();
            if s.dialect == Dialect::Ucci {
                s.out.line("bye");
            }
            return false;
        }
        Command::Unknown(text) => s.out.info(&format!("unknown command '{}' (try 'help')", clip(&text))),
        Command::Invalid(why) => s.out.info(&why),
    }
    true
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A garbled `go` line gets this many `info string` lines about it at most.
const MAX_GO_WARNINGS: usize = 5;
/// Thinking time for a `go` whose limits were all unreadable.
const FALLBACK_MOVETIME_MS: i64 = 1000;

fn go(s: &mut Session, args: GoArgs) {
    for w in args.warnings.iter().take(MAX_GO_WARNINGS) {
        s.out.info(w);
    }
    if args.warnings.len() > MAX_GO_WARNINGS {
        s.out.info(&format!("... and {} more problems with this go", args.warnings.len() - MAX_GO_WARNINGS));
    }
    if s.thinking() {
        s.out.info("go while searching: the running search is stopped and answers first");
    }
    // Ends the previous search (it answers) before this one starts.
    s.engine.stop();
    s.listener = None;
    let pos = *s.engine.position();
    if let Some(why) = unsupported(s) {
        // No position: no move, answered like a search that ended by
        // itself (a `stop` crossing it gets nothing more).
        s.out.info(&why);
        let listener = Arc::new(new_listener(s, pos, false));
        s.engine.answer_now(None, None, listener);
        return;
    }

    // UCCI `go depth 0`: a static evaluation and no move.
    if s.dialect == Dialect::Ucci && args.depth.is_some_and(|d| d <= 0) {
        s.out.line(&format!("info depth 0 score {}", s.engine.evaluate()));
        s.out.line("nobestmove");
        return;
    }

    let mut limits = args.to_limits(pos.side_to_move(), s.use_millisec);
    if limits.infinite && !args.infinite && !args.warnings.is_empty() {
        // The GUI meant a limit we could not read: a bare `go` would think
        // until `stop`, which such a GUI may never send.
        s.out.info(&format!("no usable search limit: thinking {FALLBACK_MOVETIME_MS} ms"));
        limits.infinite = false;
        limits.movetime_ms = Some(FALLBACK_MOVETIME_MS);
    }
    let (legal, illegal): (Vec<_>, Vec<_>) = args
        .searchmoves
        .iter()
        .map(|t| (t, Move::parse(t).filter(|&m| pos.check_move(m).is_ok())))
        .partition(|(_, m)| m.is_some());
    if !illegal.is_empty() {
        let list: Vec<String> = illegal.iter().map(|(t, _)| clip(t)).collect();
        s.out.info(&format!("searchmoves ignored (not legal here): {}", list.join(" ")));
        if legal.is_empty() {
            s.out.info("no legal searchmoves: searching every move");
        }
    }
    limits.searchmoves = legal.into_iter().filter_map(|(_, m)| m).collect();
    if s.debug {
        s.out.info(&format!("go {limits:?}"));
    }

    let listener = Arc::new(new_listener(s, pos, args.draw_offered));
    s.listener = Some(Arc::clone(&listener));
    // A draw offer needs the search's judgement of the position.
    if s.engine.own_book() && book_allowed(&limits) && !args.draw_offered && answer_from_book(s, &limits, &listener) {
        return;
    }
    s.engine.go(limits, listener);
}

fn new_listener(s: &Session, pos: Position, draw_offered: bool) -> ProtocolListener {
    ProtocolListener::new(
        Arc::clone(&s.out),
        s.dialect,
        s.show_wdl,
        s.policy,
        s.engine.game_scores(),
        pos,
        draw_offered,
    )
}

/// Plays a book move if there is one: an `info string` naming it, a
/// depth-0 `info` line with the move as PV (GUIs that show or adjudicate
/// by score get one), then `bestmove`. Returns whether it answered.
fn answer_from_book(s: &mut Session, limits: &Limits, listener: &Arc<ProtocolListener>) -> bool {
    let probe = s.engine.book_move(limits);
    for note in &probe.notes {
        s.out.info(note);
    }
    let Some(choice) = probe.choice else { return false };
    let e = &choice.entry;
    s.out.info(&format!(
        "book move {} weight {} of {} games {} (+{} ={} -{}){}",
        choice.mv,
        e.weight,
        choice.total_weight,
        e.games(),
        e.wins,
        e.draws,
        e.losses,
        if choice.mirrored { " mirrored" } else { "" }
    ));
    listener.iteration(&Iteration {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: 0,
        bound: None,
        nodes: 0,
        nps: 0,
        hashfull: 0,
        time_ms: 0,
        pv: vec![choice.mv],
    });
    let listener: Arc<dyn Listener + Send + Sync> = Arc::clone(listener) as _;
    s.engine.answer_now(Some(choice.mv), choice.ponder, listener);
    true
}

fn probe(s: &mut Session, fen: Option<&str>, moves: &[String]) {
    let mut pos = match Position::from_fen_or_start(fen) {
        Ok(p) => p,
        Err(e) => {
            s.out.info(&format!("probe: bad FEN: {e}"));
            return;
        }
    };
    if let Err(e) = pos.play_text_moves(moves.iter().map(String::as_str)) {
        s.out.info(&format!("probe: {e}"));
        return;
    }
    s.out.line(&report::pophash(&s.engine, &pos));
}

const HELP: &str = "Chariot speaks UCCI 3.0 (start with 'ucci') and UCI (start with 'uci').
Commands:
  uci | ucci                      handshake; picks the dialect
  isready                         answers readyok, also while thinking
  ucinewgame                      new game (cheap)
  setoption name N [value V]      set an option (UCCI form: setoption N [V])
  position {startpos | fen F} [moves m1 m2 ...]
  banmoves m1 m2 ...              moves forbidden here until the next position
  go [ponder | draw] [depth N] [nodes N] [movetime MS] [mate N] [infinite]
     [wtime MS btime MS winc MS binc MS movestogo N]
     [time T increment I movestogo N opptime T ...]   (UCCI: seconds unless usemillisec)
     [searchmoves m1 m2 ...]
  go perft N | perft N            leaf counts per root move
  stop | ponderhit [draw]         end the search / the opponent played the ponder move
  probe {startpos | fen F} [moves ...]   hash table entry (UCCI pophash)
  d | eval | bench [depth] | help | quit";
