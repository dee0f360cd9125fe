//! The hidden layer's sums, kept up to date move by move.
//!
//! The search keeps an [`AccumulatorStack`]: one accumulator per ply, each
//! made from its parent's by the move played, and only when the node is
//! evaluated (many nodes never are: a table hit, a node in check).

use super::features::feature;
use super::network::{Network, Row};
use crate::position::Position;
use crate::types::{Color, Move, Piece, Square};

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
}

impl Change {
    /// `m` (legal) played in `pos`; `None` for a move from an empty point.
    fn of(pos: &Position, m: Move) -> Option<Change> {
        let piece = pos.piece_on(m.from())?;
        Some(Change { piece, from: m.from(), to: m.to(), captured: pos.piece_on(m.to()) })
    }
}

impl Accumulator {
    /// Computed from every piece of `pos`.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { values: [net.hidden_bias; 2] };
        for sq in Square::all() {
            if let Some(piece) = pos.piece_on(sq) {
                for c in Color::BOTH {
                    let row = &net.hidden_weights[feature(c, piece, sq)].0;
                    let values = &mut acc.values[c.index()].0;
                    for (v, w) in values.iter_mut().zip(row) {
                        *v += w;
                    }
                }
            }
        }
        acc
    }

    /// The accumulator after `m` (legal) is played in `pos`, whose
    /// accumulator this is.
    pub fn after_move(&self, net: &Network, pos: &Position, m: Move) -> Accumulator {
        let mut next = Accumulator::default();
        let change = Change::of(pos, m);
        debug_assert!(change.is_some(), "after_move {m} from an empty square");
        next.set_from(self, net, change);
        next
    }

    /// Makes `self` its parent's accumulator `old` after `change` (`None`:
    /// a null move), in place.
    #[inline]
    fn set_from(&mut self, old: &Accumulator, net: &Network, change: Option<Change>) {
        let Some(Change { piece, from, to, captured }) = change else {
            *self = *old;
            return;
        };
        for c in Color::BOTH {
            let (old, new) = (&old.values[c.index()].0, &mut self.values[c.index()].0);
            let add = &net.hidden_weights[feature(c, piece, to)].0;
            let sub = &net.hidden_weights[feature(c, piece, from)].0;
            match captured {
                Some(victim) => {
                    let gone = &net.hidden_weights[feature(c, victim, to)].0;
                    for i in 0..old.len() {
                        new[i] = old[i] + add[i] - sub[i] - gone[i];
                    }
                }
                None => {
                    for i in 0..old.len() {
                        new[i] = old[i] + add[i] - sub[i];
                    }
                }
            }
        }
    }
}

/// The accumulators of the nodes on the search's path, one per ply, each
/// brought up to date only when its node is evaluated.
#[derive(Clone)]
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    /// How each ply's board follows from its parent's (`None`: a null
    /// move; unused at the root).
    changes: Vec<Option<Change>>,
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
            fresh,
        }
    }

    /// The node at `ply + 1` is reached from `pos`, the node at `ply`, by
    /// `mv` (`None`: a null move). Nothing is computed yet.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Option<Move>, ply: usize) {
        self.changes[ply + 1] = mv.and_then(|m| Change::of(pos, m));
        debug_assert!(mv.is_none() || self.changes[ply + 1].is_some(), "a move from an empty square");
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
            rest[0].set_from(&parents[k - 1], net, self.changes[k]);
            self.fresh[k] = true;
        }
        &self.accumulators[ply]
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::tests::random_network;
    use super::*;

    /// Random games (captures and both colours to move): the accumulator
    /// updated move by move always equals the one computed from scratch.
    #[test]
    fn the_incremental_accumulator_equals_a_refresh() {
        for net in [random_network(5), (*Network::embedded()).clone()] {
            let mut rng = crate::rng::Rng::new(9);
            let mut captures = 0;
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
                    acc = acc.after_move(&net, &pos, m);
                    pos.make_move(m);
                    assert_eq!(acc, Accumulator::refresh(&net, &pos), "{}", pos.to_fen());
                    assert_eq!(net.evaluate(&acc, pos.side_to_move()), net.evaluate_position(&pos));
                }
            }
            assert!(captures > 100, "only {captures} captures");
        }
    }

    /// A walk like a search's (down by moves and null moves, back up to
    /// any ply, asking for some nodes and not others): every node asked
    /// for gets the accumulator of its board.
    #[test]
    fn the_lazy_stack_equals_a_refresh_wherever_the_search_asks() {
        let net = random_network(6);
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
                stack.push(&pos, None, ply);
            } else {
                let m = moves[rng.below(moves.len() as u64) as usize];
                child.make_move(m);
                stack.push(&pos, Some(m), ply);
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
