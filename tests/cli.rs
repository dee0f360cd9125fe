//! The command line as a user meets it: the help says how to talk to the
//! engine, every subcommand exits with 2 on bad arguments or bad input
//! (with a message), depths are refused rather than changed, and an
//! unwritable `--output` fails before any work.

use std::process::{Command, Output};

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().expect("running chariot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_says_how_to_start_the_engine() {
    let out = chariot(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for line in ["Run without a command to start the engine", "uci", "ucci", "position startpos", "go movetime 1000"] {
        assert!(help.contains(line), "{line}: {help}");
    }
    // `-h` (the short help) says it too.
    assert!(text(&chariot(&["-h"]).stdout).contains("position startpos"));
    let perft = text(&chariot(&["perft", "--help"]).stdout);
    assert!(perft.contains("<DEPTH>  Plies to count, 1..=8"), "{perft}");
}

/// A network named by file gives the built-in network's signature when it
/// is that network (the shipped file).
#[test]
fn bench_with_the_shipped_network_file_gives_the_built_in_signature() {
    let nodes = |args: &[&str]| {
        let out = chariot(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout).lines().find(|l| l.starts_with("Nodes searched")).map(str::to_owned).expect("a node count")
    };
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue");
    assert_eq!(nodes(&["bench", "4", "--eval-file", file]), nodes(&["bench", "4"]));
    assert_ne!(nodes(&["bench", "4", "--hce"]), nodes(&["bench", "4"]));
}

#[test]
fn bench_prints_its_five_lines() {
    let out = chariot(&["bench", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let labels: Vec<&str> = stdout.lines().map(|l| l.split(" : ").next().unwrap_or(l)).collect();
    assert_eq!(labels, ["Positions      ", "Depth          ", "Total time (ms)", "Nodes searched ", "Nodes/second   "]);
    assert!(stdout.contains("Depth           : 1\n"), "{stdout}");
}

#[test]
fn the_datagen_help_names_the_page_with_the_format() {
    let help = text(&chariot(&["help", "datagen"]).stdout);
    assert!(help.contains("(the format is in docs/training.md)"), "{help}");
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/training.md")).unwrap();
    assert!(page.contains("File format (`src/datagen/format.rs`)"), "docs/training.md describes the format");
}

#[test]
fn datagen_checks_converts_and_merges_its_files() {
    let dir = std::env::temp_dir().join(format!("chariot-cli-{}-datagen-tools", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for seed in ["1", "2"] {
        let out =
            chariot(&["datagen", &path(&format!("s{seed}.bin")), "--games", "1", "--nodes", "50", "--seed", seed]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let out = chariot(&["datagen", &path("s1.bin"), "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("format v2 (packed games), seed 1\ngames 1"), "{}", text(&out.stdout));
    let out = chariot(&["datagen", &path("all.bin"), "--merge", &path("s1.bin"), &path("s2.bin")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("games 2"), "{}", text(&out.stdout));
    let out = chariot(&["datagen", &path("again.bin"), "--merge", &path("s1.bin"), &path("s1.bin")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("made with seed 1"), "{}", text(&out.stderr));
    // A cut file fails the check with exit code 2, naming the byte.
    let bytes = std::fs::read(path("s2.bin")).unwrap();
    std::fs::write(path("cut.bin"), &bytes[..bytes.len() - 2]).unwrap();
    let out = chariot(&["datagen", &path("cut.bin"), "--check"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("game 1 (byte 40): truncated game"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_refuses_depths_it_cannot_finish() {
    for (depth, reason) in [
        ("100000", "at most 8, got 100000"),
        ("9", "at most 8"),
        ("0", "at least 1"),
        ("-1", "at least 1, got -1"),
        ("x", "not a whole number"),
    ] {
        let out = chariot(&["perft", depth]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "perft {depth}: {stderr}");
        assert!(stderr.contains(reason), "perft {depth}: {stderr}");
        assert!(out.stdout.is_empty());
    }
    let out = chariot(&["perft", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("Nodes searched: 1920\n"));
}

#[test]
fn bench_refuses_depths_out_of_range() {
    for depth in ["0", "-3", "65", "deep"] {
        let out = chariot(&["bench", depth]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "bench {depth}: {stderr}");
        assert!(stderr.contains(&format!("invalid value '{depth}'")), "bench {depth}: {stderr}");
        assert!(out.stdout.is_empty(), "bench {depth} did not search");
    }
}

#[test]
fn every_subcommand_exits_with_2_on_bad_input() {
    let game = std::env::temp_dir().join(format!("chariot-cli-{}-game.txt", std::process::id()));
    std::fs::write(&game, "h2e2 h9g7\n").expect("temp file");
    let game = game.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["nonsense"],
        vec!["--nonsense"],
        vec!["perft"],
        vec!["perft", "2", "--fen", "bad"],
        vec!["perft", "2", "--moves", "e0e2"],
        vec!["perft", "2", "--nonsense"],
        vec!["bench", "4", "5"],
        vec!["judge", "--fen", "bad"],
        vec!["judge", "--moves", "e0e2"],
        vec!["analyze"],
        vec!["analyze", "/nonexistent/game.pgn"],
        vec!["book"],
        vec!["book", "build", game],
        vec!["book", "build", "/nonexistent/game.pgn", "--output", "/dev/null"],
        vec!["book", "show", "--fen", "bad"],
        vec!["book", "show", "--book", "/nonexistent/x.book"],
        vec!["book", "show", "--moves", "e0e2"],
        vec!["datagen"],
        vec!["datagen", game],
        vec!["datagen", game, "--stats"],
        vec!["datagen", game, "--check"],
        vec!["datagen", game, "--convert", "/nonexistent/dir/out.bin"],
        vec!["datagen", "/nonexistent/dir/all.bin", "--merge", game],
        vec!["datagen", "/nonexistent/dir/data.bin", "--games", "1"],
        vec!["tune"],
        vec!["tune", game],
        vec!["tune", "/nonexistent/data.bin"],
        vec!["bench", "2", "--eval-file", game],
        vec!["bench", "2", "--eval-file", "/nonexistent/net.nnue"],
        vec!["nnue-speed", "--eval-file", game],
        vec!["train-nnue", game, "--output", "/dev/null", "--features", "nonsense"],
    ];
    for args in cases {
        let out = chariot(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?} says why");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_file(game);
}

#[test]
fn an_unwritable_output_fails_before_the_work() {
    let game = std::env::temp_dir().join(format!("chariot-cli-{}-output.txt", std::process::id()));
    std::fs::write(&game, "h2e2 h9g7 h0g2 i9h9\n").expect("temp file");
    let game = game.to_str().unwrap();
    let dir = std::env::temp_dir();
    for output in ["/nonexistent/dir/x.pgn", dir.to_str().unwrap()] {
        // Without --quiet the analysis would print progress on stderr: none
        // may appear, the refusal comes first.
        let out = chariot(&["analyze", game, "--depth", "1", "--output", output]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "no progress before the refusal: {stderr}");
        assert!(stderr.starts_with(&format!("chariot analyze: cannot write '{output}'")), "{stderr}");
        // book build: the output is checked before the games are read (this
        // input does not exist).
        let out = chariot(&["book", "build", "/nonexistent/games.pgn", "--output", output]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("cannot write '{output}'")), "{stderr}");
    }
    // A writable path: checking it leaves nothing behind when the input is bad.
    let target = dir.join(format!("chariot-cli-{}-never.pgn", std::process::id()));
    let out = chariot(&["analyze", "/nonexistent/game.pgn", "--output", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!target.exists(), "the check removed its test file");
    let _ = std::fs::remove_file(game);
}

#[test]
fn datagen_writes_a_file_that_stats_and_tune_read() {
    let dir = std::env::temp_dir().join(format!("chariot-cli-{}-datagen", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    let data = data.to_str().unwrap();
    let out = chariot(&["datagen", data, "--games", "2", "--nodes", "200", "--max-plies", "60"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("games 2/2"), "{}", text(&out.stderr));
    let before = std::fs::read(data).unwrap();
    // A file that is not a datagen file is refused and left alone.
    let game = dir.join("game.txt");
    std::fs::write(&game, "h2e2 h9g7\n").unwrap();
    assert_eq!(chariot(&["datagen", game.to_str().unwrap(), "--games", "1"]).status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&game).unwrap(), "h2e2 h9g7\n");
    let stats = chariot(&["datagen", data, "--stats"]);
    assert_eq!(stats.status.code(), Some(0));
    assert!(text(&stats.stdout).contains("games 2"), "{}", text(&stats.stdout));
    // Asked for as many games as it holds, a run adds nothing.
    assert_eq!(chariot(&["datagen", data, "--games", "2", "--nodes", "200"]).status.code(), Some(0));
    assert_eq!(std::fs::read(data).unwrap(), before);
    let tune = chariot(&["tune", data, "--epochs", "2", "--validation", "0"]);
    assert_eq!(tune.status.code(), Some(0), "{}", text(&tune.stderr));
    assert!(text(&tune.stdout).contains("material_mg: [i32; 7] = ["), "{}", text(&tune.stdout));
    assert_eq!(chariot(&["tune", data, "--lambda", "2"]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
