//! The position: piece placement, side to move, counters and hash key, with
//! copy-make move execution. Move generation lives in `movegen`, FEN in
//! `fen`.

mod fen;
mod movegen;
pub mod reference;
mod see;
pub use see::SEE_VALUE;
#[cfg(test)]
mod tests;

pub use fen::{FenError, START_FEN, board_fen};
pub use movegen::{GenType, LegalityMasks};

use crate::attacks::{self, Occupancy};
use crate::types::{Bitboard, Color, Move, Piece, PieceKind, Square};
use crate::zobrist;
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 90],
    pieces: [Bitboard; 14],
    by_color: [Bitboard; 2],
    occ: Occupancy,
    king: [Square; 2],
    side: Color,
    key: u64,
    /// Plies since the last capture (the natural-limit counter).
    rule60: u16,
    fullmove: u16,
    /// Enemy pieces giving check to the side to move.
    checkers: Bitboard,
}

/// Whether a move from `from` to `to` may give check to the king on `king`,
/// in a legal position (where the side moving gives no check yet): only a
/// move that touches the king's check zone can. Most moves do not, and
/// skip the full computation.
#[inline]
fn may_start_check(from: Square, to: Square, king: Square) -> bool {
    (Bitboard::from_square(from).with(to) & attacks::check_zone(king)).any()
}

