//! The choice among the candidate moves of a limited search: a softmax over
//! the score loss, blind spots, and the guard against hanging pieces.

use super::{Params, Rng, Style};
use crate::position::{Position, SEE_VALUE};
use crate::types::{Move, PieceKind};
use std::collections::BTreeMap;

/// One principal variation of an iteration.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub(crate) struct Pick {
    /// The move played, with its score and line as the level saw them.
    pub line: Line,
    /// The depth of the iteration it was judged by.
    pub depth: i32,
    /// The position's score by the deepest iteration (for the resign and
    /// draw decisions, which concern the position, not the pick).
    pub judged_score: i32,
}

/// A pick that leaves more than this much extra material en prise, compared
/// with the best move, hangs a piece (a pawn may still be dropped).
const HANG_MARGIN: i32 = 150;
/// A candidate the deepest iteration scores within this of the best move is
/// sound whatever it leaves en prise: a sacrifice with a reason.
const SOUND_LOSS: i32 = 30;
/// ... provided that iteration is at least this deep: a one- or two-ply
/// search (the small budgets of the lowest ranks) has not looked past the
/// recapture, so its score says nothing about a sacrifice.
const SOUND_MIN_DEPTH: i32 = 3;
/// Centipawns added (risky) or taken (solid) for a sharp move.
const STYLE_BONUS: i32 = 15;

/// Picks a move from the completed iterations `by_depth` (each sorted best
/// first); `None` when there is none.
pub(crate) fn choose(
    root: &Position,
    by_depth: &BTreeMap<i32, Vec<Line>>,
    params: &Params,
    style: Style,
    rng: &mut Rng,
) -> Option<Pick> {
    let (&deepest, deep) = by_depth.iter().next_back()?;
    let best = deep.first()?;
    // Drawn every time, so one seed gives one sequence whatever the depth.
    let blind = rng.next_f64() < params.blind_chance;
    let wanted = if blind { (deepest - params.blind_plies).max(1) } else { deepest };
    let (depth, view) = by_depth.range(..=wanted).next_back().map_or((deepest, deep), |(&d, l)| (d, l));

    let deep_score = |m: Move| deep.iter().find(|l| l.mv == m).map(|l| l.score);
    let best_exposure = exposure(root, best.mv).max(0);
    let best_allows_mate = allows_mate_in_one(root, best.mv);
    let acceptable = |l: &Line| {
        !params.guard
            || l.mv == best.mv
            || (deepest >= SOUND_MIN_DEPTH && deep_score(l.mv).is_some_and(|s| s >= best.score - SOUND_LOSS))
            || (exposure(root, l.mv) - best_exposure < HANG_MARGIN
                && (best_allows_mate || !allows_mate_in_one(root, l.mv)))
    };
    let candidates: Vec<(&Line, f64)> = view
        .iter()
        .filter(|l| acceptable(l))
        .map(|l| (l, (l.score.saturating_add(style_bonus(root, l.mv, style))) as f64))
        .collect();
    let Some(top) = candidates.iter().map(|c| c.1).reduce(f64::max) else {
        return Some(Pick { line: best.clone(), depth: deepest, judged_score: best.score });
    };
    let chosen = if params.temperature <= 0.0 {
        candidates.iter().find(|c| c.1 == top).map(|c| c.0)
    } else {
        let weights: Vec<f64> = candidates.iter().map(|c| (-(top - c.1) / params.temperature).exp()).collect();
        let mut r = rng.next_f64() * weights.iter().sum::<f64>();
        let i = weights.iter().position(|&w| {
            r -= w;
            r < 0.0
        });
        Some(candidates[i.unwrap_or(0)].0)
    }?;
    Some(Pick { line: chosen.clone(), depth, judged_score: best.score })
}

/// Material the opponent can win at once after `m` (its best capture by
/// SEE), less what `m` itself captured.
pub fn exposure(root: &Position, m: Move) -> i32 {
    let gained = root.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
    let mut after = *root;
    after.make_move(m);
    let threat = after
        .legal_moves()
        .into_iter()
        .filter(|&c| after.is_capture(c))
        .map(|c| see_gain(&after, c))
        .max()
        .unwrap_or(0)
        .max(0);
    threat - gained
}

