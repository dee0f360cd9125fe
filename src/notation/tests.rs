use super::*;
use crate::position::Position;
use crate::types::PieceKind;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

fn mv(text: &str) -> Move {
    Move::parse(text).expect("test move")
}

/// (ICCS, WXF, Chinese) of moves in `fen`.
fn check(fen: &str, cases: &[(&str, &str, &str)]) {
    let p = pos(fen);
    for &(iccs, wxf, zh) in cases {
        let m = mv(iccs);
        assert_eq!(to_wxf(&p, m), wxf, "{fen} {iccs}");
        assert_eq!(to_chinese(&p, m), zh, "{fen} {iccs}");
        assert_eq!(parse_wxf(&p, wxf), Ok(m), "{fen} {wxf}");
        assert_eq!(parse_chinese(&p, zh), Ok(m), "{fen} {zh}");
    }
}

#[test]
fn opening_moves() {
    let start = crate::position::START_FEN;
    check(
        start,
        &[
            ("h2e2", "C2=5", "炮二平五"),
            ("b0c2", "H8+7", "马八进七"),
            ("i0i1", "R1+1", "车一进一"),
            ("g3g4", "P3+1", "兵三进一"),
            ("c0e2", "E7+5", "相七进五"),
            ("f0e1", "A4+5", "仕四进五"),
            ("e0e1", "K5+1", "帅五进一"),
            ("b2b9", "C8+7", "炮八进七"),
        ],
    );
    let after = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    check(
        after,
        &[
            ("h9g7", "H8+7", "马８进７"),
            ("b9c7", "H2+3", "马２进３"),
            ("a9a8", "R1+1", "车１进１"),
            ("h7h3", "C8+4", "炮８进４"),
        ],
    );
}

#[test]
fn tandem_pieces() {
    // Red cannons on e2 and e3, Red rooks on d0 and d4, Red horses on g2 and g4.
    let fen = "5k3/9/9/9/9/3R2N2/4C4/4C1N2/9/3RK4 w - - 0 1";
    check(
        fen,
        &[
            ("e3a3", "C+=9", "前炮平九"),
            ("e2a2", "C-=9", "后炮平九"),
            ("e3e9", "C++6", "前炮进六"),
            ("d4d8", "R++4", "前车进四"),
            ("d0d3", "R-+3", "后车进三"),
            ("g4h6", "H++2", "前马进二"),
            ("g2h0", "H--2", "后马退二"),
        ],
    );
    // Black rooks on e8 and e6: Black's front is toward rank 0.
    check("3k5/4r4/9/4r4/9/9/9/9/9/5K3 b - - 0 1", &[("e6d6", "R+=4", "前车平４"), ("e8d8", "R-=4", "后车平４")]);
    // Advisors on one file keep their file: the direction tells them apart.
    check("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", &[("d0e1", "A6+5", "仕六进五"), ("d2e1", "A6-5", "仕六退五")]);
}

#[test]
fn tandem_pawns() {
    // Three Red pawns on file e (ranks 5, 6, 7) and one on c5.
    let three = "3k5/9/4P4/4P4/2P1P4/9/9/9/9/5K3 w - - 0 1";
    check(
        three,
        &[
            ("e7d7", "P+=6", "前兵平六"),
            ("e6d6", "P5=6", "中兵平六"),
            ("e5d5", "P-=6", "后兵平六"),
            ("c5c6", "P7+1", "兵七进一"),
        ],
    );
    // Four on file e (5..8), one on a5.
    let four = "3k5/4P4/4P4/4P4/P3P4/9/9/9/9/5K3 w - - 0 1";
    check(
        four,
        &[
            ("e8d8", "++=6", "前兵平六"),
            ("e7d7", "P+=6", "二兵平六"),
            ("e6d6", "P-=6", "三兵平六"),
            ("e5d5", "--=6", "后兵平六"),
        ],
    );
    // Five on file e (4..8): the middle one keeps its file in WXF.
    let five = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1";
    check(
        five,
        &[
            ("e8d8", "++=6", "前兵平六"),
            ("e7d7", "P+=6", "二兵平六"),
            ("e6d6", "P5=6", "三兵平六"),
            ("e5d5", "P-=6", "四兵平六"),
        ],
    );
    // Three on file c and two on file g: file and place.
    let two_files = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/5K3 w - - 0 1";
    check(
        two_files,
        &[
            ("c7b7", "7+=8", "前七平八"),
            ("c6b6", "77=8", "中七平八"),
            ("c5b5", "7-=8", "后七平八"),
            ("g6h6", "3+=2", "前三平二"),
            ("g5h5", "3-=2", "后三平二"),
        ],
    );
    // Black: two pawns on file e (ranks 4 and 3), counted from Black's side.
    check("3k5/9/9/9/9/4p4/4p4/9/9/5K3 b - - 0 1", &[("e3d3", "P+=4", "前卒平４"), ("e4d4", "P-=4", "后卒平４")]);
}

