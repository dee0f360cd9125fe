//! Mutation fuzzing of the readers that take outside input: FEN, move
//! texts, game records (PGN, move lists, XQF), the book file, the network
//! file, datagen records and packed games, the protocol's line parser,
//! `chariot match`'s options and the browser board's commands. Each target
//! starts from valid inputs shipped in the repository and feeds the reader
//! seeded mutations of them (bytes flipped, inserted, deleted, repeated,
//! cut, spliced with another input, tokens a parser finds interesting).
//! The oracle: the reader returns (a value or an error) without panicking,
//! within a liveness bound. A failing input is shrunk (chunks deleted while
//! it still fails) and printed.
//!
//! This is the suite's quick, stable-Rust companion of the coverage-guided
//! targets in `fuzz/` (libFuzzer, run for millions of inputs with
//! `fuzz/run.sh`): seeded generation with shrinking, which needs no extra
//! tool. CI runs a few thousand inputs a target; a long run:
//!
//! ```sh
//! CHARIOT_FUZZ_ITERS=1000000 cargo test --release --test fuzz_readers -- --nocapture
//! ```

mod common;

use chariot::position::Position;
use common::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// One call that takes longer than this is taken for a hang.
const LIVENESS: Duration = Duration::from_secs(5);

fn iterations(default: usize) -> usize {
    std::env::var("CHARIOT_FUZZ_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const TOKENS: [&[u8]; 16] = [
    b"/",
    b" ",
    b"\n",
    b"10",
    b"0",
    b"-1",
    b"99999999999999999999",
    b"w",
    b"b",
    b"[FEN \"",
    b"\"]",
    b"1.",
    b"x",
    b"+",
    b"\xff\xfe",
    b"\0",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = out.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(len + 1);
                out.insert(i, rng.next() as u8);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                out.drain(i..i + n);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below((len - i).min(64));
                let chunk: Vec<u8> = out[i..i + n].to_vec();
                for _ in 0..1 + rng.below(8) {
                    out.splice(i..i, chunk.iter().copied());
                }
            }
            4 => out.truncate(rng.below(len + 1)),
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                let at = rng.below(len + 1);
                let from = rng.below(other.len() + 1);
                out.truncate(at);
                out.extend_from_slice(&other[from..]);
            }
            6 => {
                let i = rng.below(len + 1);
                let token = TOKENS[rng.below(TOKENS.len())];
                out.splice(i..i, token.iter().copied());
            }
            _ if len > 0 => {
                // A digit or letter swapped for another: the mutations a
                // hand-edited file gets.
                let i = rng.below(len);
                out[i] = b"0123456789abcdefghiRNBAKCPrnbakcp"[rng.below(33)];
            }
            _ => {}
        }
    }
    out
}

/// Whether `read` fails the oracle on `input`: a panic or a hang.
fn fails(read: &dyn Fn(&[u8]), input: &[u8]) -> Option<String> {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| read(input)));
    let took = start.elapsed();
    match result {
        Err(panic) => Some(
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".to_string()),
        ),
        Ok(()) if took > LIVENESS => Some(format!("took {took:?}")),
        Ok(()) => None,
    }
}

