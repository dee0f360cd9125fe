//! The hidden layer's sums, kept up to date move by move.
//!
//! The search keeps an [`AccumulatorStack`]: one accumulator per ply, each
//! made from its parent's by the move played, and only when the node is
//! evaluated (many nodes never are: a table hit, a node in check).

use super::features::{Features, View};
use super::network::{Network, Row};
use super::simd;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// The hidden layer's sums for both perspectives (index: the colour whose
/// view it is), before the activation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accumulator {
    pub(super) values: [Row; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator { values: [Row([0; super::network::HIDDEN]); 2] }
    }
}

/// What a move changes on the board, as the inputs see it.
#[derive(Clone, Copy, Debug)]
struct Change {
    piece: Piece,
    from: Square,
    to: Square,
    captured: Option<Piece>,
    /// Both kings' points after the move (index: colour), which say how
    /// each perspective numbers its inputs.
    kings: [Square; 2],
    /// The perspective whose inputs all change with this move (its own
    /// king moved to another bucket): its half is computed afresh.
    refresh: Option<Color>,
}

impl Change {
    /// `m` (legal) played in `pos`; `None` for a move from an empty point.
    fn of(net: &Network, pos: &Position, m: Move) -> Option<Change> {
        let piece = pos.piece_on(m.from())?;
        let mut kings = [pos.king_square(Color::Red), pos.king_square(Color::Black)];
        let mut refresh = None;
        if piece.kind() == PieceKind::King {
            let c = piece.color();
            kings[c.index()] = m.to();
            if net.features.king_move_changes_view(c, m.from(), m.to()) {
                refresh = Some(c);
            }
        }
        Some(Change { piece, from: m.from(), to: m.to(), captured: pos.piece_on(m.to()), kings, refresh })
    }

    /// The piece on `sq` after the move, on `pos`'s board before it.
    #[inline]
    fn piece_after(&self, pos: &Position, sq: Square) -> Option<Piece> {
        if sq == self.to {
            Some(self.piece)
        } else if sq == self.from {
            None
        } else {
            pos.piece_on(sq)
        }
    }
}

/// One perspective's half computed from every piece: the bias plus the
/// rows of the pieces `piece_on` gives on the points of `occupied`,
/// numbered as `view` numbers them.
fn half_from_pieces(net: &Network, view: View, occupied: Bitboard, piece_on: impl Fn(Square) -> Option<Piece>) -> Row {
    let mut half = net.hidden_bias;
    for sq in occupied {
        if let Some(piece) = piece_on(sq) {
            simd::add(&mut half, &net.hidden_weights[view.feature(piece, sq)]);
        }
    }
    half
}

impl Accumulator {
    /// Computed from every piece of `pos`.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let half = |c: Color| {
            half_from_pieces(net, net.features.view(c, pos.king_square(c)), pos.occupied(), |sq| pos.piece_on(sq))
        };
        Accumulator { values: [half(Color::Red), half(Color::Black)] }
    }

    /// The accumulator after `m` (legal) is played in `pos`, whose
    /// accumulator this is.
    pub fn after_move(&self, net: &Network, pos: &Position, m: Move) -> Accumulator {
        let mut next = Accumulator::default();
        let change = Change::of(net, pos, m);
        debug_assert!(change.is_some(), "after_move {m} from an empty square");
        let fresh = change.and_then(|ch| ch.refresh.map(|c| fresh_half(net, pos, &ch, c)));
        next.set_from(self, net, change, fresh.as_ref());
        next
    }

    /// Makes `self` its parent's accumulator `old` after `change` (`None`:
    /// a null move), in place. `fresh` is the refreshed half of the
    /// perspective `change.refresh` names.
    #[inline]
    fn set_from(&mut self, old: &Accumulator, net: &Network, change: Option<Change>, fresh: Option<&Row>) {
        let Some(Change { piece, from, to, captured, kings, refresh }) = change else {
            *self = *old;
            return;
        };
        for c in Color::BOTH {
            let new = &mut self.values[c.index()];
            let old = &old.values[c.index()];
            // The piece-square set first: its view ignores the king, and
            // it never refreshes.
            let view = match net.features {
                Features::Plain => Features::Plain.view(c, kings[c.index()]),
                _ if refresh == Some(c) => {
                    *new = *fresh.expect("a refreshed half for a king move");
                    continue;
                }
                features => features.view(c, kings[c.index()]),
            };
            let row = |piece: Piece, sq: Square| &net.hidden_weights[view.feature(piece, sq)];
            match captured {
                Some(victim) => simd::add_sub_sub(new, old, row(piece, to), row(piece, from), row(victim, to)),
                None => simd::add_sub(new, old, row(piece, to), row(piece, from)),
            }
        }
    }
}

/// Perspective `c`'s half after `change` in `pos`, from every piece.
fn fresh_half(net: &Network, pos: &Position, change: &Change, c: Color) -> Row {
    let view = net.features.view(c, change.kings[c.index()]);
    // The moved piece's new point joins the board's (its old one reads
    // as empty).
    let occupied = pos.occupied() | Bitboard::from_square(change.to);
    half_from_pieces(net, view, occupied, |sq| change.piece_after(pos, sq))
}

