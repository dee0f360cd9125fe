//! `chariot datagen`: self-play games at a fixed node budget, written as
//! training positions (the file format is in [`format`]).
//!
//! Game *i* depends only on the seed, *i* and the options: its opening
//! comes from a generator seeded with both, and its searches start from a
//! cleared table and cleared histories, one thread, a node limit. Games are
//! written in index order whatever thread played them, so a file is the same
//! for any thread count, and a run that was stopped continues where it
//! stopped and gives the file an uninterrupted run would have given.

pub mod format;
pub mod packed;
pub mod tools;

use crate::book::{self, Book};
use crate::nnue::Network;
use crate::position::Position;
use crate::record::GameRecord;
use crate::rng::Rng;
use crate::rules::{GameResult, end_of_game};
use crate::search::{Config, GameHistory, Limits, Request, Searcher, Signals, Silent, search};
use crate::types::score::{is_mate, to_i16};
use crate::types::{Color, Move};
use format::{Outcome, Record};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How games are made.
#[derive(Clone, Debug)]
pub struct Options {
    /// Games the file holds when the run ends (games already in it count).
    pub games: u64,
    /// Node limit of each move's search.
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Openings to start from, chosen at random; empty: the built-in book.
    pub openings: Vec<GameRecord>,
    /// Follow the built-in book from the start (when no openings are given).
    pub book: bool,
    /// Random moves after the opening, each drawn from the legal moves
    /// whose short search scores within `random_margin` of the best one (so
    /// that the game stays a game, not a piece up at once).
    pub random_plies: u32,
    pub random_margin: i32,
    pub hash_mb: usize,
    /// A side whose score is at least this for `resign_plies` plies in a row
    /// (both sides' searches agreeing) wins.
    pub resign_score: i32,
    pub resign_plies: u32,
    /// From ply `draw_after` on, scores within this of zero for
    /// `draw_plies` plies in a row draw.
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after: u32,
    /// A game this long is a draw.
    pub max_plies: u32,
    /// The network that evaluates; `None`: the hand-crafted evaluation.
    pub nnue: Option<Arc<Network>>,
}

impl Options {
    /// The search settings of every datagen search: one thread, the
    /// options' evaluation.
    fn search_config(&self) -> Config {
        Config { nnue: self.nnue.clone(), ..Config::default() }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 1000,
            nodes: 5000,
            threads: 1,
            seed: 1,
            openings: Vec::new(),
            book: true,
            random_plies: 4,
            random_margin: 100,
            hash_mb: 16,
            resign_score: 1000,
            resign_plies: 8,
            draw_score: 10,
            draw_plies: 16,
            draw_after: 80,
            max_plies: 400,
            nnue: None,
        }
    }
}

/// How a generated game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// By the rules (mate, stalemate, repetition verdicts, 60-move limit,
    /// dead material).
    Rules,
    /// By the searches' scores (resign or draw thresholds).
    Score,
    /// At the maximum length.
    Length,
}

/// One generated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The searched positions (the opening's are left out), result filled in.
    pub records: Vec<Record>,
    pub result: GameResult,
    pub ending: Ending,
}