/// Deletes chunks of a failing input while it still fails.
fn shrink(read: &dyn Fn(&[u8]), input: &[u8]) -> Vec<u8> {
    let mut best = input.to_vec();
    let mut chunk = best.len() / 2;
    while chunk > 0 {
        let mut i = 0;
        while i + chunk <= best.len() {
            let mut candidate = best.clone();
            candidate.drain(i..i + chunk);
            if fails(read, &candidate).is_some() {
                best = candidate;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    best
}

/// Runs one target: `count` mutated inputs from `seeds`; panics with the
/// shrunk input of the first failure.
fn fuzz(name: &str, seeds: Vec<Vec<u8>>, count: usize, seed: u64, read: &dyn Fn(&[u8])) {
    assert!(!seeds.is_empty());
    // The panic hook is global: one target at a time silences it (a
    // reader's panic is reported below, shrunk), and puts it back.
    static HOOK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed);
    let mut failure = None;
    for n in 0..count {
        let base = &seeds[n % seeds.len()];
        let input = if n < seeds.len() { base.clone() } else { mutate(&mut rng, &seeds, base) };
        if let Some(why) = fails(read, &input) {
            failure = Some((why, shrink(read, &input)));
            break;
        }
    }
    std::panic::set_hook(quiet);
    if let Some((why, input)) = failure {
        panic!("{name}: {why}\nshrunk input ({} bytes): {:?}", input.len(), String::from_utf8_lossy(&input));
    }
    eprintln!("{name}: {count} inputs, no panic, none over {LIVENESS:?}");
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fen_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for file in ["perft-data/startpos.epd", "perft-data/chariot-tricky.epd", "perft-data/fairy-stockfish.epd"] {
        for line in std::fs::read_to_string(file).unwrap().lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            seeds.push(fen.as_bytes().to_vec());
        }
    }
    seeds
}

#[test]
fn fen_reader() {
    fuzz("FEN", fen_seeds(), iterations(20_000), 1, &|bytes| {
        if let Ok(pos) = Position::from_fen(&text(bytes)) {
            // A FEN that reads gives a position the rest of the engine can use.
            let _ = pos.legal_moves();
            let _ = pos.to_fen();
            let _ = pos.in_check();
        }
    });
}

#[test]
fn move_texts_in_many_positions() {
    let positions: Vec<Position> =
        fen_seeds().iter().filter_map(|f| Position::from_fen(&text(f)).ok()).take(40).collect();
    let seeds: Vec<Vec<u8>> =
        ["h2e2", "C2=5", "炮二平五", "Che2", "E5e7", "Rxh9+", "H2-E2", "P3e4", "+2=1", "前炮进一"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
    let count = iterations(20_000);
    fuzz("move texts", seeds, count, 2, &|bytes| {
        let t = text(bytes);
        for pos in positions.iter().step_by(7) {
            let _ = chariot::notation::parse_move(pos, &t);
        }
    });
}

fn record_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for file in ["tests/data/xboard-chariot.pgn", "tests/data/xboard-maxqi.pgn", "tests/data/xboard-chariot-ranks1.pgn"]
    {
        let all = std::fs::read(file).unwrap();
        // One game each: mutations of a short text reach more of the reader.
        let cut = all.len().min(3000);
        seeds.push(all[..cut].to_vec());
    }
    seeds.push(b"h2e2 h9g7 h0g2 i9h9\n".to_vec());
    seeds.push(b"1. C2=5 H8+7 2. H2+3 R9=8 *\n".to_vec());
    for file in ["tests/data/xqf/v10-plain.xqf", "tests/data/xqf/v16-composed.xqf", "tests/data/xqf/v18-encrypted.xqf"]
    {
        seeds.push(std::fs::read(file).unwrap());
    }
    seeds
}

#[test]
fn game_records_pgn_move_lists_and_xqf() {
    fuzz("game records", record_seeds(), iterations(5_000), 3, &|bytes| {
        let _ = chariot::record::read_bytes(bytes);
    });
}

#[test]
fn book_file() {
    let all = std::fs::read_to_string("book/chariot.book").unwrap();
    let head: String = all.lines().take(60).collect::<Vec<_>>().join("\n");
    fuzz("book", vec![head.into_bytes()], iterations(5_000), 4, &|bytes| {
        let _ = chariot::book::Book::parse(&text(bytes));
    });
}

#[test]
fn network_file() {
    let net = std::fs::read("nets/default.nnue").unwrap();
    // The file is large; the header and the first rows are where a reader
    // goes wrong, and cut files test the rest.
    fuzz("network", vec![net.clone(), net[..4096.min(net.len())].to_vec()], iterations(300), 5, &|bytes| {
        let _ = chariot::nnue::Network::from_bytes(bytes);
    });
}

#[test]
fn datagen_records() {
    use chariot::datagen::format::{Outcome, RECORD_BYTES, Record};
    let mut rng = Rng(6);
    let mut seeds = vec![Record::header().to_vec()];
    // Valid records of real positions: the fuzz starts from what the reader accepts.
    for fen in fen_seeds().iter().take(20) {
        if let Ok(pos) = Position::from_fen(&text(fen)) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue;
            }
            let record = Record {
                board: Record::board_of(&pos),
                side: pos.side_to_move(),
                score: rng.below(600) as i16 - 300,
                ply: rng.below(200) as u16,
                best: moves[rng.below(moves.len())],
                outcome: Outcome::Draw,
                in_check: pos.in_check(),
                capture: false,
                mate_score: false,
                game_end: rng.chance(10),
            };
            seeds.push(record.encode().to_vec());
        }
    }
    fuzz("datagen records", seeds, iterations(20_000), 7, &|bytes| {
        let mut record = [0u8; RECORD_BYTES];
        let n = bytes.len().min(RECORD_BYTES);
        record[..n].copy_from_slice(&bytes[..n]);
        let _ = Record::decode(&record);
    });
}

