//! Playing below full strength, like a person: the named levels (the
//! 13-rank ladder of `rules.md`), the weak-play model, the friendly mode
//! that matches the opponent, and the memory of the game they share with
//! the resign and draw rules.
//!
//! The model (docs/levels.md): a level searches with a small node
//! budget and several principal variations, then picks one of those candidate
//! moves at random, the probability falling off with the move's score loss
//! (a softmax whose temperature grows as the level drops). Now and then it has
//! a "blind spot" and judges the candidates by a shallower iteration, so it
//! misses a tactic a few plies deep. Above 草民 a pick that leaves a piece en
//! prise (by SEE) where the best move does not, or that allows a mate in one,
//! is rejected. Every candidate comes from a real search of legal moves, so
//! no level plays an illegal or absurd move.

pub mod adaptive;
mod choose;
pub mod verdict;

pub use adaptive::GameMemory;
pub use choose::{allows_mate_in_one, exposure};

use crate::position::Position;
use crate::rng::Rng;
use crate::search::{self, Config, Iteration, Limits, Listener, Outcome, Request, Signals};
use crate::types::Move;
use crate::types::score::mated_in;
use choose::{Line, Pick};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One rank of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rank {
    pub chinese: &'static str,
    pub pinyin: &'static str,
    pub elo: i32,
}

const fn rank(chinese: &'static str, pinyin: &'static str, elo: i32) -> Rank {
    Rank { chinese, pinyin, elo }
}

/// The ladder of `rules.md`, weakest first.
pub const RANKS: [Rank; 13] = [
    rank("草民", "caomin", 0),
    rank("县丞", "xiancheng", 1100),
    rank("县令", "xianling", 1200),
    rank("都尉", "duwei", 1300),
    rank("校尉", "xiaowei", 1400),
    rank("常侍", "changshi", 1500),
    rank("中郎将", "zhonglangjiang", 1600),
    rank("太守", "taishou", 1700),
    rank("刺史", "cishi", 1800),
    rank("将军", "jiangjun", 1900),
    rank("太尉", "taiwei", 2200),
    rank("大将军", "dajiangjun", 2400),
    rank("王", "wang", 2600),
];

/// The `Level` option's value that turns limiting off.
pub const FULL_LEVEL: &str = "full";

/// The values the `Level` combo announces: ASCII only (pinyin), because some
/// GUIs mangle non-ASCII option values. The Chinese names are accepted too.
pub const LEVEL_VALUES: [&str; RANKS.len() + 1] = {
    let mut values = [FULL_LEVEL; RANKS.len() + 1];
    let mut i = 0;
    while i < RANKS.len() {
        values[i + 1] = RANKS[i].pinyin;
        i += 1;
    }
    values
};

pub const MIN_ELO: i32 = 0;
pub const MAX_ELO: i32 = 2600;
pub const DEFAULT_ELO: i32 = 1500;

/// The rank a level name stands for: pinyin (any case) or Chinese.
pub fn rank_by_name(name: &str) -> Option<Rank> {
    let name = name.trim();
    RANKS.iter().copied().find(|r| r.pinyin.eq_ignore_ascii_case(name) || r.chinese == name)
}

/// The pinyin of a Chinese level name, for the option table.
pub fn level_alias(name: &str) -> Option<&'static str> {
    RANKS.iter().find(|r| r.chinese == name.trim()).map(|r| r.pinyin)
}

/// UCCI `randomness`: extra temperature for the choice among candidates,
/// at any strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

impl Randomness {
    pub const NAMES: [&'static str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

    pub fn parse(text: &str) -> Option<Randomness> {
        let all = [Self::None, Self::Tiny, Self::Small, Self::Medium, Self::Large, Self::Huge];
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(text)).map(|i| all[i])
    }

    /// Centipawns added to the softmax temperature.
    pub fn temperature(self) -> f64 {
        match self {
            Self::None => 0.0,
            Self::Tiny => 5.0,
            Self::Small => 10.0,
            Self::Medium => 20.0,
            Self::Large => 40.0,
            Self::Huge => 80.0,
        }
    }
}

/// UCCI `style`: a small bonus or malus for sharp moves (checks, captures,
/// moves across the river) in the choice among candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Solid,
    Normal,
    Risky,
}

impl Style {
    pub const NAMES: [&'static str; 3] = ["solid", "normal", "risky"];

    pub fn parse(text: &str) -> Option<Style> {
        let all = [Style::Solid, Style::Normal, Style::Risky];
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(text)).map(|i| all[i])
    }
}

