//! Game files the GUIs save, read through the binary: XBoard's PGN (its
//! own Xiangqi SAN) and XQF (XQStudio and its successors), for `analyze`
//! and `book build`; bad files exit with 2 and say where.

use chariot::notation::{RankBase, to_san};
use chariot::position::Position;
use chariot::record::read_games;
use chariot::rules::GameResult;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chariot-records-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("writing a temp file");
    path
}

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).output().expect("running chariot")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// The moves of the games `analyze --format json` read, in one notation.
fn analysed_moves(out: &Output, notation: &str) -> Vec<String> {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let key = format!("\"{notation}\": \"");
    stdout(out)
        .lines()
        .filter(|l| l.trim_start().starts_with("{\"ply\""))
        .map(|l| {
            let at = l.find(&key).expect("the move") + key.len();
            l[at..at + l[at..].find('"').expect("closing quote")].to_string()
        })
        .collect()
}

fn analyze_json(file: &Path) -> Output {
    chariot(&["analyze", file.to_str().unwrap(), "--depth", "1", "--format", "json", "--quiet"])
}

/// The first moves of the game XBoard 4.9 saved (`1. Chg2 Chc7 2. Cxb9
/// Rxb9 ... 10. Ege2 ixi4 ... 14. ... Ci0+ ... 17. Kf1 Rh1+`).
const XBOARD_START: [&str; 8] = ["h2g2", "h7c7", "b2b9", "a9b9", "g2g6", "c7c3", "g3g4", "b7i7"];

#[test]
fn an_xboard_pgn_is_analysed_and_makes_a_book() {
    let file = data("xboard-maxqi.pgn");
    let out = analyze_json(&file);
    let moves = analysed_moves(&out, "iccs");
    assert_eq!(moves.len(), 34);
    assert_eq!(moves[..8], XBOARD_START);
    assert_eq!(moves[19], "i5i4", "10... ixi4");
    assert_eq!(moves[33], "h0h1", "17... Rh1+");
    assert!(stdout(&out).contains("\"result\": \"0-1\""));

    let book = std::env::temp_dir().join(format!("chariot-records-{}-xboard.book", std::process::id()));
    let out = chariot(&["book", "build", file.to_str().unwrap(), "--output", book.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).starts_with("1 games -> 20 positions"), "{}", stdout(&out));
    let _ = std::fs::remove_file(book);
}

#[test]
fn a_long_xboard_game_with_every_kind_of_disambiguation() {
    // 154 moves: Cbc7, Ece2, Cad2, Hab2, Hac4, Hce4, Afe8, ixi5, de3+, Kxd0,
    // ended by a false draw claim (XBoard gives the game to Black).
    let out = analyze_json(&data("xboard-maxqi-long.pgn"));
    let moves = analysed_moves(&out, "iccs");
    assert_eq!(moves.len(), 307);
    assert_eq!(moves[..4], ["h2c2", "b7c7", "c0e2", "b9a7"]);
    assert!(stdout(&out).contains("\"result\": \"0-1\""));
}

#[test]
fn an_xboard_setup_position_with_its_own_letters() {
    // XBoard's Xiangqi FEN letters are H (horse) and E (elephant); its
    // position files are refused with N and B. A game from such a position,
    // in XBoard's PGN layout.
    let pgn = "[Event \"Computer Chess Game\"]\n[Variant \"xiangqi\"]\n[SetUp \"1\"]\n\
               [FEN \"2eak4/4a4/4e4/9/2p3p2/9/2P3P2/4E1H2/4A4/2EAK3R w - - 0 1\"]\n\n\
               1. Rh0 {+1.00/9} Kf9 2. Rxh9+ Eg9 3. He3 {Red wins} 1-0\n";
    let file = temp_file("xboard-fen.pgn", pgn.as_bytes());
    let out = analyze_json(&file);
    assert_eq!(analysed_moves(&out, "iccs"), ["i0h0", "e9f9", "h0h9", "e7g9", "g2e3"]);
    assert!(stdout(&out).contains("\"start_fen\": \"2bak4/4a4/4b4/9/2p3p2/9/2P3P2/4B1N2/4A4/2BAK3R w - - 0 1\""));
    let _ = std::fs::remove_file(file);
}

