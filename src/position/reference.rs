//! A slow, obviously-correct legal move generator: a plain board array,
//! step-by-step attacks, and king safety tested by asking every enemy piece
//! whether it hits the king after the move. It shares no code with the fast
//! generator except the step-walking reference attacks, which are themselves
//! tested against nothing but the rules.

use super::Position;
use crate::attacks::reference as att;
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};

type Board = [Option<Piece>; 90];

fn occupancy(board: &Board) -> Bitboard {
    Square::all().filter(|sq| board[sq.index()].is_some()).fold(Bitboard::EMPTY, |b, s| b.with(s))
}

/// Every square the piece on `from` could move to, ignoring own king safety.
fn destinations(board: &Board, from: Square, piece: Piece) -> Vec<Square> {
    let occ = occupancy(board);
    let reach = match piece.kind() {
        PieceKind::King => att::king_steps(from),
        PieceKind::Advisor => att::advisor_steps(from),
        PieceKind::Elephant => att::elephant_attacks(from, occ),
        PieceKind::Horse => att::horse_attacks(from, occ),
        PieceKind::Rook => att::rook_attacks(from, occ),
        PieceKind::Cannon => (att::rook_attacks(from, occ) & !occ) | att::cannon_captures(from, occ),
        PieceKind::Pawn => att::pawn_steps(piece.color(), from),
    };
    reach.iter().filter(|to| board[to.index()].is_none_or(|p| p.color() != piece.color())).collect()
}

/// Whether `color`'s king is attacked (or faces the other king, or is gone).
fn king_in_danger(board: &Board, color: Color) -> bool {
    let king = Piece::new(color, PieceKind::King);
    let Some(ksq) = Square::all().find(|sq| board[sq.index()] == Some(king)) else { return true };
    let occ = occupancy(board);
    for sq in Square::all() {
        let Some(p) = board[sq.index()] else { continue };
        if p.color() == color {
            continue;
        }
        let hits = match p.kind() {
            PieceKind::Rook => att::rook_attacks(sq, occ).has(ksq),
            PieceKind::Cannon => att::cannon_captures(sq, occ).has(ksq),
            PieceKind::Horse => att::horse_attacks(sq, occ).has(ksq),
            PieceKind::Pawn => att::pawn_steps(p.color(), sq).has(ksq),
            // Flying general: the kings see each other along an open file.
            PieceKind::King => sq.file() == ksq.file() && att::rook_attacks(sq, occ).has(ksq),
            PieceKind::Advisor | PieceKind::Elephant => false,
        };
        if hits {
            return true;
        }
    }
    false
}

/// All legal moves, the slow way.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut board: Board = [None; 90];
    for sq in Square::all() {
        board[sq.index()] = pos.piece_on(sq);
    }
    let us = pos.side_to_move();
    let mut moves = Vec::new();
    for from in Square::all() {
        let Some(piece) = board[from.index()] else { continue };
        if piece.color() != us {
            continue;
        }
        for to in destinations(&board, from, piece) {
            let mut after = board;
            after[to.index()] = Some(piece);
            after[from.index()] = None;
            if !king_in_danger(&after, us) {
                moves.extend(Move::new(from, to));
            }
        }
    }
    moves
}

/// Whether `color` is in check, the slow way.
pub fn in_check(pos: &Position, color: Color) -> bool {
    let mut board: Board = [None; 90];
    for sq in Square::all() {
        board[sq.index()] = pos.piece_on(sq);
    }
    king_in_danger(&board, color)
}
