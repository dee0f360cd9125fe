//! Property test of the protocol loop: random command sequences from a
//! grammar of what GUIs send (and of what they should not), in both
//! dialects, against the real binary. Seeded, so a failure repeats; bounded
//! (a fixed number of short commands), so it runs in CI.
//!
//! The oracles, checked throughout:
//! - the engine never dies before `quit` and exits cleanly after it, with
//!   nothing on stderr (the harness checks at the end);
//! - every `go` gets exactly one answer;
//! - every move it answers is legal in the position the commands set up
//!   (tracked here with the library's own board), not banned, and a
//!   position it refused gets no move at all;
//! - `readyok` comes while it searches (within a generous bound that only a
//!   blocked loop would miss).

mod common;

use chariot::position::Position;
use chariot::types::Move;
use common::{Rng, Session};
use std::time::{Duration, Instant};

/// A loop that does not answer `isready` within this while searching is
/// blocked (a liveness bound, not a speed figure).
const READY_BOUND: Duration = Duration::from_secs(10);

/// What the test knows of the engine's state.
struct Model {
    ucci: bool,
    /// The position set up, `None` after a refused one.
    board: Option<Position>,
    banned: Vec<Move>,
    /// UCCI times in milliseconds (`usemillisec`).
    millisec: bool,
}

/// A position a few random moves into a game, with the moves as text.
fn random_game(rng: &mut Rng, plies: usize) -> (Position, Vec<String>) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m.to_string());
        pos.make_move(m);
    }
    (pos, moves)
}

/// A `position` command and the board the engine must then hold.
fn position_command(rng: &mut Rng) -> (String, Option<Position>) {
    let plies = rng.below(40);
    let (pos, moves) = random_game(rng, plies);
    match rng.below(6) {
        // The game from the start, maybe with a bad move appended (the
        // moves before it stay played).
        0 | 1 => {
            let mut text = format!("position startpos moves {}", moves.join(" "));
            if rng.chance(30) {
                text.push_str(rng.pick(&[" a0a0", " zz99", " h2e2", " e9e8", " i9i0"]));
                text.push_str(" b0c2");
            }
            let mut board = Position::startpos();
            let tokens: Vec<&str> = text.split_whitespace().skip(3).collect();
            for t in tokens {
                match board.parse_legal_move(t) {
                    Ok(m) => board.make_move(m),
                    Err(_) => break,
                }
            }
            (text, Some(board))
        }
        // The current board as a FEN (UCCI style after a capture).
        2 | 3 => (format!("position fen {}", pos.to_fen()), Some(pos)),
        // A FEN with one character changed: accepted or refused as the
        // library's parser says.
        4 => {
            let mut chars: Vec<char> = pos.to_fen().chars().collect();
            let at = rng.below(chars.len());
            chars[at] = ['k', 'K', 'p', 'P', '1', '9', '/', 'x', ' ', 'b', 'A', 'e'][rng.below(12)];
            let fen: String = chars.into_iter().collect();
            let board = Position::from_fen(&fen).ok();
            (format!("position fen {fen}"), board)
        }
        // Not a position at all.
        _ => (rng.pick(&["position", "position fen", "position moves h2e2", "fen"]).to_string(), None),
    }
}

/// A `go` that ends by itself within a fraction of a second.
fn go_command(rng: &mut Rng, model: &Model) -> String {
    match rng.below(7) {
        0 => format!("go depth {}", 1 + rng.below(4)),
        1 => format!("go nodes {}", 1 + rng.below(3000)),
        2 => format!("go movetime {}", rng.below(40)),
        3 if model.ucci && model.millisec => format!("go time {} increment {}", rng.below(3000), rng.below(50)),
        3 if model.ucci => format!("go time {}.{:03} increment 0.0{}", rng.below(3), rng.below(1000), rng.below(5)),
        3 => format!(
            "go wtime {} btime {} winc {} binc {}",
            rng.below(3000),
            rng.below(3000),
            rng.below(50),
            rng.below(50)
        ),
        4 => format!("go depth {} movetime {}", 1 + rng.below(20), 5 + rng.below(30)),
        5 => {
            format!(
                "go {}",
                rng.pick(&["depth -3", "depth x", "nodes", "movetime -7", "wtime -5 btime -5", "mate 2 movetime 20"])
            )
        }
        _ => format!("go depth 3 searchmoves {}", rng.pick(&["h2e2 b0c2", "a0a0", "e9e8", "b2b9"])),
    }
}

/// Checks an answer line against the model.
fn check_answer(model: &Model, answer: &str, context: &str) {
    let words: Vec<&str> = answer.split_whitespace().collect();
    let legal = model.board.as_ref().map(|b| b.legal_moves()).unwrap_or_default();
    let allowed: Vec<Move> = legal.iter().copied().filter(|m| !model.banned.contains(m)).collect();
    if answer == "nobestmove" || answer == "bestmove (none)" {
        assert!(allowed.is_empty() || model.board.is_none(), "no move, but there are legal ones: {context}");
        assert!(model.ucci == (answer == "nobestmove"), "wrong dialect's 'no move': {context}");
        return;
    }
    assert_eq!(words.first(), Some(&"bestmove"), "{context}");
    let board = model.board.as_ref().unwrap_or_else(|| panic!("a move for a refused position: {context}"));
    let mv = Move::parse(words[1]).unwrap_or_else(|| panic!("unreadable move: {context}"));
    assert!(board.check_move(mv).is_ok(), "illegal move {mv}: {context}");
    assert!(!model.banned.contains(&mv), "banned move {mv}: {context}");
}

