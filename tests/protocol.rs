//! Scripted protocol sessions against the real `chariot` binary, in both
//! dialects: handshakes, every command, odd input, and the command sequences
//! real GUIs send. Timeouts only detect hangs; nothing asserts speed.
//!
//! Every session checks, when it ends: the process exits by itself and
//! successfully, stderr stays empty, no output line has trailing spaces, and
//! every `go` got exactly one answer (`bestmove`, `nobestmove`).

mod common;

use common::{Session, is_answer};
use std::time::Duration;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// Red to move and checkmated by two rooks.
const RED_MATED: &str = "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1";
/// Red mates in one: b1b9.
const RED_MATES_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
/// Black's only move is e9f9, then b1b9 mates: lost.
const BLACK_LOST: &str = "4k4/R8/9/9/9/9/9/9/1R7/3K5 b - - 0 1";
/// No attacking pieces left: a dead draw.
const DEAD_DRAW: &str = "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1";
/// Red (to move) is a pawn down but safe: worse, not lost, not dead drawn.
const RED_WORSE: &str = "4k4/9/9/9/9/4p4/9/9/4A4/4K4 w - - 0 1";
/// Bare kings; Red's only moves are e0e1 and e0f0 (d0 faces the other king).
const BARE_KINGS: &str = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";

fn best_of(answer: &str) -> &str {
    answer.split_whitespace().nth(1).expect("bestmove has a move")
}

fn info_strings(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string ")).collect()
}

/// The legal moves of the engine's current position, from `go perft 1`.
fn legal_moves(s: &mut Session) -> Vec<String> {
    s.send("go perft 1");
    let lines = s.until(|l| l.starts_with("Nodes searched"));
    lines.iter().filter_map(|l| l.split_once(": ")).filter(|(m, _)| m.len() == 4).map(|(m, _)| m.to_string()).collect()
}

/// The value after `key` in an info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1).copied())
}

// ------------------------------------------------------------ handshakes

#[test]
fn ucci_handshake_announces_options_without_name_keyword() {
    let mut s = Session::start();
    s.send("ucci");
    let lines = s.until_line("ucciok");
    assert!(lines.len() < 45, "handshake of {} lines", lines.len());
    assert!(lines[0].starts_with("id name Chariot"));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for o in &options {
        assert!(!o.starts_with("option name "), "UCCI option lines have no 'name': {o}");
        assert!(o.contains(" type "), "{o}");
    }
    for name in [
        "usemillisec",
        "hashsize",
        "threads",
        "ponder",
        "debug",
        "newgame",
        "usebook",
        "bookfiles",
        "randomness",
        "style",
        "level",
    ] {
        assert!(options.iter().any(|o| o.starts_with(&format!("option {name} type "))), "option {name} missing");
    }
    // Short, for cchess (one line per 0.2 s, 10 s at most); the other
    // options are still taken by name.
    assert!(lines.len() <= 15, "handshake of {} lines", lines.len());
    for (name, value) in [("batch", "true"), ("drawoffers", "false"), ("resign", "false"), ("resignmode", "never")] {
        assert!(!options.iter().any(|o| o.starts_with(&format!("option {name} "))), "{name} announced");
        s.send(&format!("setoption {name} {value}"));
    }
    assert!(s.sync().is_empty());
    s.quit(true);
}