/// Plays game `index`. `searcher` is cleared first.
pub fn play_game(index: u64, options: &Options, searcher: &mut Searcher) -> Game {
    let mut rng = Rng::new(options.seed ^ Rng::new(index).next_u64());
    searcher.tt.clear();
    searcher.clear_histories();
    let (mut positions, mut moves) = opening(options, &mut rng, searcher);
    let mut window = window_start(&positions, &moves);
    let mut history = GameHistory::new(positions[0]);
    for (i, &m) in moves.iter().enumerate() {
        history.record(&positions[i], m);
    }
    let config = options.search_config();
    let limits = Limits { nodes: Some(options.nodes), ..Limits::default() };
    let signals = Signals::default();
    let mut records = Vec::new();
    let mut streak = ScoreStreaks::default();
    let (result, ending) = loop {
        let pos = *positions.last().expect("a position");
        if let Some(report) = end_of_game(&positions, &moves, window) {
            break (report.result, Ending::Rules);
        }
        if moves.len() >= options.max_plies as usize {
            break (GameResult::Draw, Ending::Length);
        }
        let request = Request {
            game: &history,
            limits: &limits,
            config: &config,
            searcher,
            signals: &signals,
            listener: &Silent,
        };
        let outcome = search(request);
        let Some(best) = outcome.best else {
            // No legal move: the rules above have ended the game already.
            break (GameResult::win_for(!pos.side_to_move()), Ending::Rules);
        };
        // Stored in 16 bits; the game goes on with the same value.
        let stored = to_i16(outcome.score);
        let score = i32::from(stored);
        records.push(Record {
            board: Record::board_of(&pos),
            side: pos.side_to_move(),
            score: stored,
            ply: moves.len().min(u16::MAX as usize) as u16,
            best,
            outcome: Outcome::Draw,
            in_check: pos.in_check(),
            capture: pos.is_capture(best),
            mate_score: is_mate(score),
            game_end: false,
        });
        let red_score = if pos.side_to_move() == Color::Red { score } else { -score };
        if let Some(result) = streak.add(red_score, moves.len() as u32, options) {
            break (result, Ending::Score);
        }
        if pos.is_capture(best) {
            window = moves.len() + 1;
        }
        history.record(&pos, best);
        let mut next = pos;
        next.make_move(best);
        positions.push(next);
        moves.push(best);
    };
    for r in &mut records {
        r.outcome = match result {
            GameResult::Draw | GameResult::Ongoing => Outcome::Draw,
            _ if result == GameResult::win_for(r.side) => Outcome::Win,
            _ => Outcome::Loss,
        };
    }
    if let Some(last) = records.last_mut() {
        last.game_end = true;
    }
    Game { records, result, ending }
}

/// The index of the first position since the last capture.
fn window_start(positions: &[Position], moves: &[Move]) -> usize {
    (0..moves.len()).rev().find(|&i| positions[i].is_capture(moves[i])).map_or(0, |i| i + 1)
}

/// The positions and moves a game starts with: an opening (given, or from
/// the book), then random legal plies. A start the rules have already ended
/// is drawn again (a few times at most).
fn opening(options: &Options, rng: &mut Rng, searcher: &Searcher) -> (Vec<Position>, Vec<Move>) {
    let mut best_try = None;
    for _ in 0..20 {
        let (start, mut moves) = if options.openings.is_empty() {
            (Position::startpos(), if options.book { book_line(rng) } else { Vec::new() })
        } else {
            let o = &options.openings[rng.below(options.openings.len() as u64) as usize];
            (o.start, o.moves.clone())
        };
        let mut positions = vec![start];
        for &m in &moves {
            let mut next = *positions.last().expect("a position");
            next.make_move(m);
            positions.push(next);
        }
        for _ in 0..options.random_plies {
            let pos = *positions.last().expect("a position");
            let Some(m) = random_reasonable_move(&pos, options, searcher, rng) else { break };
            let mut next = pos;
            next.make_move(m);
            positions.push(next);
            moves.push(m);
        }
        let window = window_start(&positions, &moves);
        if end_of_game(&positions, &moves, window).is_none() {
            return (positions, moves);
        }
        best_try = Some((positions, moves));
    }
    best_try.expect("twenty tries")
}

/// Nodes of the short searches that score a position and each candidate
/// random move.
const RANDOM_MOVE_NODES: u64 = 200;

