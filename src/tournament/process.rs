//! One running engine: started with its working directory, greeted in UCI
//! or UCCI, asked for moves with a deadline, killed when it misbehaves.
//!
//! Protocol details stay here: the rest of the tournament speaks ICCS
//! moves (ranks 0-9) and milliseconds. A reader thread turns the engine's
//! stdout into a channel of lines, so every wait has a deadline and an
//! engine that closes its output (crash, exit) is seen at once.

mod xboard;

use super::clock::TimeControl;
use super::spec::{EngineSpec, Protocol, RankBase, TimeUnit};
use crate::position::Position;
use crate::types::score::MATE;
use crate::types::{Color, Move, Square};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine failed to do what it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, exited, or closed its input or output.
    Crashed(String),
    /// It gave no answer within the time it had.
    NoAnswer { waited_ms: u64, expected: &'static str },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crashed(why) => write!(f, "crashed ({why})"),
            Fault::NoAnswer { waited_ms, expected } => write!(f, "no {expected} within {waited_ms} ms"),
        }
    }
}

/// An engine's evaluation, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// In centipawns, mates as large values, for adjudication.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => MATE - m,
            Score::Mate(m) => -MATE - m,
        }
    }
}

/// The limit of a `go` command; times in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Both clocks; `moves_to_go` is the side to move's.
    Clock {
        red_ms: i64,
        red_inc_ms: u64,
        black_ms: i64,
        black_inc_ms: u64,
        moves_to_go: Option<u32>,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

/// What the engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move as the engine wrote it (`(none)` for `nobestmove`).
    pub text: String,
    /// The move in ICCS when the text is one (not checked for legality).
    pub mv: Option<Move>,
    /// The reply the engine expects (`bestmove m ponder p`).
    pub ponder: Option<Move>,
    /// From `go` sent to `bestmove` received.
    pub elapsed_ms: u64,
    /// From the last `info` line with a score / a depth.
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    pub name: String,
    protocol: Protocol,
    ranks: RankBase,
    time_unit: TimeUnit,
    /// A UCCI engine that offers the `newgame` button.
    offers_newgame: bool,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The state of an xboard engine's game.
    xboard: xboard::State,
}