#[test]
fn other_spellings_are_read() {
    let start = Position::startpos();
    let h2e2 = mv("h2e2");
    for text in ["h2e2", "H2-E2", "H2E2", "h2-e2", "C2=5", "c2.5", "C2.5", "炮二平五", "砲二平五", "炮2平5", "包２平５"]
    {
        assert_eq!(parse_move(&start, text), Ok(h2e2), "{text}");
    }
    assert_eq!(parse_move(&start, "N8+7"), Ok(mv("b0c2")));
    assert_eq!(parse_move(&start, "傌八進七"), Ok(mv("b0c2")));
    assert_eq!(parse_move(&start, "俥一進一"), Ok(mv("i0i1")));
    assert_eq!(parse_move(&start, "B7+5"), Ok(mv("c0e2")));
    // Tandem spellings: sign before the letter; the old file form when only
    // one of the two can make the move.
    let p = pos("5k3/9/9/9/9/3R2N2/4C4/4C1N2/9/3RK4 w - - 0 1");
    assert_eq!(parse_move(&p, "+C=9"), Ok(mv("e3a3")));
    assert_eq!(parse_move(&p, "C5+6"), Ok(mv("e3e9")));
    assert_eq!(parse_move(&p, "炮前平九"), Ok(mv("e3a3")));
    // Fairy-Stockfish's numbered pawns.
    let three = pos("3k5/9/4P4/4P4/2P1P4/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(parse_move(&three, "15=6"), Ok(mv("e7d7")));
    assert_eq!(parse_move(&three, "35=6"), Ok(mv("e5d5")));
}

#[test]
fn bad_text_is_refused() {
    let start = Position::startpos();
    for text in ["", "x", "C2=0", "C2?5", "炮二走五", "炮十平五", "h2e2e2", "C0=5", "炮"] {
        assert_eq!(parse_move(&start, text), Err(NotationError::Unreadable), "{text}");
    }
    assert_eq!(parse_move(&start, "R1=2"), Err(NotationError::NoLegalMove));
    assert_eq!(parse_move(&start, "R1+3"), Err(NotationError::NoLegalMove));
    assert_eq!(parse_move(&start, "炮二进九"), Err(NotationError::NoLegalMove));
    assert_eq!(parse_move(&start, "h2h3"), Ok(mv("h2h3")));
    assert!(matches!(parse_move(&start, "a0a5"), Err(NotationError::Illegal(_))));
    // Two crossed pawns on one file: the plain file form fits both
    // sideways moves (the forward one fits only the front pawn).
    let p = pos("3k5/9/9/4P4/4P4/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(parse_move(&p, "P5=6"), Err(NotationError::Ambiguous(vec![mv("e5d5"), mv("e6d6")])));
    assert_eq!(parse_move(&p, "P5+1"), Ok(mv("e6e7")));
}

/// A small deterministic generator for random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Positions of random games. The other starts have kings, defenders and
/// crossed pawns on different ranks, or four and five pawns on a file, and
/// their pawns move most of the time, so that files with three, four or
/// five pawns, and two files with several, occur.
fn random_positions(games: usize, plies: usize) -> Vec<Position> {
    let starts = [
        crate::position::START_FEN,
        "3aka3/6P2/4P4/2P6/P7P/p7p/2p6/4p4/6p2/3AKA3 w - - 0 1",
        "3k5/4P4/4P4/4P4/P3P4/p3p4/4p4/4p4/4p4/5K3 w - - 0 1",
        "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::new();
    for g in 0..games {
        let pawn_game = g % starts.len() != 0;
        let mut p = pos(starts[g % starts.len()]);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(p);
            let pawn_moves: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| p.piece_on(m.from()).is_some_and(|pc| pc.kind() == PieceKind::Pawn))
                .filter(|&m| !p.is_capture(m))
                .collect();
            let m = if pawn_game && !pawn_moves.is_empty() && rng.below(4) != 0 {
                pawn_moves[rng.below(pawn_moves.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(m);
        }
    }
    out
}

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    let mut checked = 0;
    // Moves of a pawn with 3+ on its file, with 4+, and with two tandem files.
    let mut special = [0; 3];
    for p in random_positions(30, 80) {
        let legal = p.legal_moves();
        for f in legal.iter().filter_map(|&m| facts(&p, m)).filter(|f| f.kind == PieceKind::Pawn) {
            special[0] += usize::from(f.count >= 3);
            special[1] += usize::from(f.count >= 4);
            special[2] += usize::from(f.count >= 2 && f.tandem_pawn_files >= 2);
        }
        for notation in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
            let texts: Vec<String> = legal.iter().map(|&m| format_move(&p, m, notation)).collect();
            for (i, &m) in legal.iter().enumerate() {
                let read = match notation {
                    Notation::Iccs => parse_iccs(&p, &texts[i]),
                    Notation::Wxf => parse_wxf(&p, &texts[i]),
                    Notation::Chinese => parse_chinese(&p, &texts[i]),
                };
                assert_eq!(read, Ok(m), "{} {:?} '{}'", p.to_fen(), notation, texts[i]);
                assert_eq!(parse_move(&p, &texts[i]), Ok(m));
                checked += 1;
            }
            let mut unique = texts.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), texts.len(), "{} {:?}: two moves share a text", p.to_fen(), notation);
        }
    }
    assert!(checked > 30_000, "{checked}");
    assert!(special.iter().all(|&n| n >= 20), "too few tandem pawn moves: {special:?}");
}

