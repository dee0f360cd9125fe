//! The memory of the current game, and the friendly mode's estimate of the
//! opponent's strength from its moves.
//!
//! A GUI sends the game again with every `position` (UCI: from the start;
//! UCCI: from the last capture), or only the current FEN. The memory
//! follows the game by position: a new position continues the game when it
//! is one legal move (the opponent's) after the position our last answer
//! left, or the same position again. Anything else is a new game, as are
//! `ucinewgame` and `setoption newgame`.
//!
//! Each opponent move is judged once (cached by position and move): a quick
//! fixed-depth search of the position before it gives the best score, a
//! search of the played move alone to the same depth gives its score, and
//! the difference is the centipawns the move lost. The average loss maps to
//! a rating with the formula in [`elo_from_average_loss`].

use super::{MAX_ELO, MIN_ELO};
use crate::position::Position;
use crate::search::{self, Config, GameHistory, Limits, Request, Searcher, Signals, Silent};
use crate::types::Move;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

/// What we remember of the game being played.
#[derive(Clone, Debug, Default)]
pub struct GameMemory {
    /// The position our last answer left (the opponent to move).
    after_our_move: Option<Position>,
    /// The root of our last answer.
    last_root: Option<u64>,
    /// Our final scores, one per answered search of this game, oldest first.
    scores: Vec<i32>,
    /// The opponent's moves of this game, with the position before each.
    opponent_moves: Vec<(Position, Move)>,
    /// The opponent's move since our last answer (a new position replaces
    /// it until we answer: a ponder miss must not count the guessed move).
    pending: Option<(Position, Move)>,
    /// Centipawns each judged opponent move lost (`None`: not informative).
    judged: HashMap<(u64, Move), Option<i32>>,
}

impl GameMemory {
    pub fn reset(&mut self) {
        *self = GameMemory::default();
    }

    /// A new position: `start` and the `moves` played from it reach `root`.
    /// Returns whether it continues the game remembered so far (if not, the
    /// memory starts over with the opponent moves in the given line).
    pub fn follow(&mut self, start: &Position, moves: &[Move], root: &Position) -> bool {
        if self.last_root == Some(root.key()) {
            return true;
        }
        if let Some(after) = self.after_our_move {
            let reply = after.legal_moves().into_iter().find(|&m| {
                let mut p = after;
                p.make_move(m);
                p.key() == root.key()
            });
            if let Some(m) = reply {
                self.pending = Some((after, m));
                return true;
            }
        }
        self.reset();
        let mut pos = *start;
        for &m in moves {
            if pos.side_to_move() != root.side_to_move() {
                self.opponent_moves.push((pos, m));
            }
            pos.make_move(m);
        }
        false
    }

    /// Our answer `mv` in `root`, with its score.
    pub fn record_answer(&mut self, root: &Position, mv: Move, score: i32) {
        if let Some(p) = self.pending.take() {
            self.opponent_moves.push(p);
        }
        if self.last_root == Some(root.key()) {
            // The same position asked again: one move of ours, not two.
            self.scores.pop();
        }
        self.scores.push(score);
        let mut after = *root;
        after.make_move(mv);
        self.after_our_move = Some(after);
        self.last_root = Some(root.key());
    }

    /// Our scores in this game, oldest first.
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// The opponent's moves known so far, oldest first.
    pub fn opponent_moves(&self) -> Vec<(Position, Move)> {
        self.opponent_moves.iter().chain(self.pending.iter()).copied().collect()
    }
}

/// Depth of the judging searches, and a node cap in case a position
/// explodes; about 5-30 ms per opponent move.
const JUDGE_DEPTH: i32 = 6;
const JUDGE_NODES: u64 = 20_000;
/// One bad move counts at most this much (a blunder is a blunder).
const LOSS_CAP: i32 = 400;
/// Positions already decided (more than a rook and a half up or down) tell
/// little about the mover.
const DECIDED: i32 = 1500;
/// Opponent moves judged per `go` at most (a game loaded at once is judged
/// over the following moves), and fewer when the clock is short. A count,
/// not a time, so that a game replays the same way.
const JUDGE_MAX_PER_GO: usize = 12;
const JUDGE_MAX_IN_A_HURRY: usize = 2;
/// A `go` with less than this on the clock (or per move) is in a hurry.
const HURRY_CLOCK_MS: i64 = 10_000;
const HURRY_MOVETIME_MS: i64 = 1_000;

