//! The annotated game as PGN or JSON. Evaluations are from Red's point of
//! view, in pawns (`+0.35`) or as mates (`#3`: Red mates in 3, `#-3`:
//! Black does; `#+0` / `#-0`: decided now by a repetition rule).

use super::{GameAnalysis, MoveAnalysis, SearchLimit, Severity, SideSummary};
use crate::notation::{Notation, format_line, format_move};
use crate::position::Position;
use crate::rules::GameResult;
use crate::types::score::{DisplayScore, pawns_text};
use crate::types::{Color, Move};
use std::fmt::Write;

/// The language of the comments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub lang: Lang,
    /// The notation of the PGN movetext (the comments give the other two).
    pub notation: Notation,
}

/// A score in pawns (`+0.35`) or as a mate (`#3`, `#-3`), from the side
/// the score is for.
pub fn format_eval(score: i32) -> String {
    match DisplayScore::of(score) {
        DisplayScore::Cp(cp) => pawns_text(cp),
        // Decided on the spot (a repetition the rules forbid): `#+0` won,
        // `#-0` lost.
        DisplayScore::Mate(0) => if score > 0 { "#+0" } else { "#-0" }.to_string(),
        DisplayScore::Mate(n) => format!("#{n}"),
    }
}

fn severity_word(s: Severity, lang: Lang) -> &'static str {
    match (s, lang) {
        (Severity::Inaccuracy, Lang::En) => "Inaccuracy",
        (Severity::Mistake, Lang::En) => "Mistake",
        (Severity::Blunder, Lang::En) => "Blunder",
        (Severity::Inaccuracy, Lang::Zh) => "缓着",
        (Severity::Mistake, Lang::Zh) => "错着",
        (Severity::Blunder, Lang::Zh) => "败着",
    }
}

/// PGN's NAG for a class: `$6` ?!, `$2` ?, `$4` ??.
fn nag(s: Severity) -> &'static str {
    match s {
        Severity::Inaccuracy => "$6",
        Severity::Mistake => "$2",
        Severity::Blunder => "$4",
    }
}

fn result_text(result: Option<GameResult>) -> String {
    result.map_or("*".to_string(), |r| r.to_string())
}

fn limit_text(limit: SearchLimit) -> String {
    match limit {
        SearchLimit::Depth(d) => format!("depth {d}"),
        SearchLimit::MoveTimeMs(ms) => format!("{ms} ms per move"),
    }
}

fn engine_name() -> String {
    format!("Chariot {}", env!("CARGO_PKG_VERSION"))
}

/// The three notations of a move other than `first`, in a fixed order.
fn other_notations(pos: &Position, m: Move, first: Notation) -> Vec<String> {
    [Notation::Chinese, Notation::Wxf, Notation::Iccs]
        .into_iter()
        .filter(|&n| n != first)
        .map(|n| format_move(pos, m, n))
        .collect()
}

/// Movetext for a line from `pos`: numbered (`5.` before Red's moves, `5...`
/// when it starts with Black's).
fn numbered_line(pos: &Position, line: &[Move], notation: Notation) -> String {
    let texts = format_line(pos, line, notation);
    let mut out = String::new();
    let mut p = *pos;
    for (i, text) in texts.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if p.side_to_move() == Color::Red {
            let _ = write!(out, "{}. ", p.fullmove_number());
        } else if i == 0 {
            let _ = write!(out, "{}... ", p.fullmove_number());
        }
        out.push_str(text);
        p.make_move(line[i]);
    }
    out
}

fn summary_text(s: &SideSummary, lang: Lang) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match lang {
        Lang::En => format!(
            "{}, {}, {}, average loss {:.0}",
            plural(s.inaccuracies, "inaccuracy", "inaccuracies"),
            plural(s.mistakes, "mistake", "mistakes"),
            plural(s.blunders, "blunder", "blunders"),
            s.average_loss
        ),
        Lang::Zh => {
            format!("缓着{}，错着{}，败着{}，平均损失{:.0}", s.inaccuracies, s.mistakes, s.blunders, s.average_loss)
        }
    }
}