impl EngineProcess {
    /// Starts the engine, does the handshake and sets its options. Any
    /// failure (missing program, no `uciok` within `timeout`) is an error.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProcess, Fault> {
        let program = spec.command.first().ok_or_else(|| Fault::Crashed("no command".into()))?;
        let mut command = Command::new(program);
        command.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        match &spec.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| Fault::Crashed(format!("cannot open stderr file {}: {e}", path.display())))?;
                command.stderr(file);
            }
            None => {
                command.stderr(Stdio::null());
            }
        }
        let mut child =
            command.spawn().map_err(|e| Fault::Crashed(format!("cannot start '{}': {e}", spec.command.join(" "))))?;
        let stdin = child.stdin.take().ok_or_else(|| Fault::Crashed("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| Fault::Crashed("no stdout".into()))?;
        let (sender, lines) = channel();
        std::thread::Builder::new()
            .name(format!("{} stdout", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buffer).trim().to_string();
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| Fault::Crashed(format!("no reader thread: {e}")))?;
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            protocol: spec.protocol,
            ranks: spec.ranks.unwrap_or(RankBase::Zero),
            time_unit: spec.time_unit.unwrap_or(TimeUnit::Seconds),
            offers_newgame: false,
            child,
            stdin,
            lines,
            xboard: xboard::State::default(),
        };
        engine.handshake(spec, timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), Fault> {
        let deadline = Instant::now() + timeout;
        let (hello, ok) = match self.protocol {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Xboard => return self.xboard_handshake(spec, timeout),
        };
        self.send(hello)?;
        let mut offered = Vec::new();
        loop {
            let line = self.read_line(deadline, ok, timeout)?;
            if line == ok {
                break;
            }
            if let Some(name) = option_name(&line, self.protocol) {
                offered.push(name);
            }
        }
        let offers = |name: &str| offered.iter().any(|o| o.eq_ignore_ascii_case(name));
        match self.protocol {
            Protocol::Uci => {
                // Fairy-Stockfish plays chess until told otherwise, and
                // writes ranks 1-10 while it speaks UCI.
                if offers("UCI_Variant") {
                    self.send("setoption name UCI_Variant value xiangqi")?;
                }
                self.ranks = spec.ranks.unwrap_or(if offers("UCI_Variant") { RankBase::One } else { RankBase::Zero });
            }
            Protocol::Xboard => {}
            Protocol::Ucci => {
                self.offers_newgame = offers("newgame");
                self.time_unit =
                    spec.time_unit.unwrap_or(if offers("usemillisec") { TimeUnit::Millis } else { TimeUnit::Seconds });
                if self.time_unit == TimeUnit::Millis {
                    self.send("setoption usemillisec true")?;
                }
            }
        }
        for (name, value) in &spec.options {
            let line = match self.protocol {
                Protocol::Uci => format!("setoption name {name} value {value}"),
                Protocol::Ucci => format!("setoption {name} {value}"),
                Protocol::Xboard => unreachable!("handled by xboard_handshake"),
            };
            self.send(&line)?;
        }
        self.wait_ready(timeout)
    }

    /// `isready` answered by `readyok` within `timeout`.
    pub fn wait_ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        if self.protocol == Protocol::Xboard {
            return self.xboard_ping(timeout);
        }
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.read_line(deadline, "readyok", timeout)? != "readyok" {}
        Ok(())
    }

    /// Tells the engine a new game at `control` starts, and waits until it
    /// is ready. `move_timeout_ms`: at fixed depth, how long a move may take
    /// (an xboard engine is given that as its time per move, so that its
    /// own default clock does not cut the search short).
    pub fn new_game(&mut self, control: TimeControl, move_timeout_ms: u64, timeout: Duration) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci if self.offers_newgame => self.send("setoption newgame")?,
            Protocol::Ucci => {}
            Protocol::Xboard => self.xboard_new_game(control, move_timeout_ms)?,
        }
        self.wait_ready(timeout)
    }

    /// Sends the position (`moves` played from `start`) and `go`, and waits
    /// up to `wait_ms` for the best move.
    pub fn search(&mut self, start: &Position, moves: &[Move], limit: Limit, wait_ms: u64) -> Result<Answer, Fault> {
        if self.protocol == Protocol::Xboard {
            return self.xboard_search(start, moves, limit, wait_ms);
        }
        let started = self.go(start, moves, limit, false)?;
        self.wait_for_move(started, wait_ms)
    }

    /// Turns pondering on (or off) in the engine's options.
    pub fn set_ponder(&mut self, on: bool) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Uci => self.send(&format!("setoption name Ponder value {on}")),
            Protocol::Ucci => self.send(&format!("setoption ponder {on}")),
            // An xboard engine is kept in force mode between its moves, so
            // it has no time of its own to ponder in.
            Protocol::Xboard => Ok(()),
        }
    }

    /// Starts thinking on the opponent's time, in the position after
    /// `moves` (which end with the expected reply); `limit` is the clock
    /// as it will be when that reply comes.
    pub fn ponder(&mut self, start: &Position, moves: &[Move], limit: Limit) -> Result<(), Fault> {
        self.go(start, moves, limit, true).map(|_| ())
    }

    /// The expected reply came: the search goes on as a normal one, timed
    /// from now.
    pub fn ponder_hit(&mut self, wait_ms: u64) -> Result<Answer, Fault> {
        let started = Instant::now();
        self.send("ponderhit")?;
        self.wait_for_move(started, wait_ms)
    }

    /// Another reply came: stops the ponder search and drops its move.
    pub fn stop_ponder(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("stop")?;
        self.wait_for_move(Instant::now(), timeout.as_millis() as u64).map(|_| ())
    }

    /// Sends `position` and `go` (`go ponder` when pondering); returns when
    /// `go` was sent.
    fn go(&mut self, start: &Position, moves: &[Move], limit: Limit, ponder: bool) -> Result<Instant, Fault> {
        let position = self.position_command(start, moves);
        self.send(&position)?;
        let red_to_move = moves.len().is_multiple_of(2) == (start.side_to_move() == Color::Red);
        let mut go = self.go_command(limit, red_to_move);
        if ponder {
            go.insert_str(2, " ponder");
        }
        let started = Instant::now();
        self.send(&go)?;
        Ok(started)
    }

    /// Reads up to `bestmove` (or `nobestmove`), keeping the last score and
    /// depth of the `info` lines.
    fn wait_for_move(&mut self, started: Instant, wait_ms: u64) -> Result<Answer, Fault> {
        let deadline = started + Duration::from_millis(wait_ms);
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.read_line(deadline, "bestmove", Duration::from_millis(wait_ms))?;
            let elapsed_ms = started.elapsed().as_millis() as u64;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let (s, d) = parse_info(&line, self.protocol);
                    score = s.or(score);
                    depth = d.or(depth);
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("(none)").to_string();
                    let mv = self.parse_move(&text);
                    let ponder = match (words.next(), words.next()) {
                        (Some("ponder"), Some(p)) => self.parse_move(p),
                        _ => None,
                    };
                    return Ok(Answer { text, mv, ponder, elapsed_ms, score, depth });
                }
                Some("nobestmove") => {
                    return Ok(Answer { text: "(none)".into(), mv: None, ponder: None, elapsed_ms, score, depth });
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, and kills it if it has not within a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }

    fn position_command(&self, start: &Position, moves: &[Move]) -> String {
        // UCCI convention: the position after the last capture, then the
        // moves since (some UCCI engines keep a short move list).
        let (base, rest) = match self.protocol {
            Protocol::Uci | Protocol::Xboard => (*start, moves),
            Protocol::Ucci => {
                let mut pos = *start;
                let mut base = *start;
                let mut from = 0;
                for (i, &m) in moves.iter().enumerate() {
                    let capture = pos.is_capture(m);
                    pos.make_move(m);
                    if capture {
                        base = pos;
                        from = i + 1;
                    }
                }
                (base, &moves[from..])
            }
        };
        let mut line = if base == Position::startpos() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", base.to_fen())
        };
        if !rest.is_empty() {
            line.push_str(" moves");
            for &m in rest {
                line.push(' ');
                line.push_str(&self.format_move(m));
            }
        }
        line
    }

    fn go_command(&self, limit: Limit, red_to_move: bool) -> String {
        match (self.protocol, limit) {
            (_, Limit::Depth(d)) => format!("go depth {d}"),
            (_, Limit::Nodes(n)) => format!("go nodes {n}"),
            (Protocol::Uci, Limit::MoveTime(ms)) => format!("go movetime {ms}"),
            // UCCI has no movetime: all the time for one move.
            (Protocol::Ucci, Limit::MoveTime(ms)) => format!("go time {} movestogo 1", self.ucci_time(ms as i64)),
            (Protocol::Uci, Limit::Clock { red_ms, red_inc_ms, black_ms, black_inc_ms, moves_to_go }) => {
                let mut line = format!(
                    "go wtime {} btime {} winc {red_inc_ms} binc {black_inc_ms}",
                    red_ms.max(0),
                    black_ms.max(0)
                );
                if let Some(n) = moves_to_go {
                    line.push_str(&format!(" movestogo {n}"));
                }
                line
            }
            (Protocol::Xboard, _) => unreachable!("xboard has no go command"),
            (Protocol::Ucci, Limit::Clock { red_ms, red_inc_ms, black_ms, black_inc_ms, moves_to_go }) => {
                let (own, own_inc, opp, opp_inc) = if red_to_move {
                    (red_ms, red_inc_ms, black_ms, black_inc_ms)
                } else {
                    (black_ms, black_inc_ms, red_ms, red_inc_ms)
                };
                let mut line = format!("go time {}", self.ucci_time(own));
                match moves_to_go {
                    Some(n) => line.push_str(&format!(" movestogo {n}")),
                    None => line.push_str(&format!(" increment {}", self.ucci_time(own_inc as i64))),
                }
                line.push_str(&format!(" opptime {}", self.ucci_time(opp)));
                if moves_to_go.is_none() {
                    line.push_str(&format!(" oppincrement {}", self.ucci_time(opp_inc as i64)));
                }
                line
            }
        }
    }

    fn ucci_time(&self, ms: i64) -> i64 {
        match self.time_unit {
            TimeUnit::Millis => ms.max(0),
            // Whole seconds, rounded down: an engine that reads seconds
            // seldom accepts fractions.
            TimeUnit::Seconds => ms.max(0) / 1000,
        }
    }

    /// ICCS to the engine's notation.
    fn format_move(&self, m: Move) -> String {
        match self.ranks {
            RankBase::Zero => m.to_string(),
            RankBase::One => {
                let square = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
                format!("{}{}", square(m.from()), square(m.to()))
            }
        }
    }

    /// The engine's notation to ICCS; `None` for anything that is not a
    /// move on the board.
    fn parse_move(&self, text: &str) -> Option<Move> {
        let shift = match self.ranks {
            RankBase::Zero => 0,
            RankBase::One => 1,
        };
        parse_engine_move(text, shift)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Fault::Crashed(format!("writing '{line}': {e}")))
    }

    /// The next line before `deadline`; `expected` and `waited` say what
    /// was awaited if none comes.
    fn read_line(&mut self, deadline: Instant, expected: &'static str, waited: Duration) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                log::debug!("{} > {line}", self.name);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::NoAnswer { waited_ms: waited.as_millis() as u64, expected }),
            Err(RecvTimeoutError::Disconnected) => {
                // The output closes a moment before the exit can be seen:
                // wait a little for the exit status, which says more.
                let until = Instant::now() + Duration::from_millis(500);
                let status = loop {
                    match self.child.try_wait() {
                        Ok(Some(status)) => break status.to_string(),
                        Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                        _ => break "output closed".to_string(),
                    }
                };
                Err(Fault::Crashed(status))
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses `h2e2` (shift 0) or `h3e3` / `b10c8` (shift 1, ranks 1-10).
pub fn parse_engine_move(text: &str, shift: u8) -> Option<Move> {
    fn square(text: &str, shift: u8) -> Option<(Square, &str)> {
        let mut chars = text.char_indices();
        let (_, file) = chars.next()?;
        let digits_end = text[1..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |i| i + 1);
        if !('a'..='i').contains(&file) || digits_end == 1 || digits_end > 3 {
            return None;
        }
        let rank: u8 = text[1..digits_end].parse().ok()?;
        let rank = rank.checked_sub(shift)?;
        let square = Square::from_file_rank(file as u8 - b'a', rank)?;
        Some((square, &text[digits_end..]))
    }
    // Byte slicing below needs ASCII (an engine may send anything).
    if !text.is_ascii() {
        return None;
    }
    let (from, rest) = square(text, shift)?;
    let (to, rest) = square(rest, shift)?;
    if !rest.is_empty() {
        return None;
    }
    Move::new(from, to)
}

/// The name of an option line of the handshake, if it is one.
fn option_name(line: &str, protocol: Protocol) -> Option<String> {
    let rest = line.strip_prefix("option ")?;
    match protocol {
        // `option name Hash type spin ...`: the name may hold spaces.
        Protocol::Uci => {
            let rest = rest.trim_start().strip_prefix("name ")?;
            let end = rest.find(" type ").unwrap_or(rest.len());
            Some(rest[..end].trim().to_string())
        }
        Protocol::Ucci => rest.split_whitespace().next().map(str::to_string),
        Protocol::Xboard => None,
    }
}

/// The score and depth of an `info` line.
fn parse_info(line: &str, protocol: Protocol) -> (Option<Score>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (mut score, mut depth) = (None, None);
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "score" => {
                score = match (words.get(i + 1), words.get(i + 2)) {
                    (Some(&"cp"), Some(v)) => v.parse().ok().map(Score::Cp),
                    (Some(&"mate"), Some(v)) => v.parse().ok().map(Score::Mate),
                    // UCCI: a bare number.
                    (Some(v), _) if protocol == Protocol::Ucci => v.parse().ok().map(Score::Cp),
                    _ => None,
                }
            }
            // The rest of the line is moves or text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    (score, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_moves_convert_both_rank_bases() {
        assert_eq!(parse_engine_move("h2e2", 0), Move::parse("h2e2"));
        assert_eq!(parse_engine_move("h3e3", 1), Move::parse("h2e2"));
        assert_eq!(parse_engine_move("b10c8", 1), Move::parse("b9c7"));
        for bad in ["", "(none)", "0000", "h2e", "h2e2x", "j2e2", "h0e1", "b10c8", "é2e2", "h2é2", "h99e2"] {
            let shift = if bad == "h0e1" { 1 } else { 0 };
            assert_eq!(parse_engine_move(bad, shift), None, "{bad}");
        }
    }

    #[test]
    fn info_lines_give_score_and_depth() {
        let uci = "info depth 12 seldepth 20 score cp -35 nodes 10 pv h2e2 h9g7";
        assert_eq!(parse_info(uci, Protocol::Uci), (Some(Score::Cp(-35)), Some(12)));
        assert_eq!(parse_info("info depth 3 score mate -2 pv a0a1", Protocol::Uci), (Some(Score::Mate(-2)), Some(3)));
        assert_eq!(parse_info("info depth 7 score 86 pv d0e1", Protocol::Ucci), (Some(Score::Cp(86)), Some(7)));
        assert_eq!(parse_info("info string depth 3", Protocol::Uci), (None, None));
        assert!(Score::Mate(3).as_cp() > Score::Cp(5000).as_cp());
        assert!(Score::Mate(-3).as_cp() < Score::Cp(-5000).as_cp());
    }

    #[test]
    fn option_names_of_both_protocols() {
        assert_eq!(
            option_name("option name UCI_Variant type combo default chess", Protocol::Uci).unwrap(),
            "UCI_Variant"
        );
        assert_eq!(option_name("option name Clear Hash type button", Protocol::Uci).unwrap(), "Clear Hash");
        assert_eq!(option_name("option usemillisec type check default true", Protocol::Ucci).unwrap(), "usemillisec");
        assert_eq!(option_name("id name x", Protocol::Uci), None);
    }
}
