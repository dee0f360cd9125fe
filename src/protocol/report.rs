//! Formatting what the search reports, per dialect.

use super::{Dialect, Output};
use crate::engine::Engine;
use crate::position::Position;
use crate::search::{Bound, Iteration, Listener};
use crate::types::Move;
use crate::types::score::{DisplayScore, is_loss, wdl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Defaults of the draw and resign options.
/// Accept an offered draw when our score is no better than this (level).
pub const DRAW_ACCEPT_SCORE: i32 = 0;
/// Offer a draw unasked only in a dead draw, or when this many plies have
/// passed without a capture (the 60-move rule ends the game at 120) and the
/// score is within `DRAW_OFFER_SCORE` of level.
pub const DRAW_OFFER_PLIES: u16 = 100;
pub const DRAW_OFFER_SCORE: i32 = 30;
/// `ResignMode score`: resign after this many answers in a row at or below
/// this score.
pub const RESIGN_SCORE: i32 = -600;
pub const RESIGN_MOVES: usize = 3;

/// When to resign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResignMode {
    /// Only when the search sees a forced mate against us (the default).
    Mated,
    /// Also when clearly lost: `resign_moves` answers in a row at or below
    /// `resign_score`.
    Score,
    Never,
}

impl ResignMode {
    pub const NAMES: [&'static str; 3] = ["mated", "score", "never"];

    pub fn parse(text: &str) -> Option<ResignMode> {
        let all = [ResignMode::Mated, ResignMode::Score, ResignMode::Never];
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(text)).map(|i| all[i])
    }
}

/// What the options say about draws and resignation. UCCI gets the words
/// on `bestmove`; UCI, which has none, gets `info string` hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawPolicy {
    /// May offer and accept draws (`drawoffers`).
    pub draws: bool,
    /// May resign (`resign`).
    pub resign: bool,
    pub accept_score: i32,
    /// 0 = never offer in a long quiet game (dead draws are still offered).
    pub offer_plies: u16,
    pub offer_score: i32,
    pub resign_mode: ResignMode,
    pub resign_score: i32,
    pub resign_moves: usize,
}

impl Default for DrawPolicy {
    fn default() -> DrawPolicy {
        DrawPolicy {
            draws: true,
            resign: true,
            accept_score: DRAW_ACCEPT_SCORE,
            offer_plies: DRAW_OFFER_PLIES,
            offer_score: DRAW_OFFER_SCORE,
            resign_mode: ResignMode::Mated,
            resign_score: RESIGN_SCORE,
            resign_moves: RESIGN_MOVES,
        }
    }
}

/// What Chariot says about the game with its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    AcceptDraw,
    OfferDraw,
    Resign,
}

/// Formats one search's output. One listener per `go`.
pub struct ProtocolListener {
    out: Arc<Output>,
    dialect: Dialect,
    show_wdl: bool,
    policy: DrawPolicy,
    /// Our scores at the earlier moves of this game, oldest first (resign).
    earlier_scores: Vec<i32>,
    /// The searched position, to check the ponder move and judge draws.
    root: Position,
    /// The opponent offers a draw (`go draw`, or `ponderhit draw` later).
    draw_offered: AtomicBool,
    /// `best_move` has been written: the search is over for the GUI, even
    /// if its thread is still winding down.
    answered: AtomicBool,
}

impl ProtocolListener {
    pub fn new(
        out: Arc<Output>,
        dialect: Dialect,
        show_wdl: bool,
        policy: DrawPolicy,
        earlier_scores: Vec<i32>,
        root: Position,
        draw_offered: bool,
    ) -> ProtocolListener {
        ProtocolListener {
            out,
            dialect,
            show_wdl,
            policy,
            earlier_scores,
            root,
            draw_offered: AtomicBool::new(draw_offered),
            answered: AtomicBool::new(false),
        }
    }

    pub fn answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// `ponderhit draw`: the opponent offered a draw with its move.
    pub fn offer_draw(&self) {
        self.draw_offered.store(true, Ordering::Release);
    }

    /// The ponder move, if it is legal after `best` and leaves the engine a
    /// reply: some adapters wait for `bestmove` after stopping a ponder
    /// search, and a position without moves would answer `nobestmove`.
    fn checked_ponder(&self, best: Move, ponder: Option<Move>) -> Option<Move> {
        let ponder = ponder?;
        let mut child = self.root;
        child.make_move(best);
        child.check_move(ponder).ok()?;
        child.make_move(ponder);
        (!child.legal_moves().is_empty()).then_some(ponder)
    }

    /// Accept or offer a draw, or resign, with the move scored `score`.
    fn verdict(&self, score: i32) -> Option<Verdict> {
        let p = &self.policy;
        if p.draws {
            if self.draw_offered.load(Ordering::Acquire) && score <= p.accept_score {
                return Some(Verdict::AcceptDraw);
            }
            let long_and_level =
                p.offer_plies > 0 && self.root.rule60_count() >= p.offer_plies && score.abs() <= p.offer_score;
            if self.root.is_dead_draw() || long_and_level {
                return Some(Verdict::OfferDraw);
            }
        }
        (p.resign && self.should_resign(score)).then_some(Verdict::Resign)
    }