/// The accumulators of the nodes on the search's path, one per ply, each
/// brought up to date only when its node is evaluated.
#[derive(Clone)]
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    /// How each ply's board follows from its parent's (`None`: a null
    /// move; unused at the root).
    changes: Vec<Option<Change>>,
    /// For a ply reached by a king move that changes its side's inputs:
    /// that side's half, computed when the move was pushed (the board is
    /// at hand then, and king moves are few).
    refreshed: Vec<Row>,
    /// Whether `accumulators[ply]` is that of the node now at `ply`. The
    /// root's always is; a ply's flag is cleared when its node is pushed,
    /// so an up-to-date ply's parents are up to date too.
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// Room for `plies` plies from `root`.
    pub fn new(net: &Network, root: &Position, plies: usize) -> AccumulatorStack {
        let mut fresh = vec![false; plies];
        fresh[0] = true;
        AccumulatorStack {
            accumulators: vec![Accumulator::refresh(net, root); plies],
            changes: vec![None; plies],
            refreshed: vec![net.hidden_bias; plies],
            fresh,
        }
    }

    /// The node at `ply + 1` is reached from `pos`, the node at `ply`, by
    /// `mv` (`None`: a null move). Nothing is computed yet, but for a king
    /// move that changes its side's inputs.
    #[inline]
    pub fn push(&mut self, net: &Network, pos: &Position, mv: Option<Move>, ply: usize) {
        let change = mv.and_then(|m| Change::of(net, pos, m));
        debug_assert!(mv.is_none() || change.is_some(), "a move from an empty square");
        if let Some(ch) = &change
            && let Some(c) = ch.refresh
        {
            self.refreshed[ply + 1] = fresh_half(net, pos, ch, c);
        }
        self.changes[ply + 1] = change;
        self.fresh[ply + 1] = false;
    }

    /// The accumulator of the node at `ply`, brought up to date from its
    /// nearest up-to-date parent.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        let mut first = ply;
        while !self.fresh[first] {
            first -= 1;
        }
        for k in first + 1..=ply {
            let (parents, rest) = self.accumulators.split_at_mut(k);
            rest[0].set_from(&parents[k - 1], net, self.changes[k], Some(&self.refreshed[k]));
            self.fresh[k] = true;
        }
        &self.accumulators[ply]
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::Features;
    use super::super::network::tests::{random_network, random_network_with};
    use super::*;

    /// Random games (captures and both colours to move): the accumulator
    /// updated move by move always equals the one computed from scratch.
    #[test]
    fn the_incremental_accumulator_equals_a_refresh() {
        for net in [random_network(5), (*Network::embedded()).clone(), random_network_with(Features::KingBuckets, 4, 7)]
        {
            let mut rng = crate::rng::Rng::new(9);
            let mut captures = 0;
            let mut king_moves = 0;
            for _ in 0..20 {
                let mut pos = Position::startpos();
                let mut acc = Accumulator::refresh(&net, &pos);
                for _ in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Captures half the time, when there are any, so that
                    // the board empties.
                    let takes: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
                    let pool: &[Move] = if !takes.is_empty() && rng.below(2) == 0 { &takes } else { &moves };
                    let m = pool[rng.below(pool.len() as u64) as usize];
                    captures += pos.is_capture(m) as usize;
                    king_moves += (pos.piece_on(m.from()).map(|p| p.kind()) == Some(PieceKind::King)) as usize;
                    acc = acc.after_move(&net, &pos, m);
                    pos.make_move(m);
                    assert_eq!(acc, Accumulator::refresh(&net, &pos), "{}", pos.to_fen());
                    assert_eq!(net.evaluate(&acc, &pos), net.evaluate_position(&pos));
                }
            }
            assert!(captures > 100, "only {captures} captures");
            assert!(king_moves > 50, "only {king_moves} king moves");
        }
    }

    /// A walk like a search's (down by moves and null moves, back up to
    /// any ply, asking for some nodes and not others): every node asked
    /// for gets the accumulator of its board.
    #[test]
    fn the_lazy_stack_equals_a_refresh_wherever_the_search_asks() {
        for net in [random_network(6), random_network_with(Features::KingBuckets, 1, 8)] {
            lazy_stack_walk(&net);
        }
    }

    fn lazy_stack_walk(net: &Network) {
        let net = net.clone();
        let mut rng = crate::rng::Rng::new(10);
        let root = Position::startpos();
        let plies = 12;
        let mut stack = AccumulatorStack::new(&net, &root, plies + 1);
        let mut path = vec![root];
        let mut asked = 0;
        for _ in 0..20_000 {
            let ply = path.len() - 1;
            let pos = path[ply];
            let moves = pos.legal_moves();
            if ply == plies || moves.is_empty() || rng.below(4) == 0 {
                // Back up to a random ply.
                path.truncate(1 + rng.below(path.len() as u64) as usize);
                continue;
            }
            let mut child = pos;
            if rng.below(10) == 0 && !pos.in_check() {
                child.make_null_move();
                stack.push(&net, &pos, None, ply);
            } else {
                let m = moves[rng.below(moves.len() as u64) as usize];
                child.make_move(m);
                stack.push(&net, &pos, Some(m), ply);
            }
            path.push(child);
            if rng.below(3) == 0 {
                asked += 1;
                assert_eq!(*stack.get(&net, ply + 1), Accumulator::refresh(&net, &child), "{}", child.to_fen());
            }
        }
        assert!(asked > 3_000, "only {asked} nodes asked for");
    }
}
