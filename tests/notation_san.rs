//! XBoard's SAN against the move generator: every legal move of many
//! positions (the perft-data EPDs and positions of seeded random games) is
//! written with `to_san` in both rank numberings, must differ from every
//! other legal move's text, and must read back as the same move, through
//! the SAN reader and through the reader of game records.

mod common;

use chariot::notation::{RankBase, parse_any, parse_san, to_san};
use chariot::position::Position;
use chariot::types::{Move, PieceKind};
use common::Rng;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

fn epd_positions() -> Vec<Position> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft-data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("perft-data/")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable EPD");
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let fen = line.split(';').next().unwrap().trim();
            out.push(Position::from_fen(fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", path.display())));
        }
    }
    out
}

/// Every position of `games` random games from the start (captures taken
/// more often than chance, so the boards thin out and pieces meet).
fn playout_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..max_plies {
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.chance(30) {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(m);
        }
    }
    out
}

/// How a piece move's text names the piece: `-` (letter only), `file`,
/// `rank`, `both`; pawns: `straight`, `file`.
fn form(pos: &Position, m: Move, text: &str) -> (PieceKind, &'static str) {
    let kind = pos.piece_on(m.from()).expect("a piece").kind();
    let body = text.trim_end_matches(['+', '#']);
    let to_len = if body.ends_with("10") { 3 } else { 2 };
    let before = body[..body.len() - to_len].trim_end_matches('x');
    let named = if kind == PieceKind::Pawn { before } else { &before[1..] };
    let has_file = named.chars().any(|c| c.is_ascii_lowercase());
    let has_rank = named.chars().any(|c| c.is_ascii_digit());
    let form = match (kind, has_file, has_rank) {
        (PieceKind::Pawn, false, false) => "straight",
        (_, false, false) => "-",
        (_, true, false) => "file",
        (_, false, true) => "rank",
        (_, true, true) => "both",
    };
    (kind, form)
}

#[test]
fn every_legal_move_is_written_uniquely_and_reads_back() {
    let epd = epd_positions();
    let played = playout_positions(0x5A11_0031_C0DE_0001, 60, 160);
    assert!(epd.len() > 250 && played.len() > 5000, "{} + {}", epd.len(), played.len());
    let mut moves = 0usize;
    let mut forms: BTreeMap<(String, &str), usize> = BTreeMap::new();
    let (mut checks, mut mates, mut captures) = (0, 0, 0);
    let mut failures = Vec::new();
    for pos in epd.iter().chain(&played) {
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        for ranks in [RankBase::Zero, RankBase::One] {
            let texts: Vec<String> = legal.iter().map(|&m| to_san(pos, m, ranks)).collect();
            let distinct: HashSet<&String> = texts.iter().collect();
            if distinct.len() != texts.len() {
                failures.push(format!("{}: repeated texts in {ranks}: {texts:?}", pos.to_fen()));
            }
            for (&m, text) in legal.iter().zip(&texts) {
                moves += 1;
                if parse_san(pos, text, ranks) != Ok(m) {
                    failures.push(format!("{} {m} '{text}' {ranks}: {:?}", pos.to_fen(), parse_san(pos, text, ranks)));
                }
                // The record reader's path: ICCS, WXF and Chinese first.
                if parse_any(pos, text, ranks) != Ok(m) {
                    failures.push(format!(
                        "{} {m} '{text}' {ranks} (any): {:?}",
                        pos.to_fen(),
                        parse_any(pos, text, ranks)
                    ));
                }
                if ranks == RankBase::Zero {
                    let (kind, f) = form(pos, m, text);
                    *forms.entry((kind.name().to_string(), f)).or_default() += 1;
                    checks += usize::from(text.ends_with('+'));
                    mates += usize::from(text.ends_with('#'));
                    captures += usize::from(text.contains('x'));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
    println!("{} EPD + {} played positions, {moves} texts (both numberings)", epd.len(), played.len());
    println!("captures {captures}, checks {checks}, mates {mates}; forms (ranks 0..9): {forms:?}");
    // The generator met every form XBoard writes, for every piece that can
    // need it (a king is always alone; file and rank together take three
    // pieces of a kind, which only pawns have, and pawns go by file).
    for kind in ["advisor", "elephant", "horse", "rook", "cannon"] {
        for f in ["-", "file", "rank"] {
            assert!(forms.get(&(kind.to_string(), f)).is_some_and(|&n| n > 0), "no {kind} move written '{f}'");
        }
    }
    for f in ["straight", "file"] {
        assert!(forms.get(&("pawn".to_string(), f)).is_some_and(|&n| n > 0), "no pawn move written '{f}'");
    }
    assert!(!forms.keys().any(|(_, f)| *f == "both"), "file and rank together cannot be needed");
    assert!(checks > 0 && mates > 0 && captures > 0);
}
