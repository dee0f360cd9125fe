//! `chariot match` with scripted fake engines: every fault (illegal move,
//! crash, hang, time forfeit, no move), every rules verdict (mate,
//! stalemate, perpetual check, repetition, 60-move rule, dead material),
//! score adjudication, both protocols and both rank numberings, and the
//! command line (results, PGN, resume, SPRT stop, concurrency, bad input).
//!
//! The fakes are small /bin/sh scripts written into a temporary directory;
//! the only real engine used is Chariot itself. They need a Unix shell, so
//! this file is built on Unix systems only.

#![cfg(unix)]

use chariot::position::Position;
use chariot::rules::{GameResult, Reason};
use chariot::tournament::clock::TimeControl;
use chariot::tournament::game::{DrawRule, Ending, Game, GameSettings, Opening, Player, ResignRule, play_game};
use chariot::tournament::spec::{EngineSpec, Protocol};
use chariot::types::Move;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A scripted engine. Arguments: dialect (`uci`, `ucci`, `fsf` = UCI with
/// UCI_Variant and ranks 1-10), behaviour, the moves of the whole game
/// (it plays the one at the index of the current ply), a log file of
/// everything it was sent.
const FAKE: &str = r#"#!/bin/sh
dialect=$1; mode=$2; moves=$3; log=${4:-/dev/null}
gos=0; pondering=0
answer() {
  score=0
  if [ "$mode" = losing ]; then score=-900; fi
  set -- $moves
  if [ $plies -lt $# ]; then
    shift $plies
    echo "info depth 3 score cp $score pv $1"
    case "$mode" in
      ponder) echo "bestmove $1 ponder $2" ;;
      ponderwrong)
        if [ $((plies % 2)) = 0 ]; then echo "bestmove $1 ponder i9i8"; else echo "bestmove $1 ponder i0i1"; fi ;;
      *) echo "bestmove $1" ;;
    esac
  else
    echo "bestmove (none)"
  fi
}
while read -r line; do
  echo "$line" >> "$log"
  case "$line" in
    uci)
      echo "id name fake-$mode"
      if [ "$dialect" = fsf ]; then echo "option name UCI_Variant type combo default chess var chess var xiangqi"; fi
      echo uciok ;;
    ucci)
      echo "id name fake-$mode"
      if [ "$mode" = millis ]; then echo "option usemillisec type check default false"; fi
      echo "option newgame type button"
      echo ucciok ;;
    isready) echo readyok ;;
    position*)
      plies=0; seen=0
      for w in $line; do
        if [ $seen = 1 ]; then plies=$((plies + 1)); fi
        if [ "$w" = moves ]; then seen=1; fi
      done ;;
    "go ponder"*) pondering=1 ;;
    ponderhit) pondering=0; answer ;;
    stop) if [ $pondering = 1 ]; then pondering=0; echo "bestmove (none)"; fi ;;
    go*)
      gos=$((gos + 1))
      case "$mode" in
        hang) echo $$ > "$log.pid"; continue ;;
        crash) if [ $gos -ge 2 ]; then exit 3; fi ;;
        slow) sleep 0.5 ;;
        none) echo "bestmove (none)"; continue ;;
        nobest) echo nobestmove; continue ;;
        illegal) echo "bestmove a0a9"; continue ;;
        garbage) echo "bestmove xyzzy"; continue ;;
      esac
      answer ;;
    quit) exit 0 ;;
  esac
done
"#;

/// A scripted xboard engine: the moves of the whole game, a log file. It
/// resigns when its list runs out.
const FAKE_XBOARD: &str = r#"#!/bin/sh
moves=$1; log=${2:-/dev/null}; ply=0
while read -r line; do
  echo "$line" >> "$log"
  case "$line" in
    protover*) echo 'feature myname="fake xb" ping=1 setboard=1 usermove=1 variants="xiangqi" done=1' ;;
    ping*) echo "pong ${line#ping }" ;;
    new|setboard*) ply=0 ;;
    usermove*) ply=$((ply + 1)) ;;
    go)
      set -- $moves
      if [ $ply -lt $# ]; then
        shift $ply
        echo "3 25 10 1000 $1"
        echo "move $1"
        ply=$((ply + 1))
      else
        echo resign
      fi ;;
    quit) exit 0 ;;
  esac