    fn should_resign(&self, score: i32) -> bool {
        let p = &self.policy;
        let mated = is_loss(score);
        match p.resign_mode {
            ResignMode::Never => false,
            ResignMode::Mated => mated,
            ResignMode::Score => {
                // This answer and the `resign_moves - 1` before it.
                let earlier = p.resign_moves.saturating_sub(1);
                let lost_long = score <= p.resign_score
                    && self.earlier_scores.len() >= earlier
                    && self.earlier_scores[self.earlier_scores.len() - earlier..].iter().all(|&s| s <= p.resign_score);
                mated || lost_long
            }
        }
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

impl Listener for ProtocolListener {
    fn iteration(&self, it: &Iteration) {
        match self.dialect {
            Dialect::Uci => {
                let score = match DisplayScore::of(it.score) {
                    DisplayScore::Cp(cp) => format!("cp {cp}"),
                    DisplayScore::Mate(m) => format!("mate {m}"),
                };
                let bound = match it.bound {
                    Some(Bound::Lower) => " lowerbound",
                    Some(Bound::Upper) => " upperbound",
                    _ => "",
                };
                let wdl = if self.show_wdl {
                    let (w, d, l) = wdl(it.score);
                    format!(" wdl {w} {d} {l}")
                } else {
                    String::new()
                };
                self.out.line(&format!(
                    "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
                    it.depth,
                    it.seldepth,
                    it.multipv,
                    it.nodes,
                    it.nps,
                    it.hashfull,
                    it.time_ms,
                    pv_text(&it.pv)
                ));
            }
            Dialect::Ucci => {
                if it.bound.is_some() {
                    return;
                }
                self.out.line(&format!("info depth {} score {} pv {}", it.depth, it.score, pv_text(&it.pv)));
                self.out.line(&format!("info time {} nodes {}", it.time_ms, it.nodes));
            }
        }
    }

    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        match self.dialect {
            Dialect::Uci => self.out.line(&format!("info depth {depth} currmove {mv} currmovenumber {number}")),
            Dialect::Ucci => self.out.line(&format!("info currmove {mv}")),
        }
    }

    fn message(&self, text: &str) {
        self.out.info(text);
    }

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>, score: i32) {
        let line = self.answer_line(best, ponder, score);
        // Marked first: once the GUI can read the answer, its next command
        // must find the search over.
        self.answered.store(true, Ordering::Release);
        self.out.line(&line);
    }
}

impl ProtocolListener {
    fn answer_line(&self, best: Option<Move>, ponder: Option<Move>, score: i32) -> String {
        let Some(best) = best else {
            return match self.dialect {
                Dialect::Uci => "bestmove (none)",
                Dialect::Ucci => "nobestmove",
            }
            .to_string();
        };
        let mut line = format!("bestmove {best}");
        if let Some(p) = self.checked_ponder(best, ponder) {
            line.push_str(&format!(" ponder {p}"));
        }
        // Draw and resign words exist only in UCCI (a UCI GUI would read
        // token 3 as the ponder move), and come after the ponder move. UCI
        // gets a hint the user can read.
        match (self.dialect, self.verdict(score)) {
            (_, None) => {}
            (Dialect::Ucci, Some(Verdict::AcceptDraw | Verdict::OfferDraw)) => line.push_str(" draw"),
            (Dialect::Ucci, Some(Verdict::Resign)) => line.push_str(" resign"),
            (Dialect::Uci, Some(v)) => self.out.info(match v {
                Verdict::AcceptDraw => "Chariot would accept a draw",
                Verdict::OfferDraw => "Chariot would offer a draw",
                Verdict::Resign => "Chariot would resign",
            }),
        }
        line
    }
}

/// The UCCI `probe` answer for `pos`.
pub fn pophash(engine: &Engine, pos: &Position) -> String {
    let Some(t) = engine.probe_tt(pos.key()) else { return "pophash".to_string() };
    let mut s = "pophash".to_string();
    if let Some(m) = t.mv.filter(|&m| pos.check_move(m).is_ok()) {
        s.push_str(&format!(" bestmove {m}"));
    }
    match t.bound {
        Bound::Lower => s.push_str(&format!(" lowerbound {} depth {}", t.score, t.depth)),
        Bound::Upper => s.push_str(&format!(" upperbound {} depth {}", t.score, t.depth)),
        Bound::Exact => {
            s.push_str(&format!(" lowerbound {} depth {} upperbound {} depth {}", t.score, t.depth, t.score, t.depth))
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_adds_up_and_is_monotone() {
        let mut last_w = 0;
        for s in (-2000..=2000).step_by(50) {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
            assert!(w >= last_w);
            last_w = w;
        }
        assert_eq!(wdl(0).0, wdl(0).2);
    }
}
