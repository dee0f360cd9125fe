//! Position tests: the fast generator against the slow reference over random
//! games, incremental keys, FEN round trips and FEN errors.

use super::reference;
use super::*;
use crate::types::{Move, MoveList};

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn sorted(list: impl IntoIterator<Item = Move>) -> Vec<u16> {
    let mut v: Vec<u16> = list.into_iter().map(|m| m.bits()).collect();
    v.sort_unstable();
    v
}

/// Random games from the start and from a few sparse positions; calls `f`
/// on every position reached.
fn for_random_positions(games: usize, mut f: impl FnMut(&Position)) {
    let starts = [
        START_FEN,
        "3akab2/9/4b4/4N4/2R6/9/4c4/4B4/4A4/2BAK4 w - - 0 1",
        "5k3/4a4/9/4C4/9/9/9/9/4r4/3K5 w - - 0 1",
        "2bak4/4a4/4b4/p3c3p/2N6/6R2/P7P/4C4/4A4/2BAK1B2 b - - 0 1",
        // Composed: pawns behind their river bank and on their own back
        // rank, advisors and elephants off their usual points.
        "3k1P3/2Pa5/1b2a1b2/p8/3p5/P5P2/1B7/3A2B2/2p1K4/P1N1p2R1 w - - 0 1",
        "2p1ka3/4p4/b4ab2/2P6/9/9/9/2B1A1B2/p3A4/3K5 b - - 0 1",
    ];
    let mut rng = Rng::new(0xC0FFEE);
    for g in 0..games {
        let mut pos = Position::from_fen(starts[g % starts.len()]).unwrap();
        for _ in 0..160 {
            f(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so games reach sparse endgames.
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.below(3) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(m);
        }
    }
}

#[test]
fn legal_moves_match_reference_generator() {
    let mut positions = 0;
    for_random_positions(60, |pos| {
        positions += 1;
        let fast = sorted(pos.legal_moves());
        let slow = sorted(reference::legal_moves(pos));
        assert_eq!(fast, slow, "{}", pos.to_fen());
        assert_eq!(pos.count_legal() as usize, fast.len(), "{}", pos.to_fen());
        assert_eq!(pos.in_check(), reference::in_check(pos, pos.side_to_move()), "{}", pos.to_fen());
    });
    assert!(positions > 3000);
}

#[test]
fn captures_and_quiets_partition_all_moves() {
    for_random_positions(20, |pos| {
        let caps = pos.legal_moves_of(GenType::Captures);
        let quiets = pos.legal_moves_of(GenType::Quiets);
        assert!(caps.iter().all(|&m| pos.is_capture(m)));
        assert!(quiets.iter().all(|&m| !pos.is_capture(m)));
        let both = sorted(caps.into_iter().chain(quiets));
        assert_eq!(both, sorted(pos.legal_moves()), "{}", pos.to_fen());
    });
}

#[test]
fn move_validation_agrees_with_generator_for_every_square_pair() {
    for_random_positions(8, |pos| {
        let legal = sorted(pos.legal_moves());
        let masks = pos.legality_masks();
        let mut pseudo = MoveList::new();
        pos.pseudo_moves(GenType::All, &mut pseudo);
        let pseudo = sorted(pseudo);
        for from in crate::types::Square::all() {
            for to in crate::types::Square::all() {
                let Some(m) = Move::new(from, to) else { continue };
                let is_legal = legal.binary_search(&m.bits()).is_ok();
                assert_eq!(pos.check_move(m).is_ok(), is_legal, "{m} in {}", pos.to_fen());
                assert_eq!(pos.is_pseudo_legal(m), pseudo.binary_search(&m.bits()).is_ok(), "{m}");
                if pos.is_pseudo_legal(m) {
                    assert_eq!(pos.is_legal(m, &masks), is_legal, "{m} in {}", pos.to_fen());
                }
            }
        }
    });
}

/// The predictions made before a move (does it check, the key after it)
/// against the position once it is made, the key recomputed from scratch.
#[test]
fn gives_check_and_key_after_match_playing_the_move() {
    for_random_positions(30, |pos| {
        for m in pos.legal_moves() {
            let mut child = *pos;
            child.make_move(m);
            assert_eq!(pos.gives_check(m), child.in_check(), "{m} in {}", pos.to_fen());
            // make_move skips the full computation for moves far from the king.
            assert_eq!(child.checkers, child.compute_checkers(), "{m} in {}", pos.to_fen());
            let slow = reference::in_check(&child, child.side_to_move());
            assert_eq!(child.in_check(), slow, "{m} in {}", pos.to_fen());
            assert_eq!(pos.key_after(m), child.compute_key(), "{m} in {}", pos.to_fen());
        }
    });
}

#[test]
fn incremental_key_equals_recomputed_key() {
    for_random_positions(60, |pos| {
        assert_eq!(pos.key(), pos.compute_key(), "{}", pos.to_fen());
    });
}

#[test]
fn fen_round_trips() {
    for_random_positions(20, |pos| {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap();
        assert_eq!(&back, pos, "{fen}");
    });
}

#[test]
fn fen_accepts_what_guis_send() {
    let start = Position::startpos();
    for text in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1",
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        "  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  -  - 0   1 \r",
        // UCI2WB in UCI (Cyclone) mode: `fen <board> w 0 1 moves ...`.
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
    ] {
        let pos = Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.key(), start.key(), "{text}");
    }
    // Composed positions, accepted as Fairy-Stockfish and cchess accept
    // them: a pawn on file b before the river, pawns on their own back rank
    // and behind their bank, advisors on any palace point, elephants on any
    // point of their half.
    for text in [
        "3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1",
        "3k5/p8/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/P3K3p w - - 0 1",
        "3k5/9/9/9/9/9/9/9/1B7/4K4 w - - 0 1",
        "3ka4/4a4/9/9/9/9/9/3B1B3/4A4/3AK4 b - - 0 1",
    ] {
        assert!(Position::from_fen(text).is_ok(), "{text}");
    }
}