done
"#;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh directory holding the fake engine script.
fn workdir() -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("chariot-match-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in [("fake.sh", FAKE), ("xboard.sh", FAKE_XBOARD)] {
        let script = dir.join(name);
        std::fs::write(&script, text).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

fn fake(dir: &Path, name: &str, dialect: &str, mode: &str, moves: &str) -> EngineSpec {
    let script = dir.join("fake.sh").display().to_string();
    let log = dir.join(format!("{name}.log")).display().to_string();
    let mut spec = EngineSpec::new(name, &[&script, dialect, mode, moves, &log]);
    if dialect == "ucci" {
        spec.protocol = Protocol::Ucci;
    }
    spec
}

fn log_of(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default()
}

fn settings() -> GameSettings {
    GameSettings { move_timeout_ms: 2_000, ready_timeout: Duration::from_secs(5), ..GameSettings::default() }
}

fn opening(fen: &str) -> Opening {
    Opening { start: Position::from_fen(fen).unwrap(), moves: Vec::new() }
}

/// One game between fakes playing `moves` (both sides share the list).
fn scripted_game(fen: &str, moves: &str, settings: &GameSettings) -> Game {
    let dir = workdir();
    let mut red = Player::new(fake(&dir, "red", "uci", "script", moves), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "black", "uci", "script", moves), TimeControl::Depth(3));
    play_game(&mut red, &mut black, &opening(fen), settings)
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn played(game: &Game) -> Vec<String> {
    game.moves.iter().map(Move::to_string).collect()
}

// ---- Rules ---------------------------------------------------------------

#[test]
fn checkmate_wins() {
    let game = scripted_game("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b9", &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::Rules(Reason::Checkmate)));
    assert_eq!(played(&game), ["b0b9"]);
}

#[test]
fn stalemate_loses() {
    let game = scripted_game("3k5/R8/9/9/9/9/9/9/8R/5K3 w - - 0 1", "i1e1", &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::Rules(Reason::Stalemate)));
}

#[test]
fn perpetual_check_loses() {
    let moves = "a1a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8";
    let game = scripted_game("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", moves, &settings());
    assert_eq!((game.result, &game.ending), (GameResult::BlackWins, &Ending::Rules(Reason::PerpetualCheck)));
    assert_eq!(game.moves.len(), 9, "judged at the third occurrence");
}

#[test]
fn idle_repetition_draws() {
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h0g2 h9g7";
    let game = scripted_game(START, moves, &settings());
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::Rules(Reason::Repetition)));
    assert_eq!(game.moves.len(), 8);
}

#[test]
fn sixty_move_rule_draws() {
    let game = scripted_game("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 118 60", "a1a2 e9f9 a2a3", &settings());
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::Rules(Reason::SixtyMoveRule)));
    assert_eq!(game.moves.len(), 2);
}

#[test]
fn dead_material_draws() {
    let game = scripted_game("5k3/9/9/9/9/9/9/9/3p5/3K5 w - - 0 1", "d0d1 f9e9", &settings());
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::Rules(Reason::InsufficientMaterial)));
}

#[test]
fn an_opening_that_already_ends_the_game_is_judged_without_moves() {
    let dir = workdir();
    let mut red = Player::new(fake(&dir, "red", "uci", "script", ""), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "black", "uci", "script", ""), TimeControl::Depth(3));
    let mut mated = opening("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1");
    mated.moves = vec![Move::parse("b0b9").unwrap()];
    let game = play_game(&mut red, &mut black, &mated, &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::Rules(Reason::Checkmate)));
    assert_eq!(red.starts, 0, "no engine was needed");
}