/// How many opponent moves a `go` with these limits may judge.
pub fn judging_allowance(limits: &Limits) -> usize {
    let hurry = limits.clock.is_some_and(|c| c.time_ms < HURRY_CLOCK_MS)
        || limits.movetime_ms.is_some_and(|t| t < HURRY_MOVETIME_MS);
    if hurry { JUDGE_MAX_IN_A_HURRY } else { JUDGE_MAX_PER_GO }
}
/// The estimate starts at the configured rating, which counts as this many
/// moves of evidence.
const PRIOR_MOVES: f64 = 4.0;

/// The friendly mode's view of the opponent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Informative opponent moves judged.
    pub moves: usize,
    pub average_loss: f64,
    pub opponent_elo: i32,
    pub playing_elo: i32,
}

impl Estimate {
    pub fn describe(&self) -> String {
        if self.moves == 0 {
            format!("adaptive: no opponent moves judged yet, playing at {}", self.playing_elo)
        } else {
            format!(
                "adaptive: opponent ~{} Elo from {} moves (average loss {:.0} cp), playing at {}",
                self.opponent_elo, self.moves, self.average_loss, self.playing_elo
            )
        }
    }
}

const LOSS_ELO_A: f64 = 4160.0;
const LOSS_ELO_B: f64 = 1275.0;

/// The rating that matches an average loss per move (centipawns, by
/// Chariot's depth-6 judgement): `elo = LOSS_ELO_A - LOSS_ELO_B * ln(1 +
/// loss / 10)`, clamped to 0..2600. A and B are fitted to the average losses
/// of Chariot's own levels (`scripts/fit_friendly.py`, docs/levels.md, "Friendly
/// mode").
pub fn elo_from_average_loss(loss: f64) -> i32 {
    let elo = LOSS_ELO_A - LOSS_ELO_B * (1.0 + loss.max(0.0) / 10.0).ln();
    (elo.round() as i32).clamp(MIN_ELO, MAX_ELO)
}

/// Judges up to `allowance` opponent moves not judged yet and estimates the
/// opponent's rating, starting from `prior_elo`.
pub fn estimate(
    memory: &Mutex<GameMemory>,
    searcher: &Searcher,
    prior_elo: i32,
    allowance: usize,
    stop: &Signals,
) -> Estimate {
    let (moves, mut judged) = {
        let m = memory.lock().unwrap_or_else(|e| e.into_inner());
        (m.opponent_moves(), m.judged.clone())
    };
    // Newest first: they matter most if the allowance runs out.
    let mut fresh = 0;
    for (before, mv) in moves.iter().rev() {
        if judged.contains_key(&(before.key(), *mv)) {
            continue;
        }
        if fresh >= allowance || stop.stop.load(Ordering::Relaxed) {
            break;
        }
        judged.insert((before.key(), *mv), judge_move(before, *mv, searcher));
        fresh += 1;
    }
    let losses: Vec<i32> = moves.iter().filter_map(|(p, m)| judged.get(&(p.key(), *m)).copied().flatten()).collect();
    memory.lock().unwrap_or_else(|e| e.into_inner()).judged = judged;
    estimate_from_losses(&losses, prior_elo)
}

/// The estimate from the losses of the opponent's moves.
pub fn estimate_from_losses(losses: &[i32], prior_elo: i32) -> Estimate {
    let n = losses.len();
    let average_loss = if n == 0 { 0.0 } else { losses.iter().sum::<i32>() as f64 / n as f64 };
    let observed = elo_from_average_loss(average_loss) as f64;
    let blended = (n as f64 * observed + PRIOR_MOVES * prior_elo as f64) / (n as f64 + PRIOR_MOVES);
    let elo = (blended.round() as i32).clamp(MIN_ELO, MAX_ELO);
    Estimate { moves: n, average_loss, opponent_elo: elo, playing_elo: elo }
}

