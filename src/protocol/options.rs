//! Every option, declared once: its names in each dialect, its type and
//! range, and what setting it does. Both the handshake lines and `setoption`
//! come from this table.

use super::Session;
use super::parse::clip;
use crate::search::params::{self, ParamSpec};
use crate::strength::verdict::ResignMode;
use crate::strength::{self, Randomness, Style};

#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Check(bool),
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: &'static str, values: &'static [&'static str] },
    Button,
    Text(&'static str),
}

pub struct EngineOption {
    pub uci_name: Option<&'static str>,
    pub ucci_name: Option<&'static str>,
    pub kind: OptionKind,
    /// Applies a validated value ("true"/"false", a number in range, a combo
    /// value, the text, or "" for a button).
    apply: fn(&mut Session, &str),
}

impl EngineOption {
    pub fn uci_line(&self) -> String {
        let name = self.uci_name.unwrap_or_default();
        match self.kind {
            OptionKind::Check(d) => format!("option name {name} type check default {d}"),
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, values } => {
                format!("option name {name} type combo default {default} {}", combo_vars(default, values))
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::Text(d) => {
                format!("option name {name} type string default {}", if d.is_empty() { "<empty>" } else { d })
            }
        }
    }

    pub fn ucci_line(&self) -> String {
        let name = self.ucci_name.unwrap_or_default();
        match self.kind {
            OptionKind::Check(d) => format!("option {name} type check default {d}"),
            OptionKind::Spin { default, min, max } => {
                format!("option {name} type spin min {min} max {max} default {default}")
            }
            OptionKind::Combo { default, values } => {
                format!("option {name} type combo {} default {default}", combo_vars(default, values))
            }
            OptionKind::Button => format!("option {name} type button"),
            OptionKind::Text(d) => {
                format!("option {name} type string default {}", if d.is_empty() { "<empty>" } else { d })
            }
        }
    }

    /// Whether the UCCI handshake announces it. cchess reads a handshake at
    /// about one line per 0.2 s (slower on a loaded machine) and gives up
    /// after 10 s, so UCCI lists the everyday options only; the rest (docs/protocols.md,
    /// "Options") stay settable by name.
    pub fn ucci_listed(&self) -> bool {
        self.ucci_name.is_some_and(|n| !UCCI_UNLISTED.contains(&n))
    }

    /// Whether the UCI handshake announces it: all but the draw and resign
    /// fine-tuning, which in UCI only words an `info string` hint.
    pub fn uci_listed(&self) -> bool {
        self.uci_name.is_some_and(|n| !UCI_UNLISTED.contains(&n))
    }

    fn matches(&self, name: &str) -> bool {
        [self.uci_name, self.ucci_name].iter().flatten().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// The `var` list with the default first: XBoard's UCI/UCCI adapter does
/// not read `default` for combos and takes the first value as the default.
fn combo_vars(default: &str, values: &[&str]) -> String {
    let rest = values.iter().filter(|&&v| v != default);
    let vars: Vec<String> = std::iter::once(&default).chain(rest).map(|v| format!("var {v}")).collect();
    vars.join(" ")
}

fn threads(s: &mut Session, v: &str) {
    s.engine.set_threads(v.parse().unwrap_or(1));
}
fn hash(s: &mut Session, v: &str) {
    let wanted: usize = v.parse().unwrap_or(crate::engine::DEFAULT_HASH_MB);
    // The table we replace is freed before the new one is made.
    let mb = match available_memory_mb().map(|free| free + s.engine.hash_mb()) {
        // Allocating more than the machine has would abort the process.
        Some(avail) if wanted > avail / 2 => {
            let fits = prev_power_of_two((avail / 2).max(1));
            s.out.line(&format!(
                "info string hash {wanted} MB does not fit in the {avail} MB of memory available; using {fits} MB"
            ));
            fits
        }
        _ => wanted,
    };
    s.engine.set_hash_mb(mb);
    // The system may still refuse (a ulimit on address space, say): the
    // table then halves until it is given, and the GUI is told.
    let got = s.engine.hash_mb();
    if got < mb.min(crate::engine::MAX_HASH_MB) {
        s.out.line(&format!("info string hash {mb} MB could not be allocated; using {got} MB"));
    }
}

fn prev_power_of_two(n: usize) -> usize {
    if n.is_power_of_two() { n } else { n.next_power_of_two() / 2 }
}

/// Free memory in MB where the system says (Linux), else `None`: the
/// machine's available memory, or less where the process's control group
/// (a container's memory limit) leaves less. Pages beyond a group's limit
/// are not refused when allocated but kill the process when touched.
fn available_memory_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    let machine = kb / 1024;
    Some(cgroup_room_mb().map_or(machine, |room| room.min(machine)))
}

/// What the memory control group of this process has left, in MB, if it
/// has a limit: cgroup v2 (`memory.max`, `memory.current`) or v1
/// (`memory.limit_in_bytes`, `memory.usage_in_bytes`).
fn cgroup_room_mb() -> Option<usize> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read = |path: String| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    for line in groups.lines() {
        // `0::/path` (v2) or `4:memory:/path` (v1).
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (dir, limit, usage) = match controllers {
            "" => (format!("/sys/fs/cgroup{path}"), "memory.max", "memory.current"),
            c if c.split(',').any(|c| c == "memory") => {
                (format!("/sys/fs/cgroup/memory{path}"), "memory.limit_in_bytes", "memory.usage_in_bytes")
            }
            _ => continue,
        };
        // "max" (v2) does not parse: no limit. v1 says "no limit" with a
        // number near u64::MAX, which the `min` with the machine absorbs.
        if let (Some(limit), Some(usage)) = (read(format!("{dir}/{limit}")), read(format!("{dir}/{usage}"))) {
            return Some((limit.saturating_sub(usage) / (1024 * 1024)).min(usize::MAX as u64) as usize);
        }
    }
    None
}
fn clear_hash(s: &mut Session, _: &str) {
    s.engine.clear_hash();
}
fn ponder(s: &mut Session, v: &str) {
    s.ponder = v == "true";
}
fn multipv(s: &mut Session, v: &str) {
    s.engine.set_multipv(v.parse().unwrap_or(1));
}
fn overhead(s: &mut Session, v: &str) {
    s.engine.set_move_overhead_ms(v.parse().unwrap_or(30));
}
fn show_wdl(s: &mut Session, v: &str) {
    s.show_wdl = v == "true";
}
fn millisec(s: &mut Session, v: &str) {
    s.use_millisec = v == "true";
}
fn debug(s: &mut Session, v: &str) {
    s.debug = v == "true";
}
fn new_game(s: &mut Session, _: &str) {
    s.engine.new_game();
}
fn draw_offers(s: &mut Session, v: &str) {
    s.policy.draws = v == "true";
}
fn resign(s: &mut Session, v: &str) {
    s.policy.resign = v == "true";
}
fn resign_mode(s: &mut Session, v: &str) {
    s.policy.resign_mode = ResignMode::parse(v).unwrap_or(ResignMode::Mated);
}
fn resign_score(s: &mut Session, v: &str) {
    s.policy.resign_score = v.parse().unwrap_or(crate::strength::verdict::RESIGN_SCORE);
}
fn resign_moves(s: &mut Session, v: &str) {
    s.policy.resign_moves = v.parse().unwrap_or(crate::strength::verdict::RESIGN_MOVES);
}
fn draw_accept_score(s: &mut Session, v: &str) {
    s.policy.accept_score = v.parse().unwrap_or(crate::strength::verdict::DRAW_ACCEPT_SCORE);
}
fn draw_offer_plies(s: &mut Session, v: &str) {
    s.policy.offer_plies = v.parse().unwrap_or(crate::strength::verdict::DRAW_OFFER_PLIES);
}
fn draw_offer_score(s: &mut Session, v: &str) {
    s.policy.offer_score = v.parse().unwrap_or(crate::strength::verdict::DRAW_OFFER_SCORE);
}
fn limit_strength(s: &mut Session, v: &str) {
    s.engine.strength_mut().limit = v == "true";
}
fn elo(s: &mut Session, v: &str) {
    s.engine.strength_mut().elo = v.parse().unwrap_or(strength::DEFAULT_ELO);
}
/// A rank sets `UCI_Elo` and turns limiting on; `full` turns it off.
fn level(s: &mut Session, v: &str) {
    s.engine.strength_mut().set_level(v);
}
fn friendly(s: &mut Session, v: &str) {
    s.engine.strength_mut().friendly = v == "true";
}
fn randomness(s: &mut Session, v: &str) {
    s.engine.strength_mut().randomness = Randomness::parse(v).unwrap_or(Randomness::None);
}
fn style(s: &mut Session, v: &str) {
    s.engine.strength_mut().style = Style::parse(v).unwrap_or(Style::Normal);
}
fn random_seed(s: &mut Session, v: &str) {
    s.engine.strength_mut().seed = v.parse().unwrap_or(0);
}
fn own_book(s: &mut Session, v: &str) {
    s.engine.set_own_book(v == "true");
}
fn book_file(s: &mut Session, v: &str) {
    match s.engine.set_book_files(v) {
        Ok(Some(summary)) => s.out.info(&format!("book: {summary}")),
        Ok(None) => {}
        Err(e) => s.out.info(&format!("book: {e}")),
    }
}
fn best_book_move(s: &mut Session, v: &str) {
    s.engine.set_best_book_move(v == "true");
}
fn use_nnue(s: &mut Session, v: &str) {
    s.engine.set_use_nnue(v == "true");
}
fn eval_file(s: &mut Session, v: &str) {
    match s.engine.set_eval_file(v) {
        Ok(summary) => s.out.info(&format!("EvalFile: {summary}")),
        Err(e) => s.out.info(&format!("EvalFile: {e}")),
    }
}
/// Accepted so GUIs can set it; it does not change play (see docs/protocols.md, "Options").
fn accepted(_: &mut Session, _: &str) {}

/// UCCI options that work but are not announced (see `ucci_listed`).
const UCCI_UNLISTED: &[&str] = &[
    "batch",
    "drawoffers",
    "resign",
    "bestbookmove",
    "limitstrength",
    "elo",
    "friendly",
    "randomseed",
    "resignmode",
    "resignscore",
    "resignmoves",
    "drawacceptscore",
    "drawofferplies",
    "drawofferscore",
    "usennue",
    "evalfile",
];

/// UCI options that work but are not announced (see `uci_listed`).
const UCI_UNLISTED: &[&str] =
    &["ResignMode", "ResignScore", "ResignMoves", "DrawAcceptScore", "DrawOfferPlies", "DrawOfferScore"];

pub static OPTIONS: &[EngineOption] = &[
    EngineOption {
        uci_name: Some("Threads"),
        ucci_name: Some("threads"),
        kind: OptionKind::Spin { default: 1, min: 1, max: 1024 },
        apply: threads,
    },
    EngineOption {
        uci_name: Some("Hash"),
        ucci_name: Some("hashsize"),
        kind: OptionKind::Spin { default: 16, min: 1, max: 65536 },
        apply: hash,
    },
    EngineOption { uci_name: Some("Clear Hash"), ucci_name: None, kind: OptionKind::Button, apply: clear_hash },
    EngineOption { uci_name: Some("Ponder"), ucci_name: Some("ponder"), kind: OptionKind::Check(false), apply: ponder },
    EngineOption {
        uci_name: Some("MultiPV"),
        ucci_name: None,
        kind: OptionKind::Spin { default: 1, min: 1, max: 128 },
        apply: multipv,
    },
    EngineOption {
        uci_name: Some("Move Overhead"),
        ucci_name: None,
        kind: OptionKind::Spin { default: 30, min: 0, max: 5000 },
        apply: overhead,
    },
    EngineOption { uci_name: Some("UCI_ShowWDL"), ucci_name: None, kind: OptionKind::Check(false), apply: show_wdl },
    EngineOption { uci_name: None, ucci_name: Some("usemillisec"), kind: OptionKind::Check(false), apply: millisec },
    EngineOption { uci_name: None, ucci_name: Some("batch"), kind: OptionKind::Check(false), apply: accepted },
    EngineOption { uci_name: None, ucci_name: Some("debug"), kind: OptionKind::Check(false), apply: debug },
    EngineOption { uci_name: None, ucci_name: Some("newgame"), kind: OptionKind::Button, apply: new_game },
    EngineOption {
        uci_name: Some("OwnBook"),
        ucci_name: Some("usebook"),
        kind: OptionKind::Check(false),
        apply: own_book,
    },
    EngineOption {
        uci_name: Some("BookFile"),
        ucci_name: Some("bookfiles"),
        kind: OptionKind::Text(""),
        apply: book_file,
    },
    EngineOption {
        uci_name: Some("Best Book Move"),
        ucci_name: Some("bestbookmove"),
        kind: OptionKind::Check(false),
        apply: best_book_move,
    },
    EngineOption {
        uci_name: Some("Randomness"),
        ucci_name: Some("randomness"),
        kind: OptionKind::Combo { default: "none", values: &Randomness::NAMES },
        apply: randomness,
    },
    EngineOption {
        uci_name: Some("Style"),
        ucci_name: Some("style"),
        kind: OptionKind::Combo { default: "normal", values: &Style::NAMES },
        apply: style,
    },
    EngineOption { uci_name: None, ucci_name: Some("drawoffers"), kind: OptionKind::Check(true), apply: draw_offers },
    EngineOption { uci_name: None, ucci_name: Some("resign"), kind: OptionKind::Check(true), apply: resign },
    // The evaluation (docs/training.md, "The network").
    EngineOption {
        uci_name: Some("Use NNUE"),
        ucci_name: Some("usennue"),
        kind: OptionKind::Check(true),
        apply: use_nnue,
    },
    EngineOption {
        uci_name: Some("EvalFile"),
        ucci_name: Some("evalfile"),
        kind: OptionKind::Text("<default>"),
        apply: eval_file,
    },
    // Strength levels (docs/levels.md).
    EngineOption {
        uci_name: Some("UCI_LimitStrength"),
        ucci_name: Some("limitstrength"),
        kind: OptionKind::Check(false),
        apply: limit_strength,
    },
    EngineOption {
        uci_name: Some("UCI_Elo"),
        ucci_name: Some("elo"),
        kind: OptionKind::Spin { default: strength::DEFAULT_ELO as i64, min: 0, max: strength::MAX_ELO as i64 },
        apply: elo,
    },
    EngineOption {
        uci_name: Some("Level"),
        ucci_name: Some("level"),
        kind: OptionKind::Combo { default: strength::FULL_LEVEL, values: &strength::LEVEL_VALUES },
        apply: level,
    },
    EngineOption {
        uci_name: Some("Friendly"),
        ucci_name: Some("friendly"),
        kind: OptionKind::Check(false),
        apply: friendly,
    },
    EngineOption {
        uci_name: Some("RandomSeed"),
        ucci_name: Some("randomseed"),
        kind: OptionKind::Spin { default: 0, min: 0, max: 2_147_483_647 },
        apply: random_seed,
    },
    // Draw and resign behaviour (docs/protocols.md, "Draws and resigning").
    EngineOption {
        uci_name: Some("ResignMode"),
        ucci_name: Some("resignmode"),
        kind: OptionKind::Combo { default: "mated", values: &ResignMode::NAMES },
        apply: resign_mode,
    },
    EngineOption {
        uci_name: Some("ResignScore"),
        ucci_name: Some("resignscore"),
        kind: OptionKind::Spin { default: crate::strength::verdict::RESIGN_SCORE as i64, min: -10_000, max: -50 },
        apply: resign_score,
    },
    EngineOption {
        uci_name: Some("ResignMoves"),
        ucci_name: Some("resignmoves"),
        kind: OptionKind::Spin { default: crate::strength::verdict::RESIGN_MOVES as i64, min: 1, max: 100 },
        apply: resign_moves,
    },
    EngineOption {
        uci_name: Some("DrawAcceptScore"),
        ucci_name: Some("drawacceptscore"),
        kind: OptionKind::Spin { default: crate::strength::verdict::DRAW_ACCEPT_SCORE as i64, min: -1000, max: 1000 },
        apply: draw_accept_score,
    },
    EngineOption {
        uci_name: Some("DrawOfferPlies"),
        ucci_name: Some("drawofferplies"),
        kind: OptionKind::Spin { default: crate::strength::verdict::DRAW_OFFER_PLIES as i64, min: 0, max: 120 },
        apply: draw_offer_plies,
    },
    EngineOption {
        uci_name: Some("DrawOfferScore"),
        ucci_name: Some("drawofferscore"),
        kind: OptionKind::Spin { default: crate::strength::verdict::DRAW_OFFER_SCORE as i64, min: 0, max: 1000 },
        apply: draw_offer_score,
    },
];

/// Whether the handshakes announce the tunable search constants too
/// (`CHARIOT_TUNE=1` in the environment, for tuning tools). They are
/// always settable by name; GUIs are not shown them.
pub fn search_params_listed() -> bool {
    std::env::var_os("CHARIOT_TUNE").is_some_and(|v| v == "1")
}

/// A tunable search constant as a spin option of the handshake.
fn search_param_option(spec: &ParamSpec) -> EngineOption {
    EngineOption {
        uci_name: Some(spec.name),
        ucci_name: Some(spec.name),
        kind: OptionKind::Spin { default: spec.default.into(), min: spec.min.into(), max: spec.max.into() },
        apply: accepted,
    }
}

/// The handshake lines of the tunable search constants.
pub fn search_param_lines(ucci: bool) -> Vec<String> {
    params::PARAMS.iter().map(search_param_option).map(|o| if ucci { o.ucci_line() } else { o.uci_line() }).collect()
}

/// `setoption` of a tunable search constant: a whole number in its range.
fn set_search_param(s: &mut Session, spec: &ParamSpec, value: &str) {
    let result = match value.trim().parse::<i32>() {
        Ok(n) => s.engine.set_search_param(spec.name, n),
        Err(_) => Err(format!("option '{}' needs a number, got '{}'", spec.name, clip(value.trim()))),
    };
    if let Err(e) = result {
        s.out.info(&format!("{e}; unchanged"));
    }
}

/// Handles `setoption`: finds the option by either name, validates the
/// value, applies it, or says what is wrong.
pub fn set(s: &mut Session, name: &str, value: Option<&str>) {
    let Some(opt) = OPTIONS.iter().find(|o| o.matches(name)) else {
        match params::find_param(name) {
            Some(spec) => set_search_param(s, spec, value.unwrap_or("")),
            None => s.out.info(&format!("unknown option '{}'", clip(name))),
        }
        return;
    };
    let value = value.unwrap_or("").trim();
    let checked: Result<String, String> = match opt.kind {
        OptionKind::Check(_) => match value.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => Ok("true".into()),
            "false" | "off" | "0" => Ok("false".into()),
            _ => Err(format!("option '{name}' needs true or false, got '{}'", clip(value))),
        },
        OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            Ok(n) => Err(format!("option '{name}' value {n} is outside {min}..{max}")),
            Err(_) => Err(format!("option '{name}' needs a number, got '{}'", clip(value))),
        },
        // `Level` announces pinyin values and accepts the Chinese names too.
        OptionKind::Combo { values, .. } => match values
            .iter()
            .find(|v| v.eq_ignore_ascii_case(value))
            .or_else(|| strength::level_alias(value).and_then(|alias| values.iter().find(|&&v| v == alias)))
        {
            Some(v) => Ok(v.to_string()),
            None => Err(format!("option '{name}' needs one of {}, got '{}'", values.join(", "), clip(value))),
        },
        OptionKind::Button => Ok(String::new()),
        OptionKind::Text(_) => Ok(value.to_string()),
    };
    match checked {
        Ok(v) => (opt.apply)(s, &v),
        Err(e) => s.out.info(&format!("{e}; unchanged")),
    }
}