fn run_session(seed: u64, commands: usize) {
    let mut rng = Rng(seed);
    let ucci = rng.chance(50);
    let mut s = if ucci { Session::ucci() } else { Session::uci() };
    let mut model = Model { ucci, board: Some(Position::startpos()), banned: Vec::new(), millisec: false };
    for step in 0..commands {
        let context = format!("seed {seed:#x} step {step}");
        match rng.below(20) {
            0..=3 => {
                let (text, board) = position_command(&mut rng);
                s.send(&text);
                model.board = board;
                model.banned.clear();
            }
            4..=8 => {
                let go = go_command(&mut rng, &model);
                s.send(&go);
                let answer = s.answer();
                // UCCI `go depth 0` (or less) is a static evaluation, no move.
                if !(model.ucci && go == "go depth -3" && answer == "nobestmove") {
                    check_answer(&model, &answer, &format!("{context}: {go} -> {answer}\n{}", s.dump()));
                }
            }
            9 => {
                // Searching without end: `isready` must still be answered,
                // then `stop` (or a ponderhit) brings the one answer.
                let ponder = rng.chance(50);
                s.send(if ponder { "go ponder movetime 20" } else { "go infinite" });
                let start = Instant::now();
                s.send("isready");
                let before = s.until_line("readyok");
                assert!(start.elapsed() < READY_BOUND, "readyok after {:?}: {context}", start.elapsed());
                let early = before.iter().find(|l| common::is_answer(l)).cloned();
                s.send(if ponder && rng.chance(50) { "ponderhit" } else { "stop" });
                let answer = early.unwrap_or_else(|| s.answer());
                check_answer(&model, &answer, &format!("{context}: infinite -> {answer}\n{}", s.dump()));
            }
            10 => {
                if model.board.is_some() && rng.chance(70) {
                    let legal = model.board.as_ref().map(|b| b.legal_moves()).unwrap_or_default();
                    let banned: Vec<Move> = legal.iter().copied().filter(|_| rng.chance(40)).collect();
                    let text: Vec<String> = banned.iter().map(|m| m.to_string()).collect();
                    s.send(&format!("banmoves {}", text.join(" ")));
                    model.banned = banned;
                } else {
                    // Nonsense is refused whole; nothing is banned.
                    s.send("banmoves zz99 a0a0");
                    model.banned.clear();
                }
            }
            11 => {
                let option = rng.pick(&[
                    "setoption name Threads value 2",
                    "setoption name Threads value 1",
                    "setoption name Hash value 8",
                    "setoption name Hash value 999999999",
                    "setoption name MultiPV value 3",
                    "setoption name MultiPV value 1",
                    "setoption name Nonsense value 5",
                    "setoption name Threads value -1",
                    "setoption name UCI_ShowWDL value true",
                    "setoption name Randomness value small",
                    "setoption name Randomness value none",
                    "setoption usemillisec true",
                    "setoption usemillisec false",
                    "setoption name Clear Hash",
                ]);
                s.send(option);
                if option.starts_with("setoption usemillisec") {
                    model.millisec = option.ends_with("true");
                }
            }
            12 => s.send(rng.pick(&["ucinewgame", "setoption newgame", "d", "eval", "help", "debug on", "debug off"])),
            13 => {
                let depth = 1 + rng.below(2) as u32;
                s.send(&format!("go perft {depth}"));
                let out = s.until(|l| l.starts_with("Nodes searched"));
                let count: u64 = out.last().and_then(|l| l.rsplit(' ').next()?.parse().ok()).expect("a count");
                // No position: no moves to count.
                let expected = model.board.as_ref().map_or(0, |b| chariot::perft::perft(b, depth));
                assert_eq!(count, expected, "{context}");
            }
            14 => {
                // Junk: random bytes, long lines, control characters.
                let len = rng.below(300);
                let junk: Vec<u8> = (0..len).map(|_| (rng.next() % 256) as u8).filter(|&b| b != b'\n').collect();
                s.sync();
                s.send_raw(&junk);
                s.send_raw(b"\n");
                let out = s.sync();
                assert!(out.len() <= 1, "one line in, at most one line out: {out:?} ({context})");
                assert!(out.iter().all(|l| l.len() < 600), "{context}");
            }
            15 => {
                // Idle, or after a search that already answered: UCCI says
                // `nobestmove` when idle, nothing when the `stop` crossed an
                // answer; UCI says nothing.
                s.send("stop");
                let out = s.sync();
                let answers: Vec<&String> = out.iter().filter(|l| common::is_answer(l)).collect();
                assert!(answers.len() <= 1, "{context}: {out:?}");
                if let Some(answer) = answers.first() {
                    assert!(model.ucci && *answer == "nobestmove", "{context}: {out:?}");
                    s.expect_extra_answer();
                }
            }
            16 => {
                let word = rng.pick(&["isready", "uci", "ucci"]);
                s.send(word);
                let end = match word {
                    "isready" => "readyok",
                    "uci" => "uciok",
                    _ => "ucciok",
                };
                s.until_line(end);
                if word != "isready" {
                    model.ucci = word == "ucci";
                }
            }
            _ => {
                // A bare `go` searches until `stop` as `go infinite` does.
                s.send("go");
                s.send("stop");
                let answer = s.answer();
                check_answer(&model, &answer, &format!("{context}: go/stop -> {answer}\n{}", s.dump()));
            }
        }
    }
    let ucci = model.ucci;
    s.quit(ucci);
}

#[test]
fn random_command_sequences_keep_the_engine_serving() {
    // Ten sessions of 150 commands: about 10 s. To replay one with the
    // conversation on stderr: CHARIOT_TEST_ECHO=1 cargo test --release
    // --test protocol_fuzz -- --nocapture.
    for seed in 1..=10u64 {
        run_session(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, 150);
    }
}