#[test]
fn fen_errors_are_typed() {
    use crate::types::{Color, Piece};
    let cases: [(&str, FenError); 14] = [
        ("", FenError::Empty),
        ("4k4/9/9/9/9/9/9/9/4K4 w", FenError::RankCount(9)),
        ("4k4/9/9/9/9/9/9/9/9/4K5 w", FenError::RankLength { rank: 0, files: 10 }),
        ("4k4/9/9/9/9/9/9/9/9/4K3 w", FenError::RankLength { rank: 0, files: 8 }),
        ("4k4/9/9/9/9/9/9/9/9/4X4 w", FenError::UnknownLetter('X')),
        ("3k5/9/9/9/9/9/9/9/9/4K4", FenError::MissingSide),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x", FenError::BadSide("x".into())),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - z 1", FenError::BadCounter { field: 5, text: "z".into() }),
        (
            "3k5/9/9/9/9/9/9/9/9/RRR1K4 w",
            FenError::TooManyPieces { piece: Piece::new(Color::Red, PieceKind::Rook), count: 3 },
        ),
        (
            "3k5/9/9/9/9/9/9/9/9/A3K4 w",
            FenError::PieceOffLimits {
                piece: Piece::new(Color::Red, PieceKind::Advisor),
                square: crate::types::Square::parse("a0").unwrap(),
            },
        ),
        ("9/9/9/9/9/9/9/9/9/4K4 w", FenError::MissingKing(Color::Black)),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", FenError::KingsFacing),
        ("3k5/9/9/9/9/9/9/9/3R5/4K4 w", FenError::SideNotToMoveInCheck),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra", FenError::TooManyFields(7)),
    ];
    for (text, want) in cases {
        assert_eq!(Position::from_fen(text).unwrap_err(), want, "{text}");
    }
    // What the move rules cannot play: kings and advisors outside their
    // palace, elephants across the river.
    for text in [
        "3k5/9/9/9/9/9/9/9/9/K8 w",
        "3k5/9/9/9/9/9/4K4/9/9/9 b",
        "3k5/9/9/9/9/9/9/2A6/9/4K4 w",
        "3k5/9/4A4/9/9/9/9/9/9/4K4 w",
        "3k5/9/9/9/2B6/9/9/9/9/4K4 w",
        "3k5/9/9/9/9/2b6/9/9/9/4K4 w",
    ] {
        assert!(matches!(Position::from_fen(text), Err(FenError::PieceOffLimits { .. })), "{text}");
    }
}