/// A legal move of `pos` drawn at random from those whose short search
/// scores within the random margin of the position's own short search; if
/// none does, the best-scored one; `None` when there is no legal move.
///
/// Moves are drawn one at a time and each is searched only when drawn,
/// which picks uniformly among the reasonable moves at a fraction of the
/// cost of scoring every move first (the way until 2026-12-07, a tenth of
/// datagen's time): most draws succeed within a few tries.
fn random_reasonable_move(pos: &Position, options: &Options, searcher: &Searcher, rng: &mut Rng) -> Option<Move> {
    let mut pool = pos.legal_moves();
    if pool.is_empty() {
        return None;
    }
    let reference = short_search(GameHistory::new(*pos), RANDOM_MOVE_NODES, options, searcher);
    let mut best: Option<(Move, i32)> = None;
    while !pool.is_empty() {
        let m = pool.swap_remove(rng.below(pool.len() as u64) as usize);
        let mut child = *pos;
        child.make_move(m);
        let score = -short_search(GameHistory::new(child), RANDOM_MOVE_NODES, options, searcher);
        if score >= reference - options.random_margin {
            return Some(m);
        }
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((m, score));
        }
    }
    best.map(|(m, _)| m)
}

/// The score of a silent search of `game`'s position within `nodes` nodes.
fn short_search(game: GameHistory, nodes: u64, options: &Options, searcher: &Searcher) -> i32 {
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let config = options.search_config();
    let signals = Signals::default();
    let request =
        Request { game: &game, limits: &limits, config: &config, searcher, signals: &signals, listener: &Silent };
    search(request).score
}

/// A walk through the built-in book from the start, each move drawn by its
/// weight, until the book has no (legal) move.
fn book_line(rng: &mut Rng) -> Vec<Move> {
    let Ok(book) = Book::built_in() else { return Vec::new() };
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    while line.len() < 40 {
        let lookup = book.lookup(&pos);
        let legal: Vec<_> = lookup.entries.into_iter().filter(|e| pos.check_move(e.mv).is_ok()).collect();
        let Some(entry) = book::choose(&legal, false, rng) else { break };
        pos.make_move(entry.mv);
        line.push(entry.mv);
    }
    line
}

/// Consecutive plies of decisive and of drawish scores (Red's view).
#[derive(Default)]
struct ScoreStreaks {
    red_winning: u32,
    black_winning: u32,
    level: u32,
}