/// The comment text after a move: its other notations, the evaluation,
/// and for a marked move the class, the reason and the better move.
fn move_comment(a: &MoveAnalysis, style: Style) -> String {
    let m = a.played.first();
    let mut c =
        format!("[%eval {}] {}", format_eval(a.eval_red()), other_notations(&a.before, m, style.notation).join(" "));
    let (Some(severity), Some(explanation)) = (a.severity, &a.explanation) else { return c };
    let best = a.best.first();
    let best_text = format_move(&a.before, best, style.notation);
    let best_others = other_notations(&a.before, best, style.notation).join(", ");
    let loss = a.loss as f64 / 100.0;
    let reason = explanation.sentence(a, style.lang);
    let best_eval = format_eval(a.best_eval_red());
    match style.lang {
        Lang::En => {
            let word = severity_word(severity, Lang::En);
            let _ = write!(c, ". {word} (loses {loss:.2}): {reason}. Better {best_text} ({best_others}), {best_eval}");
        }
        Lang::Zh => {
            let word = severity_word(severity, Lang::Zh);
            let _ = write!(c, "。{word}（损失{loss:.2}）：{reason}。应走{best_text}（{best_others}），{best_eval}");
        }
    }
    c
}

/// Text inside `{}` may not hold `}`.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The annotated game as PGN.
pub fn pgn(analysis: &GameAnalysis, style: Style) -> String {
    let record = &analysis.record;
    let mut out = String::new();
    let skip = ["Annotator", "Format", "Result", "FEN"];
    if record.tag("Game").is_none() {
        out.push_str(&tag_line("Game", "Chinese Chess"));
    }
    for (name, value) in &record.tags {
        if !skip.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            out.push_str(&tag_line(name, value));
        }
    }
    out.push_str(&tag_line("Result", &result_text(record.result)));
    if record.start != Position::startpos() {
        out.push_str(&tag_line("FEN", &record.start.to_fen()));
    }
    let format = match style.notation {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    };
    out.push_str(&tag_line("Format", format));
    out.push_str(&tag_line("Annotator", &format!("{}, {}", engine_name(), limit_text(analysis.limit))));
    out.push('\n');
    let (red, black) = (analysis.summary(Color::Red), analysis.summary(Color::Black));
    let summary = match style.lang {
        Lang::En => format!("Red: {}. Black: {}.", summary_text(&red, Lang::En), summary_text(&black, Lang::En)),
        Lang::Zh => format!("红方：{}。黑方：{}。", summary_text(&red, Lang::Zh), summary_text(&black, Lang::Zh)),
    };
    out.push_str(&comment(&summary));
    out.push('\n');
    for a in &analysis.moves {
        let m = a.played.first();
        out.push_str(&numbered_line(&a.before, &[m], style.notation));
        if let Some(s) = a.severity {
            out.push(' ');
            out.push_str(nag(s));
        }
        out.push(' ');
        out.push_str(&comment(&move_comment(a, style)));
        if a.severity.is_some() {
            let _ = write!(out, " ({})", numbered_line(&a.before, &a.best.moves, style.notation));
        }
        out.push('\n');
    }
    // Moves the analysis did not reach (it stops early only if the engine
    // cannot search a position) are still written.
    let mut pos = record.positions()[analysis.moves.len()];
    for &m in &record.moves[analysis.moves.len()..] {
        out.push_str(&numbered_line(&pos, &[m], style.notation));
        out.push('\n');
        pos.make_move(m);
    }
    out.push_str(&result_text(record.result));
    out.push_str("\n\n");
    out
}

// ------------------------------------------------------------------ JSON

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_eval(score_red: i32) -> String {
    match DisplayScore::of(score_red) {
        DisplayScore::Cp(cp) => format!("{{\"cp\": {cp}}}"),
        DisplayScore::Mate(0) => {
            format!("{{\"mate\": 0, \"winner\": \"{}\"}}", if score_red > 0 { "red" } else { "black" })
        }
        DisplayScore::Mate(n) => format!("{{\"mate\": {n}}}"),
    }
}

fn json_move(pos: &Position, m: Move) -> String {
    format!(
        "{{\"iccs\": {}, \"wxf\": {}, \"chinese\": {}}}",
        json_string(&m.to_string()),
        json_string(&format_move(pos, m, Notation::Wxf)),
        json_string(&format_move(pos, m, Notation::Chinese))
    )
}

