//! Tournament-grade reliability through the binary: absurd clocks, and
//! threads that cannot be had.

mod common;

use common::Session;
use std::time::Duration;

/// Clock values near the integer limits once wrapped the budget and made
/// the engine move at once. A huge clock means "no hurry": the search must
/// still be thinking when `stop` comes.
#[test]
fn huge_clocks_do_not_wrap_into_an_instant_move() {
    let cases: [(bool, &str); 4] = [
        (false, "wtime 300000000000000000 btime 300000000000000000"),
        (
            false,
            "wtime 4611686018427387904 btime 4611686018427387904 winc 4611686018427387904 binc 4611686018427387904",
        ),
        (true, "time 1e16 opptime 1e16"),
        (true, "time 1e16 increment 1e16 opptime 1e16 oppincrement 1e16"),
    ];
    for (ucci, args) in cases {
        let mut s = if ucci { Session::ucci() } else { Session::uci() };
        s.send("position startpos");
        s.send(&format!("go {args}"));
        // Whatever the speed of the machine, an answer before `stop` is the bug.
        std::thread::sleep(Duration::from_millis(300));
        let before = s.sync();
        assert!(!before.iter().any(|l| common::is_answer(l)), "go {args} answered before stop: {before:?}");
        s.send("stop");
        assert!(s.answer().starts_with("bestmove "), "{}", s.dump());
        s.quit(ucci);
    }
}

/// The engine run as user `nobody` with at most `nproc` threads for that
/// user (the limit does not bind root), or `None` where that cannot be
/// arranged (not root, no `setpriv`/`prlimit`, the binary out of reach).
fn session_with_thread_limit(nproc: usize) -> Option<Session> {
    let as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];
    let usable = std::process::Command::new(as_nobody[0])
        .args(&as_nobody[1..])
        .args(["prlimit", "--nproc=1", "test", "-x", env!("CARGO_BIN_EXE_chariot")])
        .status()
        .is_ok_and(|s| s.success());
    let root = std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|s| s.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0")));
    if !usable || !root {
        eprintln!("skipped: needs root, setpriv and prlimit to run the engine under a thread limit");
        return None;
    }
    let limit = format!("--nproc={nproc}");
    let mut wrapper = as_nobody.to_vec();
    wrapper.extend(["prlimit", limit.as_str(), "--"]);
    Some(Session::start_wrapped(&wrapper))
}

/// With 1 thread allowed (the command loop's own) the search thread cannot
/// be started; with 2 the Lazy SMP helpers cannot. Either way the engine
/// says so, searches with what it has and answers with a searched move:
/// no panic, no exit, no first-legal-move fallback.
#[test]
fn threads_the_system_refuses_are_done_without() {
    for nproc in [1, 2] {
        let Some(mut s) = session_with_thread_limit(nproc) else { return };
        s.send("uci");
        s.until_line("uciok");
        s.set("Threads", "64");
        s.send("position startpos moves h2e2 h9g7");
        let out = s.go("movetime 300");
        let said = out.iter().any(|l| l.starts_with("info string could not start"));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert!(said || (nproc > 1 && cores == 1), "nproc {nproc}: no word of the missing thread:\n{}", s.dump());
        let depths = out.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).count();
        assert!(depths >= 2, "nproc {nproc}: no real search:\n{}", s.dump());
        assert!(out.last().unwrap().starts_with("bestmove "), "{}", s.dump());
        // A search without a time of its own still ends in an answer.
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(100));
        s.send("stop");
        assert!(s.answer().starts_with("bestmove "), "{}", s.dump());
        s.sync();
        s.quit(false);
    }
}

/// Threads beyond the cores only share them and starve the main thread,
/// which keeps the clock and answers `stop` (256 threads on 2 cores took
/// over half a second to answer it): one thread per core, and a note.
#[test]
fn threads_beyond_the_cores_are_capped_with_a_note() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut s = Session::uci();
    s.set("Threads", "1024");
    s.send("position startpos");
    let out = s.go("depth 5");
    let note =
        format!("info string Threads 1024 is more than the {cores} cores this process may use; searching with {cores}");
    assert!(cores >= 1024 || out.contains(&note), "{}", s.dump());
    assert!(out.last().unwrap().starts_with("bestmove "), "{}", s.dump());
    s.quit(false);
}

/// A mate found in a timed search ends it once the search is well past the
/// mate's distance: the iterations after it take no time but each printed
/// a line, 127 of them, which a loaded GUI took 150 ms to read.
#[test]
fn a_found_mate_ends_a_timed_search() {
    let mut s = Session::uci();
    s.send("position fen 5k3/6RN1/3a5/9/9/8P/1p7/p4A3/9/2BAK1B2 w - - 1 51");
    let out = s.go("wtime 60000 btime 60000");
    let lines = out.iter().filter(|l| l.starts_with("info depth")).count();
    assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{}", s.dump());
    assert!(lines <= 10, "{lines} iterations for a mate in 1:\n{}", s.dump());
    assert_eq!(out.last().unwrap(), "bestmove g8a8", "{}", s.dump());
    s.quit(false);
}
