//! The protocol front end: UCCI 3.0 and UCI (Pikafish dialect), chosen by
//! the first command. Every input line is parsed into a typed [`Command`]
//! first (`parse`), then acted on here. Output lines go through [`Output`],
//! which flushes each line at once. Nothing here panics on input.

mod options;
mod parse;
mod report;

pub use parse::{Command, GoArgs, parse_command};

use crate::bench;
use crate::engine::Engine;
use crate::eval;
use crate::perft;
use crate::position::Position;
use options::OPTIONS;
use report::ProtocolListener;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Uci,
    Ucci,
}

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
}

/// Protocol-level settings that are not engine options.
pub(crate) struct Session {
    pub dialect: Dialect,
    pub engine: Engine,
    pub out: Arc<Output>,
    pub use_millisec: bool,
    pub show_wdl: bool,
    pub ponder: bool,
    pub debug: bool,
    /// UCCI draw/resign behaviour.
    pub draw_offers: bool,
    pub resign: bool,
}

/// Runs the protocol loop until `quit` or end of input.
pub fn run(input: impl BufRead, out: Arc<Output>) {
    let mut s = Session {
        dialect: Dialect::Uci,
        engine: Engine::new(),
        out,
        use_millisec: false,
        show_wdl: false,
        ponder: false,
        debug: false,
        draw_offers: true,
        resign: true,
    };
    let mut lines = input.split(b'\n');
    while let Some(Ok(raw)) = lines.next() {
        // Lossy: a stray non-UTF-8 byte must not end the session.
        let text = String::from_utf8_lossy(&raw);
        let command = parse_command(&text);
        if !handle(&mut s, command) {
            break;
        }
    }
    // End of input or quit: an unfinished search still answers.
    s.engine.stop();
}

/// Acts on one command; false = quit.
fn handle(s: &mut Session, command: Command) -> bool {
    match command {
        Command::Empty => {}
        Command::Uci => {
            s.dialect = Dialect::Uci;
            s.out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
            s.out.line("id author the Chariot developers");
            for opt in OPTIONS.iter().filter(|o| o.uci_name.is_some()) {
                s.out.line(&opt.uci_line());
            }
            s.out.line("uciok");
        }
        Command::Ucci => {
            s.dialect = Dialect::Ucci;
            s.out.line(&format!("id name Chariot {}", env!("CARGO_PKG_VERSION")));
            s.out.line("id copyright 2026 the Chariot developers, GPL-3.0-or-later");
            s.out.line("id author the Chariot developers");
            s.out.line("id user unknown");
            for opt in OPTIONS.iter().filter(|o| o.ucci_name.is_some()) {
                s.out.line(&opt.ucci_line());
            }
            s.out.line("ucciok");
        }
        Command::IsReady => s.out.line("readyok"),
        Command::UciNewGame => s.engine.new_game(),
        Command::SetOption { name, value } => options::set(s, &name, value.as_deref()),
        Command::Position { fen, moves } => match s.engine.set_position(fen.as_deref(), &refs(&moves)) {
            Ok(None) => {}
            Ok(Some(bad)) => s.out.line(&format!("info string {bad}")),
            Err(e) => s.out.line(&format!("info string bad FEN: {e}; position unchanged")),
        },
        Command::BanMoves(moves) => {
            let rejected = s.engine.set_banmoves(&refs(&moves));
            if !rejected.is_empty() {
                s.out.line(&format!("info string banmoves ignored (not legal here): {}", rejected.join(" ")));
            }
        }
        Command::Go(args) => go(s, args),
        Command::Perft(depth) => {
            let pos = *s.engine.position();
            let start = Instant::now();
            let mut total = 0;
            for (m, n) in perft::divide(&pos, depth) {
                s.out.line(&format!("{m}: {n}"));
                total += n;
            }
            s.out.line("");
            s.out.line(&format!("Nodes searched: {total}"));
            log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
        }
        Command::Stop => {
            if s.engine.stop().is_none() && s.dialect == Dialect::Ucci {
                // UCCI: `stop` while idle answers `nobestmove`.
                s.out.line("nobestmove");
            }
        }
        Command::PonderHit { draw: _ } => {
            s.engine.ponderhit();
        }
        Command::Probe { fen, moves } => probe(s, fen.as_deref(), &moves),
        Command::Display => s.out.lines(&s.engine.position().pretty()),
        Command::Eval => s.out.lines(&eval::explain(s.engine.position())),
        Command::Bench(depth) => {
            let out = Arc::clone(&s.out);
            s.engine.stop();
            let result = bench::run(depth.unwrap_or(bench::DEFAULT_DEPTH));
            out.line(&format!("info string bench positions {} depth {}", result.positions, result.depth));
            out.line(&format!("Total time (ms) : {}", result.time_ms));
            out.line(&format!("Nodes searched  : {}", result.nodes));
            out.line(&format!("Nodes/second    : {}", result.nps));
        }
        Command::Help => s.out.lines(HELP),
        Command::Quit => {
            s.engine.stop();
            if s.dialect == Dialect::Ucci {
                s.out.line("bye");
            }
            return false;
        }
        Command::Unknown(text) => s.out.line(&format!("info string unknown command '{}' (try 'help')", clip(&text))),
        Command::Invalid(why) => s.out.line(&format!("info string {why}")),
    }
    true
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn clip(text: &str) -> String {
    let t: String = text.chars().take(80).collect();
    if t.len() < text.len() { format!("{t}...") } else { t }
}

fn go(s: &mut Session, args: GoArgs) {
    if args.perft.is_some() {
        return;
    }
    let listener = Arc::new(ProtocolListener::new(
        Arc::clone(&s.out),
        s.dialect,
        s.show_wdl,
        args.draw_offered,
        s.draw_offers,
        s.resign,
    ));
    // UCCI `go depth 0` asks for no search at all.
    if s.dialect == Dialect::Ucci && args.depth == Some(0) {
        s.engine.stop();
        s.out.line("nobestmove");
        return;
    }
    let limits = args.to_limits(s.engine.position().side_to_move(), s.dialect, s.use_millisec);
    s.engine.go(limits, listener);
}

fn probe(s: &mut Session, fen: Option<&str>, moves: &[String]) {
    let pos = match fen {
        Some(f) => Position::from_fen(f),
        None => Ok(Position::startpos()),
    };
    let Ok(mut pos) = pos else {
        s.out.line("info string probe: bad FEN");
        return;
    };
    if let Err(e) = pos.play_text_moves(moves.iter().map(String::as_str)) {
        s.out.line(&format!("info string probe: {e}"));
        return;
    }
    s.out.line(&report::pophash(&s.engine, &pos));
}

const HELP: &str = "Chariot speaks UCCI 3.0 (start with 'ucci') and UCI (start with 'uci').
Commands: uci, ucci, isready, ucinewgame, setoption, position {startpos | fen F} [moves ...],
banmoves m1 m2 ..., go [ponder|draw] [depth N | nodes N | movetime MS | infinite | mate N |
wtime/btime/winc/binc/movestogo | time/increment/movestogo/opptime (UCCI)] [searchmoves ...],
go perft N, stop, ponderhit, probe, d (board), eval, bench [depth], help, quit.";
