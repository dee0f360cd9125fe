//! Formatting what the search reports, per dialect.

use super::{Dialect, Output};
use crate::engine::Engine;
use crate::position::Position;
use crate::search::{Bound, Iteration, Listener};
use crate::strength::verdict::{DrawPolicy, Verdict};
use crate::types::Move;
use crate::types::score::{DisplayScore, wdl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
        self.policy.verdict(&self.root, score, &self.earlier_scores, self.draw_offered.load(Ordering::Acquire))
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
