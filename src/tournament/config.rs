//! A match's configuration from plain settings (what `chariot match` reads
//! from its command line and its config file): every check is made here,
//! with a typed error, before any engine starts.

use super::clock::TimeControl;
use super::game::{DrawRule, GameSettings, Opening, ResignRule};
use super::openings;
use super::runner::MatchConfig;
use super::spec::{self, EngineSpec, Protocol};
use super::stats::Sprt;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The options of a match as given, before they are checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Each engine's `key=value` tokens (`name=A cmd=./a proto=uci`).
    pub engines: Vec<Vec<String>>,
    /// Tokens applied to every engine before its own.
    pub each: Vec<String>,
    /// The match's time control: at most one of these four.
    pub tc: Option<String>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub margin_ms: u64,
    pub move_timeout_ms: u64,
    pub ready_timeout_s: u64,
    /// An openings file (default: the start position).
    pub openings: Option<PathBuf>,
    /// Shuffle the openings with this seed.
    pub shuffle: Option<u64>,
    /// Rounds per pairing (default: once through the openings).
    pub rounds: Option<u64>,
    /// 2 (colours reversed) or 1.
    pub games_per_round: u64,
    pub concurrency: u64,
    pub gauntlet: bool,
    /// `--sprt` words (`elo0=0 elo1=5`); `Some(empty)`: the defaults.
    pub sprt: Option<Vec<String>>,
    pub pgn: Option<PathBuf>,
    pub resume: bool,
    /// `--resign` words: `score=CP moves=N`.
    pub resign: Option<Vec<String>>,
    /// `--draw` words: `movenumber=M moves=N score=CP`.
    pub draw: Option<Vec<String>>,
    pub max_plies: Option<u64>,
    pub ponder: bool,
    pub event: String,
}

impl Default for MatchOptions {
    /// No engines, no time control, the rest as `chariot match` defaults.
    fn default() -> MatchOptions {
        let settings = GameSettings::default();
        MatchOptions {
            engines: Vec::new(),
            each: Vec::new(),
            tc: None,
            movetime_ms: None,
            depth: None,
            nodes: None,
            margin_ms: settings.margin_ms,
            move_timeout_ms: settings.move_timeout_ms,
            ready_timeout_s: settings.ready_timeout.as_secs(),
            openings: None,
            shuffle: None,
            rounds: None,
            games_per_round: 2,
            concurrency: 1,
            gauntlet: false,
            sprt: None,
            pgn: None,
            resume: false,
            resign: None,
            draw: None,
            max_plies: None,
            ponder: false,
            event: "chariot match".into(),
        }
    }
}