#[test]
fn browser_board_commands() {
    use chariot::serve::{Session, SessionLimits};
    let seeds: Vec<Vec<u8>> = [
        "new",
        "new fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1d1",
        "play h2e2",
        "engine black",
        "engine none",
        "level wang",
        "level elo 1500",
        "time clock 60000 1000",
        "time movetime 50",
        "view 0",
        "view end",
        "takeback",
        "multipv 3",
        "hash 8",
        "load 1. h2e2 h9g7 *",
        "review stop",
        "draw",
        "resign",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    let session = std::cell::RefCell::new(Session::new(SessionLimits::default()));
    let count = iterations(3_000);
    fuzz("board commands", seeds, count, 8, &|bytes| {
        let mut s = session.borrow_mut();
        let out = s.handle(&text(bytes));
        let _ = s.poll();
        assert!(!out.is_empty(), "every command gets an answer");
        assert!(out.last().unwrap().contains("\"type\":\"state\""), "the state comes last");
        // Keep the engine from searching into the next command's time.
        let _ = s.handle("engine none");
        let _ = s.handle("stop");
    });
}

#[test]
fn packed_datagen_games() {
    use chariot::datagen::packed::{check_consistent, decode_game, encode_game};
    // Real games, packed as `chariot datagen` writes them.
    let options = chariot::datagen::Options { nodes: 300, random_plies: 2, ..chariot::datagen::Options::default() };
    let mut searcher = chariot::search::Searcher::new(1);
    let mut seeds = Vec::new();
    for index in 0..3 {
        let game = chariot::datagen::play_game(index, &options, &mut searcher);
        let mut bytes = Vec::new();
        encode_game(&game.records, &mut bytes);
        seeds.push(bytes);
    }
    fuzz("packed games", seeds, iterations(5_000), 10, &|bytes| {
        let mut rest = bytes;
        while let Ok((records, used)) = decode_game(rest) {
            assert!(used > 0 && used <= rest.len());
            assert!(check_consistent(&records).is_ok(), "a decoded game is consistent");
            let mut again = Vec::new();
            encode_game(&records, &mut again);
            assert_eq!(again, rest[..used], "a decoded game encodes back to its bytes");
            rest = &rest[used..];
        }
    });
}

#[test]
fn protocol_lines() {
    let seeds: Vec<Vec<u8>> = [
        "position startpos moves h2e2 h9g7",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2",
        "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
        "go time 1000 increment 10 opptime 1000 oppincrement 10 depth 5 nodes 100 ponder",
        "go searchmoves h2e2 b2e2 depth 3",
        "setoption name Hash value 64",
        "setoption usemillisec true",
        "banmoves h2e2 b0c2",
        "go perft 3",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("protocol lines", seeds, iterations(20_000), 11, &|bytes| {
        let _ = chariot::protocol::parse_command(&text(bytes));
    });
}

#[test]
fn match_options() {
    use chariot::tournament::config::{MatchOptions, match_config};
    let seeds: Vec<Vec<u8>> = [
        "e name=a cmd=./a\ne name=b cmd=./b proto=ucci\ntc 10+0.1\nrounds 4\n",
        "e cmd=./a opt:Hash=64\ne cmd=./b proto=xboard\nnodes 1000\nsprt elo0=0 elo1=5 alpha=0.05\n",
        "each opt:Threads=1\ne name=a cmd=./a tc=40/60+1\ne name=b cmd=./b\nmovetime 100\n",
        "e cmd=./a\ne cmd=./b\ntc 0:30+0.2\n",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    // The same reading of lines into options as fuzz/fuzz_targets/match_config.rs.
    fuzz("match options", seeds, iterations(20_000), 12, &|bytes| {
        let mut options = MatchOptions { games_per_round: 2, concurrency: 1, ..MatchOptions::default() };
        for line in text(bytes).lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let words: Vec<String> = rest.split_whitespace().map(String::from).collect();
            match key {
                "e" => options.engines.push(words),
                "each" => options.each.extend(words),
                "tc" => options.tc = Some(rest.to_string()),
                "sprt" => options.sprt = Some(words),
                "rounds" => options.rounds = rest.trim().parse().ok(),
                "nodes" => options.nodes = rest.trim().parse().ok(),
                "movetime" => options.movetime_ms = rest.trim().parse().ok(),
                _ => {}
            }
        }
        let _ = match_config(&options);
    });
}

#[test]
fn the_harness_finds_and_shrinks_a_planted_panic() {
    // A reader with a planted bug: it panics on a FEN whose board has a
    // rank of "10" (the kind of input a hand-edited FEN has). The fuzzer
    // must find it from valid FENs and shrink it to the few bytes that matter.
    let planted = |bytes: &[u8]| {
        if bytes.windows(3).any(|w| w == b"/10") {
            panic!("planted");
        }
    };
    let found = catch_unwind(AssertUnwindSafe(|| fuzz("planted", fen_seeds(), 200_000, 9, &planted)));
    let message = match found {
        Ok(()) => panic!("the planted panic was not found"),
        Err(e) => e.downcast_ref::<String>().cloned().unwrap(),
    };
    assert!(message.contains("planted"), "{message}");
    assert!(message.contains("shrunk input (3 bytes): \"/10\""), "{message}");
}
