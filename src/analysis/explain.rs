//! A plain sentence for a marked move, read from the two lines the engine
//! gave: the played move's and the best move's.
//!
//! In order: the best line mates and the played one does not ("misses
//! mate in 2"), or the played line ends in mate against the mover ("allows
//! mate in 3"; of the two, the shorter mate is named); the material won and lost over the played line is at least
//! [`MATERIAL_MARGIN`] worse than over the best line: the mover's most
//! valuable piece taken in the played line ("leaves the rook to be taken
//! by the horse", "loses the rook to a horse fork after ..." when the
//! taker attacked two pieces, the king included, after its last move), or
//! else the most valuable piece the best line wins ("misses winning a
//! cannon"); otherwise the position is just worse ("the position drops
//! from +0.30 to -1.20"). A line that ends with a capture is extended by
//! the recaptures that static exchange evaluation finds sound, because a
//! principal variation often stops before the piece is taken back.

use super::MoveAnalysis;
use super::output::{Lang, format_eval};
use crate::notation::{Notation, format_line};
use crate::position::{Position, SEE_VALUE};
use crate::types::score::{is_loss, is_win, mate_moves};
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// Material values for counting what a line wins (the king is never taken).
const VALUE: [i32; 7] = [0, 200, 200, 450, 1000, 450, 100];
/// A material difference between the lines smaller than this is not
/// given as the reason.
pub const MATERIAL_MARGIN: i32 = 150;

/// How a piece is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// Taken by the first reply: the played move left it hanging.
    AtOnce,
    /// Taken by a piece that attacked two of the mover's pieces.
    Fork,
    /// Taken later in the line.
    Later,
}

/// Why a move is marked. Lines of `AllowsMate` and `LosesPiece` start
/// after the played move; those of `MissesMate` and `MissesPiece` are the
/// best line from the position before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explanation {
    /// The opponent mates in `moves` moves.
    AllowsMate { moves: i32, line: Vec<Move> },
    /// The best move mates in `moves` moves.
    MissesMate { moves: i32, line: Vec<Move> },
    /// The played line loses `piece` to the opponent's `taker`; the line
    /// runs up to that capture.
    LosesPiece { piece: PieceKind, taker: PieceKind, how: LossKind, line: Vec<Move> },
    /// The best line wins `piece`; the line runs up to that capture.
    MissesPiece { piece: PieceKind, line: Vec<Move> },
    /// No mate and no material behind it: the scores of the best and the
    /// played move, mover's view.
    Positional { best: i32, played: i32 },
}

struct Capture {
    /// Index of the capturing move in the line.
    index: usize,
    by: Color,
    taker: PieceKind,
    taken: PieceKind,
}

/// The legal part of `line` from `start`, then, when it ends with a
/// capture, the recaptures on that square that do not lose material
/// (least valuable taker first): a principal variation often stops right
/// after a capture, before the piece is taken back.
fn settled(start: &Position, line: &[Move]) -> Vec<Move> {
    const MAX_RECAPTURES: usize = 6;
    let mut pos = *start;
    let mut out = Vec::with_capacity(line.len() + 2);
    let mut last_capture = None;
    for &m in line {
        if pos.check_move(m).is_err() {
            break;
        }
        last_capture = pos.is_capture(m).then_some(m.to());
        pos.make_move(m);
        out.push(m);
    }
    let Some(square) = last_capture else { return out };
    for _ in 0..MAX_RECAPTURES {
        let value = |m: &Move| pos.piece_on(m.from()).map_or(i32::MAX, |p| SEE_VALUE[p.kind().index()]);
        let mut takes: Vec<Move> = pos.legal_moves().into_iter().filter(|m| m.to() == square).collect();
        takes.sort_by_key(value);
        let Some(&m) = takes.first().filter(|&&m| pos.see_ge(m, 0)) else { break };
        pos.make_move(m);
        out.push(m);
    }
    out
}

/// The captures along `line` from `start` (a line of legal moves), and the
/// position before each move, then the last one.
fn captures(start: &Position, line: &[Move]) -> (Vec<Capture>, Vec<Position>) {
    let mut pos = *start;
    let mut caps = Vec::new();
    let mut positions = Vec::with_capacity(line.len() + 1);
    for (index, &m) in line.iter().enumerate() {
        positions.push(pos);
        if let (Some(taker), Some(taken)) = (pos.piece_on(m.from()), pos.piece_on(m.to())) {
            caps.push(Capture { index, by: taker.color(), taker: taker.kind(), taken: taken.kind() });
        }
        pos.make_move(m);
    }
    positions.push(pos);
    (caps, positions)
}

fn balance(caps: &[Capture], side: Color) -> i32 {
    caps.iter().map(|c| if c.by == side { VALUE[c.taken.index()] } else { -VALUE[c.taken.index()] }).sum()
}

/// The most valuable piece taken by `by` (the earliest among equals).
fn biggest(caps: &[Capture], by: Color) -> Option<&Capture> {
    caps.iter().filter(|c| c.by == by).max_by_key(|c| (VALUE[c.taken.index()], std::cmp::Reverse(c.index)))
}