/// The exchange result of the capture `m` (the largest threshold `see_ge`
/// accepts), found by bisection: one exchange wins or loses at most a rook.
fn see_gain(pos: &Position, m: Move) -> i32 {
    let rook = SEE_VALUE[PieceKind::Rook.index()];
    let (mut lo, mut hi) = (-rook, rook);
    if !pos.see_ge(m, lo) {
        return lo;
    }
    while lo < hi {
        let mid = (lo + hi + 1) / 2;
        if pos.see_ge(m, mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Whether the opponent has a move after `m` that leaves us without a legal
/// move (mate, or stalemate, which loses too).
pub fn allows_mate_in_one(root: &Position, m: Move) -> bool {
    let mut after = *root;
    after.make_move(m);
    after.legal_moves().into_iter().any(|r| {
        let mut p = after;
        p.make_move(r);
        !p.has_legal_move()
    })
}

fn style_bonus(root: &Position, m: Move, style: Style) -> i32 {
    let sharp = root.is_capture(m) || root.gives_check(m) || !root.side_to_move().own_half(m.to().rank());
    match (style, sharp) {
        (Style::Risky, true) => STYLE_BONUS,
        (Style::Solid, true) => -STYLE_BONUS,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("test FEN")
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("test move")
    }

    fn line(m: &str, score: i32) -> Line {
        Line { mv: mv(m), score, pv: vec![mv(m)] }
    }

    /// Red rook e3 in front of a black pawn on e5 (not crossed: it attacks
    /// e4 only); the kings are kept apart by the pawn.
    const ROOK_POS: &str = "3ak4/9/9/9/4p4/9/4R4/9/9/4K4 w - - 0 1";
    /// Black threatens ...h3g1 and ...h3f2, both mate (the horse checks, the
    /// rook on a1 covers e1, the advisors box the king in). Red's rook on g8
    /// stops both from f8 (taking on f2, or blocking the leg on f1).
    const MATE_THREAT: &str = "3k5/6R2/9/9/9/9/7n1/9/r8/3AKA3 w - - 0 1";

    #[test]
    fn exposure_counts_a_piece_left_en_prise_and_what_was_taken() {
        let p = pos(ROOK_POS);
        // e3e4 steps in front of the pawn, which takes it.
        assert_eq!(exposure(&p, mv("e3e4")), 1000);
        // e3e5 takes the pawn (with check); nothing takes back.
        assert_eq!(exposure(&p, mv("e3e5")), -100);
        assert_eq!(exposure(&p, mv("e3a3")), 0);
    }

    #[test]
    fn the_guard_rejects_hanging_the_rook_and_a_cold_choice_takes_the_best() {
        let p = pos(ROOK_POS);
        let mut by_depth = BTreeMap::new();
        by_depth.insert(3, vec![line("e3e5", 100), line("e3e4", 40), line("e3a3", 0)]);
        // With a huge temperature every candidate is about equally likely:
        // only the guard keeps the blunder out.
        let mut params = Params::for_elo(1500);
        params.temperature = 1e9;
        params.blind_chance = 0.0;
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            let pick = choose(&p, &by_depth, &params, Style::Normal, &mut rng).unwrap();
            assert_ne!(pick.line.mv, mv("e3e4"));
        }
        // 草民 has no guard: it does play the blunder sometimes.
        let mut weak = Params::for_elo(0);
        weak.temperature = 1e9;
        let hung = (0..200)
            .filter(|_| choose(&p, &by_depth, &weak, Style::Normal, &mut rng).unwrap().line.mv == mv("e3e4"))
            .count();
        assert!(hung > 20, "{hung}");
        // Temperature 0: always the best.
        assert_eq!(choose(&p, &by_depth, &Params::full(), Style::Normal, &mut rng).unwrap().line.mv, mv("e3e5"));
    }

    #[test]
    fn a_sacrifice_the_deep_search_likes_is_not_a_hanging_piece() {
        let p = pos(ROOK_POS);
        let mut by_depth = BTreeMap::new();
        by_depth.insert(3, vec![line("e3e5", 100), line("e3e4", 90)]);
        let mut params = Params::for_elo(1500);
        params.temperature = 1e9;
        params.blind_chance = 0.0;
        let mut rng = Rng::new(5);
        let played =
            (0..100).filter(|_| choose(&p, &by_depth, &params, Style::Normal, &mut rng).unwrap().line.mv == mv("e3e4"));
        assert!(played.count() > 10);
    }

    #[test]
    fn blind_spots_judge_by_a_shallower_iteration() {
        let p = pos(ROOK_POS);
        let mut by_depth = BTreeMap::new();
        by_depth.insert(1, vec![line("e3a3", 50), line("e3e5", 0)]);
        by_depth.insert(3, vec![line("e3e5", 100), line("e3a3", 0)]);
        let mut params = Params::full();
        params.blind_chance = 1.0;
        let pick = choose(&p, &by_depth, &params, Style::Normal, &mut Rng::new(3)).unwrap();
        assert_eq!((pick.line.mv, pick.depth, pick.judged_score), (mv("e3a3"), 1, 100));
        params.blind_chance = 0.0;
        assert_eq!(choose(&p, &by_depth, &params, Style::Normal, &mut Rng::new(3)).unwrap().line.mv, mv("e3e5"));
    }

    #[test]
    fn a_mate_in_one_for_the_opponent_is_refused_above_the_lowest_rank() {
        let p = pos(MATE_THREAT);
        assert!(allows_mate_in_one(&p, mv("g8a8")));
        assert!(!allows_mate_in_one(&p, mv("g8f8")));
        let mut by_depth = BTreeMap::new();
        by_depth.insert(3, vec![line("g8f8", 50), line("g8a8", 0)]);
        let mut params = Params::for_elo(1100);
        params.temperature = 1e9;
        params.blind_chance = 0.0;
        let mut rng = Rng::new(9);
        assert!(
            (0..100).all(|_| choose(&p, &by_depth, &params, Style::Normal, &mut rng).unwrap().line.mv == mv("g8f8"))
        );
    }

    #[test]
    fn style_favours_or_avoids_sharp_moves() {
        let p = pos(ROOK_POS);
        let mut by_depth = BTreeMap::new();
        by_depth.insert(3, vec![line("e3a3", 10), line("e3e5", 0)]);
        let cold = Params::full();
        let pick = |style| choose(&p, &by_depth, &cold, style, &mut Rng::new(1)).unwrap().line.mv;
        assert_eq!(pick(Style::Normal), mv("e3a3"));
        assert_eq!(pick(Style::Solid), mv("e3a3"));
        assert_eq!(pick(Style::Risky), mv("e3e5"));
    }
}
