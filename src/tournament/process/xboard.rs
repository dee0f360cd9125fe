//! The xboard protocol (CECP, version 2) for engines such as MaxQi: the
//! engine keeps its own board, so moves are fed one by one in force mode
//! and `go` asks for a move; `time`/`otim` (centiseconds) give the clocks,
//! `level`, `st` and `sd` the time control.

use super::{Answer, EngineProcess, Fault, Limit, Score};
use crate::position::Position;
use crate::tournament::clock::TimeControl;
use crate::tournament::spec::EngineSpec;
use crate::types::Move;
use std::time::{Duration, Instant};

/// What the engine announced, and which game it has on its board.
#[derive(Debug, Default)]
pub(super) struct State {
    ping: bool,
    setboard: bool,
    usermove: bool,
    /// `variants` lists xiangqi (then `variant xiangqi` is sent).
    xiangqi_variant: bool,
    pings_sent: u32,
    /// The start position and moves the engine's board holds.
    start: Option<Position>,
    moves: Vec<Move>,
    control: Option<TimeControl>,
    /// At fixed depth: the time per move that leaves the depth to decide.
    depth_move_time_ms: u64,
}

/// A protocol 1 engine sends no features: how long to wait for them.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

impl EngineProcess {
    pub(super) fn xboard_handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), Fault> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let started = Instant::now();
        let mut deadline = started + FEATURE_WAIT.min(timeout);
        loop {
            let line = match self.read_line(deadline, "feature done=1", timeout) {
                Ok(line) => line,
                // No `done=1`: a protocol 1 engine, or one that forgot.
                Err(Fault::NoAnswer { .. }) => break,
                Err(fault) => return Err(fault),
            };
            let Some(rest) = line.strip_prefix("feature ") else { continue };
            let mut done = false;
            for (name, value) in features(rest) {
                match name.as_str() {
                    "ping" => self.xboard.ping = value == "1",
                    "setboard" => self.xboard.setboard = value == "1",
                    "usermove" => self.xboard.usermove = value == "1",
                    "variants" => self.xboard.xiangqi_variant = value.split(',').any(|v| v.trim() == "xiangqi"),
                    // done=0: the engine needs time; wait up to the full timeout.
                    "done" if value == "0" => deadline = started + timeout,
                    "done" => done = true,
                    _ => {}
                }
                if name != "done" {
                    self.send(&format!("accepted {name}"))?;
                }
            }
            if done {
                break;
            }
        }
        for (name, value) in &spec.options {
            let line = match name.as_str() {
                "memory" | "cores" => format!("{name} {value}"),
                _ => format!("option {name}={value}"),
            };
            self.send(&line)?;
        }
        self.xboard_ping(timeout)
    }

    /// `ping N` answered by `pong N` (nothing to wait for without `ping`).
    pub(super) fn xboard_ping(&mut self, timeout: Duration) -> Result<(), Fault> {
        if !self.xboard.ping {
            return Ok(());
        }
        self.xboard.pings_sent += 1;
        let n = self.xboard.pings_sent;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + timeout;
        let pong = format!("pong {n}");
        while self.read_line(deadline, "pong", timeout)? != pong {}
        Ok(())
    }

    pub(super) fn xboard_new_game(&mut self, control: TimeControl, move_timeout_ms: u64) -> Result<(), Fault> {
        self.xboard.control = Some(control);
        self.xboard.depth_move_time_ms = move_timeout_ms;
        self.xboard_reset(&Position::startpos())
    }

    /// A new game on the engine's board from `start`, in force mode.
    fn xboard_reset(&mut self, start: &Position) -> Result<(), Fault> {
        self.send("new")?;
        if self.xboard.xiangqi_variant {
            self.send("variant xiangqi")?;
        }
        self.send("force")?;
        // Thinking output on (scores for the PGN), pondering off.
        self.send("post")?;
        self.send("easy")?;
        match self.xboard.control {
            Some(TimeControl::Clock { moves, base_ms, increment_ms }) => {
                let base = if base_ms % 60_000 == 0 {
                    (base_ms / 60_000).to_string()
                } else {
                    format!("{}:{:02}", base_ms / 60_000, (base_ms % 60_000) / 1000)
                };
                let increment = increment_ms as f64 / 1000.0;
                self.send(&format!("level {} {base} {increment}", moves.unwrap_or(0)))?;
            }
            // Whole seconds: protocol 1 engines read no fractions.
            Some(TimeControl::MoveTime { ms }) => self.send(&format!("st {}", ms.div_ceil(1000).max(1)))?,
            // Without a time, an engine such as MaxQi uses its default clock
            // and may stop at depth 1: `st` gives it all the time a move may
            // take, so the depth decides.
            Some(TimeControl::Depth(d)) => {
                self.send(&format!("st {}", (self.xboard.depth_move_time_ms / 1000).max(1)))?;
                self.send(&format!("sd {d}"))?;
            }
            Some(TimeControl::Nodes(_)) | None => {}
        }
        if *start != Position::startpos() {
            if !self.xboard.setboard {
                return Err(Fault::Crashed("the engine cannot set up a FEN (no setboard feature)".into()));
            }
            self.send(&format!("setboard {}", start.to_fen()))?;
        }
        self.xboard.start = Some(*start);
        self.xboard.moves.clear();
        Ok(())
    }

    pub(super) fn xboard_search(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: Limit,
        wait_ms: u64,
    ) -> Result<Answer, Fault> {
        if self.xboard.start != Some(*start) || !moves.starts_with(&self.xboard.moves) {
            self.xboard_reset(start)?;
        }
        self.send("force")?;
        for &m in &moves[self.xboard.moves.len()..] {
            let text = self.format_move(m);
            let line = if self.xboard.usermove { format!("usermove {text}") } else { text };
            self.send(&line)?;
        }
        self.xboard.moves = moves.to_vec();
        if let Limit::Clock { red_ms, black_ms, .. } = limit {
            let red_to_move = moves.len().is_multiple_of(2) == (start.side_to_move() == crate::types::Color::Red);
            let (own, opp) = if red_to_move { (red_ms, black_ms) } else { (black_ms, red_ms) };
            self.send(&format!("time {}", own.max(0) / 10))?;
            self.send(&format!("otim {}", opp.max(0) / 10))?;
        }
        let started = Instant::now();
        self.send("go")?;
        let deadline = started + Duration::from_millis(wait_ms);
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.read_line(deadline, "move", Duration::from_millis(wait_ms))?;
            let elapsed_ms = started.elapsed().as_millis() as u64;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["move", text, ..] => {
                    let mv = self.parse_move(text);
                    if let Some(m) = mv {
                        self.xboard.moves.push(m);
                    }
                    return Ok(Answer { text: text.to_string(), mv, ponder: None, elapsed_ms, score, depth });
                }
                ["resign", ..] => {
                    return Ok(Answer { text: "resign".into(), mv: None, ponder: None, elapsed_ms, score, depth });
                }
                // Thinking output: ply score time nodes pv.
                [ply, value, _, _, ..] if ply.parse::<u32>().is_ok() => {
                    if let Ok(cp) = value.parse::<i32>() {
                        depth = ply.parse().ok();
                        score = Some(Score::Cp(cp));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The `name=value` pairs of a feature line; values may be quoted.
fn features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            },
            None => match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            },
        };
        out.push((name, value.to_string()));
        rest = next.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let got = features("myname=\"MaxQi 4.8G\" setboard=0 ping=1 done=0");
        let want = [("myname", "MaxQi 4.8G"), ("setboard", "0"), ("ping", "1"), ("done", "0")];
        assert_eq!(got, want.map(|(n, v)| (n.to_string(), v.to_string())));
        assert_eq!(features("variants=\"xiangqi,shogi\" done=1")[0].1, "xiangqi,shogi");
    }
}
