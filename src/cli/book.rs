//! `chariot book`: build an opening book, show a position's book moves.

use super::{CommandResult, put};
use chariot::book::{self, Book, build};
use clap::Subcommand;
use std::io;

#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    action: BookAction,
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from game records: plain move lists (one game per
    /// line, optional `fen F moves` prefix and trailing result), PGN (ICCS,
    /// WXF, Chinese or XBoard SAN moves) or XQF files. Errors: a message on
    /// stderr, exit code 2.
    Build {
        /// Game files.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// The book file to write (checked before the games are read).
        #[arg(long, short)]
        output: String,
        /// Plies of each game that go into the book.
        #[arg(long, default_value_t = build::DEFAULT_MAX_PLY)]
        max_ply: usize,
        /// A move needs this many games to stay in the book.
        #[arg(long, default_value_t = build::DEFAULT_MIN_GAMES)]
        min_games: u32,
        /// MOVES=FACTOR: multiply the weight of these moves (a line from the
        /// start position, moves in any notation separated by commas) by FACTOR; 0 removes
        /// them from play. Repeatable: `--prefer h2e2=3 --prefer b2e2=3`.
        #[arg(long)]
        prefer: Vec<String>,
    },
    /// List the book moves of a position with their weights.
    Show {
        /// Base position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the base position.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        /// Book file (default: the built-in book).
        #[arg(long)]
        book: Option<String>,
    },
}

pub fn run(args: &BookArgs) -> CommandResult {
    match &args.action {
        BookAction::Build { inputs, output, max_ply, min_games, prefer } => {
            run_build(inputs, output, *max_ply, *min_games, prefer)
        }
        BookAction::Show { fen, moves, book } => run_show(fen.as_deref(), moves, book.as_deref()),
    }
}

fn run_build(inputs: &[String], output: &str, max_ply: usize, min_games: u32, prefer: &[String]) -> CommandResult {
    let preferences = prefer.iter().map(|p| build::parse_preference(p)).collect::<Result<Vec<_>, _>>()?;
    super::check_output(std::path::Path::new(output))?;
    let mut games = Vec::new();
    for input in inputs {
        let bytes = std::fs::read(input).map_err(|e| format!("cannot read '{input}': {e}"))?;
        games.extend(book::reader::read_bytes(&bytes).map_err(|e| format!("{input}: {e}"))?);
    }
    let options = build::BuildOptions { max_ply, min_games, preferences };
    let report = build::build(&games, &options);
    for p in &report.unused_preferences {
        eprintln!("chariot book: warning: preference '{p}' names no move of the book");
    }
    // The file says how it was made.
    let mut command = format!("chariot book build {} --max-ply {max_ply} --min-games {min_games}", inputs.join(" "));
    for p in prefer {
        command.push_str(&format!(" --prefer '{p}'"));
    }
    let b = &report.book;
    let comment = format!("{command}\n{} games, {} positions, {} moves", games.len(), b.positions(), b.len());
    std::fs::write(output, b.to_text(&comment)).map_err(|e| format!("cannot write '{output}': {e}"))?;
    let summary = format!("{} games -> {} positions, {} moves in {output}", games.len(), b.positions(), b.len());
    Ok(put(&mut io::stdout().lock(), &summary)?)
}

fn run_show(fen: Option<&str>, moves: &[String], file: Option<&str>) -> CommandResult {
    let pos = super::start_position(fen, moves)?;
    let loaded;
    let book: &Book = match file {
        Some(name) => {
            loaded = book::load_file(name)?;
            &loaded
        }
        None => Book::built_in().map_err(|e| format!("the built-in book is unusable: {e}"))?,
    };
    let mut out = io::stdout().lock();
    for line in book::show::lines(book, &pos) {
        put(&mut out, &line)?;
    }
    Ok(())
}
