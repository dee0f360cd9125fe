//! Parsing one input line into a typed command, for both dialects.

use crate::search::{Clock, Limits};
use crate::types::{Color, Move};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Empty,
    Uci,
    Ucci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    /// A `position` command without a usable `startpos` / `fen` part: like
    /// a refused FEN, it leaves the engine without a position.
    BadPosition(String),
    BanMoves(Vec<String>),
    Go(GoArgs),
    Perft(u32),
    Stop,
    PonderHit {
        draw: bool,
    },
    Probe {
        fen: Option<String>,
        moves: Vec<String>,
    },
    /// UCI `debug on|off` (also taken in UCCI, beside its `debug` option).
    Debug(bool),
    Display,
    Eval,
    Bench(Option<i32>),
    Help,
    Quit,
    Unknown(String),
    /// A known command with unusable arguments; the text says why.
    Invalid(String),
}

/// The arguments of `go`, in either dialect. Numbers may be negative.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    pub ponder: bool,
    pub draw_offered: bool,
    pub infinite: bool,
    pub depth: Option<i64>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub mate: Option<u32>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<i64>,
    /// UCCI clock, in the session's unit (seconds unless `usemillisec`),
    /// kept in thousandths so fractional seconds survive.
    pub time_milli_units: Option<i64>,
    pub increment_milli_units: Option<i64>,
    /// UCI `searchmoves`, as text: the protocol checks them against the
    /// position and reports the ones that are not legal there.
    pub searchmoves: Vec<String>,
    /// What was odd about the command (unknown words, missing or bad
    /// numbers). The search still runs: every `go` must end in a move.
    pub warnings: Vec<String>,
}

impl GoArgs {
    /// Turns the arguments into search limits for `side` to move. The
    /// searchmoves and banmoves are left for the caller to fill in.
    pub fn to_limits(&self, side: Color, use_millisec: bool) -> Limits {
        // UCCI times are seconds unless the GUI set usemillisec.
        let ucci_ms = |milli_units: i64| if use_millisec { milli_units / 1000 } else { milli_units };
        let (time, inc) = match side {
            Color::Red => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        let clock = if let Some(t) = time {
            Some(Clock { time_ms: t, inc_ms: inc.unwrap_or(0), moves_to_go: self.moves_to_go() })
        } else {
            self.time_milli_units.map(|t| Clock {
                time_ms: ucci_ms(t),
                inc_ms: self.increment_milli_units.map_or(0, ucci_ms),
                moves_to_go: self.moves_to_go(),
            })
        };
        let depth = self.depth.map(|d| d.clamp(1, 127) as i32);
        let bare = clock.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.mate.is_none();
        Limits {
            depth,
            nodes: self.nodes,
            movetime_ms: self.movetime,
            mate: self.mate,
            infinite: self.infinite || (bare && !self.ponder),
            ponder: self.ponder,
            clock,
            searchmoves: Vec::new(),
            banmoves: Vec::new(),
            clock_start: None,
        }
    }

    fn moves_to_go(&self) -> Option<u32> {
        self.movestogo.filter(|&m| m > 0).map(|m| m.min(1000) as u32)
    }
}

/// Parses one line (any line ending, any spacing).
pub fn parse_command(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else { return Command::Empty };
    match head.to_ascii_lowercase().as_str() {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "setoption" => parse_setoption(rest),
        "position" => refuse_invalid(parse_position(rest, "position")),
        // Old "Cyclone" GUIs send these without the `position` word.
        "fen" | "startpos" => refuse_invalid(parse_position(&tokens, head)),
        "banmoves" => Command::BanMoves(rest.iter().map(|t| move_text(t)).collect()),
        "go" => parse_go(rest),
        "perft" => parse_perft(rest.first().copied(), "perft"),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit { draw: rest.first() == Some(&"draw") },
        "probe" => match parse_position(rest, "probe") {
            Command::Position { fen, moves } => Command::Probe { fen, moves },
            other => other,
        },
        "debug" => match rest.first().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("on") | Some("true") | None => Command::Debug(true),
            Some("off") | Some("false") => Command::Debug(false),
            Some(_) => Command::Invalid("debug takes 'on' or 'off'".into()),
        },
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => match rest.first() {
            None => Command::Bench(None),
            Some(t) => match t.parse::<i32>() {
                Ok(d) if (1..=MAX_BENCH_DEPTH).contains(&d) => Command::Bench(Some(d)),
                _ => Command::Invalid(format!("bench depth must be 1..{MAX_BENCH_DEPTH}, got '{}'", clip(t))),
            },
        },
        "help" => Command::Help,
        "quit" => Command::Quit,
        _ => Command::Unknown(line.trim().to_string()),
    }
}