/// What the strength options say.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `UCI_LimitStrength`: play at `elo`.
    pub limit: bool,
    /// `UCI_Elo`, clamped to `MIN_ELO..=MAX_ELO`.
    pub elo: i32,
    /// `Friendly`: play at the opponent's estimated strength.
    pub friendly: bool,
    pub randomness: Randomness,
    pub style: Style,
    /// `RandomSeed`: 0 = a new seed every move; otherwise the choice is a
    /// function of this seed and the position (reproducible games and tests).
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            limit: false,
            elo: DEFAULT_ELO,
            friendly: false,
            randomness: Randomness::None,
            style: Style::Normal,
            seed: 0,
        }
    }
}

impl Settings {
    /// Whether moves go through the choice model instead of the plain search.
    pub fn active(&self) -> bool {
        self.limit || self.friendly || self.randomness != Randomness::None || self.style != Style::Normal
    }

    /// `Level`: a rank sets the rating and turns limiting on; `full` turns
    /// it off. False for an unknown name.
    pub fn set_level(&mut self, name: &str) -> bool {
        if name.trim().eq_ignore_ascii_case(FULL_LEVEL) {
            self.limit = false;
            return true;
        }
        match rank_by_name(name) {
            Some(r) => {
                self.elo = r.elo;
                self.limit = true;
                true
            }
            None => false,
        }
    }
}

/// How one move is searched and chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Node budget per move (`None`: only the `go` command's limits).
    pub nodes: Option<u64>,
    /// Candidate moves (principal variations) searched.
    pub multipv: usize,
    /// Softmax temperature in centipawns: a move losing this much is e times
    /// less likely to be picked than the best one. 0 = always the best.
    pub temperature: f64,
    /// Chance of judging the candidates by a shallower iteration.
    pub blind_chance: f64,
    /// How many plies shallower.
    pub blind_plies: i32,
    /// Reject picks that hang a piece or allow a mate in one.
    pub guard: bool,
}

/// One point of the Elo -> parameters curve; values between points are
/// interpolated (the node budget geometrically). Fitted by
/// `scripts/calibrate_levels.py` (docs/levels.md, "Calibration").
struct Anchor {
    elo: i32,
    nodes: u64,
    temperature: f64,
    blind_chance: f64,
}

const ANCHORS: [Anchor; 8] = [
    Anchor { elo: 0, nodes: 60, temperature: 400.0, blind_chance: 0.6 },
    // Round 8 (docs/levels.md, "Calibration"): round 6's curve (64 games a pairing)
    // and round 7's (32) measured against the pinned references, pooled as
    // points of one strength function along round 6's curve (a weighted
    // quadratic), inverted; 1300 then back near round 6's point, which the
    // replay showed right. 1100 keeps its node budget and temperature,
    // which the levels test needs (a hotter choice or fewer nodes left a
    // piece hanging), and is weakened by blind spots alone.
    Anchor { elo: 1100, nodes: 1410, temperature: 98.2, blind_chance: 0.40 },
    Anchor { elo: 1200, nodes: 1442, temperature: 96.1, blind_chance: 0.278 },
    Anchor { elo: 1300, nodes: 1760, temperature: 80.0, blind_chance: 0.257 },
    Anchor { elo: 1500, nodes: 2415, temperature: 64.4, blind_chance: 0.227 },
    Anchor { elo: 1900, nodes: 4947, temperature: 46.3, blind_chance: 0.164 },
    Anchor { elo: 2200, nodes: 8370, temperature: 35.4, blind_chance: 0.124 },
    Anchor { elo: 2600, nodes: 16_956, temperature: 24.7, blind_chance: 0.083 },
];

/// Candidates per move for a limited level, and at full strength.
const LEVEL_MULTIPV: usize = 6;
const BEGINNER_MULTIPV: usize = 8;
const FULL_MULTIPV: usize = 4;
const BLIND_PLIES: i32 = 2;
/// Below this rating (the 草民 band) the hanging-piece guard is off and the
/// level looks at more candidates.
const GUARD_MIN_ELO: i32 = 1000;

impl Params {
    pub fn for_elo(elo: i32) -> Params {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let i = ANCHORS.iter().rposition(|a| a.elo <= elo).unwrap_or(0).min(ANCHORS.len() - 2);
        let (a, b) = (&ANCHORS[i], &ANCHORS[i + 1]);
        let t = ((elo - a.elo) as f64 / (b.elo - a.elo) as f64).clamp(0.0, 1.0);
        let lerp = |x: f64, y: f64| x + (y - x) * t;
        let nodes = ((a.nodes as f64).ln() + ((b.nodes as f64).ln() - (a.nodes as f64).ln()) * t).exp();
        Params {
            nodes: Some(nodes.round() as u64),
            multipv: if elo < GUARD_MIN_ELO { BEGINNER_MULTIPV } else { LEVEL_MULTIPV },
            temperature: lerp(a.temperature, b.temperature),
            blind_chance: lerp(a.blind_chance, b.blind_chance),
            blind_plies: BLIND_PLIES,
            guard: elo >= GUARD_MIN_ELO,
        }
    }