#[test]
fn xboard_san_with_ranks_from_one_reads_the_same() {
    // Older XBoard builds number the ranks 1..10: the same game with every
    // SAN rank one higher.
    let pgn = std::fs::read_to_string(data("xboard-maxqi.pgn")).expect("fixture");
    let (tags, movetext) = pgn.split_at(pgn.find("\n\n").expect("movetext"));
    let mut shifted = String::new();
    let mut in_comment = false;
    let chars: Vec<char> = movetext.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            _ => {}
        }
        let after_file = i > 0 && ('a'..='i').contains(&chars[i - 1]);
        if !in_comment && after_file && c.is_ascii_digit() {
            shifted.push_str(&(c.to_digit(10).unwrap() + 1).to_string());
        } else {
            shifted.push(c);
        }
    }
    assert!(shifted.contains("Cxb10 ") && shifted.contains("Kf2 "), "{shifted}");
    let file = temp_file("xboard-one.pgn", format!("{tags}{shifted}").as_bytes());
    let moves = analysed_moves(&analyze_json(&file), "iccs");
    assert_eq!(moves.len(), 34);
    assert_eq!(moves[..8], XBOARD_START);
    // Without a rank 10 in the file (the first move only): read from 0 it
    // fails (no cannon goes from h2 to g3), so it is read from 1.
    let early = shifted[..shifted.find("2.").unwrap()].to_string();
    assert!(!early.contains("10"));
    let file2 = temp_file("xboard-one-short.pgn", format!("{tags}{early}").as_bytes());
    let moves = analysed_moves(&analyze_json(&file2), "iccs");
    assert_eq!(moves, XBOARD_START[..2]);
    for f in [file, file2] {
        let _ = std::fs::remove_file(f);
    }
}

/// The SAN words of each game of an XBoard PGN file, picked out by hand
/// (no comments, move numbers or result), as XBoard wrote them.
fn xboard_words(pgn: &str) -> Vec<Vec<String>> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| {
            let movetext = &game[game.find("\n\n").expect("movetext")..];
            let mut words = Vec::new();
            let mut depth = 0;
            let mut word = String::new();
            for c in movetext.chars().chain(std::iter::once(' ')) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    c if depth == 0 && c.is_whitespace() => words.push(std::mem::take(&mut word)),
                    c if depth == 0 => word.push(c),
                    _ => {}
                }
            }
            let is_number =
                |w: &String| w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) && w.ends_with('.');
            let is_result = |w: &String| ["1-0", "0-1", "1/2-1/2", "*"].contains(&w.as_str());
            words.into_iter().filter(|w| !w.is_empty() && !is_number(w) && !is_result(w)).collect()
        })
        .collect()
}

/// Reads an XBoard PGN of Chariot's own games, checks every game reads to
/// its last move and that `to_san` writes each move exactly as XBoard did.
/// Returns the games with their words.
fn check_xboard_file(name: &str, ranks: RankBase) -> Vec<(chariot::record::GameRecord, Vec<String>)> {
    let text = std::fs::read_to_string(data(name)).expect("fixture");
    let games = read_games(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let words = xboard_words(&text);
    assert_eq!(games.len(), words.len(), "{name}");
    for (n, (game, words)) in games.iter().zip(&words).enumerate() {
        assert_eq!(game.moves.len(), words.len(), "{name} game {}: every move read", n + 1);
        assert_eq!(game.start, Position::startpos());
        let mut pos = game.start;
        for (&m, word) in game.moves.iter().zip(words) {
            assert_eq!(&to_san(&pos, m, ranks), word, "{name} game {}: {m} in {}", n + 1, pos.to_fen());
            pos.make_move(m);
        }
        let tag = game.tag("Result").expect("a Result tag");
        let expected = match tag {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            _ => GameResult::Draw,
        };
        assert_eq!(game.result, Some(expected), "{name} game {}", n + 1);
    }
    games.into_iter().zip(words).collect()
}

#[test]
fn chariot_games_saved_by_xboard_read_to_the_end() {
    // Six games Chariot played itself in XBoard 4.9.1 (ranks 0..9), with
    // every kind of piece named by file (`Ecxe2`, `Rgxe6`, `Rfxc1`) and by
    // rank (`E5e7`, `E9i7`, `A0e1`, `A7e8`, `E4a2`); issue 31 stopped at
    // `E5e7`, read as the ICCS move e5e7.
    let games = check_xboard_file("xboard-chariot.pgn", RankBase::Zero);
    let plies: Vec<usize> = games.iter().map(|(g, _)| g.moves.len()).collect();
    assert_eq!(plies, [176, 282, 135, 143, 251, 228]);
    let (game, words) = &games[2];
    let at = words.iter().position(|w| w == "E5e7").expect("E5e7 in game 3");
    let m = game.moves[at];
    let before = &game.positions()[at];
    assert_eq!((m.from().rank(), m.to().to_string()), (5, "e7".to_string()));
    assert_ne!(m.from().file(), 4, "an elephant never stands on e5");
    assert_eq!(before.piece_on(m.from()).map(|p| p.kind().name()), Some("elephant"));
    // Repetition: the final position stood there before; the 50-move
    // adjudications follow 100 plies without a capture.
    for (n, (game, _)) in games.iter().enumerate() {
        let positions = game.positions();
        let last = positions.last().unwrap();
        let comment = game.tag("Result").unwrap();
        if n == 0 {
            assert!(positions.iter().filter(|p| p.key() == last.key()).count() >= 3, "game 1: a repetition");
        }
        if [1, 4, 5].contains(&n) {
            let tail = &game.moves[game.moves.len() - 100..];
            let base = positions.len() - 101;
            let captures = tail.iter().enumerate().filter(|&(i, &m)| positions[base + i].is_capture(m)).count();
            assert_eq!((captures, comment), (0, "1/2-1/2"), "game {}", n + 1);
        }
    }
}

#[test]
fn chariot_games_saved_by_xboard_with_ranks_from_one_read_to_the_end() {
    // Four games with XBoard's -rankOffset -1 (ranks 1..10, `Rb10`,
    // `Rxd10+`; made with tests/data/xboard_rank_shift.py): by rank
    // `C8e6`, `C4e5`, `A1e2`, `A3e2`.
    let games = check_xboard_file("xboard-chariot-ranks1.pgn", RankBase::One);
    let plies: Vec<usize> = games.iter().map(|(g, _)| g.moves.len()).collect();
    assert_eq!(plies, [55, 151, 124, 131]);
    let (game, words) = &games[3];
    let at = words.iter().position(|w| w == "C8e6").expect("C8e6 in game 4");
    assert_eq!((game.moves[at].from().rank(), game.moves[at].to().to_string()), (7, "e5".to_string()));
    // Game 1 ends in a repetition.
    let positions = games[0].0.positions();
    let last = positions.last().unwrap().key();
    assert!(positions.iter().filter(|p| p.key() == last).count() >= 3);
}

/// The game in the XQF fixtures (made by the reader's inverse in
/// src/record/xqf.rs, `shipped_fixtures`), with a comment, a variation
/// after the main line and, at version 18, encryption.
const XQF_OPENING: [&str; 12] =
    ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "h7h3", "c3c4", "c6c5", "b2b6", "g6g5"];