// ---- Score adjudication ---------------------------------------------------

#[test]
fn resign_and_draw_adjudication() {
    let dir = workdir();
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    let mut red = Player::new(fake(&dir, "red", "uci", "script", moves), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "black", "uci", "losing", moves), TimeControl::Depth(3));
    let resign = GameSettings { resign: Some(ResignRule { score_cp: 500, moves: 2 }), ..settings() };
    let game = play_game(&mut red, &mut black, &opening(START), &resign);
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::Resign));
    assert_eq!(game.moves.len(), 4, "after Black's second -900");

    let mut level = Player::new(fake(&dir, "level", "uci", "script", moves), TimeControl::Depth(3));
    let draw = GameSettings { draw: Some(DrawRule { after_move: 1, score_cp: 10, moves: 2 }), ..settings() };
    let game = play_game(&mut red, &mut level, &opening(START), &draw);
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::DrawAdjudication));
    assert_eq!(game.moves.len(), 4);
}

// ---- Faults ---------------------------------------------------------------

fn fault_game(mode: &str, control: TimeControl, settings: &GameSettings) -> (Game, Player, PathBuf) {
    let dir = workdir();
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    let mut red = Player::new(fake(&dir, "good", "uci", "script", moves), control);
    let mut black = Player::new(fake(&dir, "bad", "uci", mode, moves), control);
    let game = play_game(&mut red, &mut black, &opening(START), settings);
    (game, black, dir)
}

#[test]
fn an_illegal_move_loses() {
    let (game, _, _) = fault_game("illegal", TimeControl::Depth(3), &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::IllegalMove("a0a9".into())));
    let (game, _, _) = fault_game("garbage", TimeControl::Depth(3), &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::IllegalMove("xyzzy".into())));
    assert!(game.summary().contains("bad (Black) loses: illegal move 'xyzzy'"), "{}", game.summary());
}

#[test]
fn no_move_while_moves_remain_loses() {
    let (game, _, _) = fault_game("none", TimeControl::Depth(3), &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::NoMove));
    let dir = workdir();
    let mut red = Player::new(fake(&dir, "good", "uci", "script", "h0g2"), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "ucci", "ucci", "nobest", ""), TimeControl::Depth(3));
    let game = play_game(&mut red, &mut black, &opening(START), &settings());
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::NoMove));
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let (game, mut crasher, dir) = fault_game("crash", TimeControl::Depth(3), &settings());
    assert_eq!(game.result, GameResult::RedWins);
    assert!(matches!(game.ending, Ending::Crash(_)), "{:?}", game.ending);
    assert_eq!(game.moves.len(), 3, "it crashed when asked for its second move");
    assert_eq!(crasher.starts, 1);
    assert!(game.summary().starts_with("bad (Black) loses: engine failure: exit status: 3"), "{}", game.summary());
    // The next game starts a new process, which plays its first move.
    let mut good = Player::new(fake(&dir, "good2", "uci", "script", "h0g2 h9g7"), TimeControl::Depth(3));
    let game = play_game(&mut good, &mut crasher, &opening(START), &settings());
    assert_eq!(crasher.starts, 2);
    assert_eq!(played(&game)[..2], ["h0g2", "h9g7"]);
    // Without a fault the process stays, unless restart=on.
    play_game(&mut good, &mut crasher, &opening(START), &settings());
    assert_eq!(good.starts, 1);
    good.spec.restart = true;
    play_game(&mut good, &mut crasher, &opening(START), &settings());
    assert_eq!(good.starts, 2);
}