impl ScoreStreaks {
    fn add(&mut self, red_score: i32, ply: u32, options: &Options) -> Option<GameResult> {
        let count = |cond: bool, n: &mut u32| *n = if cond { *n + 1 } else { 0 };
        count(red_score >= options.resign_score, &mut self.red_winning);
        count(red_score <= -options.resign_score, &mut self.black_winning);
        count(ply >= options.draw_after && red_score.abs() <= options.draw_score, &mut self.level);
        if options.resign_plies > 0 && self.red_winning >= options.resign_plies {
            Some(GameResult::RedWins)
        } else if options.resign_plies > 0 && self.black_winning >= options.resign_plies {
            Some(GameResult::BlackWins)
        } else if options.draw_plies > 0 && self.level >= options.draw_plies {
            Some(GameResult::Draw)
        } else {
            None
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games in the file before the run.
    pub games_before: u64,
    pub games: u64,
    pub positions: u64,
    /// Red's wins, draws and Red's losses of the games played in this run.
    pub red_wins: u64,
    pub draws: u64,
    pub red_losses: u64,
    pub seconds: f64,
}

/// Appends games to `path` until it holds `options.games`, on
/// `options.threads` threads; `progress` gets a line every few seconds.
/// `stop` ends the run after the games being written (those in flight are
/// dropped; the next run plays them again).
pub fn run(
    path: &std::path::Path,
    options: &Options,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&str),
) -> std::io::Result<Summary> {
    let (file, games_before, file_format) = format::open_for_append(path, options.seed)?;
    let mut out = std::io::BufWriter::new(file);
    let start = Instant::now();
    let mut summary = Summary { games_before, ..Summary::default() };
    let next = AtomicU64::new(games_before);
    let (tx, rx) = mpsc::channel::<(u64, Game)>();
    std::thread::scope(|scope| -> std::io::Result<()> {
        for _ in 0..options.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut searcher = Searcher::new(options.hash_mb);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= options.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = play_game(index, options, &mut searcher);
                    if tx.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Game> = BTreeMap::new();
        let mut to_write = games_before;
        let mut last_line = Instant::now();
        loop {
            let received = rx.recv_timeout(Duration::from_millis(500));
            match received {
                Ok((index, game)) => {
                    pending.insert(index, game);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(game) = pending.remove(&to_write) {
                let mut bytes = Vec::with_capacity(game.records.len() * format::RECORD_BYTES);
                format::encode_game(file_format, &game.records, &mut bytes);
                out.write_all(&bytes)?;
                to_write += 1;
                summary.games += 1;
                summary.positions += game.records.len() as u64;
                match game.result {
                    GameResult::RedWins => summary.red_wins += 1,
                    GameResult::BlackWins => summary.red_losses += 1,
                    _ => summary.draws += 1,
                }
            }
            if last_line.elapsed() >= Duration::from_secs(5) {
                out.flush()?;
                summary.seconds = start.elapsed().as_secs_f64();
                progress(&summary.line(options));
                last_line = Instant::now();
            }
        }
        out.flush()?;
        Ok(())
    })?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

impl Summary {
    /// The progress line.
    pub fn line(&self, options: &Options) -> String {
        let rate = |n: u64| if self.seconds > 0.0 { n as f64 / self.seconds } else { 0.0 };
        format!(
            "games {}/{} (this run {}: Red W {} D {} L {}), positions {}, {:.0} positions/s ({:.0} per thread), {:.0} s",
            self.games_before + self.games,
            options.games,
            self.games,
            self.red_wins,
            self.draws,
            self.red_losses,
            self.positions,
            rate(self.positions),
            rate(self.positions) / options.threads.max(1) as f64,
            self.seconds
        )
    }
}

/// A report on a datagen file: counts, results, flags, score and ply
/// histograms.
pub fn stats(records: &[Record]) -> String {
    let mut s = String::new();
    let games = records.iter().filter(|r| r.game_end).count();
    let mut red = [0usize; 3]; // Red's losses, draws, wins by game
    for r in records.iter().filter(|r| r.game_end) {
        let mut o = r.outcome as usize;
        if r.side == Color::Black {
            o = 2 - o;
        }
        red[o] += 1;
    }
    let count = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| f(r)).count();
    let quiet = count(&|r| !r.in_check && !r.capture && !r.mate_score);
    s += &format!("positions {}\ngames {}\n", records.len(), games);
    s += &format!("results (Red): wins {} draws {} losses {}\n", red[2], red[1], red[0]);
    s += &format!(
        "flags: in check {}, best move a capture {}, mate score {}; quiet (none of these) {}\n",
        count(&|r| r.in_check),
        count(&|r| r.capture),
        count(&|r| r.mate_score),
        quiet
    );
    s += &format!(
        "positions by result (side to move): won {} drawn {} lost {}\n",
        count(&|r| r.outcome == Outcome::Win),
        count(&|r| r.outcome == Outcome::Draw),
        count(&|r| r.outcome == Outcome::Loss)
    );
    s += "score (side to move, cp, mates left out):\n";
    let edges = [-1000, -500, -300, -200, -100, -50, -20, 20, 50, 100, 200, 300, 500, 1000];
    let scores: Vec<i32> = records.iter().filter(|r| !r.mate_score).map(|r| r.score as i32).collect();
    s += &histogram(&scores, &edges);
    s += "ply:\n";
    let plies: Vec<i32> = records.iter().map(|r| r.ply as i32).collect();
    s += &histogram(&plies, &[10, 20, 40, 60, 80, 100, 150, 200, 300]);
    s
}

/// Counts of `values` in the intervals the sorted `edges` make (with the
/// open ends), one line each with a bar.
fn histogram(values: &[i32], edges: &[i32]) -> String {
    let mut counts = vec![0usize; edges.len() + 1];
    for &v in values {
        counts[edges.partition_point(|&e| e <= v)] += 1;
    }
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut s = String::new();
    for (i, &c) in counts.iter().enumerate() {
        let label = match i {
            0 => format!("< {}", edges[0]),
            _ if i == edges.len() => format!(">= {}", edges[i - 1]),
            _ => format!("{} .. {}", edges[i - 1], edges[i] - 1),
        };
        s += &format!("  {label:>14} {c:>10} {}\n", "#".repeat(c * 40 / max));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> Options {
        Options { nodes: 300, games: 3, max_plies: 60, ..Options::default() }
    }

    #[test]
    fn a_random_move_is_reasonable_and_varied() {
        let options = quick();
        let searcher = Searcher::new(1);
        // Only taking the hanging rook keeps the game level: every draw
        // must find it, wherever it comes in the drawing order.
        let hanging = Position::from_fen("3k5/r8/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let take = Move::parse("a0a8").unwrap();
        for seed in 0..16 {
            let m = random_reasonable_move(&hanging, &options, &searcher, &mut Rng::new(seed));
            assert_eq!(m, Some(take), "seed {seed}");
        }
        // At the start many moves are reasonable, and the draws spread.
        let start = Position::startpos();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            let m = random_reasonable_move(&start, &options, &searcher, &mut Rng::new(seed)).expect("a move");
            assert!(start.check_move(m).is_ok());
            seen.insert(m.bits());
        }
        assert!(seen.len() >= 8, "{} distinct moves in 32 draws", seen.len());
        // No legal move, no random move.
        let mated = Position::from_fen("3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(mated.legal_moves().is_empty());
        assert_eq!(random_reasonable_move(&mated, &options, &searcher, &mut Rng::new(1)), None);
    }

    #[test]
    fn a_game_is_the_same_every_time_and_its_records_are_consistent() {
        let options = quick();
        let mut searcher = Searcher::new(1);
        let a = play_game(5, &options, &mut searcher);
        let b = play_game(5, &options, &mut Searcher::new(1));
        assert_eq!(a, b);
        assert!(!a.records.is_empty());
        assert!(a.records.last().unwrap().game_end);
        assert_eq!(a.records.iter().filter(|r| r.game_end).count(), 1);
        for r in &a.records {
            let pos = r.position().expect("a legal position");
            assert!(pos.check_move(r.best).is_ok(), "best move legal");
            assert_eq!(pos.in_check(), r.in_check);
            let expected = match a.result {
                GameResult::Draw => Outcome::Draw,
                res if res == GameResult::win_for(r.side) => Outcome::Win,
                _ => Outcome::Loss,
            };
            assert_eq!(r.outcome, expected);
        }
        // Consecutive records are consecutive plies, each the position after
        // the previous best move.
        for w in a.records.windows(2) {
            assert_eq!(w[1].ply, w[0].ply + 1);
            let mut pos = w[0].position().unwrap();
            pos.make_move(w[0].best);
            assert_eq!(pos.key(), w[1].position().unwrap().key());
        }
        let other = play_game(6, &options, &mut searcher);
        assert_ne!(a.records[0].board, other.records[0].board, "other games start elsewhere");
    }

    #[test]
    fn a_network_plays_its_own_reproducible_games() {
        let net = Options { nnue: Some(Network::embedded()), ..quick() };
        let a = play_game(5, &net, &mut Searcher::new(1));
        assert_eq!(a, play_game(5, &net, &mut Searcher::new(1)));
        // The scores are the network's: the same game by the hand-crafted
        // evaluation scores (and most likely plays) differently.
        let hce = play_game(5, &quick(), &mut Searcher::new(1));
        let scores = |g: &Game| g.records.iter().map(|r| r.score).collect::<Vec<_>>();
        assert_ne!(scores(&a), scores(&hce));
    }

    #[test]
    fn score_streaks_adjudicate() {
        let o = Options { resign_score: 500, resign_plies: 3, draw_score: 5, draw_plies: 4, draw_after: 10, ..quick() };
        let mut s = ScoreStreaks::default();
        assert_eq!(s.add(600, 0, &o), None);
        assert_eq!(s.add(700, 1, &o), None);
        assert_eq!(s.add(400, 2, &o), None, "the streak is broken");
        assert_eq!(s.add(600, 3, &o), None);
        assert_eq!(s.add(600, 4, &o), None);
        assert_eq!(s.add(600, 5, &o), Some(GameResult::RedWins));
        let mut s = ScoreStreaks::default();
        for ply in 5..13 {
            assert_eq!(s.add(0, ply, &o), None, "draws count from ply 10 on");
        }
        assert_eq!(s.add(-3, 13, &o), Some(GameResult::Draw));
    }

    #[test]
    fn a_file_does_not_depend_on_threads_or_on_being_resumed() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stop = AtomicBool::new(false);
        let one = dir.join("one.bin");
        let two = dir.join("two.bin");
        let _ = std::fs::remove_file(&one);
        let _ = std::fs::remove_file(&two);
        let options = Options { games: 4, ..quick() };
        let first = run(&one, &options, &stop, &mut |_| {}).unwrap();
        assert_eq!((first.games_before, first.games), (0, 4));
        // Two threads, in two runs, with an unfinished game's records left
        // at the end of the file by the first.
        run(&two, &Options { games: 2, threads: 2, ..options.clone() }, &stop, &mut |_| {}).unwrap();
        let partial = play_game(2, &options, &mut Searcher::new(1));
        let mut packed = Vec::new();
        packed::encode_game(&partial.records, &mut packed);
        let mut f = std::fs::OpenOptions::new().append(true).open(&two).unwrap();
        f.write_all(&packed[..packed.len() - 3]).unwrap();
        drop(f);
        let s = run(&two, &Options { threads: 2, ..options.clone() }, &stop, &mut |_| {}).unwrap();
        assert_eq!((s.games_before, s.games), (2, 2));
        assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
        let records = format::read_file(&one).unwrap();
        assert_eq!(records.iter().filter(|r| r.game_end).count(), 4);
        assert_eq!(records.len() as u64, first.positions);
        let report = stats(&records);
        assert!(report.contains("games 4"), "{report}");
        // Another seed does not append to this file.
        assert!(run(&one, &Options { games: 5, seed: 9, ..options.clone() }, &stop, &mut |_| {}).is_err());
        // A corrupt count in the middle is not taken for a game cut short:
        // the file is refused and left as it is.
        let mut bytes = std::fs::read(&one).unwrap();
        let second_game = format::HEADER_BYTES + packed::game_length(&bytes[format::HEADER_BYTES..]).unwrap();
        bytes[second_game + 2] = 0x7f;
        std::fs::write(&two, &bytes).unwrap();
        let refused = run(&two, &Options { games: 5, ..options.clone() }, &stop, &mut |_| {}).unwrap_err();
        assert!(refused.to_string().contains("game 2"), "{refused}");
        assert_eq!(std::fs::read(&two).unwrap(), bytes);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_version_1_file_is_resumed_in_version_1() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.bin");
        let options = Options { games: 3, ..quick() };
        let games: Vec<Game> = (0..3).map(|i| play_game(i, &options, &mut Searcher::new(1))).collect();
        let v1 = |games: &[Game]| {
            let mut bytes = format::Record::header().to_vec();
            for g in games {
                format::encode_game(format::Format::V1, &g.records, &mut bytes);
            }
            bytes
        };
        // One whole game and the start of the next, as a stopped run leaves it.
        let mut bytes = v1(&games[..1]);
        bytes.extend_from_slice(&games[1].records[0].encode());
        std::fs::write(&path, &bytes).unwrap();
        let s = run(&path, &options, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!((s.games_before, s.games), (1, 2));
        assert_eq!(std::fs::read(&path).unwrap(), v1(&games));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