#[test]
fn xqf_files_read_through_the_binary() {
    // Version 10, not encrypted, Black wins.
    let out = analyze_json(&data("xqf/v10-plain.xqf"));
    assert_eq!(analysed_moves(&out, "iccs"), XQF_OPENING);
    assert!(stdout(&out).contains("\"result\": \"0-1\""));

    // Version 18, encrypted, Red wins: the same main line.
    let out = analyze_json(&data("xqf/v18-encrypted.xqf"));
    assert_eq!(analysed_moves(&out, "iccs"), XQF_OPENING);
    assert!(stdout(&out).contains("\"result\": \"1-0\""));

    // Version 16 from a composed position.
    let out = analyze_json(&data("xqf/v16-composed.xqf"));
    assert!(
        stdout(&out).contains("\"start_fen\": \"2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1\"")
    );
    assert_eq!(analysed_moves(&out, "iccs"), ["d7d9", "e9d9", "f8f9"]);

    // A book from XQF and PGN files together.
    let book = std::env::temp_dir().join(format!("chariot-records-{}-xqf.book", std::process::id()));
    let inputs = [data("xqf/v10-plain.xqf"), data("xqf/v18-encrypted.xqf"), data("xboard-maxqi.pgn")];
    let mut args = vec!["book", "build"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--output", book.to_str().unwrap()]);
    let out = chariot(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).starts_with("3 games"), "{}", stdout(&out));
    let _ = std::fs::remove_file(book);
}

#[test]
fn bad_xqf_files_exit_with_2_naming_file_game_and_ply() {
    let real = std::fs::read(data("xqf/v18-encrypted.xqf")).expect("fixture");
    let cut = temp_file("cut.xqf", &real[..real.len() - 30]);
    let short = temp_file("short.xqf", &real[..500]);
    // v10-plain.xqf (version 10, not encrypted): every record is 4 bytes and a
    // 4-byte comment length, then the comment. Move 3 is made to start
    // from e5 (place 45), an empty point.
    let v10 = std::fs::read(data("xqf/v10-plain.xqf")).expect("fixture");
    let mut at = 0x400;
    for _ in 0..3 {
        let len = i32::from_le_bytes([v10[at + 4], v10[at + 5], v10[at + 6], v10[at + 7]]);
        at += 8 + usize::try_from(len).expect("a comment length");
    }
    let mut wrong = v10.clone();
    wrong[at] = 0x18 + 45;
    let wrong = temp_file("wrong.xqf", &wrong);
    let cases: [(&PathBuf, &str); 3] = [
        (&cut, "game 1, ply "),
        (&short, "game 1: 500 bytes, shorter than the 1024-byte XQF header"),
        (&wrong, "game 1, ply 3: move 'e5"),
    ];
    for (file, message) in cases {
        let name = file.to_str().unwrap();
        for args in [vec!["analyze", name, "--depth", "1"], vec!["book", "build", name, "--output", "/dev/null"]] {
            let out = chariot(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(name) && stderr.contains(message), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    for f in [cut, short, wrong] {
        let _ = std::fs::remove_file(f);
    }
}
