//! The staged move picker: hands the search its moves best first and
//! generates them only as far as the search goes. Most nodes cut off on the
//! hash move or a good capture, so quiet moves are generated (and the
//! histories read) only at nodes that need them, and static exchange
//! evaluation runs only on the captures actually reached.
//!
//! Stages at a node not in check: the hash move; captures by victim value
//! and capture history, a capture losing material by SEE put aside; the
//! killers and the counter-move; the quiet moves by their histories; the
//! captures put aside. In check: the hash move, then every evasion, scored.
//! Quiescence: the hash move if it captures, then the captures (the search
//! does its own SEE test there). Out of check the moves are generated
//! pseudo-legal and tested for legality one by one as they come up.

use super::history::{ThreadTables, piece_to};
use super::params::SearchParams;
use crate::position::{GenType, LegalityMasks, Position, SEE_VALUE};
use crate::types::{MAX_MOVES, Move, MoveList, Square};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    GenerateEvasions,
    Evasions,
    Done,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Main,
    Evasion,
    Quiescence,
}

/// The earlier moves of the line whose continuation histories score the
/// quiet moves here (one, two and four plies back), as (piece, destination)
/// indexes; `None` where there is no such move (root, null move).
pub type Earlier = [Option<usize>; 3];

pub struct MovePicker {
    stage: Stage,
    mode: Mode,
    tt_move: Option<Move>,
    /// Killers and the counter-move, in that order (at most three, distinct,
    /// quiet); `refutation_index` walks them.
    refutations: [Option<Move>; 3],
    refutation_index: usize,
    /// The refutations handed out, so the quiet stage skips them.
    emitted: [Option<Move>; 3],
    earlier: Earlier,
    moves: MoveList,
    /// The scores of `moves`, index by index (filled as they are scored,
    /// not zeroed first: a picker is made at every node).
    scores: arrayvec::ArrayVec<i32, MAX_MOVES>,
    /// The quiet moves as sort keys (see the quiet stages).
    quiet_keys: arrayvec::ArrayVec<u64, MAX_MOVES>,
    next: usize,
    bad_captures: MoveList,
    bad_next: usize,
    skip_quiets: bool,
    /// Out of check, captures and quiets are generated pseudo-legal and
    /// each is tested only when its turn comes (most nodes cut off
    /// first): these masks make most of the tests free.
    masks: LegalityMasks,
}

/// Victim first, then the cheaper attacker (most valuable victim, least
/// valuable attacker).
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
    let attacker = pos.piece_on(m.from()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
    victim * 8 - attacker / 16
}

