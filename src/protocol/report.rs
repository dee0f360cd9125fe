//! Formatting what the search reports, per dialect.

use super::{Dialect, Output};
use crate::engine::Engine;
use crate::position::Position;
use crate::search::params::{MATE, MATE_BOUND};
use crate::search::{Bound, DisplayScore, Iteration, Listener, display_score};
use crate::types::Move;
use std::sync::Arc;

/// Accept an offered draw when our score is no better than this.
const DRAW_ACCEPT_MAX: i32 = 30;
/// Resign (UCCI) only when the search sees a forced mate against us.
const RESIGN_BELOW: i32 = -MATE_BOUND;

pub struct ProtocolListener {
    out: Arc<Output>,
    dialect: Dialect,
    show_wdl: bool,
    draw_offered: bool,
    draw_offers: bool,
    resign: bool,
}

impl ProtocolListener {
    pub fn new(
        out: Arc<Output>,
        dialect: Dialect,
        show_wdl: bool,
        draw_offered: bool,
        draw_offers: bool,
        resign: bool,
    ) -> ProtocolListener {
        ProtocolListener { out, dialect, show_wdl, draw_offered, draw_offers, resign }
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Win/draw/loss per mille from a score (a logistic model of the score).
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if score >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let f = |x: f64| 1000.0 / (1.0 + ((150.0 - x) / 70.0).exp());
    let w = f(score as f64).round() as u32;
    let l = f(-score as f64).round() as u32;
    (w, 1000 - w - l, l)
}

impl Listener for ProtocolListener {
    fn iteration(&self, it: &Iteration) {
        match self.dialect {
            Dialect::Uci => {
                let score = match display_score(it.score) {
                    DisplayScore::Centipawns(cp) => format!("cp {cp}"),
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

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>, score: i32) {
        let Some(best) = best else {
            self.out.line(match self.dialect {
                Dialect::Uci => "bestmove (none)",
                Dialect::Ucci => "nobestmove",
            });
            return;
        };
        let mut line = format!("bestmove {best}");
        if let Some(p) = ponder {
            line.push_str(&format!(" ponder {p}"));
        }
        // Draw and resign words exist only in UCCI (a UCI GUI would read
        // token 3 as the ponder move).
        if self.dialect == Dialect::Ucci {
            if self.draw_offered && self.draw_offers && score <= DRAW_ACCEPT_MAX {
                line.push_str(" draw");
            } else if self.resign && score <= RESIGN_BELOW && score > -MATE {
                line.push_str(" resign");
            }
        }
        self.out.line(&line);
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