#[test]
fn fen_parsing_never_panics_on_random_or_mutated_input() {
    let mut rng = Rng::new(42);
    let alphabet: Vec<char> = "kabnrcpKABNRCPHEhe0123456789/ -wbrx\t\u{00e9}\u{8f66}".chars().collect();
    let mut accepted = 0;
    for i in 0..200_000 {
        let text: String = if i % 2 == 0 {
            // Mutations of real FENs hit the deeper checks.
            let mut chars: Vec<char> = START_FEN.chars().collect();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(chars.len());
                match rng.below(3) {
                    0 => chars[at] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(at);
                    }
                    _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            chars.into_iter().collect()
        } else {
            (0..rng.below(100)).map(|_| alphabet[rng.below(alphabet.len())]).collect()
        };
        if let Ok(pos) = Position::from_fen(&text) {
            accepted += 1;
            // Whatever is accepted is a sane position.
            assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
            let _ = pos.legal_moves();
        }
    }
    assert!(accepted > 100, "the mutations should keep some FENs valid");
}

#[test]
fn bad_moves_are_refused_not_played() {
    let pos = Position::startpos();
    let m = |s| Move::parse(s).unwrap();
    assert_eq!(pos.check_move(m("e5e6")), Err(MoveError::NoPiece));
    assert_eq!(pos.check_move(m("a9a8")), Err(MoveError::NotYourPiece));
    assert_eq!(pos.check_move(m("h2h8")), Err(MoveError::CannotReach));
    assert_eq!(pos.check_move(m("b0d1")), Err(MoveError::CannotReach));
    assert!(pos.check_move(m("h2e2")).is_ok());
    // Moving the only piece between the kings exposes them: refused.
    let p = Position::from_fen("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1").unwrap();
    assert_eq!(p.check_move(m("e4d4")), Err(MoveError::LeavesKingAttacked));
}

#[test]
fn dead_draw_detection() {
    assert!(Position::from_fen("3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w").unwrap().is_dead_draw());
    assert!(!Position::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 w").unwrap().is_dead_draw());
    assert!(!Position::startpos().is_dead_draw());
}

#[test]
fn pretty_board_frame_lines_up_with_the_rows() {
    let text = Position::startpos().pretty();
    let board: Vec<&str> =
        text.lines().take_while(|l| !l.is_empty()).filter(|l| l.contains('|') || l.contains('+')).collect();
    assert_eq!(board.len(), 13, "{text}");
    for line in &board {
        assert_eq!(line.chars().count(), board[0].chars().count(), "{line:?} in\n{text}");
        assert!(line.ends_with('|') || line.ends_with('+'), "{line:?}");
    }
}

#[test]
fn an_optional_fen_reads_as_that_position_or_the_start() {
    assert_eq!(Position::from_fen_or_start(None).unwrap(), Position::startpos());
    let fen = "3k5/9/9/9/9/9/9/3R5/9/4K4 b - - 0 1";
    assert_eq!(Position::from_fen_or_start(Some(fen)).unwrap(), Position::from_fen(fen).unwrap());
    assert_eq!(Position::from_fen_or_start(Some("bad")), Err(FenError::RankCount(1)));
    assert_eq!(Position::from_fen_or_start(Some("")), Err(FenError::Empty));
}
