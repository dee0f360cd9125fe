//! A whole match: the schedule (gauntlet or round robin, each opening
//! played with colours reversed), N games at once, results as they come,
//! PGN written game by game, the SPRT, and resuming from the PGN.

use super::clock::TimeControl;
use super::game::{Game, GameSettings, Opening, Player, play_game};
use super::pgn::{self, MatchTags};
use super::process::EngineProcess;
use super::spec::EngineSpec;
use super::stats::{Sprt, SprtDecision, Tally};
use crate::rules::GameResult;
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines; each has its time control set.
    pub engines: Vec<EngineSpec>,
    /// The first engine plays every other one; otherwise every engine
    /// plays every other (round robin).
    pub gauntlet: bool,
    pub openings: Vec<Opening>,
    /// Each pairing plays this many rounds: a round is one opening played
    /// `games_per_round` times (2: colours reversed).
    pub rounds: usize,
    pub games_per_round: usize,
    pub concurrency: usize,
    pub settings: GameSettings,
    /// Only with two engines.
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    /// Go on with the games of `pgn` counted as played.
    pub resume: bool,
    pub event: String,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// From 1, in schedule order (the PGN `Round` tag).
    pub number: usize,
    /// Index into [`pairings`].
    pub pairing: usize,
    pub round: usize,
    pub red: usize,
    pub black: usize,
    pub opening: usize,
}

/// The pairs of engine indices that play each other.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect()
    }
}

/// Every game of the match, in order: round by round, pairing by pairing,
/// the two colours of an opening one after the other.
pub fn schedule(config: &MatchConfig) -> Vec<Scheduled> {
    let pairs = pairings(config.engines.len(), config.gauntlet);
    let mut games = Vec::new();
    for round in 0..config.rounds {
        let opening = round % config.openings.len().max(1);
        for (pairing, &(first, second)) in pairs.iter().enumerate() {
            for g in 0..config.games_per_round {
                let (red, black) = if g % 2 == 0 { (first, second) } else { (second, first) };
                games.push(Scheduled { number: games.len() + 1, pairing, round, red, black, opening });
            }
        }
    }
    games
}

/// The results of one pairing.
#[derive(Clone, Debug)]
pub struct PairingResult {
    pub first: usize,
    pub second: usize,
    /// From `first`'s view.
    pub tally: Tally,
}

/// The state of a match: what [`run`] reports as it goes and at the end.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub engines: Vec<String>,
    pub pairings: Vec<PairingResult>,
    pub total_games: usize,
    pub finished_games: usize,
    /// Games taken from the PGN of an earlier run.
    pub resumed_games: usize,
    pub sprt: Option<Sprt>,
    pub sprt_decision: Option<SprtDecision>,
    /// The games counted when the SPRT decided. The decision stands: the
    /// games under way then are finished and counted, and may move the LLR
    /// back inside its bounds.
    pub sprt_decided_after: Option<usize>,
    /// Half points of the first engine of each unfinished pair, by
    /// (round, pairing).
    open_pairs: HashMap<(usize, usize), Vec<u8>>,
    games_per_round: usize,
}

impl MatchReport {
    fn new(config: &MatchConfig, total_games: usize) -> MatchReport {
        let pairings = pairings(config.engines.len(), config.gauntlet)
            .into_iter()
            .map(|(first, second)| PairingResult { first, second, tally: Tally::default() })
            .collect();
        MatchReport {
            engines: config.engines.iter().map(|e| e.name.clone()).collect(),
            pairings,
            total_games,
            finished_games: 0,
            resumed_games: 0,
            sprt: config.sprt,
            sprt_decision: None,
            sprt_decided_after: None,
            open_pairs: HashMap::new(),
            games_per_round: config.games_per_round,
        }
    }

