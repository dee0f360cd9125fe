//! Strength levels, the friendly mode, and the draw and resign options,
//! through the real binary (moves judged with the library). Every level
//! session fixes `RandomSeed`, so each test sees one reproducible game.

use chariot::position::Position;
use chariot::search::Searcher;
use chariot::strength::{self, adaptive};
use chariot::types::{Color, Move, PieceKind};

mod common;
use common::Session;
use std::time::Duration;

/// Middlegame positions: dev openings played on by Chariot at depth 5.
const MIDDLEGAMES: [&str; 12] = [
    "2bakabr1/9/2n3n2/p1p1p1p1p/9/2P3P2/P1c1P1c1P/4C1NCB/8R/1NBAKA3 w - - 5 10",
    "1rbaka1r1/9/2n5b/p1C1p3p/6P2/3n5/PcP1P3P/2N1C1Nc1/9/R1BAKABR1 b - - 6 12",
    "rnbaka3/9/1c4nc1/4pr2p/2p3b2/p7C/P1P1P1P1P/2N1C1N2/3R5/1RBAKAB2 w - - 9 11",
    "1nbakab2/3r5/4c1n2/p1C1N3p/6p2/2P6/P3P1c1P/4C1N2/9/2BAKABR1 b - - 0 11",
    "3akab1r/3r5/bcn2c3/p1C1p4/6p1p/2PN1R3/P3P1n1P/1C4N2/9/2BAKABR1 w - - 7 11",
    "1nb1ka3/4a4/rc2b4/p3n1p1p/2p1C2r1/2P1P4/P5P1P/N2R5/4N4/1RBAKAB2 b - - 6 12",
    "2b1kabnr/4a4/2n1cc3/p1p1p1p1p/3r5/2P2NP2/P3P3P/RCN1B2C1/8R/3AKAB2 b - - 23 12",
    "1nbaka1r1/5n3/4b4/p1p1p1p1p/7Cc/8C/P1c1P1P1P/2N1B1N2/7R1/3AKAB2 w - - 0 11",
    "rnbak1b2/4a4/3c2n2/p1p1p1p1p/4c4/6P2/P1P4NP/1CN1C4/3RA4/2B1KAB2 b - - 2 10",
    "rnbak1b2/1R2a2Cr/6n2/p1p1p1p1p/9/9/P3N3c/4B4/4AN3/2BAK2R1 w - - 0 12",
    "1n1akab1r/9/rC3Rn2/p1p1p3p/2b3p2/P8/2P3P1c/3CB4/4A4/RNBAK4 b - - 7 11",
    "rnbakabr1/9/4c4/p1C1p3p/c4n3/2P1P4/P5P1P/N3B4/5N2R/R1BAKA3 w - - 4 11",
];

/// No attacking pieces left: a dead draw.
const DEAD_DRAW: &str = "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1";
/// Black's only move is e9f9, then b1b9 mates: lost.
const BLACK_LOST: &str = "4k4/R8/9/9/9/9/9/9/1R7/3K5 b - - 0 1";
/// Red (to move) is a pawn down but safe: worse, not lost.
const RED_WORSE: &str = "4k4/9/9/9/9/4p4/9/9/4A4/4K4 w - - 0 1";
/// Red (to move) is a pawn up: better.
const RED_BETTER: &str = "4k4/9/9/9/9/4P4/9/9/4A4/4K4 w - - 0 1";
/// Red has a king, advisors and a pawn against rook, horse, cannon and two
/// pawns: clearly lost, but not mated within a shallow search.
const RED_CLEARLY_LOST: &str = "2bak4/4a4/4b1n2/p7p/2c6/9/4P4/9/4A4/r2AK4 w - - 0 1";

fn answer_move(out: &[String]) -> Move {
    let answer = out.last().expect("an answer");
    let word = answer.split_whitespace().nth(1).expect("bestmove has a move");
    Move::parse(word).unwrap_or_else(|| panic!("not a move: {answer}"))
}

