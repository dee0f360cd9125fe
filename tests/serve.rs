//! `chariot serve`: the session API (commands in, JSON messages out) played
//! directly, then the server itself over HTTP and WebSocket on a free port.
//! Every message the server writes is parsed as JSON here, so a malformed
//! one fails the test.

use chariot::serve::{ServeConfig, Server, Session, SessionLimits};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn parse(messages: &[String]) -> Vec<Value> {
    messages.iter().map(|m| serde_json::from_str(m).unwrap_or_else(|e| panic!("not JSON ({e}): {m}"))).collect()
}

/// Sends one command; returns every message, the last being the state.
fn send(session: &mut Session, command: &str) -> Vec<Value> {
    let out = parse(&session.handle(command));
    assert_eq!(out.last().unwrap()["type"], "state", "{command:.60}: {out:?}");
    out
}

fn state(out: &[Value]) -> &Value {
    out.iter().rev().find(|m| m["type"] == "state").unwrap()
}

fn errors(out: &[Value]) -> Vec<String> {
    out.iter().filter(|m| m["type"] == "error").map(|m| m["message"].as_str().unwrap().to_string()).collect()
}

/// Polls until `done` holds for a message, or fails after `limit`.
fn poll_until(session: &mut Session, limit: Duration, done: impl Fn(&Value) -> bool) -> Vec<Value> {
    let start = Instant::now();
    let mut seen = Vec::new();
    while start.elapsed() < limit {
        let out = parse(&session.poll());
        let hit = out.iter().any(&done);
        seen.extend(out);
        if hit {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("not seen within {limit:?}; got {seen:?}");
}

fn new_session() -> Session {
    Session::new(SessionLimits::default())
}

#[test]
fn welcome_lists_the_ranks_and_the_start_position() {
    let mut s = new_session();
    let out = parse(&s.welcome());
    assert_eq!(out[0]["type"], "welcome");
    let ranks = out[0]["ranks"].as_array().unwrap();
    assert_eq!(ranks.len(), 13);
    assert_eq!(ranks[12]["pinyin"], "wang");
    assert_eq!(ranks[12]["elo"], 2600);
    let st = &out[1];
    assert_eq!(st["fen"], "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_eq!(st["turn"], "red");
    assert_eq!(st["legal"].as_array().unwrap().len(), 44);
    assert_eq!(st["result"], Value::Null);
}

#[test]
fn a_game_to_mate_through_the_api_with_the_explanation_in_both_languages() {
    let mut s = new_session();
    send(&mut s, "engine none");
    let out = send(&mut s, "new fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    assert!(errors(&out).is_empty(), "{out:?}");
    let out = send(&mut s, "play a1d1");
    let st = state(&out);
    assert_eq!(st["result"]["text"], "1-0 checkmate");
    assert!(st["result"]["en"][0].as_str().unwrap().contains("checkmate, red wins"));
    assert!(st["result"]["zh"][0].as_str().unwrap().contains("被将死"));
    assert_eq!(st["legal"].as_array().unwrap().len(), 0, "nothing more to play");
    assert_eq!(st["moves"][0]["iccs"], "a1d1");
    assert_eq!(st["moves"][0]["wxf"], "R9=6");
    let out = send(&mut s, "play d9e9");
    assert!(errors(&out)[0].contains("the game is over"), "{out:?}");
}

#[test]
fn the_engine_answers_the_players_move_and_takeback_undoes_both() {
    let mut s = new_session();
    send(&mut s, "time movetime 100");
    send(&mut s, "level changshi");
    send(&mut s, "engine black");
    let out = send(&mut s, "play h2e2");
    assert_eq!(state(&out)["thinking"], true);
    let seen = poll_until(&mut s, Duration::from_secs(20), |m| m["type"] == "state" && m["thinking"] == false);
    let st = state(&seen);
    assert_eq!(st["moves"].as_array().unwrap().len(), 2, "{st}");
    assert_eq!(st["turn"], "red");
    let out = send(&mut s, "takeback");
    assert_eq!(state(&out)["moves"].as_array().unwrap().len(), 0);
    assert_eq!(state(&out)["turn"], "red");
}

#[test]
fn the_engine_plays_red_when_asked_and_on_a_clock() {
    let mut s = new_session();
    send(&mut s, "time clock 60000 1000");
    let out = send(&mut s, "engine red");
    assert_eq!(state(&out)["thinking"], true);
    assert_eq!(state(&out)["clock"]["running"], "red");
    let seen = poll_until(&mut s, Duration::from_secs(30), |m| m["type"] == "state" && m["thinking"] == false);
    let st = state(&seen);
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
    assert_eq!(st["clock"]["running"], "black");
    let red_ms = st["clock"]["red_ms"].as_i64().unwrap();
    assert!(red_ms > 0 && red_ms <= 61_000, "red's clock after its move: {red_ms}");
}

#[test]
fn analysis_streams_lines_and_stops() {
    let mut s = new_session();
    send(&mut s, "engine none");
    send(&mut s, "multipv 2");
    let out = send(&mut s, "analyse on");
    assert_eq!(state(&out)["analysing"], true);
    let seen = poll_until(&mut s, Duration::from_secs(20), |m| m["type"] == "info" && m["depth"].as_i64() >= Some(6));
    let infos: Vec<&Value> = seen.iter().filter(|m| m["type"] == "info").collect();
    assert!(infos.iter().any(|m| m["multipv"] == 2), "two lines");
    let last = infos.last().unwrap();
    assert_eq!(last["mode"], "analysis");
    assert!(last["score"]["cp"].is_i64() || last["score"]["mate"].is_i64());
    let wdl: i64 = last["wdl"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).sum();
    assert_eq!(wdl, 1000);
    assert!(!last["pv"].as_array().unwrap().is_empty());
    assert_eq!(last["pv"].as_array().unwrap().len(), last["pv_chinese"].as_array().unwrap().len());
    // A move played while analysing: the analysis goes on in the new position.
    let out = send(&mut s, "play h2e2");
    assert_eq!(state(&out)["analysing"], true);
    let out = send(&mut s, "analyse off");
    assert_eq!(state(&out)["analysing"], false);
    std::thread::sleep(Duration::from_millis(50));
    let after = parse(&s.poll());
    assert!(after.iter().all(|m| m["type"] != "info"), "no lines after the stop: {after:?}");
}

#[test]
fn a_loaded_game_can_be_gone_through_and_a_new_line_played_from_it() {
    let mut s = new_session();
    let pgn = "[Event \"test\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";
    let out = send(&mut s, &format!("load {pgn}"));
    assert!(errors(&out).is_empty(), "{out:?}");
    let st = state(&out);
    assert_eq!(st["moves"].as_array().unwrap().len(), 4);
    assert_eq!(st["engine"], Value::Null, "a loaded game is not played against");
    let out = send(&mut s, "view 1");
    let st = state(&out);
    assert_eq!(st["view"], 1);
    assert_eq!(st["turn"], "black");
    assert_eq!(st["moves"].as_array().unwrap().len(), 4, "viewing keeps the game");
    let out = send(&mut s, "play b9c7");
    let st = state(&out);
    assert_eq!(st["view"], Value::Null);
    let moves: Vec<&str> = st["moves"].as_array().unwrap().iter().map(|m| m["iccs"].as_str().unwrap()).collect();
    assert_eq!(moves, ["h2e2", "b9c7"]);
}

#[test]
fn every_bad_command_gets_an_error_and_changes_nothing() {
    let mut s = new_session();
    send(&mut s, "engine none");
    send(&mut s, "play h2e2");
    let before = state(&send(&mut s, "stop")).clone();
    let huge = format!("load {}", "x".repeat(2 << 20));
    let cases: Vec<(&str, &str)> = vec![
        ("", "empty command"),
        ("frobnicate", "unknown command"),
        ("new fen rnbakabnr/9/9 w", "bad FEN"),
        ("new fen", "expected"),
        ("new moves h2e2 h2e2", "move 2"),
        ("play", "which move"),
        ("play h2h9", "not a legal move"),
        ("play zz", "not a legal move"),
        ("engine purple", "expected red, black or none"),
        ("level bogus", "unknown rank"),
        ("level elo 9999", "outside"),
        ("level elo x", "not a number"),
        ("time movetime -5", "must be"),
        ("time clock 10 0", "must be"),
        ("time sideways", "expected"),
        ("threads 0", "from 1 to 2"),
        ("threads 64", "from 1 to 2"),
        ("hash 100000", "from 1 to 256"),
        ("multipv many", "from 1 to 8"),
        ("analyse maybe", "expected on or off"),
        ("view 99", "must be a ply"),
        ("load not a game at all %%%", "load"),
        (huge.as_str(), "refused"),
    ];
    for (command, expected) in cases {
        let out = send(&mut s, command);
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{}: {out:?}", &command[..command.len().min(40)]);
        assert!(errs[0].contains(expected), "{}: {}", &command[..command.len().min(40)], errs[0]);
        let now = state(&out);
        assert_eq!(now["fen"], before["fen"], "{command:.40} changed the position");
        assert_eq!(now["moves"], before["moves"]);
    }
    // Still serving.
    let out = send(&mut s, "play h9g7");
    assert!(errors(&out).is_empty());
}

// ---- The server over the network ----

fn start_server(max_sessions: usize) -> String {
    let config = ServeConfig { port: 0, max_sessions, ..ServeConfig::default() };
    let server = Server::bind(config).unwrap();
    let addr = server.local_addr().unwrap().to_string();
    std::thread::spawn(move || server.run());
    addr
}

fn http_get(addr: &str, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}

type Socket = tungstenite::WebSocket<TcpStream>;

fn connect(addr: &str) -> Socket {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let (socket, _) = tungstenite::client::client(format!("ws://{addr}/ws"), stream).unwrap();
    socket
}

fn receive(socket: &mut Socket) -> Value {
    match socket.read().unwrap() {
        tungstenite::Message::Text(text) => serde_json::from_str(text.as_str()).unwrap(),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn the_page_and_its_files_are_served_and_nothing_else() {
    let addr = start_server(4);
    let (status, page) = http_get(&addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(status, 200);
    assert!(page.contains("text/html") && page.contains("<svg id=\"board\""));
    for path in ["/app.js", "/style.css"] {
        let (status, _) = http_get(&addr, &format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n"));
        assert_eq!(status, 200, "{path}");
    }
    for (request, expected) in [
        ("GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        ("GET /src/main.rs HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
        ("GET /ws HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("\x00\x01garbage\r\n\r\n", 400),
    ] {
        assert_eq!(http_get(&addr, request).0, expected, "{request:?}");
    }
    let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000));
    assert_eq!(http_get(&addr, &huge).0, 400);
    // Another site's page may not drive the engine.
    let cross = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nUpgrade: websocket\r\n\
                 Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    assert_eq!(http_get(&addr, cross).0, 403);
}

#[test]
fn a_websocket_session_plays_and_reports_errors_and_sessions_are_limited() {
    let addr = start_server(1);
    let mut socket = connect(&addr);
    assert_eq!(receive(&mut socket)["type"], "welcome");
    assert_eq!(receive(&mut socket)["type"], "state");
    // The one session allowed is taken: a second page is told so.
    let (status, text) = http_get(
        &addr,
        "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    );
    assert_eq!(status, 503, "{text}");
    socket.send(tungstenite::Message::text("time movetime 100")).unwrap();
    assert_eq!(receive(&mut socket)["type"], "state");
    socket.send(tungstenite::Message::text("play h2h8")).unwrap();
    assert_eq!(receive(&mut socket)["type"], "error");
    assert_eq!(receive(&mut socket)["type"], "state");
    socket.send(tungstenite::Message::text("play h2e2")).unwrap();
    let mut last = receive(&mut socket);
    let start = Instant::now();
    while !(last["type"] == "state" && last["moves"].as_array().unwrap().len() == 2) {
        assert!(start.elapsed() < Duration::from_secs(30), "no answer: {last}");
        last = receive(&mut socket);
    }
    assert_eq!(last["turn"], "red");
    socket.close(None).unwrap();
    // The session ended with its page, so a new page gets one.
    let start = Instant::now();
    loop {
        let stream = TcpStream::connect(&addr).unwrap();
        if tungstenite::client::client(format!("ws://{addr}/ws"), stream).is_ok() {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the closed session's slot was not freed");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_review_reports_progress_then_the_annotated_game_in_both_languages() {
    let mut s = new_session();
    let out = send(&mut s, "review");
    assert!(errors(&out)[0].contains("no moves"), "{out:?}");
    // A short game in which Black's cannon takes the horse on b0 at the end.
    send(&mut s, "load 1. h2e2 h9g7 2. a0a1 b7b3 3. a1d1 b3b0 *");
    let out = send(&mut s, "review depth 5");
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(state(&out)["reviewing"], true);
    let out = send(&mut s, "review depth 5");
    assert!(errors(&out)[0].contains("one is running"), "{out:?}");
    let seen = poll_until(&mut s, Duration::from_secs(60), |m| m["type"] == "review");
    let progress: Vec<&Value> = seen.iter().filter(|m| m["type"] == "review_progress").collect();
    assert_eq!(progress.last().unwrap()["done"], 6);
    assert_eq!(progress.last().unwrap()["total"], 6);
    let review = seen.iter().find(|m| m["type"] == "review").unwrap();
    for lang in ["en", "zh"] {
        let moves = review[lang]["games"][0]["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 6, "{lang}");
        assert_eq!(review[lang]["lang"], lang);
    }
    // Every marked move carries the better move and the reason.
    let marked: Vec<&Value> =
        review["en"]["games"][0]["moves"].as_array().unwrap().iter().filter(|m| !m["class"].is_null()).collect();
    assert!(!marked.is_empty(), "some move of this game is marked");
    for m in &marked {
        assert!(m["best"]["move"]["iccs"].is_string() && m["comment"].is_string(), "{m}");
    }
    let pgn = review["pgn_en"].as_str().unwrap();
    assert!(pgn.contains("h2e2") || pgn.contains("C2=5"), "{pgn}");
    assert!(review["pgn_zh"].as_str().unwrap().contains("炮二平五"));
    let out = send(&mut s, "stop");
    assert_eq!(state(&out)["reviewing"], false);
}

/// Resident memory of this process in MB (Linux).
#[cfg(target_os = "linux")]
fn resident_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

#[cfg(target_os = "linux")]
#[test]
fn twenty_sessions_analysing_at_once_stay_within_their_hash() {
    const SESSIONS: u64 = 20;
    const HASH_MB: u64 = 16;
    let before = resident_mb();
    let mut sessions: Vec<Session> = (0..SESSIONS).map(|_| new_session()).collect();
    for s in &mut sessions {
        send(s, "engine none");
        send(s, &format!("hash {HASH_MB}"));
        send(s, "analyse on");
    }
    let mut peak = 0;
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(100));
        for s in &mut sessions {
            let _ = parse(&s.poll());
            assert!(s.is_searching());
        }
        peak = peak.max(resident_mb());
    }
    let grown = peak.saturating_sub(before);
    // Each session: its hash table, its search threads' stacks and
    // histories, and the game analysis engine it does not use here. 8 MB
    // a session beyond the hash is the allowance.
    eprintln!("{SESSIONS} sessions analysing: resident memory grew {grown} MB (hash {HASH_MB} MB each)");
    assert!(grown <= SESSIONS * (HASH_MB + 8), "grew {grown} MB for {SESSIONS} sessions of {HASH_MB} MB hash");
    drop(sessions);
}

#[test]
fn an_xqf_file_sent_as_bytes_loads_and_a_bad_file_is_refused() {
    let mut s = new_session();
    let bytes = std::fs::read("tests/data/xqf/v10-plain.xqf").unwrap();
    let out = parse(&s.handle_file(&bytes));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(!state(&out)["moves"].as_array().unwrap().is_empty(), "the XQF game's moves are on the board");
    let before = state(&out).clone();
    let mut broken = bytes.clone();
    broken.truncate(100);
    let out = parse(&s.handle_file(&broken));
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert_eq!(state(&out)["moves"], before["moves"], "the game is kept");
    let out = parse(&s.handle_file(&[0xff, 0xfe, 0x00]));
    assert_eq!(errors(&out).len(), 1, "{out:?}");
}

#[test]
fn the_engine_resigns_a_lost_game_and_the_player_can_resign() {
    let mut s = new_session();
    send(&mut s, "time movetime 200");
    send(&mut s, "engine none");
    // Black to move is mated next move whatever it plays.
    send(&mut s, "new fen 3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    send(&mut s, "engine black");
    let seen = poll_until(&mut s, Duration::from_secs(20), |m| m["type"] == "state" && !m["result"].is_null());
    let st = state(&seen);
    assert_eq!(st["result"]["text"], "1-0 resignation", "{st}");
    assert!(st["result"]["zh"][0].as_str().unwrap().contains("认输"));
    assert_eq!(st["moves"].as_array().unwrap().len(), 0, "a resignation plays no move");
    // The player resigns a fresh game.
    send(&mut s, "engine none");
    send(&mut s, "new");
    let out = send(&mut s, "resign");
    assert_eq!(state(&out)["result"]["text"], "0-1 resignation", "Red, to move, resigned");
    let out = send(&mut s, "resign");
    assert!(errors(&out)[0].contains("the game is over"));
}

#[test]
fn draw_offers_both_ways() {
    let mut s = new_session();
    send(&mut s, "time movetime 200");
    send(&mut s, "engine none");
    let out = send(&mut s, "draw");
    assert!(errors(&out)[0].contains("no engine"), "{out:?}");
    let out = send(&mut s, "accept");
    assert!(errors(&out)[0].contains("has not offered"), "{out:?}");
    // A lost position for Black: offered a draw, the engine takes it.
    send(&mut s, "new fen 3k5/9/9/9/9/9/9/9/R8/4K4 b - - 0 1");
    let out = send(&mut s, "draw");
    assert!(errors(&out)[0].contains("no engine"));
    send(&mut s, "engine red");
    send(&mut s, "engine none");
    // The engine plays Black and is offered a draw before its move.
    let out = send(&mut s, "engine black");
    assert_eq!(state(&out)["thinking"], true);
    send(&mut s, "draw");
    let seen = poll_until(&mut s, Duration::from_secs(20), |m| m["type"] == "state" && !m["result"].is_null());
    assert_eq!(state(&seen)["result"]["text"], "1/2-1/2 agreement");
    // A level pawn ending after 100 quiet plies (each side the other's
    // image, turned half round): the engine offers a draw with its move.
    send(&mut s, "engine none");
    send(&mut s, "new fen 2bk1ab2/4a4/9/2p3p2/9/9/2P3P2/9/4A4/2BA1KB2 w - - 100 80");
    send(&mut s, "engine red");
    let seen = poll_until(&mut s, Duration::from_secs(20), |m| m["type"] == "state" && m["thinking"] == false);
    let st = state(&seen);
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
    assert_eq!(st["engine_offers_draw"], true, "{st}");
    let out = send(&mut s, "accept");
    assert_eq!(state(&out)["result"]["text"], "1/2-1/2 agreement");
}
