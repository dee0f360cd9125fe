//! `chariot analyze` through the real binary: a planted blunder is found
//! and explained, the outputs are well formed, bad input exits with 2.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Red hangs a rook on move 4 (4. h0h6??, the black rook on h9 takes it).
const PLANTED: &str = "[Event \"planted\"]\n[Red \"R\"]\n[Black \"B\"]\n\n\
                       1. h2e2 h7e7 2. h0g2 h9g7 3. i0h0 i9h9 4. h0h6 h9h6 *\n";

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-analyze-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("writing a temp file");
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).arg("analyze").args(args).output().expect("running chariot")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// The JSON line of one ply (the writer puts each move on its own line).
fn ply_line(json: &str, ply: usize) -> String {
    let key = format!("{{\"ply\": {ply},");
    json.lines().find(|l| l.trim_start().starts_with(&key)).unwrap_or_else(|| panic!("no ply {ply}")).to_string()
}

/// The number after `"key": {"cp": ` in a JSON line, from the first match.
fn cp_after(line: &str, key: &str) -> i32 {
    let at = line.find(&format!("\"{key}\": {{\"cp\": ")).unwrap_or_else(|| panic!("no {key} cp in {line}"));
    let rest = &line[at + key.len() + 11..];
    rest[..rest.find('}').expect("closing brace")].trim().parse().expect("a number")
}

#[test]
fn the_planted_blunder_is_found_and_explained() {
    let file = temp_file("planted.pgn", PLANTED.as_bytes());
    let out = run(&[file.to_str().unwrap(), "--depth", "6", "--format", "json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "--quiet keeps stderr silent");
    let json = stdout(&out);
    let blunder = ply_line(&json, 7);
    assert!(
        blunder.contains("\"move\": {\"iccs\": \"h0h6\", \"wxf\": \"R2+6\", \"chinese\": \"车二进六\"}"),
        "{blunder}"
    );
    assert!(blunder.contains("\"class\": \"blunder\""), "{blunder}");
    assert!(blunder.contains("\"comment\": \"leaves the rook to be taken by the rook: R8+3\""), "{blunder}");
    // The better move keeps the game level: not the played move, and its
    // score is at least a blunder's margin above the played one.
    let best = &blunder[blunder.find("\"best\"").expect("best")..];
    assert!(!best.starts_with("\"best\": {\"move\": {\"iccs\": \"h0h6\""), "{best}");
    let (played_eval, best_eval) = (cp_after(&blunder, "eval"), cp_after(best, "eval"));
    assert!(played_eval < -600 && best_eval > -100, "{played_eval} {best_eval}");
    // No other move of the game is a blunder.
    for ply in (1..=8).filter(|&p| p != 7) {
        assert!(!ply_line(&json, ply).contains("\"class\": \"blunder\""), "ply {ply}: {}", ply_line(&json, ply));
    }
    assert!(json.contains("\"summary\": {\"red\": {\"moves\": 4, "), "{json}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn annotated_pgn_reads_back_and_speaks_chinese() {
    let file = temp_file("pgn.pgn", PLANTED.as_bytes());
    for (lang, notation, word) in [("en", "wxf", "Blunder"), ("zh", "chinese", "败着"), ("en", "iccs", "Blunder")] {
        let out = run(&[file.to_str().unwrap(), "--depth", "4", "--lang", lang, "--notation", notation, "--quiet"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let pgn = stdout(&out);
        assert!(pgn.contains("[Annotator \"Chariot"), "{pgn}");
        let blunder = pgn.lines().find(|l| l.starts_with("4. ")).expect("move 4");
        assert!(blunder.contains("$4") && blunder.contains(word), "{blunder}");
        // Every move in all three notations.
        assert!(blunder.contains("R2+6") && blunder.contains("车二进六") && blunder.contains("h0h6"), "{blunder}");
        // Comments, NAGs and variations read back to the same game.
        let games = chariot::record::read_games(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
        let original = chariot::record::read_games(PLANTED).expect("the planted game");
        assert_eq!(games[0].moves, original[0].moves);
        assert_eq!(games[0].tag("Red"), Some("R"));
    }
    let _ = std::fs::remove_file(file);
}

#[test]
fn a_missed_mate_in_a_move_list_from_a_fen() {
    // Ra0-a9 mates; the game plays c8c9 instead, and Black's rooks win.
    let file = temp_file("mate.txt", b"fen 3k5/2P6/9/9/9/9/9/7rr/9/R3K4 w - - 0 1 moves c8c9\n");
    let out = run(&[file.to_str().unwrap(), "--movetime", "50", "--format", "json", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let line = ply_line(&stdout(&out), 1);
    assert!(line.contains("\"class\": \"blunder\"") && line.contains("misses mate in 1: R9+9"), "{line}");
    let _ = std::fs::remove_file(file);
}

#[test]
fn progress_goes_to_stderr_and_output_to_a_file() {
    let file = temp_file("progress.pgn", b"1. h2e2 h9g7 2. h0g2 *");
    let target = std::env::temp_dir().join(format!("chariot-analyze-{}-out.pgn", std::process::id()));
    let out = run(&[file.to_str().unwrap(), "--depth", "3", "--output", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.lines().last().is_some_and(|l| l.starts_with("analyze: 3/3 plies")), "{progress}");
    let written = std::fs::read_to_string(&target).expect("output file");
    // The move and its annotation are in the file (whether depth 3 calls
    // the move an inaccuracy depends on the evaluation's weights).
    assert!(written.contains("1. C2=5 ") && written.contains("{[%eval"), "{written}");
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_file(target);
}

#[test]
fn bad_arguments_and_bad_games_exit_with_2() {
    let illegal = temp_file("illegal.pgn", b"1. h2e2 h9g7\n2. h0g2 h9h8 *");
    let not_utf8 = temp_file("gbk.pgn", &[0xC5, 0xDA, 0xB6, 0xFE, b' ', b'1']);
    let good = temp_file("good.pgn", b"h2e2");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "<FILE>"),
        (vec![good.to_str().unwrap(), "--depth", "0"], "depth"),
        (vec![good.to_str().unwrap(), "--depth", "x"], "depth"),
        (vec![good.to_str().unwrap(), "--depth", "3", "--movetime", "10"], "cannot be used with"),
        (vec![good.to_str().unwrap(), "--lang", "fr"], "lang"),
        (vec![good.to_str().unwrap(), "--format", "xml"], "format"),
        (vec!["/nonexistent/game.pgn"], "cannot read '/nonexistent/game.pgn'"),
        (vec![illegal.to_str().unwrap()], "game 1, line 2, ply 4: move 'h9h8' is illegal"),
        (vec![not_utf8.to_str().unwrap()], "not UTF-8"),
    ];
    for (args, message) in cases {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for f in [illegal, not_utf8, good] {
        let _ = std::fs::remove_file(f);
    }
}