/// Deeper perft runs take hours and cannot be interrupted.
pub const MAX_PERFT_DEPTH: u32 = 8;
pub const MAX_BENCH_DEPTH: i32 = 20;

fn parse_perft(depth: Option<&str>, what: &str) -> Command {
    match depth.map(|t| (t, t.parse::<u32>())) {
        Some((_, Ok(d))) if (1..=MAX_PERFT_DEPTH).contains(&d) => Command::Perft(d),
        Some((t, _)) => Command::Invalid(format!("{what} depth must be 1..{MAX_PERFT_DEPTH}, got '{}'", clip(t))),
        None => Command::Invalid(format!("{what} needs a depth")),
    }
}

/// Move text as GUIs write it, made ICCS: `H2-E2` and `h2e2` are the same
/// move. Anything else is passed on unchanged, to be refused with a reason.
pub fn move_text(token: &str) -> String {
    let lower = token.to_ascii_lowercase();
    let b = lower.as_bytes();
    if b.len() == 5 && b[2] == b'-' { format!("{}{}", &lower[..2], &lower[3..]) } else { lower }
}

/// Text from the input, shortened and made printable for an `info string`.
pub fn clip(text: &str) -> String {
    clip_to(text, 80)
}

/// `text` with control characters replaced, cut to `max_chars` (then `...`).
pub fn clip_to(text: &str, max_chars: usize) -> String {
    let printable = |c: char| if c.is_control() { '?' } else { c };
    let t: String = text.chars().take(max_chars).map(printable).collect();
    if text.chars().nth(max_chars).is_some() { format!("{t}...") } else { t }
}

fn parse_setoption(rest: &[&str]) -> Command {
    if rest.first() == Some(&"name") {
        // UCI form: setoption name <words> [value <words>]
        let value_at = rest.iter().position(|&t| t == "value");
        let name_end = value_at.unwrap_or(rest.len());
        let name = rest[1..name_end].join(" ");
        let value = value_at.map(|i| rest[i + 1..].join(" "));
        if name.is_empty() {
            return Command::Invalid("setoption needs an option name".into());
        }
        Command::SetOption { name, value }
    } else {
        // UCCI form: setoption <name> [<value...>]
        match rest.split_first() {
            Some((name, value)) => Command::SetOption {
                name: name.to_string(),
                value: if value.is_empty() { None } else { Some(value.join(" ")) },
            },
            None => Command::Invalid("setoption needs an option name".into()),
        }
    }
}

fn refuse_invalid(command: Command) -> Command {
    match command {
        Command::Invalid(why) => Command::BadPosition(why),
        other => other,
    }
}

/// `startpos [moves ...]` or `fen <fields> [moves ...]`.
fn parse_position(args: &[&str], what: &str) -> Command {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let moves = moves.iter().map(|t| move_text(t)).collect();
    match setup.first() {
        Some(&"startpos") => Command::Position { fen: None, moves },
        Some(&"fen") if setup.len() > 1 => Command::Position { fen: Some(setup[1..].join(" ")), moves },
        _ => Command::Invalid(format!("{what} needs 'startpos' or 'fen <FEN>'")),
    }
}

/// The `go` words that take a number.
const GO_NUMBER_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "mate",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "time",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
];
const GO_FLAG_WORDS: &[&str] = &["ponder", "draw", "infinite", "searchmoves", "perft"];