/// Why a match cannot be set up. Engines are numbered from 1.
#[derive(Debug)]
pub enum MatchConfigError {
    /// The config file cannot be read.
    ReadConfig {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A config file line whose quoting is broken.
    ConfigLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// More than one of `--tc`, `--movetime`, `--depth`, `--nodes`.
    TwoTimeControls,
    /// `--tc` is not a clock.
    Clock(String),
    TooFewEngines,
    /// A bad `key=value` token of an engine (or of `--each`).
    EngineToken {
        engine: usize,
        message: String,
    },
    NoCommand {
        engine: usize,
    },
    SameName(String),
    /// An xboard engine given a node limit.
    XboardNodes(String),
    NoTimeControl(String),
    ReadOpenings {
        path: PathBuf,
        error: std::io::Error,
    },
    Openings {
        path: PathBuf,
        message: String,
    },
    SprtEngines,
    SprtGames,
    Sprt(String),
    /// `--games` other than 1 or 2.
    GamesPerRound(u64),
    /// A count that must be at least 1 (`--rounds`, `--concurrency`).
    Zero(&'static str),
    /// A word of `--resign` or `--draw` without `=`.
    NotKeyValue {
        option: &'static str,
        word: String,
    },
    UnknownKey {
        option: &'static str,
        key: String,
        known: &'static [&'static str],
    },
    NotANumber {
        option: &'static str,
        word: String,
    },
    /// A number too large for what it counts.
    TooLarge {
        option: &'static str,
        value: String,
    },
}

impl fmt::Display for MatchConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MatchConfigError::*;
        match self {
            ReadConfig { path, error } | ReadOpenings { path, error } => {
                write!(f, "cannot read '{}': {error}", path.display())
            }
            ConfigLine { path, line, message } => write!(f, "{}, line {line}: {message}", path.display()),
            TwoTimeControls => write!(f, "give only one of --tc, --movetime, --depth and --nodes"),
            Clock(message) | Sprt(message) => write!(f, "{message}"),
            TooFewEngines => write!(f, "give at least two engines (--engine name=A cmd=./a ...)"),
            EngineToken { engine, message } => write!(f, "engine {engine}: {message}"),
            NoCommand { engine } => write!(f, "engine {engine}: no cmd= given"),
            SameName(name) => write!(f, "two engines are named '{name}': give each its own name="),
            XboardNodes(name) => write!(f, "engine '{name}': xboard engines take no node limit"),
            NoTimeControl(name) => {
                write!(f, "engine '{name}' has no time control: give --tc, --movetime, --depth or --nodes")
            }
            Openings { path, message } => write!(f, "{}: {message}", path.display()),
            SprtEngines => write!(f, "--sprt needs exactly two engines"),
            SprtGames => write!(f, "--sprt counts pairs of games: it needs --games 2"),
            GamesPerRound(n) => write!(f, "--games must be 1 or 2, got {n}"),
            Zero(option) => write!(f, "{option} must be at least 1"),
            NotKeyValue { option, word } => write!(f, "{option}: '{word}' is not key=value"),
            UnknownKey { option, key, known } => {
                write!(f, "{option}: unknown key '{key}' (known: {})", known.join(", "))
            }
            NotANumber { option, word } => write!(f, "{option}: '{word}': not a whole number"),
            TooLarge { option, value } => write!(f, "{option}: {value} is too large"),
        }
    }
}

impl std::error::Error for MatchConfigError {}

/// The options of a config file: its lines split into words as a shell
/// would (`--engine name=A cmd="./a -x"`); blank lines and lines starting
/// with `#` are left out.
pub fn read_option_file(path: &Path) -> Result<Vec<String>, MatchConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| MatchConfigError::ReadConfig { path: path.to_path_buf(), error })?;
    let mut words = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line_words = spec::split_command(line).map_err(|message| MatchConfigError::ConfigLine {
            path: path.to_path_buf(),
            line: n + 1,
            message,
        })?;
        words.extend(line_words);
    }
    Ok(words)
}