#[test]
fn uci_handshake_announces_the_expected_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.until_line("uciok");
    assert!(lines.len() < 45, "handshake of {} lines", lines.len());
    assert!(lines[0].starts_with("id name Chariot"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in ["Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "Move Overhead", "UCI_ShowWDL"] {
        let prefix = format!("option name {name} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "option {name} missing");
    }
    s.quit(false);
}

#[test]
fn uci_then_ucci_answers_both_and_ends_in_ucci() {
    let mut s = Session::start();
    s.send("uci");
    s.send("ucci");
    s.until_line("uciok");
    s.until_line("ucciok");
    s.send("position startpos");
    let out = s.go("depth 2");
    let pv_lines: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(!pv_lines.is_empty());
    for l in pv_lines {
        // UCCI: a bare score, no `cp`, no `multipv`.
        assert!(!l.contains(" cp ") && !l.contains("multipv"), "{l}");
        assert!(field(l, "score").unwrap().parse::<i32>().is_ok(), "{l}");
    }
    s.quit(true);
}

#[test]
fn handshake_is_optional_and_go_before_position_searches_the_start() {
    let mut s = Session::start();
    let answer = s.go("depth 2").pop().unwrap();
    let legal = legal_moves(&mut s);
    assert_eq!(legal.len(), 44);
    assert!(legal.iter().any(|m| m == best_of(&answer)), "{answer}");
    s.quit(false);
}

// -------------------------------------------------------------- positions

#[test]
fn positions_in_every_accepted_form() {
    let mut s = Session::uci();
    s.send("position startpos moves h2e2 h9g7");
    assert_eq!(s.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    // Cyclone GUIs leave out the word `position`.
    s.send(&format!("fen {START} moves b0c2"));
    assert_eq!(s.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 1 1");
    s.send("startpos moves h0g2");
    assert!(s.fen().contains("/RNBAKAB1R b "));
    // `moves` with nothing after it (sent after every capture), `r` for Red,
    // a FEN cut after the side, extra spaces, `\r\n`, uppercase ICCS.
    s.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves");
    assert_eq!(s.fen(), START);
    s.send_raw(b"position   startpos   moves  H2-E2 \r\n");
    assert_eq!(s.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
    assert!(info_strings(&s.sync()).is_empty());
    s.quit(false);
}

#[test]
fn a_refused_position_leaves_no_position_until_a_valid_one() {
    for ucci in [true, false] {
        let mut s = if ucci { Session::ucci() } else { Session::uci() };
        let none = if ucci { "nobestmove" } else { "bestmove (none)" };
        for bad in [
            "position fen",
            "position fen rnbakabnr/9/1c5c1 w - - 0 1",
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "position fen 3k5/9/9/9/9/9/4K4/9/9/9 w - - 0 1",
            "position fen \u{fffd}\u{1b}[31m",
            "position",
            "position moves h2e2",
        ] {
            s.send("position startpos moves h2e2");
            assert!(s.fen().starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
            s.send(bad);
            let out = s.sync();
            let infos = info_strings(&out);
            assert_eq!(infos.len(), 1, "{bad}: {out:?}");
            assert!(infos[0].starts_with("info string Unsupported position: "), "{bad}: {out:?}");
            // The old board must not be played on: `go` answers at once
            // without a move, saying why, until the next valid position.
            for _ in 0..2 {
                let out = s.go("depth 5");
                assert_eq!(out.len(), 2, "{bad}: {out:?}");
                assert!(out[0].starts_with("info string Unsupported position: "), "{bad}: {out:?}");
                assert_eq!(out[1], none, "{bad}");
            }
            s.send("go perft 1");
            let out = s.until(|l| l.starts_with("Nodes searched"));
            assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 0"), "{bad}: {out:?}");
        }
        s.send("position startpos");
        assert_eq!(s.fen(), START);
        assert!(s.go("depth 1").pop().unwrap().starts_with("bestmove "));
        s.quit(ucci);
    }
}

#[test]
fn a_large_hash_is_ready_at_once_without_touching_its_memory() {
    // The table comes zeroed from the system in one allocation: `readyok`
    // does not wait for gigabytes to be written (a GUI's ready time-out
    // would declare the engine dead), and the pages stay untouched until
    // the search writes them. Filling it entry by entry made the resident
    // size the whole table.
    let mut s = Session::uci();
    // (On a machine with less memory the engine takes less and says so.)
    s.set("Hash", "2048");
    s.sync();
    if let Some(kb) = s.rss_kb() {
        assert!(kb < 256 * 1024, "resident {kb} kB after setting a 2 GB hash");
    }
    s.set("Clear Hash", "");
    s.sync();
    if let Some(kb) = s.rss_kb() {
        assert!(kb < 256 * 1024, "resident {kb} kB after clearing a 2 GB hash");
    }
    s.send("position startpos");
    assert!(s.go("depth 4").pop().unwrap().starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn bad_move_in_position_keeps_the_moves_before_it_quietly() {
    let mut s = Session::uci();
    // Quiet, as in Pikafish and Stockfish: a terminal client reads any line
    // saying "illegal" after its `go perft 1` as a verdict on its move.
    s.send("position startpos moves h2e2 h9g7 h0h9 b0c2");
    assert!(s.sync().is_empty());
    assert_eq!(s.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    // The `go perft 1` answer such a client reads: moves and counts only.
    let board = chariot::position::Position::from_fen(&s.fen()).unwrap();
    assert_eq!(legal_moves(&mut s).len(), board.legal_moves().len());

    // With debugging output asked for, it says which move and why.
    s.send("debug on");
    s.send("position startpos moves h2e2 h9g7 h0h9 b0c2");
    let out = s.sync();
    assert!(out.iter().any(|l| l.contains("move 3 'h0h9'") && l.contains("illegal")), "{out:?}");
    s.send("position startpos moves h2e2 xyz9 b0c2");
    let out = s.sync();
    assert!(out.iter().any(|l| l.contains("move 2 'xyz9'")), "{out:?}");
    assert!(s.fen().contains("1C2C4/9/RNBAKABNR b"));
    s.send("debug off");

    // A whole game's worth of moves replayed onto the current board: the
    // first one is already illegal, and the engine keeps serving.
    s.send("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves e9e8");
    assert!(s.sync().is_empty());
    let answer = s.go("depth 2").pop().unwrap();
    assert!(answer.starts_with("bestmove d0"), "{answer}");
    s.quit(false);

    // UCCI: its `debug` option does the same.
    let mut s = Session::ucci();
    s.send("position startpos moves h2e2 h9h0");
    assert!(s.sync().is_empty());
    s.send("setoption debug true");
    s.send("position startpos moves h2e2 h9h0");
    assert!(info_strings(&s.sync()).iter().any(|l| l.contains("move 2 'h9h0'")));
    s.quit(true);
}

#[test]
fn long_game_in_one_position_line() {
    let mut s = Session::ucci();
    let cycle = "h0g2 h9g7 g2h0 g7h9 ";
    let line = format!("position startpos moves {}b0c2", cycle.repeat(150));
    assert!(line.len() > 3000);
    s.send(&line);
    assert!(info_strings(&s.sync()).is_empty());
    assert!(s.fen().contains("1CN4C1/9/R1BAKABNR b"));
    let answer = s.go("depth 2").pop().unwrap();
    assert!(answer.starts_with("bestmove "), "{answer}");
    s.quit(true);
}

// --------------------------------------------------------- odd input

#[test]
fn unknown_commands_and_garbage_are_reported_and_the_engine_keeps_serving() {
    let mut s = Session::uci();
    s.send("xyzzy plugh");
    let out = s.sync();
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("info string unknown command 'xyzzy plugh'"), "{out:?}");
    // Control characters and invalid UTF-8 are not echoed raw.
    s.send_raw(b"\x1b[2J\xff\xfe odd\n");
    let out = s.sync();
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("info string unknown command") && !out[0].contains('\x1b'), "{out:?}");
    // Arguments a command cannot use.
    for bad in ["perft", "go perft x", "go perft 99", "bench x", "setoption", "setoption name"] {
        s.send(bad);
        let out = s.sync();
        assert_eq!(info_strings(&out).len(), 1, "{bad}: {out:?}");
    }
    let answer = s.go("depth 1").pop().unwrap();
    assert!(answer.starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn crlf_line_ends_empty_lines_and_blank_space() {
    let mut s = Session::start();
    s.send_raw(b"\r\n\n   \r\n\t\nuci\r\n");
    let lines = s.until_line("uciok");
    assert!(!lines.iter().any(|l| l.contains("unknown")), "{lines:?}");
    s.send_raw(b"isready\r\n");
    s.until_line("readyok");
    s.send_raw(b"position startpos moves h2e2\r\n\r\n");
    s.send_raw(b"go depth 1\r\n");
    s.expect_extra_answer();
    let out = s.until_answer();
    assert!(info_strings(&out).is_empty(), "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "));
    s.send_raw(b"quit\r\n");
    s.finish();
}

#[test]
fn very_long_lines_are_refused_without_harm() {
    let mut s = Session::ucci();
    // Longer than the line limit: dropped whole.
    let mut huge = vec![b'x'; (1 << 20) + 10];
    huge.push(b'\n');
    s.send_raw(&huge);
    let out = s.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].contains("longer than"), "{out:?}");
    // Long but under the limit: an unknown command, echoed clipped.
    s.send(&format!("bogus {}", "y".repeat(200_000)));
    let out = s.sync();
    assert_eq!(out.len(), 1);
    assert!(out[0].len() < 200, "{}", out[0]);
    // A long `go` line.
    let out = s.go(&format!("depth 1 {}", "searchmoves ".repeat(10_000)));
    assert!(out.last().unwrap().starts_with("bestmove "));
    s.quit(true);
}

#[test]
fn end_of_input_is_quit() {
    let s = Session::ucci();
    s.finish();
    // And mid-search: the search answers, then the engine exits.
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    s.sync();
    let rest = s.finish();
    assert_eq!(rest.iter().filter(|l| is_answer(l)).count(), 1, "{rest:?}");
}

// ------------------------------------------------------------- options

#[test]
fn every_option_takes_its_values_silently_in_both_forms() {
    let mut s = Session::uci();
    for cmd in [
        "setoption name Threads value 2",
        "setoption name Hash value 32",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 10",
        "setoption name UCI_ShowWDL value true",
        "setoption name threads value 1",
        "setoption Hash 16",
    ] {
        s.send(cmd);
        assert_eq!(s.sync(), Vec::<String>::new(), "{cmd}");
    }
    s.send("ucci");
    s.until_line("ucciok");
    for cmd in [
        "setoption usemillisec true",
        "setoption hashsize 32",
        "setoption threads 1",
        "setoption ponder false",
        "setoption batch true",
        "setoption debug false",
        "setoption newgame",
        "setoption usebook false",
        "setoption bookfiles <empty>",
        "setoption randomness small",
        "setoption style risky",
        "setoption drawoffers true",
        "setoption resign true",
        "setoption name usemillisec value false",
        "setoption name hashsize value 16",
    ] {
        s.send(cmd);
        assert_eq!(s.sync(), Vec::<String>::new(), "{cmd}");
    }
    s.quit(true);
}

#[test]
fn unknown_options_and_bad_values_are_reported_and_ignored() {
    let mut s = Session::uci();
    for cmd in [
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "setoption name Hash value -5",
        "setoption name Threads value 0",
        "setoption name MultiPV value 100000",
        "setoption name Ponder value maybe",
        "setoption name Hash",
        "setoption style crazy",
        "setoption usemillisec",
    ] {
        s.send(cmd);
        let out = s.sync();
        assert_eq!(out.len(), 1, "{cmd}: {out:?}");
        assert!(out[0].starts_with("info string "), "{cmd}: {out:?}");
    }
    // Still a working engine.
    s.send("position startpos");
    assert!(s.go("depth 2").last().unwrap().starts_with("bestmove "));
    s.quit(false);
}

/// The nodes of a depth-7 search of the start in a new engine after the
/// `setoption` lines given (each must be silent or a single `info string`).
fn nodes_to_depth_7(settings: &[&str]) -> u64 {
    let mut s = Session::uci();
    for line in settings {
        s.send(line);
        s.sync();
    }
    s.send("position startpos");
    let out = s.go("depth 7");
    s.quit(false);
    let last_info = out.iter().rev().find(|l| l.starts_with("info depth 7 ")).expect("a depth-7 line");
    field(last_info, "nodes").expect("nodes").parse().expect("a node count")
}

/// The tunable search constants (`chariot search-params`) are set by name,
/// range-checked, and not announced to GUIs unless CHARIOT_TUNE=1.
#[test]
fn search_params_are_hidden_settable_and_range_checked() {
    for (hello, done) in [("uci", "uciok"), ("ucci", "ucciok")] {
        let mut s = Session::start_wrapped(&["env", "-u", "CHARIOT_TUNE"]);
        s.send(hello);
        let lines = s.until_line(done);
        assert!(!lines.iter().any(|l| l.contains("RfpMargin") || l.contains("LmrBase")), "{lines:?}");
        s.send("setoption name RfpMargin value 140");
        assert_eq!(s.sync(), Vec::<String>::new());
        for (cmd, why) in [
            ("setoption name LmrBase value 5000", "outside 0..200"),
            ("setoption name lmrbase value -1", "outside 0..200"),
            ("setoption name LmrBase value many", "needs a number"),
        ] {
            s.send(cmd);
            let out = s.sync();
            assert_eq!(out.len(), 1, "{cmd}: {out:?}");
            assert!(out[0].starts_with("info string ") && out[0].contains(why), "{cmd}: {out:?}");
            assert!(out[0].ends_with("unchanged"), "{cmd}: {out:?}");
        }
        s.quit(hello == "ucci");
    }
    let mut s = Session::start_wrapped(&["env", "CHARIOT_TUNE=1"]);
    s.send("uci");
    let lines = s.until_line("uciok");
    assert!(lines.contains(&"option name RfpMargin type spin default 100 min 20 max 300".to_string()), "{lines:?}");
    s.quit(false);
    // A value set changes the search; a refused one leaves it as it was.
    let default = nodes_to_depth_7(&[]);
    assert_eq!(nodes_to_depth_7(&["setoption name LmrBase value 5000"]), default);
    assert_ne!(nodes_to_depth_7(&["setoption name LmrBase value 200"]), default);
}

#[test]
fn ucci_time_unit_follows_usemillisec() {
    let mut s = Session::ucci();
    s.send("setoption debug true");
    s.send("position startpos");
    let out = s.go("time 1 increment 0.05 opptime 1 oppincrement 0.05");
    let limits = out.iter().find(|l| l.starts_with("info string go ")).expect("debug line");
    assert!(limits.contains("time_ms: 1000,") && limits.contains("inc_ms: 50,"), "{limits}");
    s.send("setoption usemillisec true");
    let out = s.go("time 300 increment 10");
    let limits = out.iter().find(|l| l.starts_with("info string go ")).expect("debug line");
    assert!(limits.contains("time_ms: 300,") && limits.contains("inc_ms: 10,"), "{limits}");
    s.quit(true);
}

// ------------------------------------------------------------------ go

#[test]
fn ucci_info_lines_have_bare_scores_and_time_nodes() {
    let mut s = Session::ucci();
    s.send("position startpos");
    let out = s.go("depth 3");
    let depth_lines: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert_eq!(depth_lines.len(), 3, "{out:?}");
    for l in &depth_lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert_eq!((w[3], w[5]), ("score", "pv"), "{l}");
        assert!(w[4].parse::<i32>().is_ok(), "{l}");
        assert!(w.len() > 6, "{l}");
    }
    assert!(out.iter().any(|l| l.starts_with("info time ") && field(l, "nodes").is_some()));
    let answer = out.last().unwrap();
    let best = best_of(answer);
    assert_eq!(depth_lines.last().unwrap().split_whitespace().nth(6), Some(best));
    s.quit(true);
}

#[test]
fn uci_info_lines_carry_every_field_and_wdl_on_request() {
    let mut s = Session::uci();
    s.send("position startpos");
    let out = s.go("depth 3");
    let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(!lines.is_empty());
    for l in &lines {
        for key in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"] {
            assert!(field(l, key).is_some(), "{key} missing in {l}");
        }
        assert!(field(l, "score") == Some("cp") || field(l, "score") == Some("mate"), "{l}");
        assert!(!l.contains(" wdl "), "{l}");
    }
    s.send("setoption name UCI_ShowWDL value true");
    let out = s.go("depth 3");
    for l in out.iter().filter(|l| l.starts_with("info depth ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|&x| x == "wdl").expect("wdl");
        let sum: u32 = w[i + 1..i + 4].iter().map(|x| x.parse::<u32>().unwrap()).sum();
        assert_eq!(sum, 1000, "{l}");
    }
    s.quit(false);
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut s = Session::uci();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    let out = s.go("depth 4");
    let last_depth: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth 4 ")).collect();
    let final_lines: Vec<&&String> = last_depth.iter().filter(|l| !l.contains("bound")).collect();
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let l = final_lines.iter().rev().find(|l| field(l, "multipv") == Some(&k.to_string())).expect("multipv line");
        firsts.push(field(l, "pv").unwrap().to_string());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{out:?}");
    // The best line is multipv 1 and is the move played.
    let l1 = final_lines.iter().rev().find(|l| field(l, "multipv") == Some("1")).unwrap();
    assert_eq!(field(l1, "pv"), Some(best_of(out.last().unwrap())));
    s.send("setoption name MultiPV value 1");
    let out = s.go("depth 2");
    assert!(out.iter().filter(|l| l.starts_with("info depth ")).all(|l| field(l, "multipv") == Some("1")));
    s.quit(false);
}

#[test]
fn uci_go_accepts_every_parameter_in_any_combination() {
    let mut s = Session::uci();
    s.send("position startpos moves h2e2");
    for args in [
        "depth 3",
        "nodes 2000",
        "movetime 50",
        "depth 20 movetime 50",
        "wtime 2000 btime 2000 winc 10 binc 10",
        "btime 2000 wtime 2000 movestogo 5",
        "wtime 2000 btime 2000 winc 10 binc 10 movestogo 40 depth 4 nodes 100000",
        "searchmoves h9g7 b9c7 depth 3",
        "depth 2 searchmoves b9c7",
        "mate 3 movetime 50",
    ] {
        let out = s.go(args);
        assert!(out.last().unwrap().starts_with("bestmove "), "{args}: {out:?}");
        assert!(info_strings(&out).is_empty(), "{args}: {out:?}");
        if args.contains("searchmoves h9g7 b9c7") {
            assert!(["h9g7", "b9c7"].contains(&best_of(out.last().unwrap())), "{out:?}");
        }
        if args.contains("searchmoves b9c7") {
            assert_eq!(best_of(out.last().unwrap()), "b9c7");
        }
    }
    // Illegal searchmoves are named; with none left, every move is searched.
    let out = s.go("depth 2 searchmoves h2e2 a0a5");
    assert_eq!(info_strings(&out).len(), 2, "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn go_mate_finds_the_mate() {
    let mut s = Session::uci();
    s.send(&format!("position fen {RED_MATES_IN_ONE}"));
    let out = s.go("mate 1");
    assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
    assert_eq!(best_of(out.last().unwrap()), "b1b9");
    s.send("ucci");
    s.until_line("ucciok");
    let out = s.go("depth 3");
    assert_eq!(best_of(out.last().unwrap()), "b1b9");
    let score: i32 = out.iter().rev().find_map(|l| field(l, "score")).unwrap().parse().unwrap();
    assert!(score > 20_000, "a mate is a huge bare score: {score}");
    s.quit(true);
}

#[test]
fn bad_go_numbers_are_reported_and_the_search_still_answers() {
    let mut s = Session::uci();
    s.send("position startpos");
    let out = s.go("depth x");
    assert!(info_strings(&out).iter().any(|l| l.contains("depth")), "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "));
    let out = s.go("movetime soon depth 2 frobnicate");
    assert_eq!(info_strings(&out).len(), 2, "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "));
    let out = s.go("wtime nan btime 1e999 nodes -3 depth 1");
    assert!(info_strings(&out).len() >= 2, "{out:?}");
    assert!(out.last().unwrap().starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn zero_and_negative_times_still_move() {
    let mut s = Session::uci();
    s.send("position startpos moves h2e2");
    for args in [
        "wtime 0 btime 0",
        "wtime -100 btime -100 winc 0 binc 0",
        "btime 1 wtime 1",
        "movetime 0",
        "movetime -5",
        "nodes 1",
        "depth 0",
    ] {
        let out = s.go(args);
        assert!(out.last().unwrap().starts_with("bestmove "), "{args}: {out:?}");
    }
    s.send("ucci");
    s.until_line("ucciok");
    for args in ["time 0", "time -1 increment 0", "time 0.001 movestogo 1", "time 0 opptime 0", "nodes 500"] {
        let out = s.go(args);
        assert!(out.last().unwrap().starts_with("bestmove "), "{args}: {out:?}");
    }
    s.quit(true);
}

#[test]
fn ucci_go_depth_zero_answers_nobestmove() {
    let mut s = Session::ucci();
    s.send("position startpos");
    let out = s.go("depth 0");
    assert_eq!(out.last().unwrap(), "nobestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth 0 score ")), "{out:?}");
    s.quit(true);
}

#[test]
fn no_legal_move_answers_nobestmove_or_none() {
    let mut s = Session::ucci();
    s.send(&format!("position fen {RED_MATED}"));
    assert_eq!(s.go("depth 3").last().unwrap(), "nobestmove");
    assert_eq!(s.go("time 5 increment 0").last().unwrap(), "nobestmove");
    s.send("go infinite");
    s.send("stop");
    assert_eq!(s.answer(), "nobestmove");
    s.send("uci");
    s.until_line("uciok");
    assert_eq!(s.go("depth 3").last().unwrap(), "bestmove (none)");
    assert_eq!(s.go("wtime 1000 btime 1000").last().unwrap(), "bestmove (none)");
    s.quit(false);
}

#[test]
fn infinite_search_waits_for_stop_and_answers_once() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    // Still thinking: isready is answered at once, no move yet.
    let before = s.sync();
    assert!(!before.iter().any(|l| is_answer(l)), "{before:?}");
    std::thread::sleep(Duration::from_millis(100));
    s.send("stop");
    let answer = s.answer();
    assert!(answer.starts_with("bestmove "), "{answer}");
    // Nothing more after it.
    assert!(!s.sync().iter().any(|l| is_answer(l)));
    s.quit(false);
}

#[test]
fn stop_and_ponderhit_while_idle() {
    let mut s = Session::uci();
    s.send("stop");
    assert_eq!(s.sync(), Vec::<String>::new(), "UCI ignores stop when idle");
    s.send("ponderhit");
    let out = s.sync();
    assert_eq!(info_strings(&out).len(), 1, "{out:?}");
    s.send("ucci");
    s.until_line("ucciok");
    s.send("stop");
    s.expect_extra_answer();
    assert_eq!(s.sync(), vec!["nobestmove".to_string()], "UCCI answers stop when idle");
    s.send("ponderhit draw");
    assert_eq!(info_strings(&s.sync()).len(), 1);
    // Still serving.
    assert!(s.go("depth 1").last().unwrap().starts_with("bestmove "));
    s.quit(true);
}

#[test]
fn go_while_searching_stops_the_first_search_and_answers_both() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    s.sync();
    s.send("go depth 2");
    let first = s.until_answer();
    assert!(info_strings(&first).iter().any(|l| l.contains("go while searching")), "{first:?}");
    let second = s.until_answer();
    assert!(second.last().unwrap().starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn quit_mid_search_answers_then_says_bye() {
    let mut s = Session::ucci();
    s.send("position startpos");
    s.send("go infinite");
    s.sync();
    s.send("quit");
    let rest = s.finish();
    assert!(rest.len() >= 2, "{rest:?}");
    assert!(rest[rest.len() - 2].starts_with("bestmove "), "{rest:?}");
    assert_eq!(rest[rest.len() - 1], "bye");
    assert_eq!(rest.iter().filter(|l| is_answer(l)).count(), 1, "{rest:?}");

    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go ponder wtime 10000 btime 10000");
    s.sync();
    s.send("quit");
    let rest = s.finish();
    assert_eq!(rest.iter().filter(|l| is_answer(l)).count(), 1, "{rest:?}");
    assert!(!rest.iter().any(|l| l == "bye"));
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut s = Session::uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves h2e2 h9g7");
    s.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // Pondering never answers by itself.
    let before = s.sync();
    assert!(!before.iter().any(|l| is_answer(l)), "{before:?}");
    s.send("ponderhit");
    assert!(s.answer().starts_with("bestmove "));
    // Ponder miss: stop, then the real position.
    s.send("position startpos moves h2e2 h9g7 h0g2 i9h9");
    s.send("go ponder wtime 2000 btime 2000");
    s.sync();
    s.send("stop");
    assert!(s.answer().starts_with("bestmove "));
    s.send("position startpos moves h2e2 h9g7 h0g2 b9c7");
    assert!(s.go("wtime 2000 btime 2000").last().unwrap().starts_with("bestmove "));
    s.quit(false);
}

#[test]
fn banmoves_are_honoured_until_the_next_position() {
    let mut s = Session::ucci();
    s.send(&format!("position fen {BARE_KINGS}"));
    // (Bare kings are a dead draw: the answer offers one.)
    s.send("banmoves e0e1");
    assert_eq!(best_of(s.go("depth 3").last().unwrap()), "e0f0");
    s.send("banmoves e0f0");
    assert_eq!(best_of(s.go("depth 3").last().unwrap()), "e0e1");
    s.send("banmoves e0e1 e0f0");
    assert_eq!(s.go("depth 3").last().unwrap(), "nobestmove");
    s.send("banmoves e0e1 a0a1 zz");
    let out = s.sync();
    assert_eq!(info_strings(&out).len(), 1, "{out:?}");
    assert!(out[0].contains("a0a1 zz"), "{out:?}");
    s.send("banmoves e0e1 e0f0");
    s.send(&format!("position fen {BARE_KINGS}"));
    assert!(s.go("depth 3").last().unwrap().starts_with("bestmove e0"));
    s.quit(true);
}

// --------------------------------------------------- draws and resigning

#[test]
fn ucci_accepts_an_offered_draw_only_when_not_better() {
    let mut s = Session::ucci();
    s.send(&format!("position fen {RED_WORSE}"));
    let answer = s.go("depth 3").pop().unwrap();
    assert!(!answer.contains("draw") && !answer.contains("resign"), "not offered: {answer}");
    let answer = s.go("draw depth 3").pop().unwrap();
    assert!(answer.ends_with(" draw"), "worse, offered: {answer}");
    // Offered with the opponent's move, while pondering.
    s.send("go ponder depth 3");
    s.sync();
    s.send("ponderhit draw");
    let answer = s.answer();
    assert!(answer.ends_with(" draw"), "{answer}");
    // A winning side declines.
    s.send(&format!("position fen {RED_MATES_IN_ONE}"));
    let answer = s.go("draw depth 3").pop().unwrap();
    assert_eq!(answer, "bestmove b1b9");
    // The option turns it off.
    s.send("setoption drawoffers false");
    s.send(&format!("position fen {RED_WORSE}"));
    let answer = s.go("draw depth 3").pop().unwrap();
    assert!(!answer.contains("draw"), "{answer}");
    s.quit(true);
}

#[test]
fn ucci_offers_a_draw_in_a_dead_draw_and_resigns_a_lost_game() {
    let mut s = Session::ucci();
    s.send(&format!("position fen {DEAD_DRAW}"));
    let answer = s.go("depth 3").pop().unwrap();
    assert!(answer.starts_with("bestmove ") && answer.ends_with(" draw"), "{answer}");
    s.send(&format!("position fen {BLACK_LOST}"));
    let answer = s.go("depth 4").pop().unwrap();
    // The ponder move b1b9 would leave no reply, so none is given.
    assert_eq!(answer, "bestmove e9f9 resign");
    s.send("setoption resign false");
    s.send("setoption drawoffers false");
    assert_eq!(s.go("depth 4").pop().unwrap(), "bestmove e9f9");
    s.send(&format!("position fen {DEAD_DRAW}"));
    assert!(!s.go("depth 3").pop().unwrap().contains("draw"));
    s.quit(true);
}

#[test]
fn uci_never_adds_draw_or_resign_words() {
    let mut s = Session::uci();
    for (fen, go) in [(DEAD_DRAW, "depth 3"), (BLACK_LOST, "depth 4"), (RED_WORSE, "draw depth 3")] {
        s.send(&format!("position fen {fen}"));
        let answer = s.go(go).pop().unwrap();
        let w: Vec<&str> = answer.split_whitespace().collect();
        assert!(w.len() == 2 || (w.len() == 4 && w[2] == "ponder"), "{answer}");
    }
    s.quit(false);
}

// ------------------------------------------------------------- extras

#[test]
fn extras_perft_d_eval_help_bench_probe() {
    for dialect in ["uci", "ucci"] {
        let mut s = Session::start();
        s.send(dialect);
        s.until_line(&format!("{dialect}ok"));
        s.send("position startpos");
        s.send("go perft 2");
        let out = s.until(|l| l.starts_with("Nodes searched"));
        assert_eq!(out.iter().filter(|l| l.contains(": ")).count(), 45, "{out:?}");
        assert_eq!(out.last().unwrap(), "Nodes searched: 1920");
        s.send("perft 1");
        assert_eq!(s.until(|l| l.starts_with("Nodes searched")).last().unwrap(), "Nodes searched: 44");
        assert_eq!(s.fen(), START);
        s.send("eval");
        s.until(|l| l.starts_with("Final evaluation"));
        s.send("help");
        let help = s.until(|l| l.contains("quit"));
        assert!(help.iter().any(|l| l.contains("ucci")));
        s.send("bench 2");
        let out = s.until(|l| l.starts_with("Nodes/second"));
        assert!(out.iter().any(|l| l.starts_with("Nodes searched  : ")), "{out:?}");
        let best = s.go("depth 3").pop().unwrap();
        // The root is not stored, its children are.
        s.send(&format!("probe startpos moves {}", best_of(&best)));
        let line = s.until(|l| l.starts_with("pophash")).pop().unwrap();
        assert!(line.starts_with("pophash bestmove "), "{line}");
        s.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(s.until(|l| l.starts_with("pophash")).pop().unwrap(), "pophash");
        s.quit(dialect == "ucci");
    }
}

/// The protocol's `bench` searches with the evaluation in use: its node
/// count is the library's bench with the same evaluation.
#[test]
fn bench_uses_the_evaluation_in_use() {
    let nodes = |s: &mut Session| {
        s.send("bench 4");
        let out = s.until(|l| l.starts_with("Nodes/second"));
        let line = out.iter().find(|l| l.starts_with("Nodes searched  : ")).expect("a node count").clone();
        line["Nodes searched  : ".len()..].parse::<u64>().expect("a number")
    };
    use chariot::bench::{Evaluation, run_with};
    let (hand_crafted, network) =
        (run_with(4, 1, Evaluation::HandCrafted).nodes, run_with(4, 1, Evaluation::Network).nodes);
    assert_ne!(hand_crafted, network, "the two evaluations search different trees");
    // The network is the default.
    let mut s = Session::uci();
    assert_eq!(nodes(&mut s), network);
    s.send("setoption name Use NNUE value false");
    assert_eq!(nodes(&mut s), hand_crafted);
    s.send("setoption name Use NNUE value true");
    assert_eq!(nodes(&mut s), network);
    s.quit(false);
}

#[test]
fn perft_and_bench_run_like_a_search() {
    // Long runs: `isready` is answered while they work, `stop` ends them,
    // and any other command waits for them (the output stays in order).
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go perft 8");
    assert!(s.sync().is_empty(), "readyok first, before any perft line");
    s.send("stop");
    let out = s.until(|l| l.starts_with("info string perft 8 stopped"));
    assert!(!out.iter().any(|l| l.starts_with("Nodes searched")), "{out:?}");
    s.send("bench 20");
    assert!(s.sync().is_empty());
    s.send("stop");
    s.until_line("info string bench stopped");
    // Piped perft commands come out whole and in order.
    s.send("go perft 3");
    s.send("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    s.send("go perft 2");
    let first = s.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(first.last().unwrap(), "Nodes searched: 79666", "{first:?}");
    let second = s.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(second, ["d0d1: 2", "", "Nodes searched: 2"]);
    // `quit` ends a long perft at once.
    s.send("go perft 8");
    s.send("quit");
    s.finish();
}

// ------------------------------------------------------ GUI sequences

/// Plays `plies` moves of a game through `go`, building the position from
/// the answers as a GUI does, with `before_move` sent before each one.
fn play(s: &mut Session, plies: usize, before_move: &[&str], go: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        for cmd in before_move {
            s.send(cmd);
        }
        if before_move.contains(&"isready") {
            s.until_line("readyok");
        }
        s.send(&format!("position fen {START} moves {}", moves.join(" ")));
        let answer = s.go(go).pop().unwrap();
        assert!(answer.starts_with("bestmove "), "{answer}");
        moves.push(best_of(&answer).to_string());
    }
    moves
}

#[test]
fn gui_xqwizard_ucci_with_millisec_and_newgame() {
    let mut s = Session::ucci();
    s.send("setoption usemillisec true");
    s.send("setoption ponder false");
    s.send("setoption newgame");
    let moves = play(&mut s, 4, &[], "time 3000 increment 0 opptime 3000 oppincrement 0");
    assert_eq!(moves.len(), 4);
    s.quit(true);
}

#[test]
fn gui_xboard_ucci_adapter_in_seconds_with_pondering() {
    let mut s = Session::ucci();
    s.send("setoption hashsize 64");
    s.send("setoption threads 1");
    s.send("setoption newgame");
    s.sync();
    // The adapter sends the board after the last capture plus the moves.
    s.send(&format!("position fen {START} moves h2e2"));
    let answer = s.go("time 4 opptime 4").pop().unwrap();
    let (reply, ponder) = {
        let w: Vec<&str> = answer.split_whitespace().collect();
        (w[1].to_string(), w.iter().position(|&x| x == "ponder").map(|i| w[i + 1].to_string()))
    };
    // Ponder on the expected reply, then the opponent plays it.
    let ponder = ponder.unwrap_or_else(|| "a3a4".to_string());
    s.send(&format!("position fen {START} moves h2e2 {reply} {ponder}"));
    s.send("go ponder time 4 opptime 4");
    assert!(!s.sync().iter().any(|l| is_answer(l)));
    s.send("ponderhit");
    let answer = s.answer();
    assert!(answer.starts_with("bestmove "));
    // Ponder miss: stop (answered and ignored), the real move, go again.
    s.send(&format!("position fen {START} moves h2e2 {reply} {ponder} {}", best_of(&answer)));
    s.send("go ponder time 4 opptime 4");
    s.sync();
    s.send("stop");
    assert!(s.answer().starts_with("bestmove "));
    s.send(&format!("position fen {START} moves h2e2 {reply}"));
    s.send("go draw time 4 increment 0 opptime 4 oppincrement 0");
    assert!(s.answer().starts_with("bestmove "));
    s.quit(true);
}

#[test]
fn gui_uci_with_big_hash_all_cores_and_newgame_before_every_move() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    let mut s = Session::uci();
    s.send("setoption name Hash value 2048");
    s.send(&format!("setoption name Threads value {cores}"));
    s.send("setoption name UCI_ShowWDL value true");
    let out = s.sync();
    assert!(out.iter().all(|l| l.contains("hash")), "only a memory note may come: {out:?}");
    let moves = play(&mut s, 3, &["ucinewgame", "isready"], "depth 6 movetime 150");
    assert_eq!(moves.len(), 3);
    s.quit(false);
}

// ------------------------------------------------------------ the network

/// `EvalFile` with a missing, a corrupt and a good file, and `Use NNUE`,
/// in both dialects: a bad file is reported and the engine keeps its
/// network and goes on searching.
#[test]
fn eval_file_and_use_nnue_switch_the_evaluation_and_bad_files_are_reported() {
    let dir = std::env::temp_dir().join(format!("chariot-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.nnue");
    std::fs::write(&corrupt, b"chariot-nnue v1\nnot a network").unwrap();
    let good = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    let missing = dir.join("missing.nnue");

    // The network evaluates by default (no `Use NNUE` needed).
    let mut s = Session::uci();
    s.send(&format!("position fen {RED_WORSE}"));
    s.send("eval");
    let eval = s.until(|l| l.starts_with("NNUE evaluation"));
    let before = eval.last().unwrap().clone();
    for bad in [missing.display().to_string(), corrupt.display().to_string()] {
        s.set("EvalFile", &bad);
        let lines = s.sync();
        let infos = info_strings(&lines);
        assert_eq!(infos.len(), 1, "{lines:?}");
        assert!(infos[0].contains("EvalFile") && infos[0].contains("keeping the current network"), "{}", infos[0]);
        let out = s.go("depth 4");
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        s.send("eval");
        assert_eq!(s.until(|l| l.starts_with("NNUE evaluation")).last().unwrap(), &before);
    }
    s.set("EvalFile", good);
    assert!(info_strings(&s.sync())[0].contains("loaded"));
    s.set("Use NNUE", "false");
    s.send("eval");
    let lines = s.until(|l| l.starts_with("Side to move"));
    assert!(s.sync().iter().chain(&lines).all(|l| !l.starts_with("NNUE")));
    s.quit(false);

    let mut s = Session::ucci();
    s.send("setoption usennue true");
    s.send(&format!("setoption evalfile {}", corrupt.display()));
    assert!(info_strings(&s.sync())[0].contains("keeping the current network"));
    s.send("position startpos moves h2e2 h9g7");
    let out = s.go("depth 4");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    // UCCI `go depth 0` gives the evaluation in use.
    s.send("go depth 0");
    let lines = s.until(|l| l == "nobestmove");
    assert!(lines[0].starts_with("info depth 0 score "), "{lines:?}");
    s.quit(true);
    let _ = std::fs::remove_dir_all(&dir);
}