    /// Full strength with a choice (randomness or style): the `go` limits,
    /// no blind spots.
    pub fn full() -> Params {
        Params {
            nodes: None,
            multipv: FULL_MULTIPV,
            temperature: 0.0,
            blind_chance: 0.0,
            blind_plies: BLIND_PLIES,
            guard: true,
        }
    }
}

/// The generator for one move's choice: a function of `RandomSeed` and the
/// position, or of the clock when the seed is 0.
fn rng_for(settings: &Settings, root: &Position) -> Rng {
    if settings.seed != 0 {
        return Rng::new(settings.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ root.key());
    }
    Rng::from_time()
}

/// Collects the completed iterations of the inner search, by depth. At full
/// strength (randomness or style only) it also passes the search's output
/// on, so analysis still shows its lines; a limited level shows only the
/// move it plays.
struct Collector<'a> {
    lines: Mutex<BTreeMap<i32, Vec<Line>>>,
    last: Mutex<Option<Iteration>>,
    forward: Option<&'a dyn Listener>,
}

impl Listener for Collector<'_> {
    fn iteration(&self, it: &Iteration) {
        if let Some(l) = self.forward {
            l.iteration(it);
        }
        if it.bound.is_some() {
            return;
        }
        let Some(&mv) = it.pv.first() else { return };
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        let at_depth = lines.entry(it.depth).or_default();
        at_depth.retain(|l| l.mv != mv);
        at_depth.push(Line { mv, score: it.score, pv: it.pv.clone() });
        at_depth.sort_by_key(|l| std::cmp::Reverse(l.score));
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(it.clone());
    }
    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        if let Some(l) = self.forward {
            l.current_move(depth, mv, number);
        }
    }
    fn best_move(&self, _: Option<Move>, _: Option<Move>, _: i32) {}
}

/// Everything `play` needs besides the search's own inputs.
pub struct PlayContext<'a> {
    pub settings: &'a Settings,
    pub memory: &'a Mutex<GameMemory>,
}

/// Searches the position at the end of `game` and answers with a move
/// chosen by the strength model. Like `search::search`, it reports to
/// `listener` and ends with exactly one `best_move` call; in ponder and
/// infinite mode the answer waits for `ponderhit` / `stop`.
pub fn play(request: Request, cx: &PlayContext) -> Outcome {
    let Request { game, limits, config, searcher, signals, listener } = request;
    let tt = &searcher.tt;
    let start = Instant::now();
    let (_, root) = game.replay();
    let settings = cx.settings;

    // 1. The rating to play at: the friendly estimate, the option, or none.
    let elo = if settings.friendly {
        let allowance = adaptive::judging_allowance(limits);
        let estimate = adaptive::estimate(cx.memory, searcher, settings.elo, allowance, signals);
        listener.message(&estimate.describe());
        Some(estimate.playing_elo)
    } else {
        settings.limit.then_some(settings.elo)
    };
    let mut params = elo.map_or_else(Params::full, Params::for_elo);
    params.temperature += settings.randomness.temperature();

    // 2. The inner search: MultiPV, the level's node budget, one thread and
    // the hand-crafted evaluation for a limited level (reproducible with a
    // seed; the ranks were calibrated with that evaluation, docs/levels.md).
    let mut inner_limits = limits.clone();
    if let Some(n) = params.nodes {
        inner_limits.nodes = Some(limits.nodes.map_or(n, |l| l.min(n)));
    }
    let inner_config = Config {
        threads: if elo.is_some() { 1 } else { config.threads },
        multipv: params.multipv,
        move_overhead_ms: config.move_overhead_ms,
        nnue: if elo.is_some() { None } else { config.nnue.clone() },
        params: config.params,
    };
    let collector =
        Collector { lines: Mutex::default(), last: Mutex::default(), forward: elo.is_none().then_some(listener) };
    let inner =
        relayed_search(Request { limits: &inner_limits, config: &inner_config, listener: &collector, ..request });
    let Some(search_best) = inner.best else {
        wait_while_told_to(limits, signals);
        listener.best_move(None, None, mated_in(0));
        return inner;
    };

    // 3. The choice.
    let lines = collector.lines.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut rng = rng_for(settings, &root);
    let pick = choose::choose(&root, &lines, &params, settings.style, &mut rng).unwrap_or_else(|| Pick {
        line: Line { mv: search_best, score: inner.score, pv: vec![search_best] },
        depth: inner.depth,
        judged_score: inner.score,
    });
    log::debug!("strength: {pick:?} from {} depths, params {params:?}", lines.len());

    // 4. One info line for the move played, then the answer.
    let last = collector.last.into_inner().unwrap_or_else(|e| e.into_inner());
    let elapsed = start.elapsed();
    listener.iteration(&Iteration {
        depth: pick.depth.max(1),
        seldepth: last.as_ref().map_or(1, |l| l.seldepth),
        multipv: 1,
        score: pick.line.score,
        bound: None,
        nodes: inner.nodes,
        nps: if elapsed.as_secs_f64() > 0.0 { (inner.nodes as f64 / elapsed.as_secs_f64()) as u64 } else { 0 },
        hashfull: tt.hashfull(),
        time_ms: elapsed.as_millis() as u64,
        pv: pick.line.pv.clone(),
    });
    wait_while_told_to(limits, signals);
    let ponder = pick.line.pv.get(1).copied();
    listener.best_move(Some(pick.line.mv), ponder, pick.judged_score);
    Outcome { best: Some(pick.line.mv), ponder, score: pick.judged_score, depth: pick.depth, nodes: inner.nodes }
}