/// Checks `options` and builds the match: engines with their time
/// controls, the openings (read from their file), SPRT, resign and draw
/// rules. Starts no engine (see [`super::runner::check_engines`]).
pub fn match_config(options: &MatchOptions) -> Result<MatchConfig, MatchConfigError> {
    use MatchConfigError as E;
    let given = [options.tc.is_some(), options.movetime_ms.is_some(), options.depth.is_some(), options.nodes.is_some()];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(E::TwoTimeControls);
    }
    let default_control = match (&options.tc, options.movetime_ms, options.depth, options.nodes) {
        (Some(tc), ..) => Some(TimeControl::parse_clock(tc).map_err(E::Clock)?),
        (_, Some(ms), ..) => Some(TimeControl::MoveTime { ms }),
        (_, _, Some(d), _) => Some(TimeControl::Depth(d)),
        (_, _, _, Some(n)) => Some(TimeControl::Nodes(n)),
        _ => None,
    };
    if options.engines.len() < 2 {
        return Err(E::TooFewEngines);
    }
    let mut engines: Vec<EngineSpec> = Vec::new();
    for (i, tokens) in options.engines.iter().enumerate() {
        let engine = i + 1;
        let mut spec = EngineSpec::new("", &[]);
        spec.apply_tokens(options.each.iter().chain(tokens).map(String::as_str))
            .map_err(|message| E::EngineToken { engine, message })?;
        if spec.command.is_empty() {
            return Err(E::NoCommand { engine });
        }
        if spec.name.is_empty() {
            spec.name = format!("engine{engine}");
        }
        if engines.iter().any(|e| e.name == spec.name) {
            return Err(E::SameName(spec.name));
        }
        spec.control = spec.control.or(default_control);
        if spec.protocol == Protocol::Xboard && matches!(spec.control, Some(TimeControl::Nodes(_))) {
            return Err(E::XboardNodes(spec.name));
        }
        if spec.control.is_none() {
            return Err(E::NoTimeControl(spec.name));
        }
        engines.push(spec);
    }
    let mut opening_list = match &options.openings {
        Some(path) => read_openings(path)?,
        None => vec![Opening::startpos()],
    };
    if let Some(seed) = options.shuffle {
        openings::shuffle(&mut opening_list, seed);
    }
    if !(1..=2).contains(&options.games_per_round) {
        return Err(E::GamesPerRound(options.games_per_round));
    }
    let sprt = match &options.sprt {
        Some(words) => {
            if engines.len() != 2 {
                return Err(E::SprtEngines);
            }
            if options.games_per_round != 2 {
                return Err(E::SprtGames);
            }
            Some(Sprt::parse(words.iter().map(String::as_str)).map_err(E::Sprt)?)
        }
        None => None,
    };
    let resign = match &options.resign {
        Some(words) => {
            let values = key_values("--resign", words, &["score", "moves"])?;
            Some(ResignRule {
                score_cp: narrow("--resign", values[0].unwrap_or(600))?,
                moves: narrow("--resign", values[1].unwrap_or(3))?,
            })
        }
        None => None,
    };
    let draw = match &options.draw {
        Some(words) => {
            let values = key_values("--draw", words, &["movenumber", "moves", "score"])?;
            Some(DrawRule {
                after_move: narrow("--draw", values[0].unwrap_or(40))?,
                moves: narrow("--draw", values[1].unwrap_or(8))?,
                score_cp: narrow("--draw", values[2].unwrap_or(10))?,
            })
        }
        None => None,
    };
    let rounds = match options.rounds {
        Some(0) => return Err(E::Zero("--rounds")),
        Some(r) => narrow("--rounds", r)?,
        None => opening_list.len(),
    };
    if options.concurrency == 0 {
        return Err(E::Zero("--concurrency"));
    }
    Ok(MatchConfig {
        engines,
        gauntlet: options.gauntlet,
        openings: opening_list,
        rounds,
        games_per_round: narrow("--games", options.games_per_round)?,
        concurrency: narrow("--concurrency", options.concurrency)?,
        settings: GameSettings {
            margin_ms: options.margin_ms,
            move_timeout_ms: options.move_timeout_ms,
            ready_timeout: Duration::from_secs(options.ready_timeout_s),
            resign,
            draw,
            max_plies: options.max_plies.map(|p| narrow("--max-plies", p)).transpose()?,
            ponder: options.ponder,
        },
        sprt,
        pgn: options.pgn.clone(),
        resume: options.resume,
        event: options.event.clone(),
    })
}

fn read_openings(path: &Path) -> Result<Vec<Opening>, MatchConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| MatchConfigError::ReadOpenings { path: path.to_path_buf(), error })?;
    openings::parse_openings(&text).map_err(|message| MatchConfigError::Openings { path: path.to_path_buf(), message })
}

/// A count of `option` in the type it is kept in, refused if it does not fit.
fn narrow<T: TryFrom<u64>>(option: &'static str, value: u64) -> Result<T, MatchConfigError> {
    T::try_from(value).map_err(|_| MatchConfigError::TooLarge { option, value: value.to_string() })
}