fn parse_go(rest: &[&str]) -> Command {
    let mut g = GoArgs::default();
    let is_word = |t: &str| GO_NUMBER_WORDS.contains(&t) || GO_FLAG_WORDS.contains(&t);
    let mut tokens = rest.iter().copied().peekable();
    while let Some(key) = tokens.next() {
        match key {
            "ponder" => g.ponder = true,
            "draw" => g.draw_offered = true,
            "infinite" => g.infinite = true,
            "searchmoves" => {
                while let Some(t) = tokens.next_if(|t| Move::parse(&move_text(t)).is_some()) {
                    g.searchmoves.push(move_text(t));
                }
                if g.searchmoves.is_empty() {
                    g.warnings.push("go searchmoves lists no move".into());
                }
            }
            "perft" => return parse_perft(tokens.next(), "go perft"),
            _ if GO_NUMBER_WORDS.contains(&key) => {
                // A missing number must not swallow the next word.
                let value = tokens.next_if(|t| !is_word(t));
                let number = value.and_then(|t| t.parse::<f64>().ok()).filter(|x| x.is_finite());
                match number {
                    Some(x) => set_go_number(&mut g, key, x),
                    None => g.warnings.push(match value {
                        Some(v) => format!("go {key} needs a number, got '{}'; ignored", clip(v)),
                        None => format!("go {key} needs a number; ignored"),
                    }),
                }
            }
            other => g.warnings.push(format!("unknown go parameter '{}' ignored", clip(other))),
        }
    }
    Command::Go(g)
}