impl MovePicker {
    /// A picker for an interior node of the main search.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        earlier: Earlier,
    ) -> MovePicker {
        let mut refutations = [None; 3];
        let mut n = 0;
        for m in [killers[0], killers[1], counter].into_iter().flatten() {
            if Some(m) != tt_move && !refutations.contains(&Some(m)) {
                refutations[n] = Some(m);
                n += 1;
            }
        }
        let mode = if pos.in_check() { Mode::Evasion } else { Mode::Main };
        MovePicker::with(mode, tt_move, refutations, earlier)
    }

    /// A picker for quiescence search: captures only (every evasion when in
    /// check).
    pub fn quiescence(pos: &Position, tt_move: Option<Move>, earlier: Earlier) -> MovePicker {
        let in_check = pos.in_check();
        let mode = if in_check { Mode::Evasion } else { Mode::Quiescence };
        // Out of check only a capturing hash move belongs here.
        let tt_move = tt_move.filter(|&m| in_check || pos.piece_on(m.to()).is_some());
        MovePicker::with(mode, tt_move, [None; 3], earlier)
    }

    fn with(mode: Mode, tt_move: Option<Move>, refutations: [Option<Move>; 3], earlier: Earlier) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            mode,
            tt_move,
            refutations,
            refutation_index: 0,
            emitted: [None; 3],
            earlier,
            moves: MoveList::new(),
            scores: arrayvec::ArrayVec::new(),
            quiet_keys: arrayvec::ArrayVec::new(),
            next: 0,
            bad_captures: MoveList::new(),
            bad_next: 0,
            skip_quiets: false,
            masks: LegalityMasks::default(),
        }
    }

    /// From now on no more quiet moves (the bad captures still come).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move to search, or `None` when every legal move has been
    /// handed out (or skipped), ordered by `params`' weights. Every move
    /// handed out is legal.
    pub fn next(&mut self, pos: &Position, tables: &ThreadTables, params: &SearchParams) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = match self.mode {
                        Mode::Evasion => Stage::GenerateEvasions,
                        Mode::Main | Mode::Quiescence => Stage::GenerateCaptures,
                    };
                    match self.tt_move {
                        Some(m) if pos.is_pseudo_legal(m) && pos.is_legal_full(m) => return Some(m),
                        _ => self.tt_move = None,
                    }
                }
                Stage::GenerateCaptures => {
                    self.masks = pos.legality_masks();
                    self.moves.clear();
                    pos.pseudo_moves(GenType::Captures, &mut self.moves);
                    self.remove_tt_move();
                    self.scores.clear();
                    for &m in &self.moves {
                        self.scores.push(mvv_lva(pos, m) * params.capture_victim_weight + tables.capture(pos, m));
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while self.next < self.moves.len() {
                        let m = self.select_best();
                        if !pos.is_legal(m, &self.masks) {
                            continue;
                        }
                        // Quiescence does its own SEE test.
                        if self.mode == Mode::Quiescence || pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad_captures.push(m);
                    }
                    self.stage = if self.mode == Mode::Quiescence { Stage::Done } else { Stage::Refutations };
                }
                Stage::Refutations => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    while self.refutation_index < self.refutations.len() {
                        let i = self.refutation_index;
                        self.refutation_index += 1;
                        if let Some(m) = self.refutations[i]
                            && pos.piece_on(m.to()).is_none()
                            && pos.is_pseudo_legal(m)
                            && pos.is_legal_full(m)
                        {
                            self.emitted[i] = Some(m);
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.moves.clear();
                    pos.pseudo_moves(GenType::Quiets, &mut self.moves);
                    let skip = [self.tt_move, self.emitted[0], self.emitted[1], self.emitted[2]];
                    self.moves.retain(|m| !skip.contains(&Some(*m)));
                    // One integer a move: the score, order reversed so that
                    // the best is the smallest, above the move's bits, so
                    // that equal scores come in move order whatever the
                    // generation order (a deterministic search).
                    self.quiet_keys.clear();
                    for &m in &self.moves {
                        let best_first = !((self.quiet_score(pos, tables, params, m) as u32) ^ 0x8000_0000);
                        self.quiet_keys.push((u64::from(best_first) << 16) | u64::from(m.bits()));
                    }
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    while !self.skip_quiets && self.next < self.quiet_keys.len() {
                        // The smallest key left comes next, found when asked:
                        // most nodes take only the first few quiets, so
                        // sorting them all would be mostly wasted.
                        let rest = &mut self.quiet_keys[self.next..];
                        let smallest = (0..rest.len()).min_by_key(|&i| rest[i]).expect("a key is left");
                        rest.swap(0, smallest);
                        let bits = rest[0] as u16;
                        let m = Move::between(
                            Square::from_index(usize::from(bits & 0x7F)),
                            Square::from_index(usize::from(bits >> 7)),
                        );
                        self.next += 1;
                        if pos.is_legal(m, &self.masks) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad_captures.len() {
                        self.bad_next += 1;
                        return Some(self.bad_captures[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    pos.legal_moves_into(GenType::All, &mut self.moves);
                    self.remove_tt_move();
                    self.scores.clear();
                    for &m in &self.moves {
                        let score = if pos.piece_on(m.to()).is_some() {
                            (1 << 28) + mvv_lva(pos, m)
                        } else {
                            self.quiet_score(pos, tables, params, m)
                        };
                        self.scores.push(score);
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if self.next < self.moves.len() {
                        return Some(self.select_best());
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    fn remove_tt_move(&mut self) {
        if let Some(tt) = self.tt_move {
            self.moves.retain(|m| *m != tt);
        }
    }

    /// The histories' weighted sum (only the order among quiet moves
    /// counts, so the weights' scale is free).
    fn quiet_score(&self, pos: &Position, tables: &ThreadTables, params: &SearchParams, m: Move) -> i32 {
        let own = piece_to(pos, m);
        let [one, two, four] = self.earlier;
        params.quiet_main_weight * tables.main(pos, m)
            + one.map_or(0, |e| params.quiet_cont1_weight * tables.continuation(e, own))
            + two.map_or(0, |e| params.quiet_cont2_weight * tables.continuation(e, own))
            + four.map_or(0, |e| params.quiet_cont4_weight * tables.continuation(e, own))
    }

    /// Moves the best-scored of the remaining moves to `next` and returns
    /// it (ties: the lower move bits, for determinism).
    fn select_best(&mut self) -> Move {
        let i = self.next;
        let mut best = i;
        for j in i + 1..self.moves.len() {
            let better = self.scores[j] > self.scores[best]
                || (self.scores[j] == self.scores[best] && self.moves[j].bits() < self.moves[best].bits());
            if better {
                best = j;
            }
        }
        self.scores.swap(i, best);
        self.moves.swap(i, best);
        self.next += 1;
        self.moves[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;

    fn all_moves(picker: &mut MovePicker, pos: &Position) -> Vec<Move> {
        let tables = ThreadTables::default();
        std::iter::from_fn(|| picker.next(pos, &tables, &SearchParams::default())).collect()
    }

    fn sorted(mut v: Vec<Move>) -> Vec<u16> {
        let mut bits: Vec<u16> = v.drain(..).map(|m| m.bits()).collect();
        bits.sort();
        bits
    }

    const FENS: &[&str] = &[
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
        "3k5/9/9/9/9/9/9/3R5/9/4K4 b - - 0 1",
        "2bak4/4a4/4b4/9/4p4/9/9/9/4C4/3K5 b - - 0 1",
        "r2akab1r/9/1cn1b1nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 0 1",
        "3k5/4a4/5a3/9/9/6N2/4P4/9/9/4K4 w - - 0 1",
    ];

    /// The picker hands out every legal move exactly once, whatever the hash
    /// move and refutations (legal, illegal, captures, nonsense).
    #[test]
    fn every_legal_move_exactly_once() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let legal = pos.legal_moves().to_vec();
            let mut candidates: Vec<Option<Move>> = vec![None];
            candidates.extend(legal.iter().take(6).map(|&m| Some(m)));
            // Moves that are not legal here.
            candidates.push(Move::parse("a0a9"));
            candidates.push(Move::parse("e9e8"));
            candidates.push(Move::parse("e0e1"));
            for &tt in &candidates {
                for &k in &candidates {
                    let mut p = MovePicker::new(&pos, tt, [k, legal.last().copied()], tt, [None; 3]);
                    let got = all_moves(&mut p, &pos);
                    assert_eq!(sorted(got), sorted(legal.clone()), "{fen} tt {tt:?} killer {k:?}");
                }
                let mut q = MovePicker::quiescence(&pos, tt, [None; 3]);
                let got = all_moves(&mut q, &pos);
                let want: Vec<Move> = if pos.in_check() {
                    legal.clone()
                } else {
                    legal.iter().copied().filter(|m| pos.is_capture(*m)).collect()
                };
                assert_eq!(sorted(got), sorted(want), "quiescence {fen} tt {tt:?}");
            }
        }
    }

    #[test]
    fn hash_move_first_then_good_captures_then_quiets() {
        let pos = Position::from_fen(FENS[4]).unwrap();
        let legal = pos.legal_moves().to_vec();
        let tt = legal.iter().copied().find(|m| !pos.is_capture(*m)).unwrap();
        let mut p = MovePicker::new(&pos, Some(tt), [None; 2], None, [None; 3]);
        let got = all_moves(&mut p, &pos);
        assert_eq!(got[0], tt);
        let kinds: Vec<bool> = got[1..].iter().map(|&m| pos.is_capture(m) && pos.see_ge(m, 0)).collect();
        let first_other = kinds.iter().position(|&good| !good).unwrap_or(kinds.len());
        assert!(kinds[first_other..].iter().all(|&good| !good), "good captures come first: {got:?}");
    }

    #[test]
    fn skipping_quiets_still_gives_every_capture() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            if pos.in_check() {
                continue;
            }
            let tables = ThreadTables::default();
            let mut p = MovePicker::new(&pos, None, [None; 2], None, [None; 3]);
            p.skip_quiets();
            let got: Vec<Move> = std::iter::from_fn(|| p.next(&pos, &tables, &SearchParams::default())).collect();
            let want: Vec<Move> = pos.legal_moves().iter().copied().filter(|m| pos.is_capture(*m)).collect();
            assert_eq!(sorted(got), sorted(want), "{fen}");
        }
    }
}