fn info_strings(lines: &[String]) -> Vec<&str> {
    lines.iter().filter_map(|l| l.strip_prefix("info string ")).collect()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

/// The moves a level plays in the middlegame positions (one session, seed 1).
fn level_moves(level: &str) -> Vec<Move> {
    let mut s = Session::uci();
    s.set("RandomSeed", "1");
    s.set("Level", level);
    MIDDLEGAMES
        .iter()
        .map(|fen| {
            s.send(&format!("position fen {fen}"));
            let m = answer_move(&s.go("depth 60"));
            assert!(pos(fen).check_move(m).is_ok(), "{level} played illegal {m} in {fen}");
            m
        })
        .collect()
}

// ------------------------------------------------------------------ levels

#[test]
fn lower_levels_lose_more_by_a_full_strength_judgement() {
    let tt = Searcher::new(16);
    let total_loss = |moves: &[Move]| -> i32 {
        MIDDLEGAMES.iter().zip(moves).filter_map(|(fen, &m)| adaptive::judge_move(&pos(fen), m, &tt)).sum()
    };
    let lowest = total_loss(&level_moves("caomin"));
    let low = total_loss(&level_moves("xiancheng"));
    let high = total_loss(&level_moves("jiangjun"));
    assert!(lowest > high && low > high, "caomin {lowest}, xiancheng {low}, jiangjun {high} cp lost");
}

#[test]
fn level_names_in_pinyin_or_chinese_set_the_rating() {
    // 常侍 = changshi = UCI_Elo 1500 with limiting on: the same seeded game.
    let play = |setup: &[(&str, &str)]| {
        let mut s = Session::uci();
        s.set("RandomSeed", "7");
        for (name, value) in setup {
            s.set(name, value);
        }
        let mut out = Vec::new();
        for fen in &MIDDLEGAMES[..4] {
            s.send(&format!("position fen {fen}"));
            out.extend(s.go("depth 60"));
        }
        assert!(info_strings(&out).is_empty(), "{out:?}");
        out
    };
    let answers = |out: &[String]| out.iter().filter(|l| l.starts_with("bestmove")).cloned().collect::<Vec<_>>();
    let chinese = play(&[("Level", "常侍")]);
    let pinyin = play(&[("Level", "CHANGSHI")]);
    let elo = play(&[("UCI_Elo", "1500"), ("UCI_LimitStrength", "true")]);
    assert_eq!(answers(&chinese), answers(&pinyin));
    assert_eq!(answers(&chinese), answers(&elo));
    // A limited level thinks briefly: one info line per move, within the
    // level's node budget.
    let mut s = Session::uci();
    s.set("Level", "changshi");
    s.send(&format!("position fen {}", MIDDLEGAMES[0]));
    let out = s.go("depth 60");
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 1, "{out:?}");
    assert!(!infos[0].contains("bound"));
    let nodes: u64 = infos[0].split_whitespace().skip_while(|&w| w != "nodes").nth(1).unwrap().parse().unwrap();
    let budget = strength::Params::for_elo(1500).nodes.unwrap();
    assert!(nodes <= budget + 100, "{nodes} nodes for a budget of {budget}");
    // `full` is the plain search again: one line per depth.
    s.set("Level", "full");
    let out = s.go("depth 4");
    let exact = out.iter().filter(|l| l.starts_with("info depth") && !l.contains("bound"));
    assert_eq!(exact.count(), 4, "{out:?}");
}

#[test]
fn bad_level_values_are_reported_and_change_nothing() {
    let mut s = Session::uci();
    for (name, value) in [("Level", "emperor"), ("UCI_Elo", "3000"), ("UCI_Elo", "-1"), ("Randomness", "wild")] {
        s.set(name, value);
        let out = s.sync();
        assert_eq!(info_strings(&out).len(), 1, "{name}={value}: {out:?}");
    }
    // Still full strength: a depth-3 search reports three depths.
    s.send("position startpos");
    let out = s.go("depth 3");
    assert_eq!(out.iter().filter(|l| l.starts_with("info depth") && !l.contains("bound")).count(), 3);
}

