//! The opening book through the real binary: `chariot book build` and
//! `book show`, and the engine playing book moves in both dialects, with
//! banmoves, repetition rules, illegal entries, corrupt files and analysis
//! modes that must not use the book.

mod common;

use common::Session;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The red rook checks on ranks 9 and 8 by turns (see rules_scenarios.txt:
/// perpetual-check-red-4); after `a8a9 e9e8 a9a8 e8e9`, `a8a9` would
/// repeat the perpetual check and is forbidden.
const PERPETUAL: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";

/// At the start: c3c4 (two Red wins, weight 8), g3g4 (a draw, 2), h2e2 (a
/// Red loss, 1); after h2e2, h9g7 (a Black win, 4); after c3c4, g6g5.
fn test_games() -> String {
    format!(
        "# test games\n\
         moves c3c4 g6g5 1-0\n\
         c3c4 g6g5 1-0\n\
         startpos moves g3g4 1/2-1/2\n\
         h2e2 h9g7 0-1\n\
         fen {PERPETUAL} moves a8a9 1-0\n"
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-book-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot")).args(args).env_remove("RUST_LOG").output().expect("running chariot")
}

/// Builds the test book in `dir`; returns its path.
fn build_test_book(dir: &Path) -> String {
    let games = dir.join("games.txt");
    std::fs::write(&games, test_games()).unwrap();
    let book = dir.join("test.book");
    let out = chariot(&["book", "build", games.to_str().unwrap(), "--output", book.to_str().unwrap()]);
    assert!(out.status.success(), "build failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("5 games"), "{}", String::from_utf8_lossy(&out.stdout));
    book.to_str().unwrap().to_string()
}

/// Runs one protocol session: the lines, then `quit`; returns stdout lines.
/// The harness checks the session (clean exit, quiet stderr, one answer per
/// `go`).
fn session(lines: &[String]) -> Vec<String> {
    let mut s = Session::start();
    for l in lines {
        s.send(l);
    }
    s.send("quit");
    s.finish()
}

fn lines(text: &[&str]) -> Vec<String> {
    text.iter().map(|s| s.to_string()).collect()
}

fn answers(out: &[String]) -> Vec<String> {
    out.iter().filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove")).cloned().collect()
}

fn book_notes(out: &[String]) -> Vec<String> {
    out.iter().filter(|l| l.starts_with("info string book move")).cloned().collect()
}

fn uci_with_book(book: &str) -> Vec<String> {
    lines(&["uci", "setoption name OwnBook value true", "setoption name Best Book Move value true"])
        .into_iter()
        .chain([format!("setoption name BookFile value {book}")])
        .collect()
}

#[test]
fn build_and_show() {
    let dir = temp_dir("show");
    let book = build_test_book(&dir);
    let out = chariot(&["book", "show", "--book", &book]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let moves: Vec<&str> = text.lines().skip(3).map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(moves, ["c3c4", "g3g4", "h2e2"], "{text}");
    assert!(text.lines().nth(3).unwrap().split_whitespace().nth(1) == Some("8"), "{text}");
    // Found through the mirror image: after b2e2 the book knows h2e2's reply.
    let out = chariot(&["book", "show", "--book", &book, "--moves", "b2e2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mirror image") && text.contains("b9c7"), "{text}");
    // The built-in book answers the start position.
    let out = chariot(&["book", "show"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).lines().count() > 4);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn build_errors_exit_2() {
    let dir = temp_dir("errors");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "h2e2 h9g7\nh2e2 h2e2 1-0\n").unwrap();
    let out_file = dir.join("x.book");
    let out = chariot(&["book", "build", bad.to_str().unwrap(), "--output", out_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2 (line 2)") && err.contains("illegal"), "{err}");
    assert!(!out_file.exists());
    let good = dir.join("good.txt");
    std::fs::write(&good, "h2e2 1-0\n").unwrap();
    let out = chariot(&["book", "build", good.to_str().unwrap(), "-o", "x", "--prefer", "h2e2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MOVES=FACTOR"));
    let out = chariot(&["book", "show", "--book", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Chariot book"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn uci_plays_book_moves_with_ponder_and_respects_banmoves_and_repetitions() {
    let dir = temp_dir("uci");
    let book = build_test_book(&dir);
    let mut script = uci_with_book(&book);
    script.extend(lines(&[
        // 1: the heaviest move, with the book's reply as ponder move.
        "position startpos",
        "go wtime 60000 btime 60000",
        // 2: found through the mirror image.
        "position startpos moves b2e2",
        "go movetime 60000",
        // 3: searchmoves leave only g3g4 of the book moves.
        "position startpos",
        "go movetime 60000 searchmoves g3g4 h0g2",
        // 4: the book move of the composed position.
        &format!("position fen {PERPETUAL}"),
        "go movetime 60000",
        // 5: the same move would now repeat a perpetual check: no book move.
        &format!("position fen {PERPETUAL} moves a8a9 e9e8 a9a8 e8e9"),
        "go movetime 200",
    ]));
    let out = session(&script);
    let answers = answers(&out);
    assert_eq!(answers.len(), 5, "{out:#?}");
    assert_eq!(answers[0], "bestmove c3c4 ponder g6g5");
    assert_eq!(answers[1], "bestmove b9c7");
    // g3g4 mirrors c3c4, so the ponder move is g6g5 mirrored.
    assert_eq!(answers[2], "bestmove g3g4 ponder c6c5");
    assert_eq!(answers[3], "bestmove a8a9");
    assert!(!answers[4].starts_with("bestmove a8a9"), "{}", answers[4]);
    let notes = book_notes(&out);
    assert_eq!(notes.len(), 4, "{notes:#?}");
    assert!(notes[0].starts_with("info string book move c3c4 weight 8 of 11 games 2 (+2 =0 -0)"), "{}", notes[0]);
    assert!(notes[1].ends_with("mirrored"), "{}", notes[1]);
    // The depth-0 line names the move for GUIs that show a PV.
    assert!(out.iter().any(|l| l.starts_with("info depth 0 ") && l.ends_with("pv c3c4")), "{out:#?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn ucci_usebook_bookfiles_and_banmoves() {
    let dir = temp_dir("ucci");
    let book = build_test_book(&dir);
    let out = session(&[
        "ucci".to_string(),
        "setoption usebook true".to_string(),
        "setoption bestbookmove true".to_string(),
        format!("setoption bookfiles {book}"),
        "position startpos".to_string(),
        "go time 60 increment 0".to_string(),
        "position startpos".to_string(),
        "banmoves c3c4".to_string(),
        "go time 60 increment 0".to_string(),
        "position startpos".to_string(),
        "banmoves c3c4 g3g4 h2e2".to_string(),
        "go time 0.2 increment 0".to_string(),
    ]);
    let answers = answers(&out);
    assert_eq!(answers.len(), 3, "{out:#?}");
    assert_eq!(answers[0], "bestmove c3c4 ponder g6g5");
    assert_eq!(answers[1], "bestmove g3g4 ponder c6c5");
    let third = answers[2].split_whitespace().nth(1).unwrap_or("");
    assert!(!["c3c4", "g3g4", "h2e2"].contains(&third), "{}", answers[2]);
    assert_eq!(book_notes(&out).len(), 2, "{out:#?}");
    for option in ["option usebook type check default false", "option bookfiles type string default <empty>"] {
        assert!(out.iter().any(|l| l == option), "{option} missing: {out:#?}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn analysis_and_pondering_never_use_the_book() {
    let dir = temp_dir("analysis");
    let book = build_test_book(&dir);
    let mut script = uci_with_book(&book);
    script.extend(lines(&[
        "position startpos",
        "go depth 2",
        "isready",
        "go nodes 500",
        "isready",
        "go mate 1",
        "isready",
        "go infinite",
        "stop",
        "go",
        "stop",
        "go ponder wtime 60000 btime 60000",
        "stop",
        "go perft 1",
        // The book was on all along: a timed move uses it.
        "go movetime 60000",
    ]));
    let out = session(&script);
    assert_eq!(answers(&out).len(), 7, "{out:#?}");
    let notes = book_notes(&out);
    assert_eq!(notes.len(), 1, "only the timed move comes from the book: {notes:#?}");
    assert_eq!(answers(&out).last().unwrap(), "bestmove c3c4 ponder g6g5");

    // OwnBook is off by default: the book file alone changes nothing.
    let out = session(&lines(&["uci", &format!("setoption name BookFile value {book}"), "go movetime 100"]));
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name Best Book Move type check default false",
    ] {
        assert!(out.iter().any(|l| l == option), "{option} missing: {out:#?}");
    }
    assert!(out.iter().any(|l| l.starts_with("info string book: 1 book file(s), ")), "{out:#?}");
    assert!(book_notes(&out).is_empty(), "{out:#?}");
    assert_eq!(answers(&out).len(), 1);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn illegal_entries_and_corrupt_files() {
    let dir = temp_dir("corrupt");
    let book = build_test_book(&dir);
    // A hand-made entry with the start position's key and a move that is
    // illegal there (the rook cannot jump the pawn), heavier than the rest.
    let text = std::fs::read_to_string(&book).unwrap();
    let start_key = text.lines().next().unwrap().split_whitespace().nth(2).unwrap().to_string();
    let edited = dir.join("edited.book");
    std::fs::write(&edited, format!("{text}{start_key} a0a5 100 1 0 0 1\n")).unwrap();
    let corrupt = dir.join("corrupt.book");
    std::fs::write(&corrupt, format!("{}\n{start_key} h2e2 lots 0 0 0 1\n", text.lines().next().unwrap())).unwrap();
    let missing = dir.join("missing.book");
    // Sparse: takes no disk, but is over the size limit.
    let huge = dir.join("huge.book");
    std::fs::File::create(&huge).unwrap().set_len(chariot::book::MAX_BOOK_BYTES + 1).unwrap();

    let mut script = uci_with_book(edited.to_str().unwrap());
    script.extend(lines(&[
        "position startpos",
        "go movetime 60000",
        &format!("setoption name BookFile value {}", corrupt.to_str().unwrap()),
        &format!("setoption name BookFile value {}", missing.to_str().unwrap()),
        "setoption name BookFile value /dev/null",
        // An endless device is refused, not read whole (the test would hang).
        "setoption name BookFile value /dev/zero",
        &format!("setoption name BookFile value {}", huge.to_str().unwrap()),
        "isready",
        // The built-in book stands in after a failed load.
        &format!("position fen {START}"),
        "go movetime 60000",
    ]));
    let out = session(&script);
    let answers = answers(&out);
    assert_eq!(answers.len(), 2, "{out:#?}");
    assert_eq!(answers[0], "bestmove c3c4 ponder g6g5");
    assert!(out.iter().any(|l| l.starts_with("info string book entry a0a5 is illegal here")), "{out:#?}");
    let errors: Vec<&String> = out.iter().filter(|l| l.contains("using the built-in book")).collect();
    assert_eq!(errors.len(), 5, "{out:#?}");
    assert!(errors[0].contains("line 2") && errors[0].contains("weight 'lots'"), "{}", errors[0]);
    assert!(errors[1].contains("cannot read"), "{}", errors[1]);
    assert!(errors[2].contains("/dev/null") && errors[2].contains("not a regular file"), "{}", errors[2]);
    assert!(errors[3].contains("/dev/zero") && errors[3].contains("not a regular file"), "{}", errors[3]);
    assert!(errors[4].contains("huge.book") && errors[4].contains("more than"), "{}", errors[4]);
    assert!(out.iter().any(|l| l == "readyok"));
    assert_eq!(book_notes(&out).len(), 2, "{out:#?}");
    std::fs::remove_dir_all(dir).ok();
}

/// The shipped book is what `scripts/make_book.sh build` makes from the
/// shipped games (same options as the script): nothing edited by hand, and
/// a change of the Zobrist keys shows up here.
#[test]
fn the_shipped_book_is_rebuilt_from_its_games() {
    use chariot::book::{Book, build, reader};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = reader::read_games(&std::fs::read_to_string(root.join("book/selfplay-games.pgn")).unwrap()).unwrap();
    let preferences = vec![build::parse_preference("h2e2=2").unwrap(), build::parse_preference("b2e2=2").unwrap()];
    let options = build::BuildOptions { max_ply: 20, min_games: 1, preferences };
    let rebuilt = build::build(&games, &options).book;
    let shipped = Book::parse(chariot::book::BUILT_IN_TEXT).expect("the shipped book parses");
    assert_eq!(rebuilt, shipped, "rebuild book/chariot.book with scripts/make_book.sh build");
}

/// Without `Best Book Move` the choice follows the weights (8 : 2 : 1 at
/// the start of the test book) and a seed makes it repeatable.
#[test]
fn weighted_choice_through_the_engine_is_seedable() {
    use chariot::engine::Engine;
    let dir = temp_dir("weighted");
    let book = build_test_book(&dir);
    let draw = |seed: u64| {
        let mut engine = Engine::new();
        engine.set_own_book(true);
        assert!(engine.set_book_files(&book).unwrap().is_some());
        engine.set_book_seed(seed);
        (0..1100)
            .map(|_| engine.book_move(&Default::default()).choice.expect("a book move").mv.to_string())
            .collect::<Vec<_>>()
    };
    let first = draw(7);
    assert_eq!(first, draw(7), "same seed, same choices");
    assert_ne!(first, draw(8));
    let count = |m: &str| first.iter().filter(|x| *x == m).count();
    // Expected 800, 200 and 100; the bounds are about 4.7 standard deviations
    // wide (and the seed makes the test repeatable).
    assert!((730..=870).contains(&count("c3c4")), "c3c4 {}", count("c3c4"));
    assert!((140..=260).contains(&count("g3g4")), "g3g4 {}", count("g3g4"));
    assert!((55..=145).contains(&count("h2e2")), "h2e2 {}", count("h2e2"));
    std::fs::remove_dir_all(dir).ok();
}

/// A book built from the test games written in WXF (PGN) and in Chinese
/// notation (a move list) is the same book as from the ICCS moves, and a
/// preference may be written in WXF too.
#[test]
fn books_from_wxf_and_chinese_records_equal_the_iccs_book() {
    let dir = temp_dir("notations");
    let iccs = build_test_book(&dir);
    let wxf = dir.join("wxf.pgn");
    std::fs::write(
        &wxf,
        format!(
            "[Event \"a\"]\n[Result \"1-0\"]\n1. P7+1 P7+1 1-0\n\n\
             [Event \"b\"]\n1. P7+1 P7+1 1-0\n\n\
             [Event \"c\"]\n1. P3+1 1/2-1/2\n\n\
             [Event \"d\"]\n1. C2.5 H8+7 0-1\n\n\
             [FEN \"{PERPETUAL}\"]\n1. R9+1 1-0\n"
        ),
    )
    .unwrap();
    let chinese = dir.join("chinese.txt");
    std::fs::write(
        &chinese,
        format!(
            "兵七进一 卒7进1 1-0\n兵七进一 卒7进1 1-0\n兵三进一 和棋\n炮二平五 马8进7 0-1\nfen {PERPETUAL} moves 车九进一 1-0\n"
        ),
    )
    .unwrap();
    let expected = std::fs::read_to_string(&iccs).unwrap();
    let body = |text: &str| text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n");
    for input in [&wxf, &chinese] {
        let out_file = dir.join("other.book");
        let out = chariot(&["book", "build", input.to_str().unwrap(), "--output", out_file.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(body(&std::fs::read_to_string(&out_file).unwrap()), body(&expected), "{}", input.display());
    }
    let out = chariot(&[
        "book",
        "build",
        wxf.to_str().unwrap(),
        "-o",
        dir.join("p.book").to_str().unwrap(),
        "--prefer",
        "C2.5=0",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let show = chariot(&["book", "show", "--book", dir.join("p.book").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(text.lines().any(|l| l.split_whitespace().take(2).eq(["h2e2", "0"])), "{text}");
    std::fs::remove_dir_all(dir).ok();
}

/// The book move, the search and the fallback (the move played when the
/// search cannot answer) follow one root rule: never a move `banmoves`
/// (in the limits or given to the engine, as UCCI does) or `searchmoves`
/// refused, and without a search never one completing a forbidden
/// repetition.
#[test]
fn book_and_fallback_never_play_a_refused_move() {
    use chariot::engine::Engine;
    use chariot::search::{Limits, RootFilter, Silent};
    use chariot::types::Move;
    let dir = temp_dir("refused");
    let book = build_test_book(&dir);
    let mut engine = Engine::new();
    engine.set_own_book(true);
    engine.set_best_book_move(true);
    assert!(engine.set_book_files(&book).unwrap().is_some());
    let moves = |texts: &[&str]| texts.iter().map(|t| Move::parse(t).unwrap()).collect::<Vec<_>>();
    // (searchmoves, banmoves in the limits, banmoves given to the engine,
    // the book move expected). The book's moves here: c3c4 (heaviest),
    // g3g4, h2e2.
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [&'a str], Option<&'a str>);
    let cases: [Case; 8] = [
        (&[], &[], &[], Some("c3c4")),
        (&[], &["c3c4"], &[], Some("g3g4")),
        (&[], &[], &["c3c4"], Some("g3g4")),
        (&[], &["c3c4"], &["g3g4"], Some("h2e2")),
        (&["h2e2", "h0g2"], &[], &[], Some("h2e2")),
        (&["c3c4", "g3g4"], &["c3c4"], &[], Some("g3g4")),
        (&["c3c4"], &[], &["c3c4"], None),
        (&["h0g2"], &[], &[], None),
    ];
    for (searchmoves, banned, engine_banned, expected) in cases {
        engine.set_position(None, &[]).unwrap();
        assert!(engine.set_banmoves(engine_banned).is_empty());
        let limits = Limits { searchmoves: moves(searchmoves), banmoves: moves(banned), ..Limits::default() };
        let case = format!("searchmoves {searchmoves:?} banmoves {banned:?} engine banmoves {engine_banned:?}");
        let engine_bans = moves(engine_banned);
        let refused = |m: Move| {
            (!searchmoves.is_empty() && !limits.searchmoves.contains(&m))
                || limits.banmoves.contains(&m)
                || engine_bans.contains(&m)
        };
        let book_move = engine.book_move(&limits).choice.map(|c| c.mv);
        assert_eq!(book_move.map(|m| m.to_string()).as_deref(), expected, "{case}");
        // The search keeps to the same rule, the engine's banmoves included.
        let nothing_allowed = engine.position().legal_moves().into_iter().all(refused);
        let searched = engine.search_blocking(&Limits { depth: Some(1), ..limits.clone() }, &Silent).best;
        assert_eq!(searched.is_none(), nothing_allowed, "{case}: {searched:?}");
        assert!(!searched.is_some_and(refused), "{case}: the search played {searched:?}");
        // The fallback, with the banmoves the engine adds to a `go`.
        let mut all_bans = limits.clone();
        all_bans.banmoves.extend(&engine_bans);
        let fallback = RootFilter::new(&all_bans).fallback(engine.game());
        assert_eq!(fallback.is_none(), nothing_allowed, "{case}: {fallback:?}");
        assert!(!fallback.is_some_and(refused), "{case}: the fallback played {fallback:?}");
    }
    // The fallback skips the first legal move once it is banned.
    engine.set_position(None, &[]).unwrap();
    let first = engine.position().legal_moves().into_iter().next().unwrap();
    let limits = Limits { banmoves: vec![first], ..Limits::default() };
    let fallback = RootFilter::new(&limits).fallback(engine.game()).unwrap();
    assert_ne!(fallback, first);
    assert!(engine.position().check_move(fallback).is_ok());
    // Refusing every move leaves nothing to play, even without a search.
    let limits = Limits { searchmoves: vec![first], banmoves: vec![first], ..Limits::default() };
    assert_eq!(RootFilter::new(&limits).fallback(engine.game()), None);
    assert!(engine.book_move(&limits).choice.is_none());

    // The book's a8a9 would repeat a perpetual check here: neither the
    // book nor the fallback plays it.
    engine.set_position(Some(PERPETUAL), &[]).unwrap();
    assert_eq!(engine.book_move(&Limits::default()).choice.map(|c| c.mv.to_string()).as_deref(), Some("a8a9"));
    engine.set_position(Some(PERPETUAL), &["a8a9", "e9e8", "a9a8", "e8e9"]).unwrap();
    assert!(engine.book_move(&Limits::default()).choice.is_none());
    // The same with colours swapped: a1a0 would repeat Black's perpetual
    // check. It is generated before the rook's other moves (after the
    // king's d9d8): with the king's move banned, or searchmoves naming it
    // and a later move, the fallback takes a later move.
    let black = "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1";
    engine.set_position(Some(black), &["a1a0", "e0e1", "a0a1", "e1e0"]).unwrap();
    let [a1a0, a1b1, d9d8] = ["a1a0", "a1b1", "d9d8"].map(|t| Move::parse(t).unwrap());
    let legal: Vec<Move> = engine.position().legal_moves().into_iter().collect();
    let at = |m: Move| legal.iter().position(|&l| l == m).unwrap();
    assert!(at(d9d8) < at(a1a0) && at(a1a0) < at(a1b1), "{legal:?}");
    let limits = Limits { banmoves: vec![d9d8], ..Limits::default() };
    assert_eq!(RootFilter::new(&limits).fallback(engine.game()), Some(a1b1));
    let limits = Limits { searchmoves: vec![a1a0, a1b1], ..Limits::default() };
    assert_eq!(RootFilter::new(&limits).fallback(engine.game()), Some(a1b1));
    // Only the forbidden move allowed: it is what must be played.
    let limits = Limits { searchmoves: vec![a1a0], ..Limits::default() };
    assert_eq!(RootFilter::new(&limits).fallback(engine.game()), Some(a1a0));
    std::fs::remove_dir_all(dir).ok();
}