/// Whether the piece making capture `c` attacked two or more of the
/// victim's rooks, horses, cannons and king just after it last moved (or,
/// if it did not move in the line, just before the capture).
fn is_fork(positions: &[Position], line: &[Move], c: &Capture) -> bool {
    let square = line[c.index].from();
    let arrival = (0..c.index).rev().find(|&j| line[j].to() == square);
    let pos = positions[arrival.map_or(c.index, |j| j + 1)];
    let victim = !c.by;
    let attacked = |sq: Square| pos.attackers_to(sq, c.by, pos.occupancy()).has(square);
    let targets = pos.color_bb(victim).iter().filter(|&sq| {
        pos.piece_on(sq).is_some_and(|p| {
            matches!(p.kind(), PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::King)
        })
    });
    targets.filter(|&sq| attacked(sq)).count() >= 2
}

/// Says why the move of `a` lost what it did.
pub fn explain(a: &MoveAnalysis) -> Explanation {
    let mover = a.mover();
    let (played, best) = (&a.played, &a.best);
    // Moves to the mate: the mover's if the best line mates, the
    // opponent's if the played line is mated (plies from the position
    // before the move, an even number, halved).
    let misses = mate_moves(best.score).filter(|_| is_win(best.score) && played.score < best.score);
    let allows = mate_moves(played.score).filter(|_| is_loss(played.score) && best.score > played.score).map(|m| -m);
    match (misses, allows) {
        (Some(m), a) if a.is_none_or(|a| m <= a) => {
            return Explanation::MissesMate { moves: m, line: best.moves.clone() };
        }
        (_, Some(a)) => return Explanation::AllowsMate { moves: a, line: played.moves[1..].to_vec() },
        _ => {}
    }
    let (played_line, best_line) = (settled(&a.before, &played.moves), settled(&a.before, &best.moves));
    let (played_caps, played_positions) = captures(&a.before, &played_line);
    let (best_caps, _) = captures(&a.before, &best_line);
    if balance(&played_caps, mover) + MATERIAL_MARGIN <= balance(&best_caps, mover) {
        if balance(&played_caps, mover) < 0
            && let Some(c) = biggest(&played_caps, !mover)
        {
            let how = if c.index == 1 {
                LossKind::AtOnce
            } else if is_fork(&played_positions, &played_line, c) {
                LossKind::Fork
            } else {
                LossKind::Later
            };
            let line = played_line[1..=c.index].to_vec();
            return Explanation::LosesPiece { piece: c.taken, taker: c.taker, how, line };
        }
        if let Some(c) = biggest(&best_caps, mover) {
            return Explanation::MissesPiece { piece: c.taken, line: best_line[..=c.index].to_vec() };
        }
    }
    Explanation::Positional { best: best.score, played: played.score }
}

fn with_article(kind: PieceKind) -> String {
    let name = kind.name();
    if matches!(kind, PieceKind::Advisor | PieceKind::Elephant) { format!("an {name}") } else { format!("a {name}") }
}

fn chinese_name(color: Color, kind: PieceKind) -> char {
    Piece::new(color, kind).chinese()
}

