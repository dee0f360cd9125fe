//! One search thread: iterative deepening, the root search, the PVS
//! recursion and quiescence search. Steps are numbered in comments.

use super::history::{ThreadTables, piece_to};
use super::params::*;
use super::picker::{Earlier, MovePicker, mvv_lva};
use super::{Context, GameHistory, Iteration};
use crate::eval;
use crate::nnue::AccumulatorStack;
use crate::position::{Position, SEE_VALUE};
use crate::rules::{CycleVerdict, PathEntry, judge_cycle, judge_cycle_full};
use crate::search::tt::Bound;
use crate::types::score::{
    INFINITE, clamp_eval, from_tt, is_loss, is_mate, is_win, mate_in, mate_plies, mated_in, to_tt,
};
use crate::types::{Move, MoveList, PieceKind};
use std::sync::atomic::Ordering;

struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Option<Bound>,
    seldepth: usize,
    pv: Vec<Move>,
}

pub(super) struct Worker<'a> {
    ctx: &'a Context<'a>,
    id: usize,
    root: Position,
    nodes: u64,
    flushed_nodes: u64,
    seldepth: usize,
    /// Game history then the search path; the last entry is the current node.
    path: Vec<PathEntry>,
    /// The move into each path entry (`None` for the history's base and for
    /// null moves), and how many plies each entry is after the last null move.
    path_moves: Vec<Option<Move>>,
    since_null: Vec<usize>,
    /// The position at the start of the history (path entry 0).
    history_base: Position,
    root_moves: Vec<RootMove>,
    completed_depth: i32,
    /// The first move of the last line reported.
    reported_best: Option<Move>,
    /// The iteration being searched (the check extension's reach depends
    /// on it).
    root_depth: i32,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The histories and counter-moves, kept by the searcher between moves.
    tables: ThreadTables,
    /// The (piece, destination) of the move played at each ply (`None`:
    /// null move), for continuation history and to know a null move.
    played_piece_to: [Option<usize>; MAX_PLY + 2],
    static_evals: [i32; MAX_PLY + 2],
    /// With a network: the accumulator of the node at each ply, computed
    /// from its parent's when the node is evaluated.
    accumulators: Option<AccumulatorStack>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// The tunable constants, copied here: read at every node, they stay
    /// one load away.
    params: SearchParams,
    lmr: &'a LmrTable,
    aborted: bool,
    /// Counts rule verdicts (a repetition cycle judged a win or loss) met in
    /// the search. Such scores depend on the path, not the position; a node
    /// whose mate-range score may come from one is not stored in the TT, so
    /// the verdict cannot leak to the same position reached another way.
    rule_verdicts: u64,
    /// Plies added to late-move reductions (`HelperExtraReduction` on odd
    /// helper threads, else 0).
    extra_reduction: i32,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        ctx: &'a Context<'a>,
        id: usize,
        game: &GameHistory,
        root_moves: &[Move],
        tables: ThreadTables,
    ) -> Worker<'a> {
        let (path, root_position) = game.replay();
        let root = &root_position;
        let path_moves: Vec<Option<Move>> = std::iter::once(None).chain(game.moves.iter().map(|&m| Some(m))).collect();
        let since_null: Vec<usize> = (0..path.len()).collect();
        // Order root moves once: captures by value first.
        let mut ordered: Vec<Move> = root_moves.to_vec();
        ordered.sort_by_key(|&m| std::cmp::Reverse(if root.is_capture(m) { mvv_lva(root, m) } else { 0 }));
        Worker {
            ctx,
            id,
            root: *root,
            nodes: 0,
            flushed_nodes: 0,
            seldepth: 0,
            path,
            path_moves,
            since_null,
            history_base: game.base,
            root_moves: ordered
                .into_iter()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    bound: None,
                    seldepth: 0,
                    pv: vec![mv],
                })
                .collect(),
            completed_depth: 0,
            reported_best: None,
            root_depth: 1,
            killers: [[None; 2]; MAX_PLY + 2],
            tables,
            played_piece_to: [None; MAX_PLY + 2],
            static_evals: [0; MAX_PLY + 2],
            accumulators: ctx.nnue.map(|net| AccumulatorStack::new(net, root, MAX_PLY + 2)),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            params: ctx.params,
            lmr: ctx.lmr,
            aborted: false,
            rule_verdicts: 0,
            extra_reduction: if id % 2 == 1 { ctx.params.helper_extra_reduction } else { 0 },
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// The tables, back to the searcher for the next search.
    pub(super) fn into_tables(self) -> ThreadTables {
        self.tables
    }

    // ------------------------------------------------------------ bookkeeping

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes - self.flushed_nodes >= TIME_CHECK_INTERVAL {
            self.ctx.nodes.fetch_add(self.nodes - self.flushed_nodes, Ordering::Relaxed);
            self.flushed_nodes = self.nodes;
            if self.is_main() {
                self.check_time();
            }
        }
        if self.is_main()
            && let Some(limit) = self.ctx.node_limit
            && self.total_nodes() >= limit
        {
            self.ctx.finish();
        }
    }

    fn total_nodes(&self) -> u64 {
        self.ctx.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed_nodes)
    }

    fn check_time(&self) {
        if let Some(budget) = self.ctx.budget
            && !self.ctx.pondering()
            && self.ctx.elapsed() >= budget.maximum
        {
            self.ctx.finish();
        }
    }

    /// Whether the search must unwind now. Once true for this worker it
    /// stays true, so partial results are never mistaken for real ones.
    #[inline]
    fn stopped(&mut self) -> bool {
        if !self.aborted && self.ctx.stopped() && self.completed_depth >= 1 {
            self.aborted = true;
        }
        self.aborted
    }

    /// Enters `child`, reached by `mv` (`None`: a null move).
    fn push(&mut self, child: &Position, mv: Option<Move>) {
        self.path.push(PathEntry { key: child.key(), checked: child.in_check() });
        self.path_moves.push(mv);
        let since = if mv.is_some() { self.since_null.last().map_or(0, |s| s + 1) } else { 0 };
        self.since_null.push(since);
    }

    fn pop(&mut self) {
        self.path.pop();
        self.path_moves.pop();
        self.since_null.pop();
    }

    /// The static evaluation of `pos`, the node at `ply`.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match (self.ctx.nnue, &mut self.accumulators) {
            // A network's output is kept clear of the mate scores.
            (Some(net), Some(stack)) => {
                let acc = stack.get(net, ply);
                // Debug builds check the incremental updates.
                debug_assert_eq!(*acc, crate::nnue::Accumulator::refresh(net, pos), "ply {ply}");
                clamp_eval(eval::network_score(pos, net.evaluate(acc, pos)))
            }
            _ => eval::evaluate(pos),
        }
    }

    /// With a network: the accumulator of the child at `ply + 1`, reached
    /// from `pos` by `mv` (`None`: a null move).
    #[inline]
    fn push_accumulator(&mut self, pos: &Position, mv: Option<Move>, ply: usize) {
        if let (Some(net), Some(stack)) = (self.ctx.nnue, &mut self.accumulators) {
            stack.push(net, pos, mv, ply);
        }
    }

    // ---------------------------------------------------------- deepening

    pub(super) fn iterate(&mut self) {
        let root = self.root;
        let multipv = self.ctx.multipv.min(self.root_moves.len());
        // Only the main thread's depth ends the search: a helper that got
        // there first searches on, so that its core keeps feeding the table.
        let last_depth = if self.is_main() { self.ctx.depth_limit } else { MAX_PLY as i32 - 1 };
        for depth in 1..=last_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.params.aspiration_delta;
                let (mut alpha, mut beta) = if depth >= self.params.aspiration_min_depth && !is_mate(prev) {
                    (prev - delta, prev + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.root_search(&root, alpha, beta, depth, pv_idx);
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        self.report(depth, pv_idx, Some(Bound::Upper));
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                        self.report(depth, pv_idx, Some(Bound::Lower));
                    } else {
                        break;
                    }
                    delta += delta;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
            self.completed_depth = depth;
            if self.is_main() {
                // Keep the root in the TT too (for `probe` and the next move).
                let eval = if root.in_check() { 0 } else { self.evaluate(&root, 0) };
                let best = &self.root_moves[0];
                self.ctx.tt.store(root.key(), Some(best.mv), to_tt(best.score, 0), eval, depth, Bound::Exact);
                for pv_idx in 0..multipv {
                    self.report(depth, pv_idx, None);
                }
                if self.should_stop_after_iteration(depth) {
                    self.ctx.finish();
                    break;
                }
            }
        }
        // A move that overtook the best one in an iteration cut short is the
        // answer: the GUI sees its line before the `bestmove`.
        if self.aborted && self.ctx.multipv == 1 && self.reported_best != Some(self.root_moves[0].mv) {
            self.report(self.root_depth, 0, None);
        }
        self.ctx.nodes.fetch_add(self.nodes - self.flushed_nodes, Ordering::Relaxed);
        self.flushed_nodes = self.nodes;
    }

    fn should_stop_after_iteration(&self, depth: i32) -> bool {
        let best = self.root_moves[0].score;
        if let Some(n) = self.ctx.mate_limit
            && best >= mate_in(2 * n as usize)
        {
            return true;
        }
        let Some(budget) = self.ctx.budget else { return false };
        if self.ctx.pondering() {
            return false;
        }
        // A single legal move needs no thought.
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        // A mate searched this far past its distance stays: the iterations
        // after it take no time, but each prints lines the GUI must read
        // (127 of them cost a loaded referee 150 ms).
        if let Some(plies) = mate_plies(best)
            && depth >= 2 * plies + MATE_STOP_EXTRA_DEPTH
        {
            return true;
        }
        // Time spent pondering counts as thinking already done, so measure
        // from the `go`, not from the ponderhit.
        self.ctx.start.elapsed() >= budget.optimum
    }

    fn report(&mut self, depth: i32, pv_idx: usize, bound: Option<Bound>) {
        if !self.is_main() {
            return;
        }
        if pv_idx == 0 {
            self.reported_best = Some(self.root_moves[0].mv);
        }
        if !self.ctx.listener.wants_reports() {
            return;
        }
        let rm = &self.root_moves[pv_idx];
        // Lines not searched yet at this depth show the previous score.
        let (score, d) = if rm.score == -INFINITE { (rm.prev_score, depth - 1) } else { (rm.score, depth) };
        if score == -INFINITE || d < 1 {
            return;
        }
        let elapsed = self.ctx.start.elapsed();
        let nodes = self.total_nodes();
        let ms = elapsed.as_millis() as u64;
        self.ctx.listener.iteration(&Iteration {
            depth: d,
            seldepth: rm.seldepth.max(d as usize),
            multipv: pv_idx + 1,
            score,
            bound,
            nodes,
            nps: if elapsed.as_secs_f64() > 0.0 { (nodes as f64 / elapsed.as_secs_f64()) as u64 } else { 0 },
            hashfull: self.ctx.tt.hashfull(),
            time_ms: ms,
            pv: rm.pv.clone(),
        });
    }

    /// This thread's answer for the vote.
    pub(super) fn vote(&self) -> Option<(Move, i32, i32)> {
        (self.completed_depth > 0).then(|| (self.root_moves[0].mv, self.root_moves[0].score, self.completed_depth))
    }

    /// The best move, the ponder move, score and depth: the main thread's
    /// choice, or the helpers' when their vote outweighs it.
    pub(super) fn best_with_votes(&self) -> (Move, Option<Move>, i32, i32) {
        let rm = &self.root_moves[0];
        let main = (rm.mv, rm.pv.get(1).copied(), rm.score, self.completed_depth);
        let votes = self.ctx.votes.lock().unwrap_or_else(|e| e.into_inner());
        if votes.is_empty() || self.ctx.multipv > 1 || self.completed_depth == 0 {
            return main;
        }
        let mut all: Vec<(Move, i32, i32)> = votes.clone();
        all.push((rm.mv, rm.score, self.completed_depth));
        let min_score = all.iter().map(|v| v.1).min().unwrap_or(0);
        let weight = |v: &(Move, i32, i32)| (v.1 - min_score + 14) as i64 * v.2 as i64;
        let tally = |m: Move| all.iter().filter(|v| v.0 == m).map(weight).sum::<i64>();
        let best = all.iter().max_by_key(|v| (tally(v.0), v.2, v.1)).map(|v| v.0).unwrap_or(rm.mv);
        if best == rm.mv {
            return main;
        }
        let (score, depth) =
            all.iter().filter(|v| v.0 == best).map(|v| (v.1, v.2)).max_by_key(|v| v.1).unwrap_or((0, 0));
        (best, None, score, depth)
    }

    // ---------------------------------------------------------------- root

    fn root_search(&mut self, root: &Position, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        // Scores from the previous iteration must not outrank this one's: a
        // move keeps a score only once searched at this depth, so an aborted
        // iteration leaves the previous best move on top.
        for rm in &mut self.root_moves[pv_idx + 1..] {
            rm.score = -INFINITE;
        }
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.is_main() && self.ctx.listener.wants_reports() && self.ctx.start.elapsed().as_millis() > 3000 {
                self.ctx.listener.current_move(depth, m, i + 1);
            }
            let mut child = *root;
            child.make_move(m);
            self.push(&child, Some(m));
            self.push_accumulator(root, Some(m), 0);
            self.played_piece_to[0] = Some(piece_to(root, m));
            let new_depth = depth - 1 + child.in_check() as i32;
            let score = if i == pv_idx {
                -self.search(&child, -beta, -alpha, new_depth, 1, true)
            } else {
                let quiet = !root.is_capture(m) && !child.in_check();
                let r = if depth >= self.params.lmr_min_depth && quiet && i >= pv_idx + 3 {
                    self.lmr[depth as usize][i.min(63)].clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.search(&child, -alpha - 1, -alpha, new_depth - r, 1, false);
                if s > alpha && r > 0 {
                    s = -self.search(&child, -alpha - 1, -alpha, new_depth, 1, false);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, -beta, -alpha, new_depth, 1, true);
                }
                s
            };
            self.pop();
            if self.stopped() {
                break;
            }
            let seldepth = self.seldepth;
            let rm = &mut self.root_moves[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = seldepth;
                rm.bound = if score >= beta {
                    Some(Bound::Lower)
                } else if score <= alpha {
                    Some(Bound::Upper)
                } else {
                    None
                };
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                rm.pv.extend(self.pv[1][1..len].iter().flatten());
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        best
    }

    // --------------------------------------------------------------- rules

    /// A score decided by the rules, before any search: repetition cycles,
    /// the 60-move limit and dead positions.
    fn rule_score(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let n = self.path.len();
        // A cycle cannot span a capture or a null move.
        let since_null = self.since_null.last().copied().unwrap_or(0);
        let window = (pos.rule60_count() as usize).min(n - 1).min(since_null);
        let key = pos.key();
        let mut back = 4;
        while back <= window {
            if self.path[n - 1 - back].key == key {
                let verdict = self.judge_repetition(n - 1 - back);
                if verdict != CycleVerdict::Draw {
                    self.rule_verdicts += 1;
                }
                return Some(match verdict {
                    CycleVerdict::Draw => 0,
                    CycleVerdict::SideToMoveWins => mate_in(ply),
                    CycleVerdict::SideToMoveLoses => mated_in(ply),
                });
            }
            back += 2;
        }
        if pos.rule60_count() >= 120 || pos.is_dead_draw() {
            return Some(0);
        }
        None
    }

    /// Judges the cycle from path entry `start` to the current node. The
    /// cheap perpetual-check test decides most cycles; the rulebook (chases,
    /// mate threats) is asked only when that one calls it a draw.
    fn judge_repetition(&self, start: usize) -> CycleVerdict {
        let quick = judge_cycle(&self.path[start..]);
        if quick != CycleVerdict::Draw {
            return quick;
        }
        let moves: Option<Vec<Move>> = self.path_moves[start + 1..].iter().copied().collect();
        match moves {
            Some(moves) => judge_cycle_full(&self.position_at(start), &moves),
            None => quick,
        }
    }

    /// The position at path entry `index`, replayed from the history's base
    /// (the rulebook needs the positions of a cycle).
    fn position_at(&self, index: usize) -> Position {
        let mut pos = self.history_base;
        for mv in &self.path_moves[1..=index] {
            match mv {
                Some(m) => pos.make_move(*m),
                None => pos.make_null_move(),
            }
        }
        pos
    }

    // ---------------------------------------------------------------- search

    fn search(&mut self, pos: &Position, mut alpha: i32, mut beta: i32, depth: i32, ply: usize, pv_node: bool) -> i32 {
        // 1. Horizon: resolve captures.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        self.count_node();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();

        let verdicts_before = self.rule_verdicts;

        // 2. Rules, maximum ply, mate distance pruning.
        if let Some(score) = self.rule_score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // 3. Transposition table.
        let key = pos.key();
        let tt = self.ctx.tt.probe(key);
        let tt_move = tt.and_then(|t| t.mv);
        if let Some(t) = tt
            && !pv_node
            && t.depth >= depth
        {
            let s = from_tt(t.score, ply);
            let usable = match t.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }

        // 4. Static evaluation.
        // The table keeps the raw evaluation; the correction is applied fresh.
        let raw_eval = if in_check {
            -INFINITE
        } else {
            tt.filter(|t| !is_mate(t.eval)).map_or_else(|| self.evaluate(pos, ply), |t| t.eval)
        };
        let static_eval = if in_check { -INFINITE } else { self.tables.corrected_eval(pos, raw_eval) };
        self.static_evals[ply] = static_eval;
        let improving = ply >= 2 && !in_check && static_eval > self.static_evals[ply - 2];

        let p = &self.params;
        if !pv_node && !in_check && !is_mate(beta) {
            // 5. Reverse futility pruning.
            if depth <= p.rfp_max_depth && static_eval - p.rfp_margin * (depth - improving as i32) >= beta {
                return static_eval;
            }
            // 6. Null move: skipped after a null move and without attacking
            // pieces, where zugzwang is real.
            if depth >= p.null_min_depth
                && static_eval >= beta
                && self.played_piece_to[ply - 1].is_some()
                && has_attackers(pos)
            {
                let r = p.null_base_reduction
                    + depth / p.null_depth_divisor
                    + ((static_eval - beta) / p.null_eval_divisor).min(p.null_eval_max_reduction);
                let mut child = *pos;
                child.make_null_move();
                self.push(&child, None);
                self.push_accumulator(pos, None, ply);
                self.played_piece_to[ply] = None;
                let s = -self.search(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.pop();
                if self.stopped() {
                    return 0;
                }
                if s >= beta {
                    return if is_win(s) { beta } else { s };
                }
            }
        }

        // 7. The moves, best first, generated as the search goes.
        let earlier = self.earlier(ply);
        let counter = self.tables.counter_move(earlier[0]);
        let mut picker = MovePicker::new(pos, tt_move, self.killers[ply], counter, earlier);
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut captures_tried: MoveList = MoveList::new();
        let alpha_orig = alpha;

        while let Some(m) = picker.next(pos, &self.tables, &self.params) {
            let capture = pos.is_capture(m);
            let stat_score = if capture { 0 } else { self.quiet_stat_score(pos, m, &earlier) };

            // 8. Shallow-depth pruning once a real score is in hand. Move
            // count pruning drops all later quiets, checks included.
            let p = &self.params;
            if !pv_node && !in_check && !is_loss(best_score) {
                if !capture {
                    let lmp_limit = (p.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };
                    if depth <= p.lmp_max_depth && quiets_tried.len() >= lmp_limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Moves the histories have long found bad.
                    if depth <= p.history_prune_max_depth && stat_score < -p.history_prune_margin * depth {
                        continue;
                    }
                    // Futile or losing, unless it checks. The cheap tests
                    // first: the exchange is only looked at when needed.
                    let futile = depth <= p.futility_max_depth
                        && static_eval + p.futility_base + p.futility_per_depth * depth <= alpha;
                    let prunable =
                        futile || (depth <= p.see_quiet_max_depth && !pos.see_ge(m, p.see_quiet_margin * depth));
                    if prunable && !pos.gives_check(m) {
                        continue;
                    }
                } else if depth <= p.see_capture_max_depth
                    && !pos.see_ge(m, p.see_capture_margin * depth)
                    && !pos.gives_check(m)
                {
                    continue;
                }
            }

            self.ctx.tt.prefetch(pos.key_after(m));
            let mut child = *pos;
            child.make_move(m);
            self.push(&child, Some(m));
            self.push_accumulator(pos, Some(m), ply);
            self.played_piece_to[ply] = Some(piece_to(pos, m));
            // 9. Check extension, for checks that do not lose material: in
            // Xiangqi many sacrificial checks only delay, and extending them
            // all lets the tree grow without bound. Within twice the
            // iteration's depth, so that games and bench extend alike.
            let gives_check = child.in_check();
            let extend = gives_check && ply < 2 * self.root_depth as usize && pos.see_ge(m, 0);
            let new_depth = depth - 1 + extend as i32;

            // 10. Principal variation search with late move reductions.
            let score = if searched == 0 {
                -self.search(&child, -beta, -alpha, new_depth, ply + 1, pv_node)
            } else {
                let mut r = 0;
                if depth >= self.params.lmr_min_depth && !capture && !in_check && !gives_check {
                    r = self.lmr[depth.min(MAX_PLY as i32) as usize][searched.min(63)];
                    r += (!pv_node) as i32;
                    r -= improving as i32;
                    r += self.extra_reduction;
                    if self.killers[ply].contains(&Some(m)) {
                        r -= 1;
                    }
                    r -= stat_score / self.params.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if s > alpha && r > 0 {
                    s = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(&child, -beta, -alpha, new_depth, ply + 1, true);
                }
                s
            };
            self.pop();
            if self.stopped() {
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.reward_cutoff(pos, m, &quiets_tried, &captures_tried, depth, ply, &earlier);
                        break;
                    }
                    alpha = score;
                }
            }
            if capture {
                let _ = captures_tried.try_push(m);
            } else {
                let _ = quiets_tried.try_push(m);
            }
        }
        if searched == 0 {
            // No legal move (pruning needs a searched move first):
            // checkmate and stalemate both lose.
            return mated_in(ply);
        }

        // 11. Store.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_move.is_some() && alpha > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // 11a. What the search found teaches the evaluation's correction,
        // where the score is a real measure of the position: not in check,
        // no capture decided it, and the bound says the score lies on the
        // evaluation's far side.
        let decided_by_capture = best_move.is_some_and(|m| pos.is_capture(m));
        let beyond_eval = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > static_eval,
            Bound::Upper => best_score < static_eval,
        };
        if !in_check && !decided_by_capture && beyond_eval && !is_mate(best_score) {
            self.tables.update_correction(pos, static_eval, best_score, depth, self.params.correction_depth_divisor);
        }
        let eval_to_store = if in_check { 0 } else { raw_eval };
        let path_dependent = self.rule_verdicts != verdicts_before && is_mate(best_score);
        if !path_dependent {
            self.ctx.tt.store(key, best_move, to_tt(best_score, ply), eval_to_store, depth, bound);
        }
        best_score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }

    /// The continuation rows that score a move at `ply`: the moves one,
    /// two and four plies back.
    fn earlier(&self, ply: usize) -> Earlier {
        let back = |k: usize| if ply >= k { self.played_piece_to[ply - k] } else { None };
        [back(1), back(2), back(4)]
    }

    /// How good the histories think a quiet move is (for reductions).
    fn quiet_stat_score(&self, pos: &Position, m: Move, earlier: &Earlier) -> i32 {
        let own = piece_to(pos, m);
        2 * self.tables.main(pos, m)
            + earlier[0].map_or(0, |e| self.tables.continuation(e, own))
            + earlier[1].map_or(0, |e| self.tables.continuation(e, own))
    }

    /// A beta cutoff by `m`: it gains in the histories, the moves tried
    /// before it lose; a quiet one becomes a killer and the counter-move.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        pos: &Position,
        m: Move,
        quiets: &MoveList,
        captures: &MoveList,
        depth: i32,
        ply: usize,
        earlier: &Earlier,
    ) {
        let p = &self.params;
        let bonus = (p.history_bonus_per_depth * depth - p.history_bonus_offset).clamp(0, p.history_bonus_max);
        if pos.is_capture(m) {
            self.tables.update_capture(pos, m, bonus);
        } else {
            if self.killers[ply][0] != Some(m) {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = Some(m);
            }
            self.tables.set_counter_move(earlier[0], m);
            self.tables.update_quiet(pos, m, earlier, bonus);
            for &q in quiets {
                self.tables.update_quiet(pos, q, earlier, -bonus);
            }
        }
        for &c in captures {
            self.tables.update_capture(pos, c, -bonus);
        }
    }

    // ----------------------------------------------------------- quiescence

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let alpha_orig = alpha;

        // The TT: a cutoff from any earlier search of this position, and its
        // stored evaluation.
        let key = pos.key();
        let tt = self.ctx.tt.probe(key);
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            let usable = match t.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable && t.depth >= 0 {
                return s;
            }
        }

        let (stand_pat, raw_eval) = if in_check {
            (-INFINITE, 0)
        } else {
            let raw_eval = tt.filter(|t| !is_mate(t.eval)).map_or_else(|| self.evaluate(pos, ply), |t| t.eval);
            let stand_pat = self.tables.corrected_eval(pos, raw_eval);
            if stand_pat >= beta {
                if tt.is_none() {
                    self.ctx.tt.store(key, None, to_tt(stand_pat, ply), raw_eval, -1, Bound::Lower);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            (stand_pat, raw_eval)
        };
        let earlier = self.earlier(ply);
        let mut picker = MovePicker::quiescence(pos, tt.and_then(|t| t.mv), earlier);
        let mut best = stand_pat;
        let mut best_move = None;
        let mut searched = 0usize;
        while let Some(m) = picker.next(pos, &self.tables, &self.params) {
            if !in_check {
                // Delta and SEE pruning: captures that cannot raise alpha.
                let gain = pos.piece_on(m.to()).map_or(0, |p| SEE_VALUE[p.kind().index()]);
                if stand_pat + gain + self.params.qsearch_delta_margin <= alpha
                    || (!pos.see_ge(m, 0) && !pos.gives_check(m))
                {
                    continue;
                }
            }
            self.ctx.tt.prefetch(pos.key_after(m));
            let mut child = *pos;
            child.make_move(m);
            self.push_accumulator(pos, Some(m), ply);
            self.played_piece_to[ply] = Some(piece_to(pos, m));
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped() {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { raw_eval };
        self.ctx.tt.store(key, best_move, to_tt(best, ply), eval, 0, bound);
        best
    }
}

fn has_attackers(pos: &Position) -> bool {
    let us = pos.side_to_move();
    (pos.pieces(us, PieceKind::Rook) | pos.pieces(us, PieceKind::Horse) | pos.pieces(us, PieceKind::Cannon)).any()
}
