//! The subcommands of the `chariot` binary, one module each: the
//! command's arguments (clap) and its body, which hands the work to the
//! library. Every body returns a [`CommandResult`]; [`exit_code`] is the
//! one place that turns an error into a message and an exit code.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod judge;
pub mod matches;
pub mod perft;
pub mod search_params;
pub mod serve;
pub mod train_nnue;
pub mod tune;

use chariot::position::Position;
use std::error::Error;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// What a command body returns. Any error type converts into it (`?`), so
/// a library function may return a `String` or a typed error.
pub type CommandResult = Result<(), Box<dyn Error>>;

/// Exit code 0 on success; otherwise the error on stderr after the
/// command's name (`chariot judge: bad FEN: ...`) and exit code 2.
pub fn exit_code(command: &str, result: CommandResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{command}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes one line; a reader that stops early (`| head`) is not an error.
pub fn put(out: &mut impl Write, line: &str) -> io::Result<()> {
    match writeln!(out, "{line}") {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// The position `--fen` (default: the standard start) and `--moves` give.
pub fn start_position(fen: Option<&str>, moves: &[String]) -> Result<Position, Box<dyn Error>> {
    let mut pos = Position::from_fen_or_start(fen).map_err(|e| format!("bad FEN: {e}"))?;
    pos.play_text_moves(moves.iter().map(String::as_str))?;
    Ok(pos)
}

/// Refuses an output path that cannot be written, before any work is
/// done: a missing directory, a directory, a file without write
/// permission. A new file is created to find out, and removed again.
pub fn check_output(path: &Path) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot write '{}': {e}", path.display());
    if path.is_dir() {
        return Err(fail(&"it is a directory"));
    }
    if path.exists() {
        // Opened for appending: nothing in it changes.
        return std::fs::OpenOptions::new().append(true).open(path).map(|_| ()).map_err(|e| fail(&e));
    }
    std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| fail(&e))?;
    std::fs::remove_file(path).map_err(|e| fail(&e))
}