#[test]
fn an_engine_that_cannot_start_loses_its_games() {
    let dir = workdir();
    let mut missing = Player::new(EngineSpec::new("gone", &["/nonexistent/engine"]), TimeControl::Depth(3));
    let mut good = Player::new(fake(&dir, "good", "uci", "script", "h0g2"), TimeControl::Depth(3));
    let game = play_game(&mut missing, &mut good, &opening(START), &settings());
    assert_eq!(game.result, GameResult::BlackWins);
    assert!(game.summary().contains("gone (Red) loses: engine failure: cannot start"), "{}", game.summary());
    let game = play_game(&mut good, &mut missing, &opening(START), &settings());
    assert_eq!(game.result, GameResult::RedWins);
}

#[test]
fn a_hang_is_forfeited_killed_and_restarted() {
    // Long enough that the good engine's answers never time out on a busy
    // machine.
    let quick = GameSettings { move_timeout_ms: 1_000, ..settings() };
    let (game, mut hanger, dir) = fault_game("hang", TimeControl::Depth(3), &quick);
    assert_eq!((game.result, &game.ending), (GameResult::RedWins, &Ending::Hang { waited_ms: 1_000 }));
    let pid = std::fs::read_to_string(dir.join("bad.log.pid")).unwrap();
    assert!(!Path::new(&format!("/proc/{}", pid.trim())).exists(), "the hung process {pid} was killed and reaped");
    let mut good = Player::new(fake(&dir, "good2", "uci", "script", "h0g2"), TimeControl::Depth(3));
    let game = play_game(&mut good, &mut hanger, &opening(START), &quick);
    assert_eq!(hanger.starts, 2);
    assert_eq!(game.result, GameResult::RedWins, "it hangs again, in a new process");
}

#[test]
fn overstepping_the_clock_loses() {
    let margin = GameSettings { margin_ms: 200, ..settings() };
    // Answers after 500 ms of a 100 ms move time: no answer by the 300 ms
    // that the margin allows, so the flag falls first.
    let (game, _, _) = fault_game("slow", TimeControl::MoveTime { ms: 100 }, &margin);
    assert_eq!(game.result, GameResult::RedWins);
    assert!(matches!(game.ending, Ending::TimeForfeit { used_ms: None, allowed_ms: 300 }), "{:?}", game.ending);
    // 0.2 s on the clock: no answer before the flag falls.
    let clock = TimeControl::Clock { moves: None, base_ms: 200, increment_ms: 0 };
    let (game, _, _) = fault_game("slow", clock, &margin);
    assert!(matches!(game.ending, Ending::TimeForfeit { used_ms: None, allowed_ms: 400 }), "{:?}", game.ending);
    assert!(
        game.summary().ends_with("time forfeit (no move in the 400 ms allowed with the margin)"),
        "{}",
        game.summary()
    );
}

// ---- Protocols ---------------------------------------------------------------

#[test]
fn fairy_stockfish_style_uci_gets_ranks_1_to_10() {
    let dir = workdir();
    // The fake speaks ranks 1-10: h3e3 is ICCS h2e2.
    let mut red = Player::new(fake(&dir, "fsf", "fsf", "script", "h3e3 h10g8 h1g3"), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "iccs", "uci", "script", "h2e2 h9g7 h0g2"), TimeControl::Depth(3));
    let game = play_game(&mut red, &mut black, &opening(START), &settings());
    assert_eq!(played(&game)[..3], ["h2e2", "h9g7", "h0g2"]);
    let log = log_of(&dir, "fsf");
    assert!(log.contains("setoption name UCI_Variant value xiangqi"), "{log}");
    assert!(log.contains("position startpos moves h3e3 h10g8\n"), "{log}");
    assert!(log_of(&dir, "iccs").contains("position startpos moves h2e2\n"));
}

