//! WXF notation: `C2=5`, `H8+7`, `R+=4`, `P-+1`, `++=4`, `3+=4`.

use super::{Direction, Facts, NotationError, Place, PlaceQuery, Query, Selector, canonical_selector, digit_value};
use crate::position::Position;
use crate::types::{Move, PieceKind};

/// The letter of a piece kind, as WXF and XBoard's SAN both write it.
pub(super) fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// A piece letter in English notation (WXF, and XBoard's SAN), both letter
/// sets: `H`/`N` horse, `E`/`B` elephant, `K`/`G` king.
pub(super) fn kind_of(letter: char) -> Option<PieceKind> {
    match letter {
        'K' | 'G' => Some(PieceKind::King),
        'A' => Some(PieceKind::Advisor),
        'E' | 'B' => Some(PieceKind::Elephant),
        'H' | 'N' => Some(PieceKind::Horse),
        'R' => Some(PieceKind::Rook),
        'C' => Some(PieceKind::Cannon),
        'P' => Some(PieceKind::Pawn),
        _ => None,
    }
}

fn operator(direction: Direction) -> char {
    match direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    }
}

/// The WXF text of a legal move of `pos`.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let Some(f) = super::facts(pos, m) else { return m.to_string() };
    format!("{}{}{}", selector_text(&f), operator(f.direction), f.target)
}

/// The two characters naming the moving piece.
fn selector_text(f: &Facts) -> String {
    let l = letter(f.kind);
    match canonical_selector(f) {
        Selector::File => format!("{l}{}", f.file),
        Selector::Place(place) if f.count <= 3 => match place {
            Place::Front => format!("{l}+"),
            Place::Rear => format!("{l}-"),
            // The middle pawn of three is named by its file.
            Place::Middle | Place::Nth(_) => format!("{l}{}", f.file),
        },
        // Four or five pawns: ++ foremost, P+ second, P<file> middle of
        // five, P- second-rearmost, -- rearmost.
        Selector::Place(place) => match place {
            Place::Front => "++".to_string(),
            Place::Rear => "--".to_string(),
            Place::Nth(2) => format!("{l}+"),
            Place::Nth(3) if f.count == 5 => format!("{l}{}", f.file),
            Place::Middle | Place::Nth(_) => format!("{l}-"),
        },
        Selector::PlaceOnFile(place) => match place {
            Place::Front => format!("{}+", f.file),
            Place::Rear => format!("{}-", f.file),
            Place::Middle | Place::Nth(_) => format!("{}{}", f.file, f.file),
        },
    }
}

/// WXF text made canonical for comparison: upper case, `.` as `=`, no
/// spaces, piece letter aliases replaced.
fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c.to_ascii_uppercase() {
            '.' => '=',
            c => kind_of(c).map_or(c, letter),
        })
        .collect()
}

/// Reads a WXF move legal in `pos`.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let key = normalize(text);
    super::resolve(pos, &key, to_wxf, query(&key))
}

/// The symbols of a normalised WXF text, read without the position.
fn query(key: &str) -> Option<Query> {
    let c: Vec<char> = key.chars().collect();
    if c.len() != 4 {
        return None;
    }
    let direction = match c[2] {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '=' => Direction::Sideways,
        _ => return None,
    };
    let target = digit_value(c[3])?;
    let sign = |s: char| match s {
        '+' => Some(PlaceQuery::WxfPlus),
        '-' => Some(PlaceQuery::WxfMinus),
        _ => None,
    };
    let q = |kind, file, place| Some(Query { kind, file, place, direction, target });
    let pawn = Some(PieceKind::Pawn);
    match (c[0], c[1]) {
        ('+', '+') => q(pawn, None, Some(PlaceQuery::Front)),
        ('-', '-') => q(pawn, None, Some(PlaceQuery::Rear)),
        (a, b) if kind_of(a).is_some() => match (digit_value(b), sign(b)) {
            (Some(file), _) => q(kind_of(a), Some(file), None),
            (_, Some(place)) => q(kind_of(a), None, Some(place)),
            _ => None,
        },
        // `+C=5`: the place sign before the letter.
        (a, b) if sign(a).is_some() && kind_of(b).is_some() => q(kind_of(b), None, sign(a)),
        (a, b) => {
            let file = digit_value(a)?;
            match (digit_value(b), sign(b)) {
                // `33=4`: the middle pawn on file 3.
                (Some(d), _) if d == file => q(pawn, Some(file), Some(PlaceQuery::Middle)),
                // `15=6` (Fairy-Stockfish): the first pawn on file 5.
                (Some(d), _) => q(pawn, Some(d), Some(PlaceQuery::Nth(file))),
                // `3+=4`: the front pawn on file 3 (two files with several).
                (_, Some(place)) => q(pawn, Some(file), Some(place)),
                _ => None,
            }
        }
    }
}