    /// Counts a finished game.
    fn add(&mut self, game: &Scheduled, result: GameResult) {
        self.finished_games += 1;
        let pairing = &mut self.pairings[game.pairing];
        let first_is_red = game.red == pairing.first;
        let half_points = match (result, first_is_red) {
            (GameResult::RedWins, true) | (GameResult::BlackWins, false) => 2,
            (GameResult::Draw, _) | (GameResult::Ongoing, _) => 1,
            _ => 0,
        };
        pairing.tally.add_game(half_points);
        let open = self.open_pairs.entry((game.round, game.pairing)).or_default();
        open.push(half_points);
        if open.len() == 2 && self.games_per_round == 2 {
            let sum = open[0] + open[1];
            self.open_pairs.remove(&(game.round, game.pairing));
            self.pairings[game.pairing].tally.add_pair(sum);
        }
        if let Some(sprt) = self.sprt
            && self.sprt_decided_after.is_none()
        {
            let decision = sprt.decision(&self.pairings[0].tally);
            if decision != SprtDecision::Continue {
                self.sprt_decided_after = Some(self.finished_games);
            }
            self.sprt_decision = Some(decision);
        }
    }

    /// One line on the state of the match.
    pub fn status_line(&self) -> String {
        let mut line = format!("{}/{} games", self.finished_games, self.total_games);
        for p in self.pairings.iter().take(3) {
            let t = &p.tally;
            let (elo, low, high) = t.elo();
            line.push_str(&format!(
                ", {} vs {} +{} ={} -{} Elo {} [{}, {}]",
                self.engines[p.first],
                self.engines[p.second],
                t.wins,
                t.draws,
                t.losses,
                signed(elo),
                signed(low),
                signed(high)
            ));
        }
        if let Some(sprt) = self.sprt {
            let (lower, upper) = sprt.bounds();
            line.push_str(&format!(", LLR {:.2} [{lower:.2}, {upper:.2}]", sprt.llr(&self.pairings[0].tally)));
        }
        line
    }

    /// The result table (and the SPRT verdict), for stdout.
    pub fn table(&self) -> String {
        let width = self.engines.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
        let mut out = format!(
            "{:<w$}  {:<w$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>7}  {:>15}  {:>6}  {:>6}  pairs LL LD DD WD WW\n",
            "engine",
            "opponent",
            "games",
            "W",
            "D",
            "L",
            "score",
            "Elo",
            "95% interval",
            "LOS",
            "nElo",
            w = width
        );
        for p in &self.pairings {
            let t = &p.tally;
            let (elo, low, high) = t.elo();
            let interval = format!("{}..{}", signed(low), signed(high));
            let pairs = t.pairs.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ");
            out.push_str(&format!(
                "{:<w$}  {:<w$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>5.1}%  {:>7}  {:>15}  {:>5.1}%  {:>6}  {pairs}\n",
                self.engines[p.first],
                self.engines[p.second],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                signed(elo),
                interval,
                100.0 * t.los(),
                t.normalized_elo().map_or("-".to_string(), signed),
                w = width
            ));
        }
        if self.pairings.len() > 1 {
            out.push_str(&self.standings());
        }
        if let Some(sprt) = self.sprt {
            let (lower, upper) = sprt.bounds();
            let llr = sprt.llr(&self.pairings[0].tally);
            out.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={} (normalized Elo, pentanomial): LLR {llr:.2} [{lower:.2}, {upper:.2}], {}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                self.sprt_decision.unwrap_or(SprtDecision::Continue)
            ));
            if let Some(after) = self.sprt_decided_after.filter(|&n| n < self.finished_games) {
                out.push_str(&format!(
                    "SPRT decided after {after} games; the {} games under way then were finished and counted\n",
                    self.finished_games - after
                ));
            }
        }
        out
    }

    /// Points of every engine over all its games.
    fn standings(&self) -> String {
        let mut rows: Vec<(String, u64, u64)> = self.engines.iter().map(|n| (n.clone(), 0, 0)).collect();
        for p in &self.pairings {
            let t = &p.tally;
            rows[p.first].1 += t.games();
            rows[p.first].2 += 2 * t.wins + t.draws;
            rows[p.second].1 += t.games();
            rows[p.second].2 += 2 * t.losses + t.draws;
        }
        rows.sort_by(|a, b| (b.2 * a.1.max(1)).cmp(&(a.2 * b.1.max(1))));
        let mut out = String::from("standings: ");
        let parts: Vec<String> =
            rows.iter().map(|(name, games, half)| format!("{name} {}/{games}", *half as f64 / 2.0)).collect();
        out.push_str(&parts.join(", "));
        out.push('\n');
        out
    }
}

