//! The test harness shared by the integration tests: one `chariot`
//! process driven line by line over its protocol.
//!
//! Every session that ends with [`Session::finish`] (or `quit`) checks: the
//! process exits by itself and successfully, stderr stays empty, no output
//! line has trailing spaces, and every `go` got exactly one answer
//! (`bestmove`, `nobestmove`). With `CHARIOT_TEST_ECHO` set, every line
//! sent (`>>`) and read (`<<`) is echoed on stderr.

// Each test file uses a different part of the harness.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Long enough that only a hang trips it, even on a loaded 2-core machine
/// (zeroing a 2 GB hash took 11 s of wall time under a load of 6).
pub const HANG: Duration = Duration::from_secs(40);

pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    transcript: Vec<String>,
    /// Answers (`bestmove`/`nobestmove`) the commands sent so far call for.
    expected_answers: usize,
}

impl Session {
    pub fn start() -> Session {
        Session::spawn(Command::new(env!("CARGO_BIN_EXE_chariot")))
    }

    /// Like `start`, with the engine run through `wrapper` (a program and
    /// its arguments; the engine's path is appended), e.g. `prlimit`.
    pub fn start_wrapped(wrapper: &[&str]) -> Session {
        let mut command = Command::new(wrapper[0]);
        command.args(&wrapper[1..]).arg(env!("CARGO_BIN_EXE_chariot"));
        Session::spawn(command)
    }

    fn spawn(mut command: Command) -> Session {
        let mut child = command
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting chariot");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let stdin = child.stdin.take();
        let mut s = Session { child, stdin, lines, stderr: Some(stderr), transcript: Vec::new(), expected_answers: 0 };
        // The identification line comes first, before any command.
        let banner = s.recv();
        assert!(banner.starts_with("Chariot ") && banner.ends_with(" by the Chariot developers"), "{banner}");
        s
    }

    pub fn ucci() -> Session {
        let mut s = Session::start();
        s.send("ucci");
        s.until_line("ucciok");
        s
    }

    pub fn uci() -> Session {
        let mut s = Session::start();
        s.send("uci");
        s.until_line("uciok");
        s
    }

    pub fn send(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"go") && words.get(1) != Some(&"perft") {
            self.expected_answers += 1;
        }
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// `setoption name N value V` (UCI form; UCCI accepts it too).
    pub fn set(&mut self, name: &str, value: &str) {
        self.send(&format!("setoption name {name} value {value}"));
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        if std::env::var_os("CHARIOT_TEST_ECHO").is_some() {
            eprintln!(">> {}", String::from_utf8_lossy(bytes).trim_end());
        }
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("writing to chariot");
        stdin.flush().expect("flushing to chariot");
    }

    /// One more answer than the `go` lines sent call for (a `stop` in UCCI
    /// while idle is answered with `nobestmove`; a `go` sent raw).
    pub fn expect_extra_answer(&mut self) {
        self.expected_answers += 1;
    }

    pub fn recv(&mut self) -> String {
        match self.lines.recv_timeout(HANG) {
            Ok(line) => {
                if std::env::var_os("CHARIOT_TEST_ECHO").is_some() {
                    eprintln!("<< {line}");
                }
                self.transcript.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => panic!("no output for {HANG:?}; transcript:\n{}", self.dump()),
            Err(RecvTimeoutError::Disconnected) => panic!("chariot closed stdout; transcript:\n{}", self.dump()),
        }
    }

    /// Lines up to and including the first one `done` accepts.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self.recv();
            let stop = done(&line);
            got.push(line);
            if stop {
                return got;
            }
        }
    }

    pub fn until_line(&mut self, exact: &str) -> Vec<String> {
        self.until(|l| l == exact)
    }

    /// Lines up to and including the next search answer.
    pub fn until_answer(&mut self) -> Vec<String> {
        self.until(is_answer)
    }

    /// The next search answer line.
    pub fn answer(&mut self) -> String {
        self.until_answer().pop().expect("an answer")
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.until_line("readyok");
        got.pop();
        got
    }

    /// Runs `go ...` and returns its output, answer last.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.until_answer()
    }

    /// The FEN the engine holds (from `d`, read to its last line).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Checkers:"));
        let line = lines.iter().find(|l| l.starts_with("Fen: ")).expect("Fen line");
        line["Fen: ".len()..].to_string()
    }

    /// The engine's resident memory in kB (Linux `/proc`), if readable.
    pub fn rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }

    /// Closes stdin (or has sent `quit`), waits for the process to end by
    /// itself, and checks the session-wide rules. Returns the lines that
    /// came after the last one read.
    pub fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("waiting for chariot") {
                break status;
            }
            if start.elapsed() > HANG {
                let _ = self.child.kill();
                panic!("chariot did not exit; transcript:\n{}", self.dump());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(HANG) {
            self.transcript.push(line.clone());
            rest.push(line);
        }
        let stderr = self.stderr.take().expect("stderr").join().expect("stderr reader");
        assert!(status.success(), "exit status {status}; transcript:\n{}", self.dump());
        assert_eq!(stderr, "", "stderr must stay quiet");
        for line in &self.transcript {
            assert_eq!(line.trim_end(), line, "trailing whitespace in {line:?}");
            assert!(!line.contains('\r'), "carriage return in {line:?}");
        }
        let answers = self.transcript.iter().filter(|l| is_answer(l)).count();
        assert_eq!(answers, self.expected_answers, "answers vs go commands; transcript:\n{}", self.dump());
        rest
    }

    /// Sends `quit` and checks the session ends (with `bye` in UCCI).
    pub fn quit(mut self, ucci: bool) {
        self.send("quit");
        let rest = self.finish();
        if ucci {
            assert_eq!(rest.last().map(String::as_str), Some("bye"), "{rest:?}");
        } else {
            assert!(!rest.iter().any(|l| l == "bye"), "{rest:?}");
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A failed test must not leave an engine running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn is_answer(line: &str) -> bool {
    line.starts_with("bestmove") || line == "nobestmove"
}

/// A small seeded generator (xorshift) for the property tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
