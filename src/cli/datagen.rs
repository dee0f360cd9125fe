//! `chariot datagen`: self-play training data.

use super::CommandResult;
use clap::builder::RangedU64ValueParser;

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("tool").args(["stats", "check", "convert", "merge"]))]
pub struct DatagenArgs {
    /// The data file (created, or appended to in the format it has; a new
    /// file is written in the packed format, v2).
    file: std::path::PathBuf,
    /// Print counts, results and histograms of FILE and exit.
    #[arg(long)]
    stats: bool,
    /// Check FILE (either format): every game whole and legal from its
    /// start, its flags and results consistent; print the counts. Exit
    /// code 2 on a bad file.
    #[arg(long)]
    check: bool,
    /// Convert the v1 file FILE into the new v2 file OUT, read OUT back and
    /// compare every record.
    #[arg(long, value_name = "OUT")]
    convert: Option<std::path::PathBuf>,
    /// Merge these shards (one format, no seed twice, each checked) into
    /// the new file FILE, in their order.
    #[arg(long, value_name = "SHARD", num_args = 1..)]
    merge: Vec<std::path::PathBuf>,
    /// Games the file holds at the end (games already in it count).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    threads: usize,
    /// The file depends only on the seed and the options.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings (move lists, PGN or XQF), one drawn at random per game;
    /// without: the built-in book from the start.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Start from the bare start position (no book) when no openings file
    /// is given.
    #[arg(long)]
    no_book: bool,
    /// Random plies after the opening, each drawn from the moves whose
    /// short search scores within --random-margin (cp) of the position's.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    #[arg(long, default_value_t = 100)]
    random_margin: i32,
    /// Hash per thread, MB.
    #[arg(long, default_value_t = 16, value_parser = RangedU64ValueParser::<usize>::new().range(1..=4096))]
    hash: usize,
    /// Resign: a score at least this (cp) for --resign-plies plies in a row,
    /// as both sides see it, wins (0 plies: never).
    #[arg(long, default_value_t = 1000)]
    resign_score: i32,
    #[arg(long, default_value_t = 8)]
    resign_plies: u32,
    /// Draw: from ply --draw-after on, scores within this (cp) of zero for
    /// --draw-plies plies in a row draw (0 plies: never).
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    #[arg(long, default_value_t = 16)]
    draw_plies: u32,
    #[arg(long, default_value_t = 80)]
    draw_after: u32,
    /// Evaluate with the built-in network instead of the hand-crafted
    /// evaluation (so that a network learns from its own games).
    #[arg(long)]
    nnue: bool,
    /// Evaluate with this network file (implies --nnue).
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
    /// A game this many plies long is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

pub fn run(args: &DatagenArgs) -> CommandResult {
    use chariot::datagen;
    if args.stats {
        let records = datagen::format::read_file(&args.file)?;
        print!("{}", datagen::stats(&records));
        return Ok(());
    }
    if args.check {
        let counts = datagen::tools::check(&args.file)?;
        println!("{}: ok\n{counts}", args.file.display());
        return Ok(());
    }
    if let Some(out) = &args.convert {
        let counts = datagen::tools::convert(&args.file, out)?;
        println!(
            "{} -> {}: {} records read back equal\n{counts}",
            args.file.display(),
            out.display(),
            counts.positions
        );
        return Ok(());
    }
    if !args.merge.is_empty() {
        let counts = datagen::tools::merge(&args.merge, &args.file)?;
        println!("{} shards -> {}\n{counts}", args.merge.len(), args.file.display());
        return Ok(());
    }
    let openings = match &args.openings {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let games = chariot::book::reader::read_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            if games.is_empty() {
                return Err(format!("{}: no openings in it", path.display()).into());
            }
            games
        }
        None => Vec::new(),
    };
    let options = datagen::Options {
        games: args.games,
        nodes: args.nodes,
        threads: args.threads,
        seed: args.seed,
        openings,
        book: !args.no_book,
        random_plies: args.random_plies,
        random_margin: args.random_margin,
        hash_mb: args.hash,
        resign_score: args.resign_score,
        resign_plies: args.resign_plies,
        draw_score: args.draw_score,
        draw_plies: args.draw_plies,
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        nnue: match &args.eval_file {
            Some(path) => Some(std::sync::Arc::new(chariot::nnue::Network::load(path)?)),
            None => args.nnue.then(chariot::nnue::Network::embedded),
        },
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let summary = datagen::run(&args.file, &options, &stop, &mut |line| eprintln!("{line}"))
        .map_err(|e| format!("{}: {e}", args.file.display()))?;
    eprintln!("done: {}", summary.line(&options));
    Ok(())
}