fn signed(x: f64) -> String {
    // -0.0 prints as +0.0.
    let x = x + 0.0;
    if x.is_infinite() { if x > 0.0 { "+inf".into() } else { "-inf".into() } } else { format!("{x:+.1}") }
}

/// What [`run`] tells its caller as games end.
pub struct Progress<'a> {
    pub game: &'a Scheduled,
    /// The game's result line: `game 3/40: A vs B 1-0, B (Black) loses: checkmate`.
    pub line: String,
    pub report: &'a MatchReport,
}

/// Checks that every engine starts and answers its handshake.
pub fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for spec in &config.engines {
        let engine = EngineProcess::start(spec, config.settings.ready_timeout)
            .map_err(|fault| format!("engine '{}': {fault}", spec.name))?;
        engine.quit();
    }
    Ok(())
}

/// Reads the games of an earlier run from `text` (a PGN this runner wrote):
/// game number to result. A game that does not fit the schedule is an
/// error: the file belongs to another match.
pub fn resumed_results(
    text: &str,
    games: &[Scheduled],
    engines: &[EngineSpec],
    openings: &[Opening],
) -> Result<HashMap<usize, GameResult>, String> {
    let mut done = HashMap::new();
    if text.trim().is_empty() {
        return Ok(done);
    }
    let records = crate::record::read_games(text).map_err(|e| e.to_string())?;
    for record in records {
        let number: usize = record.tag("Round").and_then(|r| r.parse().ok()).ok_or("a game has no Round number")?;
        let game = games
            .get(number.wrapping_sub(1))
            .ok_or_else(|| format!("game {number} is not in this match's schedule of {} games", games.len()))?;
        let (red, black) = (&engines[game.red].name, &engines[game.black].name);
        if record.tag("Red") != Some(red) || record.tag("Black") != Some(black) {
            return Err(format!("game {number} was not {red} vs {black}: the file is from another match"));
        }
        let opening = openings.get(game.opening).cloned().unwrap_or_else(Opening::startpos);
        if record.start != opening.start || !record.moves.starts_with(&opening.moves) {
            return Err(format!(
                "game {number} did not start from opening {} of this match: the file is from another match \
                 (or the openings, --shuffle or --rounds changed)",
                game.opening + 1
            ));
        }
        match record.result {
            Some(result) if result != GameResult::Ongoing => {
                done.insert(number, result);
            }
            _ => {}
        }
    }
    Ok(done)
}

/// Plays the match. `progress` is called on this thread after each game.
/// Errors: the PGN file cannot be read or written.
pub fn run(config: &MatchConfig, progress: &mut dyn FnMut(&Progress)) -> Result<MatchReport, String> {
    let games = schedule(config);
    let mut report = MatchReport::new(config, games.len());
    let mut pgn_file = None;
    let mut resumed = std::collections::HashSet::new();
    if let Some(path) = &config.pgn {
        let existing = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
        };
        if config.resume {
            let done = resumed_results(&existing, &games, &config.engines, &config.openings)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            for game in &games {
                if let Some(&result) = done.get(&game.number) {
                    report.add(game, result);
                    report.resumed_games += 1;
                    resumed.insert(game.number);
                }
            }
        } else if !existing.trim().is_empty() {
            return Err(format!(
                "'{}' already holds games: add --resume to go on with that match, or name another file",
                path.display()
            ));
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
        pgn_file = Some(file);
    }
    let stopped = |report: &MatchReport| report.sprt_decided_after.is_some();
    let queue: VecDeque<Scheduled> = if stopped(&report) {
        VecDeque::new()
    } else {
        games.iter().filter(|g| !resumed.contains(&g.number)).copied().collect()
    };
    let tags = MatchTags { event: config.event.clone(), date: pgn::today(), time_control: time_control_tag(config) };
    let queue = Mutex::new(queue);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<(Scheduled, Game)>();
    let workers = config.concurrency.max(1);
    let mut write_error = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || worker(config, queue, stop, sender));
        }
        drop(sender);
        for (scheduled, game) in results {
            report.add(&scheduled, game.result);
            if let Some(file) = &mut pgn_file
                && write_error.is_none()
            {
                let text = pgn::write_game(&game, scheduled.number, &tags);
                if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
                    write_error = Some(format!("cannot write the PGN: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if stopped(&report) {
                stop.store(true, Ordering::Relaxed);
            }
            let line = format!(
                "game {}/{}: {} vs {} {}, {}",
                scheduled.number,
                report.total_games,
                game.red,
                game.black,
                game.result,
                game.summary()
            );
            progress(&Progress { game: &scheduled, line, report: &report });
        }
    });
    match write_error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Takes games from the queue until it is empty or the match stops; keeps