#[test]
fn handshakes_announce_ascii_level_names() {
    let mut s = Session::uci();
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    let level = lines.iter().find(|l| l.starts_with("option name Level type combo")).expect("Level option");
    assert!(level.is_ascii() && level.contains("default full var full var caomin") && level.contains("var wang"));
    for name in ["UCI_LimitStrength type check", "UCI_Elo type spin default 1500 min 0 max 2600", "Friendly type check"]
    {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name}"))), "{name}");
    }
    let mut s = Session::ucci();
    s.send("ucci");
    let lines = s.until(|l| l == "ucciok");
    for name in ["level type combo", "randomness type combo"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option {name}"))), "{name}");
    }
    // The fine-tuning options keep the UCCI handshake short; they are
    // still set by name.
    for name in ["elo", "limitstrength", "friendly"] {
        assert!(!lines.iter().any(|l| l.starts_with(&format!("option {name} "))), "{name}");
        s.send(&format!("setoption {name} {}", if name == "elo" { "1500" } else { "false" }));
    }
    // UCCI takes the same names through its own setoption form.
    s.send("setoption level 将军");
    s.send("setoption randomseed 3");
    assert!(s.sync().is_empty());
    s.send("position startpos");
    let out = s.go("depth 60");
    assert_eq!(out.iter().filter(|l| l.starts_with("info depth")).count(), 1, "{out:?}");
}

#[test]
fn the_lowest_levels_play_whole_games_of_legal_moves() {
    // Each level plays both sides of a game from the start.
    for level in ["caomin", "xiancheng"] {
        let mut s = Session::uci();
        s.set("Level", level);
        s.set("RandomSeed", "11");
        let mut board = Position::startpos();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..80 {
            if !board.has_legal_move() {
                break;
            }
            s.send(&format!("position startpos moves {}", moves.join(" ")));
            let m = answer_move(&s.go("depth 60"));
            assert!(board.check_move(m).is_ok(), "{level}: illegal {m} after {moves:?}");
            board.make_move(m);
            moves.push(m.to_string());
        }
    }
}

#[test]
fn above_the_lowest_rank_no_piece_is_left_hanging() {
    // For several seeds, the rank just above 草民 never plays a move that
    // leaves more en prise than the full-strength best move, unless the
    // full-strength judgement finds the move sound.
    let tt = Searcher::new(16);
    for seed in ["2", "3", "4"] {
        let mut s = Session::uci();
        s.set("Level", "xiancheng");
        s.set("RandomSeed", seed);
        for fen in MIDDLEGAMES {
            let p = pos(fen);
            s.send(&format!("position fen {fen}"));
            let m = answer_move(&s.go("depth 60"));
            let best = search_to_depth(&tt, p, 6).best.unwrap();
            let extra = strength::exposure(&p, m) - strength::exposure(&p, best).max(0);
            let loss = adaptive::judge_move(&p, m, &tt).unwrap_or(0);
            assert!(extra < 150 || loss <= 50, "seed {seed}: {m} in {fen} leaves {extra} en prise, loses {loss}");
        }
    }
}

#[test]
fn a_level_waits_for_ponderhit_and_stop() {
    let mut s = Session::uci();
    s.set("Level", "xiancheng");
    s.send("position startpos moves h2e2");
    s.send("go ponder wtime 10000 btime 10000");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!s.sync().iter().any(|l| l.starts_with("bestmove")), "answered while pondering");
    s.send("ponderhit");
    s.until(|l| l.starts_with("bestmove"));
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!s.sync().iter().any(|l| l.starts_with("bestmove")), "answered an infinite search");
    s.send("stop");
    s.until(|l| l.starts_with("bestmove"));
}

// ---------------------------------------------------------- friendly mode

/// A line of `plies` moves from the start in which Red is the binary at
/// `level` and Black the library's depth-4 search.
fn line(plies: usize, level: &str) -> Vec<String> {
    let tt = Searcher::new(16);
    let mut red = Session::uci();
    red.set("Level", level);
    red.set("RandomSeed", "3");
    let mut p = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for i in 0..plies {
        if !p.has_legal_move() {
            break;
        }
        let m = if i % 2 == 0 {
            red.send(&format!("position startpos moves {}", moves.join(" ")));
            answer_move(&red.go("depth 60"))
        } else {
            search_to_depth(&tt, p, 4).best.unwrap()
        };
        p.make_move(m);
        moves.push(m.to_string());
    }
    moves
}