/// Centipawns the move `mv` lost in `before` by a quick search; `None` when
/// the move tells nothing (the only legal move, or the game already decided).
pub fn judge_move(before: &Position, mv: Move, searcher: &Searcher) -> Option<i32> {
    if before.legal_moves().len() <= 1 {
        return None;
    }
    let game = GameHistory::new(*before);
    let config = Config { threads: 1, multipv: 1, move_overhead_ms: 0, nnue: None, ..Config::default() };
    let limits = Limits { depth: Some(JUDGE_DEPTH), nodes: Some(JUDGE_NODES), ..Limits::default() };
    let signals = Signals::default();
    let request =
        Request { game: &game, limits: &limits, config: &config, searcher, signals: &signals, listener: &Silent };
    let best = search::search(request);
    if best.score.abs() >= DECIDED {
        return None;
    }
    if best.best == Some(mv) {
        return Some(0);
    }
    let only_this =
        Limits { depth: Some(best.depth.max(1)), nodes: Some(JUDGE_NODES), searchmoves: vec![mv], ..Limits::default() };
    let played = search::search(Request { limits: &only_this, ..request });
    Some((best.score - played.score).clamp(0, LOSS_CAP))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("test move")
    }

    #[test]
    fn the_memory_follows_a_game_and_starts_over_on_another() {
        let start = Position::startpos();
        let mut m = GameMemory::default();
        // We are Black after h2e2: one opponent move in the line.
        let mut root = start;
        root.make_move(mv("h2e2"));
        assert!(!m.follow(&start, &[mv("h2e2")], &root));
        assert_eq!(m.opponent_moves().len(), 1);
        m.record_answer(&root, mv("h9g7"), 10);
        // The GUI sends the whole line again, one opponent move later.
        let moves = [mv("h2e2"), mv("h9g7"), mv("h0g2")];
        let mut next = start;
        moves.iter().for_each(|&x| next.make_move(x));
        assert!(m.follow(&start, &moves, &next));
        assert_eq!(m.opponent_moves().len(), 2);
        // A guessed reply (ponder) is replaced by the real one.
        let mut other = root;
        other.make_move(mv("h9g7"));
        other.make_move(mv("b0c2"));
        assert!(m.follow(&other, &[], &other));
        assert_eq!(m.opponent_moves().len(), 2);
        assert_eq!(m.opponent_moves()[1].1, mv("b0c2"));
        m.record_answer(&other, mv("b9c7"), -20);
        assert_eq!(m.scores(), &[10, -20]);
        // The start position again: a new game.
        assert!(!m.follow(&start, &[], &start));
        assert!(m.scores().is_empty() && m.opponent_moves().is_empty());
    }

    #[test]
    fn asking_the_same_position_twice_records_one_score() {
        let start = Position::startpos();
        let mut m = GameMemory::default();
        m.follow(&start, &[], &start);
        m.record_answer(&start, mv("h2e2"), 5);
        assert!(m.follow(&start, &[], &start));
        m.record_answer(&start, mv("h2e2"), 7);
        assert_eq!(m.scores(), &[7]);
    }

    #[test]
    fn the_rating_falls_with_the_average_loss() {
        assert_eq!(elo_from_average_loss(0.0), MAX_ELO);
        let mut last = MAX_ELO;
        for loss in [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 400.0] {
            let e = elo_from_average_loss(loss);
            assert!(e <= last, "{loss}: {e}");
            assert!(e < last || e == MAX_ELO || e == MIN_ELO, "{loss}: {e}");
            last = e;
        }
        assert!(elo_from_average_loss(80.0) < elo_from_average_loss(20.0));
        // No evidence: the prior.
        assert_eq!(estimate_from_losses(&[], 1700).playing_elo, 1700);
        // Much evidence of big losses: far below the prior.
        assert!(estimate_from_losses(&[200; 40], 1700).playing_elo < 1300);
    }

    #[test]
    fn judging_finds_a_blunder_and_a_good_move() {
        let tt = Searcher::new(1);
        // Red rook e3 can take the pawn on e5 or step in front of it.
        let p = Position::from_fen("r2ak4/9/7c1/9/4p4/9/4R4/1C7/9/3AK4 w - - 0 1").unwrap();
        let hung = judge_move(&p, mv("e3e4"), &tt).unwrap();
        assert!(hung >= 300, "{hung}");
        let fine = judge_move(&p, mv("e3e5"), &tt).unwrap();
        assert!(fine <= 30, "{fine}");
    }
}