/// The `key=number` words of `option`, as values in the order of `keys`.
fn key_values(
    option: &'static str,
    words: &[String],
    keys: &'static [&'static str],
) -> Result<Vec<Option<u64>>, MatchConfigError> {
    use MatchConfigError as E;
    let mut values = vec![None; keys.len()];
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| E::NotKeyValue { option, word: word.clone() })?;
        let index = keys.iter().position(|k| *k == key).ok_or_else(|| E::UnknownKey {
            option,
            key: key.into(),
            known: keys,
        })?;
        let number: u64 = value.parse().map_err(|_| E::NotANumber { option, word: word.clone() })?;
        values[index] = Some(number);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use MatchConfigError as E;

    /// Two engines at depth 4: a match that builds.
    fn two_engines() -> MatchOptions {
        MatchOptions {
            engines: vec![words("name=a cmd=./a"), words("name=b cmd=./b")],
            depth: Some(4),
            ..MatchOptions::default()
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn error(options: MatchOptions) -> MatchConfigError {
        match_config(&options).expect_err("a bad option is refused")
    }

    /// A file in the temp directory holding `text`, named for the test.
    fn temp_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("chariot-config-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("temp file");
        path
    }

    #[test]
    fn good_options_give_the_expected_config() {
        let options = MatchOptions {
            engines: vec![words("cmd=./a"), words("name=b cmd=./b movetime=50")],
            each: words("opt:Hash=16"),
            tc: Some("10+0.1".into()),
            rounds: Some(3),
            games_per_round: 2,
            concurrency: 4,
            gauntlet: true,
            sprt: Some(words("elo0=0 elo1=10")),
            resign: Some(words("score=700")),
            draw: Some(words("movenumber=30 score=5")),
            max_plies: Some(300),
            ponder: true,
            event: "test".into(),
            ..MatchOptions::default()
        };
        let config = match_config(&options).expect("good options");
        assert_eq!(config.engines.len(), 2);
        // The first engine is named for its place and takes the match's clock.
        assert_eq!(config.engines[0].name, "engine1");
        assert_eq!(config.engines[0].command, vec!["./a"]);
        assert_eq!(config.engines[0].options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(
            config.engines[0].control,
            Some(TimeControl::Clock { moves: None, base_ms: 10_000, increment_ms: 100 })
        );
        // Its own control wins over the match's.
        assert_eq!(config.engines[1].control, Some(TimeControl::MoveTime { ms: 50 }));
        assert!(config.gauntlet);
        assert_eq!(config.openings, vec![Opening::startpos()]);
        assert_eq!((config.rounds, config.games_per_round, config.concurrency), (3, 2, 4));
        let sprt = config.sprt.expect("an SPRT");
        assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (0.0, 10.0, 0.05, 0.05));
        let settings = &config.settings;
        assert_eq!((settings.margin_ms, settings.move_timeout_ms), (100, 60_000));
        assert_eq!(settings.ready_timeout, Duration::from_secs(10));
        // Keys left out keep their defaults.
        assert_eq!(settings.resign, Some(ResignRule { score_cp: 700, moves: 3 }));
        assert_eq!(settings.draw, Some(DrawRule { after_move: 30, moves: 8, score_cp: 5 }));
        assert_eq!(settings.max_plies, Some(300));
        assert!(settings.ponder);
        assert_eq!((config.pgn, config.resume, config.event.as_str()), (None, false, "test"));
    }

    #[test]
    fn the_defaults_play_the_openings_once_without_rules() {
        let config = match_config(&two_engines()).expect("good options");
        assert_eq!(config.engines[1].control, Some(TimeControl::Depth(4)));
        assert_eq!(config.rounds, 1, "one round per opening");
        assert_eq!((config.games_per_round, config.concurrency), (2, 1));
        assert_eq!(config.settings.resign, None);
        assert_eq!(config.settings.draw, None);
        assert!(config.sprt.is_none());
        let config = match_config(&MatchOptions { nodes: Some(500), depth: None, ..two_engines() }).unwrap();
        assert_eq!(config.engines[0].control, Some(TimeControl::Nodes(500)));
        let config = match_config(&MatchOptions { movetime_ms: Some(20), depth: None, ..two_engines() }).unwrap();
        assert_eq!(config.engines[0].control, Some(TimeControl::MoveTime { ms: 20 }));
    }

    #[test]
    fn openings_come_from_their_file_and_set_the_rounds() {
        let path = temp_file("openings.txt", "h2e2 h9g7\nb2e2\nc3c4\n");
        let config = match_config(&MatchOptions { openings: Some(path.clone()), ..two_engines() }).unwrap();
        assert_eq!(config.openings.len(), 3);
        assert_eq!(config.rounds, 3);
        assert_eq!(config.openings[0].moves.len(), 2);
        let shuffled = match_config(&MatchOptions { openings: Some(path.clone()), shuffle: Some(7), ..two_engines() });
        let sorted = |openings: Vec<Opening>| {
            let mut lines: Vec<String> = openings.iter().map(|o| format!("{:?}", o.moves)).collect();
            lines.sort();
            lines
        };
        let (moves, unshuffled) = (sorted(shuffled.unwrap().openings), sorted(config.openings));
        assert_eq!(moves, unshuffled, "shuffling keeps every opening");
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn bad_openings_are_refused_with_the_file_name() {
        let missing = PathBuf::from("/nonexistent/openings.txt");
        let e = error(MatchOptions { openings: Some(missing), ..two_engines() });
        assert!(matches!(e, E::ReadOpenings { .. }), "{e:?}");
        assert!(e.to_string().starts_with("cannot read '/nonexistent/openings.txt'"), "{e}");
        let path = temp_file("bad-openings.txt", "xyzzy\n");
        let e = error(MatchOptions { openings: Some(path.clone()), ..two_engines() });
        assert!(matches!(e, E::Openings { .. }), "{e:?}");
        assert!(e.to_string().contains("bad-openings.txt") && e.to_string().contains("line 1"), "{e}");
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn time_controls_are_checked() {
        let e = error(MatchOptions { tc: Some("fast".into()), depth: None, ..two_engines() });
        assert!(matches!(e, E::Clock(_)) && e.to_string().contains("bad time control 'fast'"), "{e}");
        let e = error(MatchOptions { nodes: Some(100), ..two_engines() });
        assert!(matches!(e, E::TwoTimeControls), "{e:?}");
        let e = error(MatchOptions { depth: None, ..two_engines() });
        assert!(matches!(&e, E::NoTimeControl(name) if name == "a"), "{e:?}");
        assert_eq!(e.to_string(), "engine 'a' has no time control: give --tc, --movetime, --depth or --nodes");
        let xboard = MatchOptions {
            engines: vec![words("name=a cmd=./a"), words("name=x cmd=./x proto=xboard")],
            nodes: Some(100),
            depth: None,
            ..two_engines()
        };
        let e = error(xboard);
        assert!(matches!(&e, E::XboardNodes(name) if name == "x"), "{e:?}");
    }

    #[test]
    fn engines_are_checked() {
        let e = error(MatchOptions { engines: vec![words("cmd=./a")], ..two_engines() });
        assert!(matches!(e, E::TooFewEngines), "{e:?}");
        let e = error(MatchOptions { engines: vec![words("cmd=./a"), words("name=b")], ..two_engines() });
        assert!(matches!(e, E::NoCommand { engine: 2 }), "{e:?}");
        assert_eq!(e.to_string(), "engine 2: no cmd= given");
        let e = error(MatchOptions { engines: vec![words("cmd=./a"), words("cmd=./b proto=usi")], ..two_engines() });
        assert!(matches!(&e, E::EngineToken { engine: 2, message } if message.contains("proto=usi")), "{e:?}");
        // A bad --each token is the first engine's.
        let e = error(MatchOptions { each: words("colour=red"), ..two_engines() });
        assert!(matches!(e, E::EngineToken { engine: 1, .. }), "{e:?}");
        let e =
            error(MatchOptions { engines: vec![words("name=a cmd=./a"), words("name=a cmd=./b")], ..two_engines() });
        assert!(matches!(&e, E::SameName(name) if name == "a"), "{e:?}");
    }

    #[test]
    fn sprt_needs_two_engines_and_pairs() {
        let three = MatchOptions {
            engines: vec![words("cmd=./a"), words("cmd=./b"), words("cmd=./c")],
            sprt: Some(Vec::new()),
            ..two_engines()
        };
        assert!(matches!(error(three), E::SprtEngines));
        let single = MatchOptions { sprt: Some(Vec::new()), games_per_round: 1, ..two_engines() };
        assert!(matches!(error(single), E::SprtGames));
        let e = error(MatchOptions { sprt: Some(words("elo0=5 elo1=0")), ..two_engines() });
        assert!(matches!(&e, E::Sprt(m) if m.contains("elo0 must be below elo1")), "{e:?}");
    }

    #[test]
    fn counts_are_checked() {
        assert!(matches!(error(MatchOptions { games_per_round: 3, ..two_engines() }), E::GamesPerRound(3)));
        assert!(matches!(error(MatchOptions { games_per_round: 0, ..two_engines() }), E::GamesPerRound(0)));
        assert!(matches!(error(MatchOptions { rounds: Some(0), ..two_engines() }), E::Zero("--rounds")));
        assert!(matches!(error(MatchOptions { concurrency: 0, ..two_engines() }), E::Zero("--concurrency")));
    }

    #[test]
    fn resign_and_draw_words_are_checked() {
        let resign = |text: &str| error(MatchOptions { resign: Some(words(text)), ..two_engines() });
        let draw = |text: &str| error(MatchOptions { draw: Some(words(text)), ..two_engines() });
        let e = resign("score");
        assert!(matches!(&e, E::NotKeyValue { option: "--resign", word } if word == "score"), "{e:?}");
        assert_eq!(e.to_string(), "--resign: 'score' is not key=value");
        let e = resign("plies=3");
        assert!(matches!(&e, E::UnknownKey { option: "--resign", key, .. } if key == "plies"), "{e:?}");
        assert_eq!(e.to_string(), "--resign: unknown key 'plies' (known: score, moves)");
        let e = draw("moves=-1");
        assert!(matches!(&e, E::NotANumber { option: "--draw", word } if word == "moves=-1"), "{e:?}");
        assert!(matches!(draw("score=ten"), E::NotANumber { .. }));
        // A score beyond i32 is refused, not wrapped.
        let e = resign("score=3000000000");
        assert!(matches!(&e, E::TooLarge { option: "--resign", value } if value == "3000000000"), "{e:?}");
        assert!(matches!(draw("score=2147483648"), E::TooLarge { option: "--draw", .. }));
        // The largest score that fits is kept as it is.
        let config = match_config(&MatchOptions { draw: Some(words("score=2147483647")), ..two_engines() }).unwrap();
        assert_eq!(config.settings.draw.unwrap().score_cp, i32::MAX);
    }

    #[test]
    fn option_files_are_split_into_words() {
        let path = temp_file("options.txt", "# engines\n--engine name=a cmd=\"./a -x\"\n\n  --depth 3\n");
        let words = read_option_file(&path).expect("a good file");
        assert_eq!(words, vec!["--engine", "name=a", "cmd=./a -x", "--depth", "3"]);
        let bad = temp_file("bad-options.txt", "--depth 3\n--engine cmd=\"./a\n");
        let e = read_option_file(&bad).expect_err("an open quote");
        assert!(matches!(e, E::ConfigLine { line: 2, .. }), "{e:?}");
        assert!(e.to_string().contains("bad-options.txt, line 2: "), "{e}");
        let e = read_option_file(Path::new("/nonexistent/options.txt")).expect_err("no file");
        assert!(matches!(e, E::ReadConfig { .. }), "{e:?}");
        std::fs::remove_file(path).unwrap();
        std::fs::remove_file(bad).unwrap();
    }
}
