//! Search scores: centipawns from the side to move's point of view, with
//! mates as values near ±[`MATE`]. A mate `n` plies from the root scores
//! `MATE - n` for the side that mates and `-MATE + n` for the side mated,
//! so a shorter mate is a better score.
//!
//! Every rule about those values lives here: what counts as a mate, how
//! many moves away it is (UCI's `score mate N`), how the transposition
//! table stores it, and how evaluations are kept out of the mate range.

/// Above every score the search can return: the open window's edges.
pub const INFINITE: i32 = 32_000;
/// The score of the side that mates at the root (no ply to go).
pub const MATE: i32 = 30_000;
/// Mate distances in plies that scores can carry: twice the search's
/// deepest ply, so a mate found beyond the horizon through the
/// transposition table still reads as a mate.
pub const MAX_MATE_PLIES: i32 = 256;
/// Scores at or beyond this (either sign) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_MATE_PLIES;

// Mates lie inside the open window, and the TT and the training data
// keep scores in 16 bits.
const _: () = assert!(0 < MATE_BOUND && MATE < INFINITE && INFINITE <= i16::MAX as i32);

/// The score of mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of being mated in `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// A mate for either side.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// The side to move mates.
#[inline]
pub const fn is_win(score: i32) -> bool {
    score >= MATE_BOUND
}

/// The side to move is mated.
#[inline]
pub const fn is_loss(score: i32) -> bool {
    score <= -MATE_BOUND
}

/// Plies from the root to the mate, for either side; `None` if no mate.
pub const fn mate_plies(score: i32) -> Option<i32> {
    if is_mate(score) { Some(MATE - score.abs()) } else { None }
}

/// Moves to the mate as UCI's `score mate N` counts them: positive when
/// the side to move mates (its moves, the mating one included), negative
/// when it is mated (the opponent's moves); `None` if no mate.
pub const fn mate_moves(score: i32) -> Option<i32> {
    if is_win(score) {
        Some((MATE - score + 1) / 2)
    } else if is_loss(score) {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

/// A score as a GUI or a report shows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DisplayScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves, as [`mate_moves`] counts them: negative
    /// when the side to move is mated. 0: decided at the root (a
    /// repetition verdict); the sign of the score says for whom.
    Mate(i32),
}

impl DisplayScore {
    pub const fn of(score: i32) -> DisplayScore {
        match mate_moves(score) {
            Some(moves) => DisplayScore::Mate(moves),
            None => DisplayScore::Cp(score),
        }
    }
}

/// Win/draw/loss per mille from a score (a logistic model of the score),
/// as UCI's `info ... wdl` and the browser board show it.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if is_win(score) {
        return (1000, 0, 0);
    }
    if is_loss(score) {
        return (0, 0, 1000);
    }
    let f = |x: f64| 1000.0 / (1.0 + ((150.0 - x) / 70.0).exp());
    let w = f(score as f64).round() as u32;
    let l = f(-score as f64).round() as u32;
    (w, 1000 - w - l, l)
}

/// Centipawns as pawns with a sign and two decimals: `+0.35`, `-1.20`.
pub fn pawns_text(cp: i32) -> String {
    format!("{:+.2}", f64::from(cp) / 100.0)
}

