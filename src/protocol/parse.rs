//! Parsing one input line into a typed command, for both dialects.

use super::Dialect;
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
    pub searchmoves: Vec<Move>,
    pub perft: Option<u32>,
}

impl GoArgs {
    /// Turns the arguments into search limits for `side` to move.
    pub fn to_limits(&self, side: Color, dialect: Dialect, use_millisec: bool) -> Limits {
        // UCCI times are seconds unless the GUI set usemillisec.
        let ucci_ms = |milli_units: i64| if use_millisec { milli_units / 1000 } else { milli_units };
        let _ = dialect;
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
            searchmoves: self.searchmoves.clone(),
            banmoves: Vec::new(),
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
    match head {
        "uci" => Command::Uci,
        "ucci" => Command::Ucci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest, "position"),
        // Old "Cyclone" GUIs send these without the `position` word.
        "fen" | "startpos" => parse_position(&tokens, head),
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
        "go" => parse_go(rest),
        "perft" => match rest.first().and_then(|t| t.parse().ok()) {
            Some(d) => Command::Perft(d),
            None => Command::Invalid("perft needs a depth".into()),
        },
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit { draw: rest.first() == Some(&"draw") },
        "probe" => match parse_position(rest, "probe") {
            Command::Position { fen, moves } => Command::Probe { fen, moves },
            other => other,
        },
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(rest.first().and_then(|t| t.parse().ok())),
        "help" => Command::Help,
        "quit" => Command::Quit,
        _ => Command::Unknown(line.trim().to_string()),
    }
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

/// `startpos [moves ...]` or `fen <fields> [moves ...]`.
fn parse_position(args: &[&str], what: &str) -> Command {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let moves = moves.iter().map(|s| s.to_string()).collect();
    match setup.first() {
        Some(&"startpos") => Command::Position { fen: None, moves },
        Some(&"fen") if setup.len() > 1 => Command::Position { fen: Some(setup[1..].join(" ")), moves },
        _ => Command::Invalid(format!("{what} needs 'startpos' or 'fen <FEN>'")),
    }
}

fn parse_go(rest: &[&str]) -> Command {
    let mut g = GoArgs::default();
    let mut i = 0;
    let mut errors = Vec::new();
    while i < rest.len() {
        let key = rest[i];
        let value = rest.get(i + 1).copied();
        let int = |v: Option<&str>| v.and_then(|t| t.parse::<f64>().ok()).filter(|x| x.is_finite()).map(|x| x as i64);
        let mut takes_value = true;
        match key {
            "ponder" => {
                g.ponder = true;
                takes_value = false;
            }
            "draw" => {
                g.draw_offered = true;
                takes_value = false;
            }
            "infinite" => {
                g.infinite = true;
                takes_value = false;
            }
            "depth" => g.depth = int(value),
            "nodes" => g.nodes = int(value).map(|n| n.max(1) as u64),
            "movetime" => g.movetime = int(value),
            "mate" => g.mate = int(value).map(|n| n.clamp(1, 100) as u32),
            "wtime" => g.wtime = int(value),
            "btime" => g.btime = int(value),
            "winc" => g.winc = int(value),
            "binc" => g.binc = int(value),
            "movestogo" => g.movestogo = int(value),
            "time" => g.time_milli_units = milli(value),
            "increment" => g.increment_milli_units = milli(value),
            // The opponent's clock is not used for our own budget.
            "opptime" | "oppmovestogo" | "oppincrement" => {}
            "perft" => g.perft = value.and_then(|v| v.parse().ok()),
            "searchmoves" => {
                takes_value = false;
                while let Some(m) = rest.get(i + 1).and_then(|t| Move::parse(t)) {
                    g.searchmoves.push(m);
                    i += 1;
                }
            }
            other => {
                errors.push(format!("unknown go parameter '{other}'"));
                takes_value = false;
            }
        }
        if takes_value {
            if value.is_none()
                || matches!(
                    key,
                    "depth" | "nodes" | "movetime" | "mate" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
                ) && int(value).is_none()
            {
                errors.push(format!("go {key} needs a number"));
            }
            i += 1;
        }
        i += 1;
    }
    if let Some(d) = g.perft {
        return Command::Perft(d);
    }
    if rest.contains(&"perft") {
        return Command::Invalid("go perft needs a depth".into());
    }
    if !errors.is_empty() {
        // Still search: every `go` must end in a move. Report what was odd.
        log::warn!("{}", errors.join("; "));
    }
    Command::Go(g)
}

/// A (possibly fractional) number scaled by 1000.
fn milli(value: Option<&str>) -> Option<i64> {
    value.and_then(|t| t.parse::<f64>().ok()).filter(|x| x.is_finite()).map(|x| (x * 1000.0) as i64)
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
        assert!(matches!(parse_command("position"), Command::Invalid(_)));
    }

    #[test]
    fn go_clocks_in_both_dialects() {
        let Command::Go(g) = parse_command("go wtime 1000 btime -5 winc 10 binc 0") else { panic!() };
        let l = g.to_limits(Color::Black, Dialect::Uci, false);
        assert_eq!(l.clock, Some(Clock { time_ms: -5, inc_ms: 0, moves_to_go: None }));
        let Command::Go(g) = parse_command("go time 60 increment 2 opptime 55 oppincrement 2") else { panic!() };
        let l = g.to_limits(Color::Red, Dialect::Ucci, false);
        assert_eq!(l.clock, Some(Clock { time_ms: 60_000, inc_ms: 2_000, moves_to_go: None }));
        let l = g.to_limits(Color::Red, Dialect::Ucci, true);
        assert_eq!(l.clock, Some(Clock { time_ms: 60, inc_ms: 2, moves_to_go: None }));
        let Command::Go(g) = parse_command("go depth 5 movetime 300") else { panic!() };
        let l = g.to_limits(Color::Red, Dialect::Uci, false);
        assert_eq!((l.depth, l.movetime_ms, l.infinite), (Some(5), Some(300), false));
        let Command::Go(g) = parse_command("go") else { panic!() };
        assert!(g.to_limits(Color::Red, Dialect::Uci, false).infinite);
        assert_eq!(parse_command("go perft 3"), Command::Perft(3));
    }
}