#[test]
fn ucci_times_in_seconds_or_milliseconds() {
    let dir = workdir();
    let clock = TimeControl::Clock { moves: None, base_ms: 5_000, increment_ms: 1_000 };
    let mut seconds = Player::new(fake(&dir, "seconds", "ucci", "script", "h2e2 h9g7 h0g2"), clock);
    let mut millis = Player::new(fake(&dir, "millis", "ucci", "millis", "h2e2 h9g7 h0g2"), clock);
    let short = GameSettings { max_plies: Some(2), ..settings() };
    let game = play_game(&mut seconds, &mut millis, &opening(START), &short);
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::MaxPlies));
    let log = log_of(&dir, "seconds");
    assert!(log.contains("setoption newgame"), "{log}");
    assert!(log.contains("go time 5 increment 1 opptime 5 oppincrement 1"), "{log}");
    let log = log_of(&dir, "millis");
    assert!(log.contains("setoption usemillisec true"), "{log}");
    let go = log.lines().find(|l| l.starts_with("go ")).unwrap();
    assert!(go.starts_with("go time ") && go.contains(" increment 1000 opptime "), "{go}");
}

#[test]
fn xboard_engines_are_fed_moves_in_force_mode_and_may_resign() {
    let dir = workdir();
    let script = dir.join("xboard.sh").display().to_string();
    let log = dir.join("xb.log").display().to_string();
    let mut spec = EngineSpec::new("xb", &[&script, "h2e2 h9g7 h0g2", &log]);
    spec.protocol = Protocol::Xboard;
    let mut red = Player::new(spec, TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "uci", "uci", "script", "h2e2 h9g7 h0g2 b9c7"), TimeControl::Depth(3));
    let game = play_game(&mut red, &mut black, &opening(START), &settings());
    assert_eq!(played(&game), ["h2e2", "h9g7", "h0g2", "b9c7"]);
    assert_eq!((game.result, &game.ending), (GameResult::BlackWins, &Ending::Resigned));
    let info = game.infos[0].expect("an engine move");
    assert_eq!((info.score, info.depth), (Some(chariot::tournament::process::Score::Cp(25)), Some(3)));
    let log = std::fs::read_to_string(&log).unwrap();
    for line in ["protover 2", "variant xiangqi", "force", "st 2", "sd 3", "usermove h9g7", "usermove b9c7", "go"] {
        assert!(log.lines().any(|l| l == line), "{line} missing from {log}");
    }
    // A FEN start goes by setboard.
    let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
    let log = dir.join("xb2.log").display().to_string();
    let mut spec = EngineSpec::new("xb", &[&script, "a1a2", &log]);
    spec.protocol = Protocol::Xboard;
    let mut red = Player::new(spec, TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "uci2", "uci", "script", "a1a2 e9e8"), TimeControl::Depth(3));
    let game = play_game(&mut red, &mut black, &opening(fen), &settings());
    assert_eq!(played(&game), ["a1a2", "e9e8"]);
    assert_eq!(game.ending, Ending::Resigned);
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains(&format!("setboard {fen}")), "{log}");
}

#[test]
fn pondering_hits_or_stops() {
    let dir = workdir();
    let moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
    let ponder = GameSettings { ponder: true, ..settings() };
    let mut red = Player::new(fake(&dir, "right", "uci", "ponder", moves), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "wrong", "uci", "ponderwrong", moves), TimeControl::Depth(3));
    red.ponder = true;
    black.ponder = true;
    let game = play_game(&mut red, &mut black, &opening(START), &ponder);
    // The same game as without pondering.
    assert_eq!((game.result, &game.ending), (GameResult::Draw, &Ending::Rules(Reason::Repetition)));
    assert_eq!(game.moves.len(), 8);
    let right = log_of(&dir, "right");
    assert!(right.contains("setoption name Ponder value true"), "{right}");
    // Red guessed h9g7 after h0g2: pondered on it, then heard ponderhit.
    assert!(right.contains("position startpos moves h0g2 h9g7\ngo ponder depth 3\nponderhit\n"), "{right}");
    assert_eq!(right.matches("ponderhit").count(), 3, "every guess but the last came true: {right}");
    // Black guessed i0i1, which never came: stop, then a normal search.
    let wrong = log_of(&dir, "wrong");
    assert!(wrong.contains("position startpos moves h0g2 h9g7 i0i1\ngo ponder depth 3\nstop\n"), "{wrong}");
    assert!(!wrong.contains("ponderhit"), "{wrong}");
}