/// one process per engine for all its games (restarted after a fault).
fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<Scheduled>>,
    stop: &AtomicBool,
    results: mpsc::Sender<(Scheduled, Game)>,
) {
    let control = |spec: &EngineSpec| spec.control.unwrap_or(TimeControl::Depth(1));
    let mut players: Vec<Option<Player>> = config.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(game) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else { break };
        let mut take = |i: usize| {
            players[i].take().unwrap_or_else(|| {
                let mut player = Player::new(config.engines[i].clone(), control(&config.engines[i]));
                player.ponder = config.settings.ponder;
                player
            })
        };
        let (mut red, mut black) = (take(game.red), take(game.black));
        let opening = config.openings.get(game.opening).cloned().unwrap_or_else(Opening::startpos);
        let played = play_game(&mut red, &mut black, &opening, &config.settings);
        players[game.red] = Some(red);
        players[game.black] = Some(black);
        if results.send((game, played)).is_err() {
            break;
        }
    }
    for player in players.iter_mut().flatten() {
        player.quit();
    }
}

/// The PGN `TimeControl`: the common one, or each engine's.
fn time_control_tag(config: &MatchConfig) -> String {
    let controls: Vec<String> =
        config.engines.iter().map(|e| e.control.map_or("-".to_string(), |c| c.to_string())).collect();
    if controls.iter().all(|c| *c == controls[0]) {
        controls.first().cloned().unwrap_or_default()
    } else {
        config.engines.iter().zip(&controls).map(|(e, c)| format!("{}: {c}", e.name)).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::{MatchOptions, match_config};

    /// A match stops when its SPRT decides, but the games under way are
    /// finished and counted; a loss among them must not turn "H1 accepted"
    /// back into "continue" (a 2+0.05 run of 2026-12-06 crossed the bound at
    /// game 387 and reported "continue" after 389).
    #[test]
    fn an_sprt_decision_stands_when_the_games_under_way_are_counted() {
        let words = |t: &str| t.split_whitespace().map(String::from).collect::<Vec<_>>();
        let options = MatchOptions {
            engines: vec![words("name=a cmd=./a"), words("name=b cmd=./b")],
            depth: Some(1),
            rounds: Some(200),
            sprt: Some(words("elo0=0 elo1=10")),
            ..MatchOptions::default()
        };
        let config = match_config(&options).unwrap();
        let games = schedule(&config);
        let mut report = MatchReport::new(&config, games.len());
        let mut results = games.iter();
        // The first engine wins one game of each pair and draws the other
        // until the SPRT decides.
        while report.sprt_decided_after.is_none() {
            let game = results.next().expect("the SPRT decides within the match");
            let first_wins = if game.red == 0 { GameResult::RedWins } else { GameResult::BlackWins };
            report.add(game, if game.number % 2 == 1 { first_wins } else { GameResult::Draw });
        }
        assert_eq!(report.sprt_decision, Some(SprtDecision::AcceptH1));
        let decided_after = report.finished_games;
        // Then the games under way: losses of the first engine.
        for game in results.take(3) {
            let first_loses = if game.red == 0 { GameResult::BlackWins } else { GameResult::RedWins };
            report.add(game, first_loses);
        }
        assert!(config.sprt.unwrap().decision(&report.pairings[0].tally) != SprtDecision::AcceptH1);
        assert_eq!(report.sprt_decision, Some(SprtDecision::AcceptH1), "the decision stands");
        assert_eq!(report.sprt_decided_after, Some(decided_after));
        assert!(report.table().contains(&format!("SPRT decided after {decided_after} games")), "{}", report.table());
    }
}