#[test]
fn san_against_iccs_by_case() {
    let start = Position::startpos();
    // One case: ICCS, as before.
    for text in ["h2e2", "H2E2", "H2-E2", "h2-e2"] {
        assert_eq!(parse_move(&start, text), Ok(mv("h2e2")), "{text}");
        assert_eq!(parse_any(&start, text, RankBase::One), Ok(mv("h2e2")), "{text}");
    }
    assert_eq!(parse_move(&start, "e5e7"), Err(NotationError::Illegal(crate::position::MoveError::NoPiece)));
    // An upper-case piece letter with lower-case files: SAN (issue 31).
    assert_eq!(parse_move(&start, "E5e7"), Err(NotationError::Unreadable));
    assert_eq!(parse_any(&start, "Ce2e4", RankBase::Zero), Err(NotationError::NoLegalMove));
    assert_eq!(parse_any(&start, "C2e2", RankBase::Zero), Err(NotationError::Ambiguous(vec![mv("b2e2"), mv("h2e2")])));
    assert_eq!(parse_any(&start, "Cb2e2", RankBase::Zero), Ok(mv("b2e2")));
    assert_eq!(parse_any(&start, "E0e2", RankBase::Zero), Err(NotationError::Ambiguous(vec![mv("c0e2"), mv("g0e2")])));
    assert_eq!(parse_any(&start, "Ege2", RankBase::Zero), Ok(mv("g0e2")));
    assert_eq!(parse_any(&start, "Ege3", RankBase::One), Ok(mv("g0e2")));
    // WXF and Chinese are untouched.
    assert_eq!(parse_any(&start, "C2=5", RankBase::Zero), Ok(mv("h2e2")));
    assert_eq!(parse_any(&start, "炮二平五", RankBase::One), Ok(mv("h2e2")));
    let e = parse_any(&start, "Zz9", RankBase::Zero).unwrap_err();
    assert_eq!(e.to_string(), "is not a move in ICCS, WXF, Chinese or XBoard SAN notation");
    let boxed: Box<dyn std::error::Error> = Box::new(NotationError::NoLegalMove);
    assert_eq!(boxed.to_string(), "fits no legal move");
}
