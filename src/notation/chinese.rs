//! Chinese notation: `炮二平五`, `马８进７`, `前车平四`, `中兵进一`, `前七平六`.

use super::{Direction, Facts, NotationError, Place, PlaceQuery, Query, Selector, canonical_selector, digit_value};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn name(color: Color, kind: PieceKind) -> char {
    Piece::new(color, kind).chinese()
}

/// A number 1..9 as `color` writes it.
fn numeral(color: Color, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => RED_NUMERALS[i],
        Color::Black => BLACK_NUMERALS[i],
    }
}

fn direction_word(direction: Direction) -> char {
    match direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    }
}

fn place_word(place: Place) -> char {
    match place {
        Place::Front => '前',
        Place::Middle => '中',
        Place::Rear => '后',
        Place::Nth(k) => RED_NUMERALS[(k.clamp(1, 9) - 1) as usize],
    }
}

/// The Chinese text of a legal move of `pos`.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    let Some(f) = super::facts(pos, m) else { return m.to_string() };
    let (first, second) = selector_chars(&f);
    format!("{first}{second}{}{}", direction_word(f.direction), numeral(f.color, f.target))
}

fn selector_chars(f: &Facts) -> (char, char) {
    let piece = name(f.color, f.kind);
    match canonical_selector(f) {
        Selector::File => (piece, numeral(f.color, f.file)),
        Selector::Place(place) => (place_word(place), piece),
        Selector::PlaceOnFile(place) => (place_word(place), numeral(f.color, f.file)),
    }
}

/// One character of Chinese move text made canonical: piece names to the
/// letters `K A E H R C P`, numbers to ASCII digits, 进/退/平 to `+ - =`,
/// 前/中/后 to `F M B`. `None` for anything else.
fn normalize_char(c: char) -> Option<char> {
    let letter = match c {
        '帅' | '帥' | '将' | '將' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '马' | '馬' | '傌' => 'H',
        '车' | '車' | '俥' => 'R',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '进' | '進' => '+',
        '退' => '-',
        '平' => '=',
        '前' => 'F',
        '中' => 'M',
        '后' | '後' => 'B',
        _ => {
            if let Some(i) = RED_NUMERALS.iter().position(|&n| n == c) {
                return Some(char::from(b'1' + i as u8));
            }
            if let Some(i) = BLACK_NUMERALS.iter().position(|&n| n == c) {
                return Some(char::from(b'1' + i as u8));
            }
            return c.is_ascii_digit().then_some(c);
        }
    };
    Some(letter)
}

fn normalize(text: &str) -> Option<String> {
    text.chars().filter(|c| !c.is_whitespace()).map(normalize_char).collect()
}

/// Reads a Chinese move legal in `pos`.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let key = normalize(text).ok_or(NotationError::Unreadable)?;
    let canonical = |p: &Position, m: Move| normalize(&to_chinese(p, m)).unwrap_or_default();
    super::resolve(pos, &key, canonical, query(&key))
}

fn kind_of(letter: char) -> Option<PieceKind> {
    match letter {
        'K' => Some(PieceKind::King),
        'A' => Some(PieceKind::Advisor),
        'E' => Some(PieceKind::Elephant),
        'H' => Some(PieceKind::Horse),
        'R' => Some(PieceKind::Rook),
        'C' => Some(PieceKind::Cannon),
        'P' => Some(PieceKind::Pawn),
        _ => None,
    }
}

fn place_of(c: char) -> Option<PlaceQuery> {
    match c {
        'F' => Some(PlaceQuery::Front),
        'M' => Some(PlaceQuery::Middle),
        'B' => Some(PlaceQuery::Rear),
        _ => digit_value(c).map(PlaceQuery::Nth),
    }
}

/// The symbols of a normalised Chinese text, read without the position.
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
    let q = |kind, file, place| Some(Query { kind, file, place, direction, target });
    match (kind_of(c[0]), kind_of(c[1])) {
        // 炮二平五, or the rarer 炮前平五.
        (Some(kind), None) => match digit_value(c[1]) {
            Some(file) => q(Some(kind), Some(file), None),
            None => q(Some(kind), None, Some(place_of(c[1])?)),
        },
        // 前炮平五, 中兵进一, 二兵平四.
        (None, Some(kind)) => q(Some(kind), None, Some(place_of(c[0])?)),
        // 前七平六: a pawn by place and file.
        (None, None) => q(Some(PieceKind::Pawn), Some(digit_value(c[1])?), Some(place_of(c[0])?)),
        (Some(_), Some(_)) => None,
    }
}