#[test]
fn ucci_gets_the_position_after_the_last_capture() {
    let dir = workdir();
    // Red's cannon takes the e6 pawn on ply 3; the UCCI engine then gets the
    // position after that capture and the one move since.
    let mut red = Player::new(fake(&dir, "ucci", "ucci", "script", "h2e2 h9g7 e2e6"), TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "uci", "uci", "script", "h2e2 h9g7 e2e6 g6g5"), TimeControl::Depth(3));
    play_game(&mut red, &mut black, &opening(START), &settings());
    let mut after_capture = Position::startpos();
    after_capture.play_text_moves(["h2e2", "h9g7", "e2e6"]).unwrap();
    let log = log_of(&dir, "ucci");
    assert!(log.contains("position startpos moves h2e2 h9g7\n"), "{log}");
    let expected = format!("position fen {} moves g6g5\n", after_capture.to_fen());
    assert!(log.contains(&expected), "{expected} missing from {log}");
    assert!(log_of(&dir, "uci").contains("position startpos moves h2e2 h9g7 e2e6\n"), "UCI gets the whole game");
}

#[test]
fn options_and_working_directory_reach_the_engine() {
    let dir = workdir();
    let mut spec = fake(&dir, "red", "uci", "script", "h2e2");
    spec.options.push(("Hash".into(), "32".into()));
    spec.dir = Some(dir.clone());
    // The log path relative to the working directory.
    spec.command[4] = "relative.log".into();
    let mut red = Player::new(spec, TimeControl::Depth(3));
    let mut black = Player::new(fake(&dir, "black", "uci", "illegal", ""), TimeControl::Depth(3));
    play_game(&mut red, &mut black, &opening(START), &settings());
    let log = std::fs::read_to_string(dir.join("relative.log")).unwrap();
    assert!(log.contains("setoption name Hash value 32\n"), "{log}");
}

// ---- The command line ----------------------------------------------------------

fn chariot() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = chariot().arg("match").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn engine_arg(dir: &Path, name: &str, mode: &str, moves: &str) -> Vec<String> {
    let script = dir.join("fake.sh").display().to_string();
    let log = dir.join(format!("{name}.log")).display().to_string();
    vec!["--engine".into(), format!("name={name}"), format!("cmd='{script}' uci {mode} '{moves}' '{log}'")]
}