/// Runs the inner search with its own signals, so that its node budget does
/// not end the outer search's ponder or infinite wait; `stop` and
/// `ponderhit` from the GUI are passed on.
fn relayed_search(request: Request) -> Outcome {
    let (limits, outer, listener) = (request.limits, request.signals, request.listener);
    let inner = Signals::default();
    inner.pondering.store(limits.ponder && outer.pondering.load(Ordering::Acquire), Ordering::Relaxed);
    let done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        let relay = std::thread::Builder::new().name("relay".to_string()).spawn_scoped(scope, || {
            while !done.load(Ordering::Acquire) {
                if outer.stop.load(Ordering::Relaxed) {
                    inner.stop.store(true, Ordering::Relaxed);
                }
                if inner.pondering.load(Ordering::Acquire) && !outer.pondering.load(Ordering::Acquire) {
                    inner.ponderhit(start);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        if let Err(e) = relay {
            // No relay: the GUI's `stop` and `ponderhit` reach the search
            // directly (its node budget may then end a ponder early).
            listener.message(&format!("could not start a thread ({e}); searching without the relay"));
            return search::search(request);
        }
        let outcome = search::search(Request { signals: &inner, ..request });
        done.store(true, Ordering::Release);
        outcome
    })
}

/// In infinite and ponder mode the answer waits for `stop` (or `ponderhit`).
fn wait_while_told_to(limits: &Limits, signals: &Signals) {
    while (limits.infinite || signals.pondering.load(Ordering::Acquire)) && !signals.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_is_found_by_both_names_and_the_ladder_rises() {
        for (i, r) in RANKS.iter().enumerate() {
            assert_eq!(rank_by_name(r.chinese), Some(*r));
            assert_eq!(rank_by_name(&r.pinyin.to_uppercase()), Some(*r));
            assert_eq!(level_alias(r.chinese), Some(r.pinyin));
            assert_eq!(LEVEL_VALUES[i + 1], r.pinyin);
            assert!(r.pinyin.is_ascii());
            if i > 0 {
                assert!(r.elo > RANKS[i - 1].elo);
            }
        }
        assert_eq!(rank_by_name("emperor"), None);
    }

    #[test]
    fn levels_set_the_rating_and_full_turns_limiting_off() {
        let mut s = Settings::default();
        assert!(!s.active());
        assert!(s.set_level("太守"));
        assert_eq!((s.limit, s.elo), (true, 1700));
        assert!(s.set_level("wang"));
        assert_eq!(s.elo, 2600);
        assert!(s.set_level("FULL"));
        assert!(!s.limit && !s.active());
        assert!(!s.set_level("nobody"));
    }

    #[test]
    fn params_weaken_steadily_as_the_rating_drops() {
        let mut last = Params::for_elo(MAX_ELO);
        for elo in (MIN_ELO..MAX_ELO).rev().step_by(50) {
            let p = Params::for_elo(elo);
            assert!(p.nodes <= last.nodes, "{elo}");
            assert!(p.temperature >= last.temperature && p.blind_chance >= last.blind_chance, "{elo}");
            last = p;
        }
        assert!(!Params::for_elo(0).guard && Params::for_elo(1100).guard);
        assert_eq!(Params::for_elo(-5), Params::for_elo(0));
    }
}
