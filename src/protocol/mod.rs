//! The protocol loop (minimal for now: handshake, `position`, `go perft`,
//! `d`, `quit`). Reads lines, never panics on input, writes protocol lines to
//! the writer and flushes each one.

use crate::perft;
use crate::position::Position;
use crate::types::Move;
use std::io::{BufRead, Write};
use std::time::Instant;

/// Parses `moves` text and plays the moves on `pos`, stopping at the first
/// unparsable or illegal one. Returns the error text naming that move.
pub fn apply_moves<'a>(pos: &mut Position, moves: impl IntoIterator<Item = &'a str>) -> Result<(), String> {
    for (i, text) in moves.into_iter().enumerate() {
        let m = Move::parse(text).ok_or_else(|| format!("move {} '{}' is not a move in ICCS notation", i + 1, text))?;
        pos.check_move(m).map_err(|e| format!("move {} '{}' is illegal: {}", i + 1, text, e))?;
        pos.make_move(m);
    }
    Ok(())
}

/// Parses the arguments of a `position` command: `startpos | fen F` then an
/// optional `moves ...`. On a bad move, the moves before it are kept and the
/// error is returned beside the position.
pub fn parse_position(args: &[&str]) -> Result<(Position, Option<String>), String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut pos = match setup.first() {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&setup[1..].join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    let err = apply_moves(&mut pos, moves.iter().copied()).err();
    Ok((pos, err))
}

/// Runs perft with divide output in Stockfish style.
pub fn write_divide(out: &mut impl Write, pos: &Position, depth: u32) -> std::io::Result<u64> {
    let start = Instant::now();
    let mut total = 0;
    for (m, n) in perft::divide(pos, depth) {
        writeln!(out, "{m}: {n}")?;
        total += n;
    }
    let elapsed = start.elapsed();
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    log::info!("perft {depth}: {total} nodes in {elapsed:?}");
    Ok(total)
}

/// The protocol loop over any reader and writer.
pub fn run(input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    let mut pos = Position::startpos();
    for line in input.lines() {
        let line = line?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else { continue };
        match cmd {
            "uci" => writeln!(out, "id name Chariot\nid author the Chariot developers\nuciok")?,
            "ucci" => writeln!(out, "id name Chariot\nid author the Chariot developers\nucciok")?,
            "isready" => writeln!(out, "readyok")?,
            "position" => match parse_position(&tokens[1..]) {
                Ok((p, err)) => {
                    pos = p;
                    if let Some(e) = err {
                        writeln!(out, "info string {e}")?;
                    }
                }
                Err(e) => writeln!(out, "info string {e}")?,
            },
            "go" if tokens.get(1) == Some(&"perft") => match tokens.get(2).and_then(|t| t.parse::<u32>().ok()) {
                Some(depth) => {
                    write_divide(&mut out, &pos, depth)?;
                }
                None => writeln!(out, "info string go perft needs a depth")?,
            },
            "d" => writeln!(out, "{}", pos.pretty())?,
            "quit" => break,
            _ => writeln!(out, "info string unknown command '{cmd}'")?,
        }
        out.flush()?;
    }
    Ok(())
}