#[test]
fn a_match_prints_results_writes_pgn_and_resumes() {
    let dir = workdir();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h2e2\nb2e2\n").unwrap();
    let pgn = dir.join("games.pgn");
    // `weak` always plays an illegal move; `strong` plays the script.
    let mut args: Vec<String> = engine_arg(&dir, "strong", "script", "h2e2 h9g7 h0g2 b9c7 b0c2");
    args.extend(engine_arg(&dir, "weak", "illegal", ""));
    let common: Vec<String> =
        ["--depth", "3", "--openings", openings.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()]
            .iter()
            .map(|s| s.to_string())
            .collect();
    let first: Vec<&str> = args.iter().chain(&common).map(String::as_str).chain(["--rounds", "1"]).collect();
    let (code, stdout, stderr) = run(&first);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("game 2/2: weak vs strong 0-1"), "{stderr}");
    let row = stdout.lines().find(|l| l.starts_with("strong")).expect(&stdout);
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[2..6], ["2", "2", "0", "0"], "{row}");
    assert!(row.ends_with("0 0 0 0 1"), "one pair, WW: {row}");

    // Without --resume the file is refused; with it, rounds 2 plays games 3-4.
    let (code, _, stderr) = run(&first);
    assert_eq!(code, 2);
    assert!(stderr.contains("--resume"), "{stderr}");
    let second: Vec<&str> =
        args.iter().chain(&common).map(String::as_str).chain(["--rounds", "2", "--resume"]).collect();
    let (code, stdout, stderr) = run(&second);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("game 1/4") && stderr.contains("game 3/4") && stderr.contains("game 4/4"), "{stderr}");
    let row = stdout.lines().find(|l| l.starts_with("strong")).expect(&stdout);
    assert!(row.split_whitespace().nth(2) == Some("4") && row.ends_with("0 0 0 0 2"), "{row}");
    // Resuming with other openings is refused.
    let other = dir.join("other.txt");
    std::fs::write(&other, "c3c4\nb2e2\n").unwrap();
    let mut third: Vec<&str> = args.iter().map(String::as_str).collect();
    third.extend(["--depth", "3", "--openings", other.to_str().unwrap(), "--pgn", pgn.to_str().unwrap()]);
    third.extend(["--rounds", "2", "--resume"]);
    let (code, _, stderr) = run(&third);
    assert_eq!(code, 2);
    assert!(stderr.contains("did not start from opening 1"), "{stderr}");
    let games = chariot::record::read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    // Game 3: opening 2, then Black's illegal move; game 4: Red's.
    assert_eq!(played_record(&games[2]), ["b2e2"]);
    assert_eq!(played_record(&games[3]), ["b2e2", "h9g7"]);
}

fn played_record(game: &chariot::record::GameRecord) -> Vec<String> {
    game.moves.iter().map(Move::to_string).collect()
}

#[test]
fn sprt_stops_at_a_decision_and_concurrency_counts_every_game() {
    let dir = workdir();
    let mut args = engine_arg(&dir, "strong", "script", "h2e2 h9g7");
    args.extend(engine_arg(&dir, "weak", "illegal", ""));
    let extra = ["--depth", "3", "--rounds", "500", "--concurrency", "2", "--sprt", "elo0=0", "elo1=50"];
    let all: Vec<&str> = args.iter().map(String::as_str).chain(extra).collect();
    let (code, stdout, stderr) = run(&all);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let row = stdout.lines().find(|l| l.starts_with("strong")).expect(&stdout);
    let games: u64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
    // All wins decide H1 in a few dozen games; once, in the full suite on
    // a loaded machine, it took 131 (cause not found: a fault of a fake
    // engine under load would do it). The point is that the match stops at
    // the decision, long before its 1000 games.
    assert!((2..500).contains(&games), "stopped early: {games} games of 1000");
    assert_eq!(row.split_whitespace().nth(4), Some("0"), "no draws: {row}");
}

#[test]
fn chariot_plays_itself_at_fixed_nodes() {
    let dir = workdir();
    let pgn = dir.join("self.pgn");
    let exe = env!("CARGO_BIN_EXE_chariot");
    let (code, stdout, stderr) = run(&[
        "--engine",
        "name=a",
        &format!("cmd={exe}"),
        "--engine",
        "name=b",
        &format!("cmd={exe}"),
        "proto=ucci",
        "--nodes",
        "300",
        "--max-plies",
        "60",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|l| l.starts_with("a ") && l.split_whitespace().nth(2) == Some("2")), "{stdout}");
    let games = chariot::record::read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(!game.moves.is_empty());
        // Every move legal (the reader checks) and the result the rules or
        // the ply limit gave.
        assert_ne!(game.result, Some(GameResult::Ongoing));
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("/"), "score/depth comments: {text}");
}