fn set_go_number(g: &mut GoArgs, key: &str, x: f64) {
    // Saturating conversions: absurd numbers become the largest ones.
    let int = x as i64;
    match key {
        "depth" => g.depth = Some(int),
        "nodes" => {
            if int < 1 {
                g.warnings.push(format!("go nodes {int} is not positive; searching 1 node"));
            }
            g.nodes = Some(int.max(1) as u64);
        }
        "movetime" => g.movetime = Some(int),
        "mate" => {
            if int < 1 {
                g.warnings.push(format!("go mate {int} is not positive; looking for mate in 1"));
            }
            g.mate = Some(int.clamp(1, 100) as u32);
        }
        "wtime" => g.wtime = Some(int),
        "btime" => g.btime = Some(int),
        "winc" => g.winc = Some(int),
        "binc" => g.binc = Some(int),
        "movestogo" => g.movestogo = Some(int),
        "time" => g.time_milli_units = Some((x * 1000.0) as i64),
        "increment" => g.increment_milli_units = Some((x * 1000.0) as i64),
        // The opponent's clock does not change our own budget.
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_setoption_forms() {
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Command::SetOption { name: "Clear Hash".into(), value: None }
        );
        assert_eq!(
            parse_command("setoption name Hash value 2048\r"),
            Command::SetOption { name: "Hash".into(), value: Some("2048".into()) }
        );
        assert_eq!(
            parse_command("setoption usemillisec true"),
            Command::SetOption { name: "usemillisec".into(), value: Some("true".into()) }
        );
    }

    #[test]
    fn parses_positions() {
        assert_eq!(parse_command("position startpos moves"), Command::Position { fen: None, moves: vec![] });
        assert_eq!(
            parse_command("fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0e0"),
            Command::Position { fen: Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1".into()), moves: vec!["d0e0".into()] }
        );
        assert!(matches!(parse_command("position"), Command::BadPosition(_)));
    }

    #[test]
    fn go_clocks_in_both_dialects() {
        let Command::Go(g) = parse_command("go wtime 1000 btime -5 winc 10 binc 0") else { panic!() };
        let l = g.to_limits(Color::Black, false);
        assert_eq!(l.clock, Some(Clock { time_ms: -5, inc_ms: 0, moves_to_go: None }));
        let Command::Go(g) = parse_command("go time 60 increment 2 opptime 55 oppincrement 2") else { panic!() };
        assert!(g.warnings.is_empty());
        let l = g.to_limits(Color::Red, false);
        assert_eq!(l.clock, Some(Clock { time_ms: 60_000, inc_ms: 2_000, moves_to_go: None }));
        let l = g.to_limits(Color::Red, true);
        assert_eq!(l.clock, Some(Clock { time_ms: 60, inc_ms: 2, moves_to_go: None }));
        let Command::Go(g) = parse_command("go time 1.5 movestogo 20") else { panic!() };
        let l = g.to_limits(Color::Black, false);
        assert_eq!(l.clock, Some(Clock { time_ms: 1_500, inc_ms: 0, moves_to_go: Some(20) }));
        let Command::Go(g) = parse_command("go depth 5 movetime 300") else { panic!() };
        let l = g.to_limits(Color::Red, false);
        assert_eq!((l.depth, l.movetime_ms, l.infinite), (Some(5), Some(300), false));
        let Command::Go(g) = parse_command("go") else { panic!() };
        assert!(g.to_limits(Color::Red, false).infinite);
        let Command::Go(g) = parse_command("go ponder time 10") else { panic!() };
        let l = g.to_limits(Color::Red, false);
        assert!(l.ponder && !l.infinite);
        assert_eq!(parse_command("go perft 3"), Command::Perft(3));
        assert_eq!(parse_command("debug on"), Command::Debug(true));
        assert_eq!(parse_command("debug off"), Command::Debug(false));
    }

    #[test]
    fn huge_clocks_saturate() {
        let Command::Go(g) = parse_command("go wtime 300000000000000000 winc 4611686018427387903 btime 1e30") else {
            panic!()
        };
        let l = g.to_limits(Color::Red, false);
        assert_eq!(l.clock, Some(Clock { time_ms: 300_000_000_000_000_000, inc_ms: 1 << 62, moves_to_go: None }));
        assert_eq!(g.to_limits(Color::Black, false).clock.map(|c| c.time_ms), Some(i64::MAX));
        let Command::Go(g) = parse_command("go time 1e16 increment 1e16 movestogo 1e20") else { panic!() };
        for millisec in [false, true] {
            let c = g.to_limits(Color::Red, millisec).clock.expect("a clock");
            assert!(c.time_ms >= 10_000_000_000_000 && c.inc_ms >= 10_000_000_000_000, "{c:?}");
            assert_eq!(c.moves_to_go, Some(1000));
        }
    }

    #[test]
    fn go_flags_and_searchmoves() {
        let Command::Go(g) = parse_command("go draw depth 3") else { panic!() };
        assert!(g.draw_offered && !g.ponder);
        assert_eq!(g.depth, Some(3));
        let Command::Go(g) = parse_command("go searchmoves h2e2 B0-C2 depth 4 infinite") else { panic!() };
        assert_eq!(g.searchmoves, vec!["h2e2".to_string(), "b0c2".to_string()]);
        assert_eq!(g.depth, Some(4));
        assert!(g.infinite && g.warnings.is_empty());
    }

    #[test]
    fn bad_go_numbers_are_warnings_not_errors() {
        let Command::Go(g) = parse_command("go depth x movetime") else { panic!() };
        assert_eq!(g.warnings.len(), 2, "{:?}", g.warnings);
        assert!(g.warnings[0].contains("depth") && g.warnings[0].contains("'x'"));
        assert_eq!((g.depth, g.movetime), (None, None));
        // A missing number does not eat the next word.
        let Command::Go(g) = parse_command("go depth infinite") else { panic!() };
        assert!(g.infinite);
        assert_eq!(g.warnings.len(), 1);
        let Command::Go(g) = parse_command("go nodes -5 frobnicate 7 depth 1e30 movetime nan") else { panic!() };
        assert_eq!(g.nodes, Some(1));
        assert_eq!(g.depth, Some(i64::MAX));
        assert_eq!(g.movetime, None);
        assert_eq!(g.warnings.len(), 4, "{:?}", g.warnings);
    }

    #[test]
    fn perft_and_bench_depths_are_checked() {
        assert!(matches!(parse_command("go perft"), Command::Invalid(_)));
        assert!(matches!(parse_command("go perft x"), Command::Invalid(_)));
        assert!(matches!(parse_command("go perft 99"), Command::Invalid(_)));
        assert_eq!(parse_command("perft 2"), Command::Perft(2));
        assert_eq!(parse_command("bench"), Command::Bench(None));
        assert_eq!(parse_command("bench 3"), Command::Bench(Some(3)));
        assert!(matches!(parse_command("bench -1"), Command::Invalid(_)));
    }

    #[test]
    fn odd_input_never_fails_to_parse() {
        assert_eq!(parse_command(""), Command::Empty);
        assert_eq!(parse_command(" \t\r"), Command::Empty);
        assert_eq!(parse_command("ponderhit draw\r"), Command::PonderHit { draw: true });
        assert!(matches!(parse_command("xyzzy 1 2"), Command::Unknown(_)));
        assert!(matches!(parse_command("setoption"), Command::Invalid(_)));
        assert!(matches!(parse_command("setoption name"), Command::Invalid(_)));
        assert_eq!(clip(&"x".repeat(200)).len(), 83);
        assert_eq!(clip("a\u{1b}b"), "a?b");
        assert_eq!(move_text("H2-E2"), "h2e2");
    }
}