fn json_line(pos: &Position, line: &[Move]) -> String {
    let mut p = *pos;
    let mut items = Vec::with_capacity(line.len());
    for &m in line {
        if p.check_move(m).is_err() {
            break;
        }
        items.push(json_move(&p, m));
        p.make_move(m);
    }
    format!("[{}]", items.join(", "))
}

fn json_summary(s: &SideSummary) -> String {
    format!(
        "{{\"moves\": {}, \"inaccuracies\": {}, \"mistakes\": {}, \"blunders\": {}, \"average_loss\": {:.1}}}",
        s.moves, s.inaccuracies, s.mistakes, s.blunders, s.average_loss
    )
}

fn json_game(analysis: &GameAnalysis, style: Style) -> String {
    let record = &analysis.record;
    let mut seen = Vec::new();
    let mut tags = Vec::new();
    for (name, value) in &record.tags {
        if !seen.contains(&name) {
            seen.push(name);
            tags.push(format!("{}: {}", json_string(name), json_string(value)));
        }
    }
    let result = match record.result {
        Some(r) => json_string(&r.to_string()),
        None => "null".to_string(),
    };
    let mut moves = Vec::new();
    for a in &analysis.moves {
        let side = if a.mover() == Color::Red { "red" } else { "black" };
        let class = a.severity.map_or("null".to_string(), |s| json_string(s.name()));
        let comment = match (&a.explanation, a.severity) {
            (Some(e), Some(_)) => json_string(&e.sentence(a, style.lang)),
            _ => "null".to_string(),
        };
        moves.push(format!(
            "      {{\"ply\": {}, \"move_number\": {}, \"side\": \"{side}\", \"move\": {}, \"eval\": {}, \
             \"depth\": {}, \"loss\": {}, \"class\": {class}, \"forced\": {}, \"comment\": {comment}, \
             \"best\": {{\"move\": {}, \"eval\": {}, \"line\": {}}}, \"played_line\": {}}}",
            a.ply,
            a.before.fullmove_number(),
            json_move(&a.before, a.played.first()),
            json_eval(a.eval_red()),
            a.depth,
            a.loss,
            a.forced,
            json_move(&a.before, a.best.first()),
            json_eval(a.best_eval_red()),
            json_line(&a.before, &a.best.moves),
            json_line(&a.before, &a.played.moves),
        ));
    }
    format!(
        "    {{\n      \"tags\": {{{}}},\n      \"start_fen\": {},\n      \"result\": {result},\n      \
         \"summary\": {{\"red\": {}, \"black\": {}}},\n      \"moves\": [\n{}\n      ]\n    }}",
        tags.join(", "),
        json_string(&record.start.to_fen()),
        json_summary(&analysis.summary(Color::Red)),
        json_summary(&analysis.summary(Color::Black)),
        moves.join(",\n"),
    )
}

/// Every analysed game as one JSON document.
pub fn json(games: &[GameAnalysis], style: Style) -> String {
    let limit = match games.first().map(|g| g.limit) {
        Some(SearchLimit::Depth(d)) => format!("{{\"depth\": {d}}}"),
        Some(SearchLimit::MoveTimeMs(ms)) => format!("{{\"movetime_ms\": {ms}}}"),
        None => "null".to_string(),
    };
    let lang = if style.lang == Lang::En { "en" } else { "zh" };
    let bodies: Vec<String> = games.iter().map(|g| json_game(g, style)).collect();
    format!(
        "{{\n  \"engine\": {},\n  \"limit\": {limit},\n  \"lang\": \"{lang}\",\n  \"thresholds\": {{\"inaccuracy\": {}, \
         \"mistake\": {}, \"blunder\": {}, \"score_cap\": {}}},\n  \"eval_view\": \"red\",\n  \"games\": [\n{}\n  ]\n}}\n",
        json_string(&engine_name()),
        super::INACCURACY,
        super::MISTAKE,
        super::BLUNDER,
        super::SCORE_CAP,
        bodies.join(",\n")
    )
}