/// The score to store in the transposition table at `ply`: mates counted
/// from the stored node rather than the root, so the entry is right
/// wherever the position comes up again.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if is_win(score) {
        score + ply as i32
    } else if is_loss(score) {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`: the inverse of [`to_tt`].
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if is_win(score) {
        score - ply as i32
    } else if is_loss(score) {
        score + ply as i32
    } else {
        score
    }
}

/// An evaluation kept clear of the mate range, so it never reads as a mate.
#[inline]
pub const fn clamp_eval(eval: i32) -> i32 {
    if eval >= MATE_BOUND {
        MATE_BOUND - 1
    } else if eval <= -MATE_BOUND {
        1 - MATE_BOUND
    } else {
        eval
    }
}

/// A score in 16 bits (TT entries, training records). Search scores lie
/// within ±[`INFINITE`] and always fit; anything beyond saturates instead
/// of wrapping into a score of the other sign.
#[inline]
pub const fn to_i16(score: i32) -> i16 {
    if score > i16::MAX as i32 {
        i16::MAX
    } else if score < i16::MIN as i32 {
        i16::MIN
    } else {
        score as i16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = MAX_MATE_PLIES as usize;

    #[test]
    fn mate_in_and_mated_in_are_mates_at_every_distance() {
        for ply in 0..MAX {
            let (win, loss) = (mate_in(ply), mated_in(ply));
            assert_eq!(win, -loss);
            assert!(is_mate(win) && is_win(win) && !is_loss(win), "ply {ply}");
            assert!(is_mate(loss) && is_loss(loss) && !is_win(loss), "ply {ply}");
            assert_eq!(mate_plies(win), Some(ply as i32));
            assert_eq!(mate_plies(loss), Some(ply as i32));
        }
        // One ply further is no longer a mate score.
        assert!(!is_mate(mate_in(MAX + 1)) && !is_mate(mated_in(MAX + 1)));
        assert_eq!(mate_in(MAX), MATE_BOUND);
        assert!(mate_in(1) > mate_in(3), "a shorter mate scores higher");
        assert!(mated_in(1) < mated_in(3), "a longer defence scores higher");
    }

    #[test]
    fn boundary_values() {
        assert!(is_win(MATE_BOUND) && !is_win(MATE_BOUND - 1));
        assert!(is_loss(-MATE_BOUND) && !is_loss(1 - MATE_BOUND));
        assert_eq!(mate_plies(MATE_BOUND - 1), None);
        assert_eq!(mate_plies(0), None);
        assert_eq!(mate_moves(MATE_BOUND - 1), None);
        assert_eq!(mate_moves(1 - MATE_BOUND), None);
        assert_eq!(DisplayScore::of(MATE_BOUND - 1), DisplayScore::Cp(MATE_BOUND - 1));
        assert_eq!(DisplayScore::of(-35), DisplayScore::Cp(-35));
    }

    #[test]
    fn mate_moves_count_the_moves_of_the_mating_side() {
        // The side to move mates with its 1st, 2nd, 3rd move: plies 1, 3, 5.
        assert_eq!(mate_moves(mate_in(1)), Some(1));
        assert_eq!(mate_moves(mate_in(3)), Some(2));
        assert_eq!(mate_moves(mate_in(5)), Some(3));
        // Mated after the opponent's 1st, 2nd move: plies 2, 4.
        assert_eq!(mate_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_moves(mated_in(4)), Some(-2));
        // Decided at the root: 0 either way, the sign of the score tells.
        assert_eq!(mate_moves(mate_in(0)), Some(0));
        assert_eq!(mate_moves(mated_in(0)), Some(0));
        assert_eq!(DisplayScore::of(mate_in(3)), DisplayScore::Mate(2));
        assert_eq!(DisplayScore::of(mated_in(4)), DisplayScore::Mate(-2));
        for ply in 1..MAX {
            let (win, loss) = (mate_moves(mate_in(ply)).unwrap(), mate_moves(mated_in(ply)).unwrap());
            assert!(win > 0 && loss <= 0, "ply {ply}: {win} {loss}");
            assert_eq!(win, (ply as i32 + 1) / 2);
            assert_eq!(loss, -(ply as i32 / 2));
        }
    }

    #[test]
    fn tt_adjustment_round_trips_at_every_ply() {
        let scores = [0, 1, -1, 250, -250, MATE_BOUND - 1, 1 - MATE_BOUND];
        for ply in 0..128 {
            for s in scores {
                assert_eq!(to_tt(s, ply), s, "not a mate: stored as it is");
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
            // Mates reachable from this ply (the node at `ply` mates in
            // `d` more plies) round-trip and are stored as from the node.
            for d in 0..128 {
                let (win, loss) = (mate_in(ply + d), mated_in(ply + d));
                assert_eq!(to_tt(win, ply), mate_in(d));
                assert_eq!(to_tt(loss, ply), mated_in(d));
                assert_eq!(from_tt(to_tt(win, ply), ply), win);
                assert_eq!(from_tt(to_tt(loss, ply), ply), loss);
                // Read back at another ply: the same mate from there.
                assert_eq!(from_tt(to_tt(win, ply), d), mate_in(2 * d));
            }
        }
    }

    #[test]
    fn evaluations_stay_out_of_the_mate_range() {
        for e in [i32::MIN + 1, -MATE, -MATE_BOUND, 1 - MATE_BOUND, 0, 999, MATE_BOUND - 1, MATE_BOUND, MATE, i32::MAX]
        {
            let c = clamp_eval(e);
            assert!(!is_mate(c), "{e} -> {c}");
            if !is_mate(e) {
                assert_eq!(c, e);
            }
        }
        assert_eq!(clamp_eval(MATE), MATE_BOUND - 1);
        assert_eq!(clamp_eval(-MATE), 1 - MATE_BOUND);
    }

    #[test]
    fn to_i16_keeps_search_scores_and_saturates_beyond() {
        for s in [-INFINITE, -MATE, mated_in(7), -1, 0, 1, mate_in(7), MATE, INFINITE] {
            assert_eq!(i32::from(to_i16(s)), s);
        }
        assert_eq!(to_i16(40_000), i16::MAX);
        assert_eq!(to_i16(-40_000), i16::MIN);
        assert_eq!(to_i16(i32::MAX), i16::MAX);
    }

    #[test]
    fn pawns_text_has_a_sign_and_two_decimals() {
        assert_eq!(pawns_text(35), "+0.35");
        assert_eq!(pawns_text(-120), "-1.20");
        assert_eq!(pawns_text(0), "+0.00");
    }
}