impl Explanation {
    /// The sentence, in English (lines in WXF) or Chinese (lines in
    /// Chinese notation).
    pub fn sentence(&self, a: &MoveAnalysis, lang: Lang) -> String {
        let notation = match lang {
            Lang::En => Notation::Wxf,
            Lang::Zh => Notation::Chinese,
        };
        let after = a.after();
        let text = |from: &Position, line: &[Move]| format_line(from, line, notation).join(" ");
        let mover = a.mover();
        let side_name = |c: Color| if c == Color::Red { "红" } else { "黑" };
        match (self, lang) {
            (Explanation::AllowsMate { moves, line }, Lang::En) => {
                format!("allows mate in {moves}: {}", text(&after, line))
            }
            (Explanation::AllowsMate { moves, line }, Lang::Zh) => {
                format!("送杀：对方{moves}步成杀（{}）", text(&after, line))
            }
            (Explanation::MissesMate { moves, line }, Lang::En) => {
                format!("misses mate in {moves}: {}", text(&a.before, line))
            }
            (Explanation::MissesMate { moves, line }, Lang::Zh) => {
                format!("漏杀：本可{moves}步成杀（{}）", text(&a.before, line))
            }
            (Explanation::LosesPiece { piece, taker, how, line }, Lang::En) => {
                let (piece, taker, line) = (piece.name(), taker.name(), text(&after, line));
                match how {
                    LossKind::AtOnce => format!("leaves the {piece} to be taken by the {taker}: {line}"),
                    LossKind::Fork => format!("loses the {piece} to a {taker} fork after {line}"),
                    LossKind::Later => format!("loses the {piece} to the {taker} after {line}"),
                }
            }
            (Explanation::LosesPiece { piece, taker, how, line }, Lang::Zh) => {
                let piece = chinese_name(mover, *piece);
                let taker = chinese_name(!mover, *taker);
                let line = text(&after, line);
                match how {
                    LossKind::AtOnce => format!("送{piece}：对方{taker}可直接吃掉（{line}）"),
                    LossKind::Fork => format!("被对方{taker}捉双，丢{piece}（{line}）"),
                    LossKind::Later => format!("丢{piece}：对方{taker}吃{piece}（{line}）"),
                }
            }
            (Explanation::MissesPiece { piece, line }, Lang::En) => {
                format!("misses winning {}: {}", with_article(*piece), text(&a.before, line))
            }
            (Explanation::MissesPiece { piece, line }, Lang::Zh) => {
                format!("错过得{}的机会（{}）", chinese_name(!mover, *piece), text(&a.before, line))
            }
            (Explanation::Positional { best, played }, Lang::En) => {
                let (b, p) = (super::red_view(mover, *best), super::red_view(mover, *played));
                format!(
                    "no material goes in the line, but the evaluation goes from {} to {}",
                    format_eval(b),
                    format_eval(p)
                )
            }
            (Explanation::Positional { best, played }, Lang::Zh) => {
                let (b, p) = (super::red_view(mover, *best), super::red_view(mover, *played));
                format!("{}方局面变差：评分从{}变为{}", side_name(mover), format_eval(b), format_eval(p))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Line, MoveAnalysis, Severity};
    use crate::types::score::MATE;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace().map(|t| Move::parse(t).expect("test move")).collect()
    }

    /// A marked move with hand-written lines (scores from the mover's view).
    fn analysis(fen: &str, played: &str, played_score: i32, best: &str, best_score: i32) -> MoveAnalysis {
        MoveAnalysis {
            ply: 1,
            before: Position::from_fen(fen).expect("test FEN"),
            played: Line { score: played_score, moves: moves(played) },
            best: Line { score: best_score, moves: moves(best) },
            depth: 1,
            loss: best_score - played_score,
            severity: Some(Severity::Blunder),
            explanation: None,
            forced: false,
        }
    }

    // Red: king e1, rook a1. Black: king d9, horse c5.
    const HORSE: &str = "3k5/9/9/9/2n6/9/9/9/R3K4/9 w - - 0 1";

    #[test]
    fn a_piece_left_to_a_capture() {
        let a = analysis(HORSE, "a1a4 c5a4", -900, "a1a2", 0);
        let e = explain(&a);
        assert_eq!(
            e,
            Explanation::LosesPiece {
                piece: PieceKind::Rook,
                taker: PieceKind::Horse,
                how: LossKind::AtOnce,
                line: moves("c5a4")
            }
        );
        assert_eq!(e.sentence(&a, Lang::En), "leaves the rook to be taken by the horse: H3+1");
        assert_eq!(e.sentence(&a, Lang::Zh), "送车：对方马可直接吃掉（马３进１）");
    }

    #[test]
    fn a_fork() {
        // Rc1?? Nd3+ forks king and rook; the king steps aside, Nxc1.
        let a = analysis(HORSE, "a1c1 c5d3 e1e0 d3c1", -900, "a1a2", 0);
        let e = explain(&a);
        assert!(matches!(e, Explanation::LosesPiece { piece: PieceKind::Rook, how: LossKind::Fork, .. }), "{e:?}");
        assert_eq!(e.sentence(&a, Lang::En), "loses the rook to a horse fork after H3+4 K5-1 H4+3");
    }

    #[test]
    fn a_missed_capture_counts_the_recapture() {
        // A hanging cannon on a5: missed.
        let cannon = "3k5/9/9/9/c8/9/9/9/R3K4/9 w - - 0 1";
        let a = analysis(cannon, "a1b1", 0, "a1a5", 450);
        assert_eq!(explain(&a), Explanation::MissesPiece { piece: PieceKind::Cannon, line: moves("a1a5") });
        assert_eq!(explain(&a).sentence(&a, Lang::En), "misses winning a cannon: R9+4");
        // A rook on a5 protected by the horse on c4: taking it only trades.
        let protected = "3k5/9/9/9/r8/2n6/9/9/R3K4/9 w - - 0 1";
        let a = analysis(protected, "a1b1", -200, "a1a5", 0);
        assert!(matches!(explain(&a), Explanation::Positional { best: 0, played: -200 }), "{:?}", explain(&a));
    }

    #[test]
    fn mates() {
        let a = analysis(HORSE, "a1a2 c5d3 e1e0", -(MATE - 4), "a1a3", 0);
        assert_eq!(explain(&a), Explanation::AllowsMate { moves: 2, line: moves("c5d3 e1e0") });
        let a = analysis(HORSE, "a1a2", 0, "a1a3", MATE - 3);
        assert!(matches!(explain(&a), Explanation::MissesMate { moves: 2, .. }));
        // Both: the shorter mate is the reason.
        let a = analysis(HORSE, "a1a2 c5d3 e1e0", -(MATE - 4), "a1a3", MATE - 5);
        assert!(matches!(explain(&a), Explanation::AllowsMate { moves: 2, .. }));
        let a = analysis(HORSE, "a1a2 c5d3 e1e0", -(MATE - 4), "a1a3", MATE - 3);
        assert!(explain(&a).sentence(&a, Lang::En).starts_with("misses mate in 2: R9+2"));
    }
}
