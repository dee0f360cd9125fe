//! Colours, piece kinds and coloured pieces.

use std::fmt;
use std::ops::Not;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether `rank` lies on this colour's own half (before the river).
    #[inline]
    pub const fn own_half(self, rank: u8) -> bool {
        match self {
            Color::Red => rank <= 4,
            Color::Black => rank >= 5,
        }
    }

    /// +1 for Red (moves up the ranks), -1 for Black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one side starts with (and may have at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// FEN letter in upper case (`K A B N R C P`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; `H` and `E` are accepted for horse
    /// and elephant because some GUIs send them.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Rook),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

/// A coloured piece; `Option<Piece>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    RedKing = 0,
    RedAdvisor,
    RedElephant,
    RedHorse,
    RedRook,
    RedCannon,
    RedPawn,
    BlackKing,
    BlackAdvisor,
    BlackElephant,
    BlackHorse,
    BlackRook,
    BlackCannon,
    BlackPawn,
}

const ALL_PIECES: [Piece; 14] = [
    Piece::RedKing,
    Piece::RedAdvisor,
    Piece::RedElephant,
    Piece::RedHorse,
    Piece::RedRook,
    Piece::RedCannon,
    Piece::RedPawn,
    Piece::BlackKing,
    Piece::BlackAdvisor,
    Piece::BlackElephant,
    Piece::BlackHorse,
    Piece::BlackRook,
    Piece::BlackCannon,
    Piece::BlackPawn,
];

impl Piece {
    /// The piece's Chinese character (simplified), as its own side names it.
    pub fn chinese(self) -> char {
        match (self.color(), self.kind()) {
            (Color::Red, PieceKind::King) => '帅',
            (Color::Black, PieceKind::King) => '将',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Black, PieceKind::Elephant) => '象',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::Pawn) => '卒',
            (_, PieceKind::Horse) => '马',
            (_, PieceKind::Rook) => '车',
            (_, PieceKind::Cannon) => '炮',
        }
    }
}

impl Piece {
    pub const COUNT: usize = 14;

    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        ALL_PIECES[color as usize * 7 + kind as usize]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn color(self) -> Color {
        if (self as u8) < 7 { Color::Red } else { Color::Black }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self as u8 % 7) as usize]
    }

    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match PieceKind::from_letter(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    pub fn all() -> impl Iterator<Item = Piece> {
        ALL_PIECES.into_iter()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
