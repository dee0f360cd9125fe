//! Plain-language explanations of a judged game, each line in English then
//! Chinese (`English / 中文`), for `chariot judge --explain`.

use super::classify::{Effect, MoveClass, Pattern};
use super::{GameReport, Reason, Repetition};
use crate::position::Position;
use crate::types::{Bitboard, Color, Piece};

fn side_en(c: Color) -> &'static str {
    c.name()
}

fn side_zh(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

fn piece_zh(p: Piece) -> String {
    let side = if p.color() == Color::Red { "红" } else { "黑" };
    format!("{side}{}", p.chinese())
}

fn piece_en(p: Piece) -> String {
    format!("{} {}", p.color().name(), p.kind().name())
}

/// "black horse h7" / "黑马(h7)" for each piece on `squares`.
fn targets(pos: &Position, squares: Bitboard) -> (String, String) {
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for sq in squares {
        if let Some(p) = pos.piece_on(sq) {
            en.push(format!("{} {sq}", piece_en(p)));
            zh.push(format!("{}({sq})", piece_zh(p)));
        }
    }
    (en.join(", "), zh.join("、"))
}

/// What one move did, in both languages.
fn effect_text(class: &MoveClass, after: &Position, pawns_counted: bool) -> (String, String) {
    let effect = class.effect(pawns_counted);
    let chased = if pawns_counted { class.chased | class.pawn_chased } else { class.chased };
    let (chase_en, chase_zh) = targets(after, chased);
    let (mut en, mut zh) = match effect {
        Effect::Check => ("check".to_string(), "将".to_string()),
        Effect::MateThreat if chased.any() => {
            (format!("mate threat (also chases {chase_en})"), format!("杀（兼捉{chase_zh}）"))
        }
        Effect::MateThreat => ("mate threat".to_string(), "杀".to_string()),
        Effect::Chase => (format!("chase of {chase_en}"), format!("捉{chase_zh}")),
        Effect::Idle => ("idle".to_string(), "闲".to_string()),
    };
    if pawns_counted && (class.pawn_chased & !class.chased).any() && effect == Effect::Chase {
        en.push_str(" (a pawn's chase, counted in a mutual attack)");
        zh.push_str("（兵卒捉子，互打按捉）");
    }
    if !pawns_counted && class.pawn_chased.any() && effect != Effect::Check {
        let (p_en, p_zh) = targets(after, class.pawn_chased);
        en.push_str(&format!(" (a pawn's attack on {p_en} is idle)"));
        zh.push_str(&format!("（兵卒捉{p_zh}按闲）"));
    }
    (en, zh)
}

fn pattern_text(p: Pattern) -> (&'static str, &'static str) {
    match p {
        Pattern::PerpetualCheck => ("perpetual check, forbidden", "长将，禁止着法"),
        Pattern::PerpetualChase => ("perpetual chase, forbidden", "长捉，禁止着法"),
        Pattern::PerpetualMateThreat => ("perpetual mate threat, forbidden", "长杀，禁止着法"),
        Pattern::MixedAttacks => {
            ("an attack on every move (mixed), forbidden", "每着均为攻击（将、杀、捉交替），禁止着法")
        }
        Pattern::Allowed => ("has idle moves, allowed", "有闲着，允许着法"),
    }
}

fn cycle_lines(rep: &Repetition, end_ply: usize) -> Vec<String> {
    let a = &rep.analysis;
    let from = rep.start_ply + 1;
    let mut lines = vec![if rep.start_ply == 0 {
        format!(
            "the starting position occurred for the third time after ply {end_ply}; plies 1-{end_ply} are judged \
             / 起始局面在第{end_ply}步后第三次出现，裁定第1至{end_ply}步"
        )
    } else {
        format!(
            "the position after ply {s} occurred for the third time after ply {end_ply}; plies {from}-{end_ply} are \
             judged / 第{s}步后的局面在第{end_ply}步后第三次出现，裁定第{from}至{end_ply}步",
            s = rep.start_ply,
        )
    }];
    let mut pos = rep.start;
    for (k, class) in a.moves.iter().enumerate() {
        let ply = rep.start_ply + k + 1;
        let Some(piece) = pos.piece_on(class.mv.from()) else { break };
        let mut after = pos;
        after.make_move(class.mv);
        let (en, zh) = effect_text(class, &after, a.pawn_chases_counted);
        lines.push(format!(
            "ply {ply} {side} {pen} {mv}: {en} / 第{ply}步 {pzh}{mv}：{zh}",
            side = side_en(class.mover),
            pen = piece_kind_en(piece),
            mv = class.mv,
            pzh = piece_zh(piece),
        ));
        pos = after;
    }
    if a.pawn_chases_counted {
        lines.push(
            "both sides attack on every move: pawn chases count [3(3), 4(11)] / 双方互打，兵卒捉子按捉处理".to_string(),
        );
    }
    for c in Color::BOTH {
        let (en, zh) = pattern_text(a.patterns[c.index()]);
        lines.push(format!("{}: {en} / {}：{zh}", side_en(c), side_zh(c)));
    }
    let [red, black] = a.patterns;
    let one_sided_check = (red == Pattern::PerpetualCheck) != (black == Pattern::PerpetualCheck);
    lines.push(match a.loser() {
        Some(loser) if one_sided_check => format!(
            "one-sided perpetual check is never allowed: {} loses / 单方面长将，{}判负",
            side_en(loser),
            side_zh(loser)
        ),
        Some(loser) => format!(
            "{} repeats a forbidden pattern against allowed moves and must change; it does not: {} loses \
             / {}禁止着法对允许着法，应变着，不变判负",
            side_en(loser),
            side_en(loser),
            side_zh(loser)
        ),
        None if red.forbidden() && black.forbidden() => {
            "both sides forbidden: draw / 双方均为禁止着法，不变作和".to_string()
        }
        None => "both sides allowed: draw / 双方均为允许着法，不变作和".to_string(),
    });
    lines
}

fn piece_kind_en(p: Piece) -> &'static str {
    p.kind().name()
}

/// The explanation lines for `report`.
pub fn explain(report: &GameReport) -> Vec<String> {
    let pos = &report.position;
    let us = pos.side_to_move();
    let n = report.plies;
    match report.reason {
        Reason::Checkmate => vec![format!(
            "after ply {n} {} is in check and has no legal move: checkmate, {} wins / 第{n}步后{}被将死，{}胜",
            side_en(us),
            side_en(!us),
            side_zh(us),
            side_zh(!us)
        )],
        Reason::Stalemate => vec![format!(
            "after ply {n} {} has no legal move (stalemate loses): {} wins / 第{n}步后{}无子可走（困毙），{}胜",
            side_en(us),
            side_en(!us),
            side_zh(us),
            side_zh(!us)
        )],
        Reason::SixtyMoveRule => vec![format!(
            "after ply {n}: {} plies without a capture, draw / 第{n}步后已连续{}步（60回合）无吃子，和棋",
            pos.rule60_count(),
            pos.rule60_count()
        )],
        Reason::InsufficientMaterial => vec![format!(
            "after ply {n} neither side has a rook, horse, cannon or pawn: draw / 第{n}步后双方均无车马炮兵卒，和棋"
        )],
        Reason::None => vec![format!("after ply {n} the game goes on / 第{n}步后对局继续")],
        Reason::PerpetualCheck | Reason::PerpetualChase | Reason::ForbiddenRepetition | Reason::Repetition => {
            match &report.repetition {
                Some(rep) => cycle_lines(rep, n),
                None => Vec::new(),
            }
        }
    }
}
