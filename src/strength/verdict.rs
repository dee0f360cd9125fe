//! When the engine offers or accepts a draw, or resigns, with its move:
//! the `drawoffers`/`resign` options and their thresholds. The protocol
//! says it on `bestmove` (UCCI) or in an `info string` (UCI); the browser
//! board shows it to the player.

use crate::position::Position;
use crate::types::score::is_loss;

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
pub enum Verdict {
    AcceptDraw,
    OfferDraw,
    Resign,
}

impl DrawPolicy {
    /// Accept or offer a draw, or resign, with a move scored `score` in
    /// `root`. `earlier_scores`: our scores at the earlier moves of the
    /// game, oldest first; `draw_offered`: the opponent offers one.
    pub fn verdict(&self, root: &Position, score: i32, earlier_scores: &[i32], draw_offered: bool) -> Option<Verdict> {
        if self.draws {
            if draw_offered && score <= self.accept_score {
                return Some(Verdict::AcceptDraw);
            }
            let long_and_level =
                self.offer_plies > 0 && root.rule60_count() >= self.offer_plies && score.abs() <= self.offer_score;
            if root.is_dead_draw() || long_and_level {
                return Some(Verdict::OfferDraw);
            }
        }
        (self.resign && self.should_resign(score, earlier_scores)).then_some(Verdict::Resign)
    }

    fn should_resign(&self, score: i32, earlier_scores: &[i32]) -> bool {
        let mated = is_loss(score);
        match self.resign_mode {
            ResignMode::Never => false,
            ResignMode::Mated => mated,
            ResignMode::Score => {
                // This answer and the `resign_moves - 1` before it.
                let earlier = self.resign_moves.saturating_sub(1);
                let lost_long = score <= self.resign_score
                    && earlier_scores.len() >= earlier
                    && earlier_scores[earlier_scores.len() - earlier..].iter().all(|&s| s <= self.resign_score);
                mated || lost_long
            }
        }
    }
}