fn friendly_estimate(moves: &[String]) -> (i32, usize) {
    let mut s = Session::uci();
    s.set("Friendly", "true");
    s.set("RandomSeed", "5");
    s.send(&format!("position startpos moves {}", moves.join(" ")));
    let out = s.go("depth 60");
    let text =
        info_strings(&out).into_iter().find(|t| t.starts_with("adaptive: ")).expect("an adaptive line").to_string();
    // "adaptive: opponent ~1450 Elo from 12 moves (average loss 38 cp), playing at 1450"
    let elo: i32 = text.split('~').nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    let n: usize = text.split(" from ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(text.ends_with(&format!("playing at {elo}")), "{text}");
    (elo, n)
}

#[test]
fn friendly_mode_rates_a_weak_opponent_below_a_strong_one() {
    // An odd number of plies: the friendly engine plays Black and judges Red.
    let (strong, n_strong) = friendly_estimate(&line(19, "wang"));
    let (weak, n_weak) = friendly_estimate(&line(19, "caomin"));
    assert!(n_strong >= 8 && n_weak >= 8, "{n_strong} {n_weak}");
    assert!(strong > weak + 300, "王 rated {strong}, 草民 rated {weak}");
}

// --------------------------------------------------------- draw and resign

#[test]
fn ucci_resigns_after_n_moves_at_or_below_the_threshold() {
    let mut s = Session::ucci();
    s.send("setoption resignmode score");
    s.send("setoption resignscore -500");
    s.send("setoption resignmoves 3");
    let mut moves: Vec<String> = Vec::new();
    let mut words = Vec::new();
    for _ in 0..3 {
        s.send(&format!("position fen {RED_CLEARLY_LOST} moves {}", moves.join(" ")));
        let out = s.go("depth 3");
        let answer = out.last().unwrap().clone();
        words.push(answer.ends_with(" resign"));
        let mut board = pos(RED_CLEARLY_LOST);
        for m in &moves {
            board.make_move(Move::parse(m).unwrap());
        }
        let ours = answer_move(&out);
        board.make_move(ours);
        // The opponent answers with a pawn move: nothing can repeat (a
        // repetition would make the score a draw).
        let black_pawn = Some(chariot::types::Piece::new(Color::Black, PieceKind::Pawn));
        let reply = board.legal_moves().into_iter().find(|m| board.piece_on(m.from()) == black_pawn).unwrap();
        moves.push(ours.to_string());
        moves.push(reply.to_string());
    }
    assert_eq!(words, [false, false, true], "{moves:?}");
    // A new game starts the count again, and so does a position that does
    // not continue the game.
    s.send("setoption newgame");
    s.send(&format!("position fen {RED_CLEARLY_LOST}"));
    assert!(!s.go("depth 3").last().unwrap().ends_with(" resign"));
    s.send(&format!("position fen {RED_CLEARLY_LOST} moves {}", moves[..2].join(" ")));
    assert!(!s.go("depth 3").last().unwrap().ends_with(" resign"));
    s.send("position startpos");
    s.go("depth 3");
    s.send(&format!("position fen {RED_CLEARLY_LOST} moves {}", moves[..4].join(" ")));
    assert!(!s.go("depth 3").last().unwrap().ends_with(" resign"));
    // The default resigns only when mated.
    s.send("setoption resignmode mated");
    for _ in 0..3 {
        assert!(!s.go("depth 3").last().unwrap().ends_with(" resign"));
    }
}

#[test]
fn ucci_accepts_a_draw_within_the_configured_margin() {
    let mut s = Session::ucci();
    let offered = |s: &mut Session, fen: &str| {
        s.send(&format!("position fen {fen}"));
        s.go("draw depth 4").last().unwrap().ends_with(" draw")
    };
    // Default margin 0: accept when worse, decline when better.
    assert!(offered(&mut s, RED_WORSE));
    assert!(!offered(&mut s, RED_BETTER));
    // Accept even a pawn up (a won ending: the network scores it above
    // 500 at depth 4); then not even a pawn down.
    s.send("setoption drawacceptscore 1000");
    assert!(offered(&mut s, RED_BETTER));
    s.send("setoption drawacceptscore -300");
    assert!(!offered(&mut s, RED_WORSE));
    // Dead draws are offered unasked unless draws are off; long quiet
    // games follow DrawOfferPlies.
    s.send(&format!("position fen {DEAD_DRAW}"));
    assert!(s.go("depth 3").last().unwrap().ends_with(" draw"));
    let long = RED_WORSE.replace(" 0 1", " 110 60");
    s.send("setoption drawofferscore 200");
    s.send(&format!("position fen {long}"));
    assert!(s.go("depth 3").last().unwrap().ends_with(" draw"));
    s.send("setoption drawofferplies 0");
    assert!(!s.go("depth 3").last().unwrap().ends_with(" draw"));
}

#[test]
fn uci_gets_hints_instead_of_draw_and_resign_words() {
    let mut s = Session::uci();
    let cases = [
        (DEAD_DRAW, "depth 4", "Chariot would offer a draw"),
        (BLACK_LOST, "depth 4", "Chariot would resign"),
        (RED_WORSE, "draw depth 4", "Chariot would accept a draw"),
    ];
    for (fen, go, hint) in cases {
        s.send(&format!("position fen {fen}"));
        let out = s.go(go);
        assert_eq!(info_strings(&out), [hint], "{out:?}");
        let answer: Vec<&str> = out.last().unwrap().split_whitespace().collect();
        assert!(answer.len() == 2 || (answer.len() == 4 && answer[2] == "ponder"), "{answer:?}");
    }
    s.set("ResignMode", "never");
    s.send(&format!("position fen {BLACK_LOST}"));
    assert!(info_strings(&s.go("depth 4")).is_empty());
}

#[test]
fn the_engine_api_plays_a_level_reproducibly_for_a_seed() {
    let play = |level: &str, seed: u64, fen: &str| {
        let mut e = chariot::engine::Engine::new();
        assert!(e.strength_mut().set_level(level));
        e.strength_mut().seed = seed;
        e.set_position(Some(fen), &[]).unwrap();
        e.play_blocking(&chariot::search::Limits::default(), &chariot::search::Silent).best.unwrap()
    };
    let mut varied = 0;
    for fen in &MIDDLEGAMES[..6] {
        let first = play("caomin", 1, fen);
        assert_eq!(first, play("caomin", 1, fen), "{fen}");
        varied += (2..6).any(|seed| play("caomin", seed, fen) != first) as usize;
    }
    // The lowest rank does vary its play between seeds.
    assert!(varied >= 3, "{varied}");
}

/// The levels were calibrated with the hand-crafted evaluation, so a level
/// plays with it whether or not the network is in use (`Use NNUE`), while
/// full strength follows the option.
#[test]
fn a_level_plays_with_the_hand_crafted_evaluation_whatever_use_nnue_says() {
    let play = |level: &str, use_nnue: bool, fen: &str| {
        let mut e = chariot::engine::Engine::new();
        assert!(e.use_nnue(), "the network is the default");
        e.set_use_nnue(use_nnue);
        assert!(e.strength_mut().set_level(level));
        e.strength_mut().seed = 5;
        e.set_position(Some(fen), &[]).unwrap();
        let limits = chariot::search::Limits { depth: Some(5), ..Default::default() };
        let out = e.play_blocking(&limits, &chariot::search::Silent);
        (out.best.unwrap(), out.score, out.nodes)
    };
    let mut full_strength_differs = 0;
    for fen in &MIDDLEGAMES[..4] {
        assert_eq!(play("changshi", true, fen), play("changshi", false, fen), "{fen}");
        full_strength_differs += (play("full", true, fen) != play("full", false, fen)) as usize;
    }
    assert_eq!(full_strength_differs, 4);
}

/// The library's plain search of `p` to `depth` (one thread, no level).
fn search_to_depth(searcher: &Searcher, p: Position, depth: i32) -> chariot::search::Outcome {
    let game = chariot::search::GameHistory::new(p);
    let limits = chariot::search::Limits { depth: Some(depth), ..Default::default() };
    chariot::search::search(chariot::search::Request {
        game: &game,
        limits: &limits,
        config: &chariot::search::Config::default(),
        searcher,
        signals: &chariot::search::Signals::default(),
        listener: &chariot::search::Silent,
    })
}
