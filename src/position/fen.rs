//! FEN parsing and printing, with typed errors for every way a FEN can be
//! wrong. Parsing never panics, whatever the input.
//!
//! Accepted beyond the strict format (real GUIs send these): `H`/`E` for
//! horse/elephant, `r` for Red, a FEN cut after the side letter, the two
//! counters without the `-` fields before them (UCI2WB), runs of spaces. Composed positions that are unreachable in play but legal on the
//! board are accepted, as Fairy-Stockfish and cchess accept them: pawns on
//! any point (behind their river bank, on their own back rank), advisors on
//! any point of their palace, elephants on any point of their half. Only
//! what the move rules cannot play is refused: a king outside its palace, an
//! advisor outside it, an elephant across the river.

use super::Position;
use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Everything that can be wrong with a FEN.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    Empty,
    /// The board field does not have 10 ranks separated by `/`.
    RankCount(usize),
    /// A rank (numbered 9..0 as on the board) covers more or fewer than 9 files.
    RankLength {
        rank: u8,
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    UnknownLetter(char),
    MissingSide,
    BadSide(String),
    /// Field 3 or 4 is not `-`.
    BadField {
        field: usize,
        text: String,
    },
    BadCounter {
        field: usize,
        text: String,
    },
    TooManyFields(usize),
    TooManyPieces {
        piece: Piece,
        count: u32,
    },
    /// A piece on a point from which its kind has no moves by the rules
    /// (a king or advisor outside its palace, an elephant across the river).
    PieceOffLimits {
        piece: Piece,
        square: Square,
    },
    MissingKing(Color),
    KingsFacing,
    /// The side that just moved is still in check.
    SideNotToMoveInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 10 separated by '/'"),
            FenError::RankLength { rank, files } => {
                write!(f, "rank {rank} covers {files} files, expected 9")
            }
            FenError::UnknownLetter(c) => write!(f, "unknown piece letter '{}'", c.escape_default()),
            FenError::MissingSide => write!(f, "missing side to move"),
            FenError::BadSide(s) => write!(f, "bad side to move '{s}', expected w, r or b"),
            FenError::BadField { field, text } => write!(f, "field {field} is '{text}', expected '-'"),
            FenError::BadCounter { field, text } => {
                write!(f, "field {field} is '{text}', expected a non-negative move counter")
            }
            FenError::TooManyFields(n) => write!(f, "{n} fields, expected at most 6"),
            FenError::TooManyPieces { piece, count } => write!(
                f,
                "{count} {} {}s, at most {} allowed",
                piece.color().name(),
                piece.kind().name(),
                piece.kind().max_count()
            ),
            FenError::PieceOffLimits { piece, square } => {
                let limit = match piece.kind() {
                    PieceKind::Elephant => "elephants never cross the river",
                    _ => "it must stay in its palace",
                };
                write!(f, "{} {} on {square}: {limit}", piece.color().name(), piece.kind().name())
            }
            FenError::MissingKing(c) => write!(f, "no {} king", c.name()),
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// Whether `kind` of `color` may stand on `sq` in a position the engine
/// plays by the rules: kings and advisors in their palace, elephants on
/// their side of the river, everything else anywhere.
pub fn square_allowed(color: Color, kind: PieceKind, sq: Square) -> bool {
    // Work in Red's frame: mirror Black's squares across the river.
    let sq = if color == Color::Black { sq.flip_rank() } else { sq };
    let (f, r) = (sq.file(), sq.rank());
    match kind {
        PieceKind::King | PieceKind::Advisor => (3..=5).contains(&f) && r <= 2,
        PieceKind::Elephant => r <= 4,
        PieceKind::Pawn | PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

impl Position {
    /// The position of an optional FEN (`None`: the standard start), as
    /// the commands and protocol options that take `fen` or `startpos` read it.
    pub fn from_fen_or_start(fen: Option<&str>) -> Result<Position, FenError> {
        fen.map_or_else(|| Ok(Position::startpos()), Position::from_fen)
    }

    /// Parses a FEN and checks that the position is legal.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let Some(&board) = fields.first() else { return Err(FenError::Empty) };
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();

        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut counts = [0u32; 14];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    continue;
                }
                let piece = Piece::from_letter(c).ok_or(FenError::UnknownLetter(c))?;
                if file >= 9 {
                    return Err(FenError::RankLength { rank, files: file + 1 });
                }
                let sq = Square::from_file_rank(file as u8, rank).ok_or(FenError::RankLength { rank, files: file })?;
                if !square_allowed(piece.color(), piece.kind(), sq) {
                    return Err(FenError::PieceOffLimits { piece, square: sq });
                }
                counts[piece.index()] += 1;
                if counts[piece.index()] > piece.kind().max_count() {
                    return Err(FenError::TooManyPieces { piece, count: counts[piece.index()] });
                }
                pos.put(piece, sq);
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, files: file });
            }
        }
        for color in Color::BOTH {
            if counts[Piece::new(color, PieceKind::King).index()] == 0 {
                return Err(FenError::MissingKing(color));
            }
        }

        let side = fields.get(1).ok_or(FenError::MissingSide)?;
        pos.side = match side.to_ascii_lowercase().as_str() {
            "w" | "r" => Color::Red,
            "b" => Color::Black,
            _ => return Err(FenError::BadSide(side.to_string())),
        };
        if pos.side == Color::Black {
            pos.key ^= crate::zobrist::SIDE;
        }
        // XBoard's UCI2WB (Cyclone mode) leaves out the two `-` fields:
        // `... w 0 1`. Two numbers after the side are the counters.
        let numbers = |f: &[&str]| f.iter().all(|t| t.parse::<u16>().is_ok());
        let fields = if fields.len() == 4 && numbers(&fields[2..]) {
            [&fields[..2], &["-", "-"], &fields[2..]].concat()
        } else {
            fields
        };
        for field in [2, 3] {
            if let Some(&t) = fields.get(field)
                && t != "-"
            {
                return Err(FenError::BadField { field: field + 1, text: t.to_string() });
            }
        }
        if let Some(&t) = fields.get(4) {
            pos.rule60 = t.parse().map_err(|_| FenError::BadCounter { field: 5, text: t.to_string() })?;
        }
        if let Some(&t) = fields.get(5) {
            let n: u16 = t.parse().map_err(|_| FenError::BadCounter { field: 6, text: t.to_string() })?;
            // Some tools write 0; the first move is number 1.
            pos.fullmove = n.max(1);
        }

        let (rk, bk) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if rk.file() == bk.file() && (crate::attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        let them = !pos.side;
        if pos.king_attackers(pos.king_square(them), pos.side, pos.occ, crate::types::Bitboard::EMPTY).any() {
            return Err(FenError::SideNotToMoveInCheck);
        }
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    /// The FEN of this position (standard letters, `w`/`b`).
    pub fn to_fen(&self) -> String {
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{} {side} - - {} {}", board_fen(|sq| self.piece_on(sq)), self.rule60, self.fullmove)
    }
}

/// The piece placement field of a FEN for the board `piece_at` describes.
pub fn board_fen(piece_at: impl Fn(Square) -> Option<Piece>) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = Square::from_file_rank(file, rank).expect("on board");
            match piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}