/// Why a move from outside (GUI, TT, killer table) cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveError {
    NoPiece,
    NotYourPiece,
    CannotReach,
    LeavesKingAttacked,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::NoPiece => "no piece on the from-square",
            MoveError::NotYourPiece => "the piece on the from-square belongs to the side not to move",
            MoveError::CannotReach => "the piece cannot move there",
            MoveError::LeavesKingAttacked => "it would leave the king in check or facing the other king",
        })
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// An empty board (kings not placed); only FEN parsing builds on it.
    fn empty() -> Position {
        Position {
            board: [None; 90],
            pieces: [Bitboard::EMPTY; 14],
            by_color: [Bitboard::EMPTY; 2],
            occ: Occupancy::default(),
            king: [Square::from_index(0); 2],
            side: Color::Red,
            key: 0,
            rule60: 0,
            fullmove: 1,
            checkers: Bitboard::EMPTY,
        }
    }

    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.pieces[piece.index()] = self.pieces[piece.index()].with(sq);
        self.by_color[piece.color().index()] = self.by_color[piece.color().index()].with(sq);
        self.occ.toggle(sq);
        self.key ^= zobrist::piece_square(piece, sq);
        if piece.kind() == PieceKind::King {
            self.king[piece.color().index()] = sq;
        }
    }

    // ----------------------------------------------------------------- queries

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[Piece::new(color, kind).index()]
    }

    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occ.board
    }

    #[inline]
    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture.
    #[inline]
    pub fn rule60_count(&self) -> u16 {
        self.rule60
    }

    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of `by` that attack the king square `sq` under occupancy
    /// `occ`, ignoring `by`'s pieces on `removed` (a square being captured).
    /// The other king counts as a rook on the file: the facing-kings rule.
    #[inline]
    pub fn king_attackers(&self, sq: Square, by: Color, occ: Occupancy, removed: Bitboard) -> Bitboard {
        let keep = !removed;
        let rooks = (self.pieces(by, PieceKind::Rook) | self.pieces(by, PieceKind::King)) & keep;
        let cannons = self.pieces(by, PieceKind::Cannon) & keep;
        let horses = self.pieces(by, PieceKind::Horse) & keep;
        let pawns = self.pieces(by, PieceKind::Pawn) & keep;
        (attacks::rook_attacks(sq, occ) & rooks)
            | (attacks::cannon_attacks(sq, occ) & cannons)
            | (attacks::horse_attackers(sq, occ.board) & horses)
            | (attacks::pawn_attackers(by, sq) & pawns)
    }

    /// Whether the king square `sq` is attacked by `by` (see
    /// [`Position::king_attackers`]); cheapest tests first.
    #[inline]
    fn king_attacked(&self, sq: Square, by: Color, occ: Occupancy, removed: Bitboard) -> bool {
        let keep = !removed;
        (attacks::pawn_attackers(by, sq) & self.pieces(by, PieceKind::Pawn) & keep).any()
            || (attacks::horse_attackers(sq, occ.board) & self.pieces(by, PieceKind::Horse) & keep).any()
            || (attacks::rook_attacks(sq, occ)
                & (self.pieces(by, PieceKind::Rook) | self.pieces(by, PieceKind::King))
                & keep)
                .any()
            || (attacks::cannon_attacks(sq, occ) & self.pieces(by, PieceKind::Cannon) & keep).any()
    }

    fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        self.king_attackers(self.king_square(us), !us, self.occ, Bitboard::EMPTY)
    }

    /// Whether neither side has a rook, horse, cannon or pawn left: nobody can
    /// ever give mate, so the game is a draw.
    pub fn is_dead_draw(&self) -> bool {
        Color::BOTH.iter().all(|&c| {
            [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn]
                .iter()
                .all(|&k| self.pieces(c, k).is_empty())
        })
    }

    /// The key recomputed from scratch (tests compare it with the
    /// incrementally updated one).
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::side(self.side);
        for sq in Square::all() {
            if let Some(p) = self.piece_on(sq) {
                key ^= zobrist::piece_square(p, sq);
            }
        }
        key
    }

    // -------------------------------------------------------------- making moves

    /// Plays `m`, which must be legal in this position (use
    /// [`Position::check_move`] for moves from outside). Copy-make: callers
    /// keep the old position by copying it first.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = !us;
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "make_move {m} from an empty square");
            return;
        };
        self.key = self.key_after(m);
        if let Some(captured) = self.board[to.index()] {
            self.pieces[captured.index()] = self.pieces[captured.index()].without(to);
            self.by_color[them.index()] = self.by_color[them.index()].without(to);
            self.rule60 = 0;
            self.occ.toggle(from);
        } else {
            self.rule60 = self.rule60.saturating_add(1);
            self.occ.toggle(from);
            self.occ.toggle(to);
        }
        let from_to = Bitboard::from_square(from).with(to);
        self.pieces[piece.index()] ^= from_to;
        self.by_color[us.index()] ^= from_to;
        self.board[to.index()] = Some(piece);
        self.board[from.index()] = None;
        if piece.kind() == PieceKind::King {
            self.king[us.index()] = to;
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.checkers =
            if may_start_check(from, to, self.king_square(them)) { self.compute_checkers() } else { Bitboard::EMPTY };
    }

    /// The key of the position after `m` (legal here), without making it:
    /// the search asks for the hash table's line this early, and
    /// [`Position::make_move`] takes its new key from here.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return self.key;
        };
        let captured = self.board[to.index()].map_or(0, |c| zobrist::piece_square(c, to));
        self.key ^ captured ^ zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to) ^ zobrist::SIDE
    }

    /// Passes the move to the other side (for null-move search). Must not be
    /// called when in check.
    pub fn make_null_move(&mut self) {
        self.side = !self.side;
        self.key ^= zobrist::SIDE;
        self.rule60 = self.rule60.saturating_add(1);
        self.checkers = self.compute_checkers();
    }

    /// Whether `m` is legal here; for moves from outside the generator.
    pub fn check_move(&self, m: Move) -> Result<(), MoveError> {
        let piece = self.piece_on(m.from()).ok_or(MoveError::NoPiece)?;
        if piece.color() != self.side {
            return Err(MoveError::NotYourPiece);
        }
        if !self.is_pseudo_legal(m) {
            return Err(MoveError::CannotReach);
        }
        if !self.is_legal_full(m) {
            return Err(MoveError::LeavesKingAttacked);
        }
        Ok(())
    }

    /// Plays moves given as ICCS text, stopping at the first unparsable or
    /// illegal one; the error names it (the moves before it stay played).
    pub fn play_text_moves<'a>(&mut self, moves: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
        for (i, text) in moves.into_iter().enumerate() {
            let m = self.parse_legal_move(text).map_err(|reason| format!("move {} '{}' {}", i + 1, text, reason))?;
            self.make_move(m);
        }
        Ok(())
    }

    /// Parses ICCS text into a move legal here, or says why it is not one.
    pub fn parse_legal_move(&self, text: &str) -> Result<Move, String> {
        let m = Move::parse(text).ok_or_else(|| "is not a move in ICCS notation".to_string())?;
        self.check_move(m).map_err(|e| format!("is illegal: {e}"))?;
        Ok(m)
    }

    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// Whether `m` (pseudo-legal) gives check, directly or by discovery
    /// (including a piece that becomes a cannon screen, and the kings facing).
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let Some(piece) = self.board[from.index()] else { return false };
        let ksq = self.king_square(!us);
        if !may_start_check(from, to, ksq) {
            return false;
        }
        let occ = self.occ.after_move(from, to);
        let moved = |kind: PieceKind| {
            let bb = self.pieces(us, kind);
            if piece.kind() == kind { bb.without(from).with(to) } else { bb }
        };
        (attacks::pawn_attackers(us, ksq) & moved(PieceKind::Pawn)).any()
            || (attacks::horse_attackers(ksq, occ.board) & moved(PieceKind::Horse)).any()
            || (attacks::rook_attacks(ksq, occ) & (moved(PieceKind::Rook) | moved(PieceKind::King))).any()
            || (attacks::cannon_attacks(ksq, occ) & moved(PieceKind::Cannon)).any()
    }

    /// A board picture (Black at the top), the FEN, key and checkers.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        // Frame and river line as wide as a row: " r n b a k a b n r ".
        s.push_str("   +-------------------+\n");
        for rank in (0..10).rev() {
            s.push_str(&format!(" {rank} |"));
            for file in 0..9 {
                let sq = Square::from_file_rank(file, rank).expect("on board");
                let c = self.piece_on(sq).map_or('.', |p| p.letter());
                s.push(' ');
                s.push(c);
            }
            s.push_str(" |\n");
            if rank == 5 {
                s.push_str("   |~~~~~~ river ~~~~~~|\n");
            }
        }
        s.push_str("   +-------------------+\n");
        s.push_str("     a b c d e f g h i\n\n");
        s.push_str(&format!("Fen: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.key));
        let checkers: Vec<String> = self.checkers.iter().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