#[test]
fn a_config_file_holds_the_options() {
    let dir = workdir();
    let script = dir.join("fake.sh").display().to_string();
    let config = dir.join("match.conf");
    std::fs::write(
        &config,
        format!(
            "# two fakes\n--engine name=strong \"cmd={script} uci script h2e2\"\n\
             --engine name=weak \"cmd={script} uci illegal ''\"\n--depth 2\n"
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["--config", config.to_str().unwrap(), "--rounds", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let row = stdout.lines().find(|l| l.starts_with("strong")).expect(&stdout);
    assert_eq!(row.split_whitespace().nth(3), Some("4"), "4 wins: {row}");
}

#[test]
fn bad_input_exits_with_2_and_a_message() {
    let dir = workdir();
    let good = engine_arg(&dir, "a", "script", "h2e2");
    let with = |extra: &[&str]| -> (i32, String) {
        let args: Vec<&str> = good.iter().map(String::as_str).chain(extra.iter().copied()).collect();
        let (code, _, stderr) = run(&args);
        (code, stderr)
    };
    let (code, stderr) = with(&["--engine", "name=b", "cmd=/nonexistent/engine", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("engine 'b'") && stderr.contains("cannot start"), "{stderr}");
    let bad_openings = dir.join("bad.txt");
    std::fs::write(&bad_openings, "h2e2 h2e3\n").unwrap();
    let b = engine_arg(&dir, "b", "script", "h2e2");
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let (code, stderr) = with(&[&b[..], &["--depth", "2", "--openings", bad_openings.to_str().unwrap()]].concat());
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.txt") && stderr.contains("line 1"), "{stderr}");
    let (code, stderr) = with(&[&b[..], &["--tc", "fast"]].concat());
    assert_eq!(code, 2);
    assert!(stderr.contains("bad time control"), "{stderr}");
    let (code, stderr) = with(&[&b[..]].concat());
    assert_eq!(code, 2);
    assert!(stderr.contains("no time control"), "{stderr}");
    let (code, stderr) = with(&["--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("at least two engines"), "{stderr}");
    let (code, stderr) = with(&[&b[..], &["--depth", "2", "--sprt", "elo0=5", "elo1=0"]].concat());
    assert_eq!(code, 2);
    assert!(stderr.contains("elo0 must be below elo1"), "{stderr}");
    let (code, stderr) = with(&["--engine", "name=c", "proto=usi", "cmd=x", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("proto=usi"), "{stderr}");
}

/// A real engine, when it is installed (not on CI): `cargo test --release
/// --test match -- --ignored`. Fairy-Stockfish speaks UCI with ranks 1-10;
/// every move it sends must arrive as a legal ICCS move. The engine is
/// Debian's package (`apt-get install fairy-stockfish`, in /usr/games), or
/// the program the FAIRY_STOCKFISH environment variable names.
/// It returns a Result so that a missing engine is one line, not a panic's
/// backtrace.
#[test]
#[ignore = "needs Fairy-Stockfish: apt-get install fairy-stockfish (or FAIRY_STOCKFISH=path)"]
fn fairy_stockfish_at_fixed_depth() -> Result<(), String> {
    let fsf = std::env::var("FAIRY_STOCKFISH").unwrap_or_else(|_| "/usr/games/fairy-stockfish".into());
    if !Path::new(&fsf).is_file() {
        return Err(format!(
            "this test needs Fairy-Stockfish, not found at {fsf}: install it with `apt-get install \
             fairy-stockfish` (Debian puts it in /usr/games) or name it with FAIRY_STOCKFISH=path"
        ));
    }
    let dir = workdir();
    let pgn = dir.join("fsf.pgn");
    let exe = env!("CARGO_BIN_EXE_chariot");
    let (code, stdout, stderr) = run(&[
        "--engine",
        "name=chariot",
        &format!("cmd={exe}"),
        "--engine",
        "name=fsf",
        &format!("cmd='{fsf}'"),
        "--depth",
        "4",
        "--rounds",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|l| l.starts_with("chariot ") && l.split_whitespace().nth(2) == Some("4")), "{stdout}");
    let games = chariot::record::read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(game.moves.len() > 10, "a real game, not a fault: {:?}", game.tags);
        assert!(!stderr.contains("illegal move"), "{stderr}");
    }
    Ok(())
}
