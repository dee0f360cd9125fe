//! `chariot train-nnue`: the evaluation network trained on datagen files.

use super::CommandResult;
use clap::builder::RangedU64ValueParser;
use std::time::Instant;

#[derive(clap::Args)]
pub struct TrainNnueArgs {
    /// Datagen files, read in order (the held-out games are the last ones).
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// The network file to write.
    #[arg(long, short)]
    output: std::path::PathBuf,
    /// Weight of the game result in the target; the rest is the search
    /// score (the lambda; `chariot tune --lambda` weighs the score).
    #[arg(long, default_value_t = 0.0)]
    result_weight: f64,
    /// Sigmoid scale in centipawns (default: fitted to the data).
    #[arg(long)]
    k: Option<f64>,
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    #[arg(long, default_value_t = 1024, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    batch_size: usize,
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f64,
    /// The learning rate is multiplied by this after every epoch.
    #[arg(long, default_value_t = 0.8)]
    lr_decay: f64,
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    threads: usize,
    /// Fraction of the games (the last ones) held out.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Leave out positions before this ply.
    #[arg(long, default_value_t = 0)]
    min_ply: u16,
    /// Keep positions whose best move is a capture (left out by default,
    /// as by `chariot tune`).
    #[arg(long)]
    keep_captures: bool,
    /// Also train on each position mirrored left to right.
    #[arg(long)]
    mirror: bool,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The network's inputs: piece-square (1260 a side, the first
    /// networks'), or with palace king buckets (6 x 1260 a side).
    #[arg(long, value_enum, default_value_t = FeatureSet::Plain)]
    features: FeatureSet,
    /// Output buckets by the number of pieces on the board, 1..=8 (1: one
    /// output, as the first networks).
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=8))]
    output_buckets: usize,
    /// Network files whose held-out loss is shown first, on the same
    /// held-out positions (the shipped one, an earlier candidate).
    #[arg(long)]
    compare: Vec<std::path::PathBuf>,
    /// Start from this network instead of random weights (fine-tuning on
    /// new data; give it a smaller --learning-rate). --features and
    /// --output-buckets are its own or larger: a piece-square network
    /// grows into king buckets, one output into several, starting as it.
    #[arg(long)]
    init: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FeatureSet {
    Plain,
    KingBuckets,
}

pub fn run(args: &TrainNnueArgs) -> CommandResult {
    use chariot::tune::nnue;
    if !(0.0..=1.0).contains(&args.result_weight) || !(0.0..1.0).contains(&args.validation) {
        return Err("--result-weight must be in 0..=1 and --validation in 0..1".into());
    }
    if args.k.is_some_and(|k| k.is_nan() || k <= 0.0) {
        return Err("--k must be positive".into());
    }
    super::check_output(&args.output)?;
    let mut records = Vec::new();
    for f in &args.files {
        let read = chariot::datagen::format::read_file(f)?;
        eprintln!("{}: {} records", f.display(), read.len());
        records.extend(read);
    }
    let mut references = Vec::new();
    for path in &args.compare {
        let network = chariot::nnue::Network::load(path).map_err(|e| e.to_string())?;
        references.push(nnue::Reference { name: path.display().to_string(), network });
    }
    let init = args.init.as_deref().map(chariot::nnue::Network::load).transpose().map_err(|e| e.to_string())?;
    let options = nnue::Options {
        result_weight: args.result_weight,
        k: args.k,
        epochs: args.epochs,
        batch_size: args.batch_size,
        learning_rate: args.learning_rate,
        lr_decay: args.lr_decay,
        threads: args.threads,
        validation: args.validation,
        min_ply: args.min_ply,
        keep_captures: args.keep_captures,
        mirror: args.mirror,
        seed: args.seed,
        features: match args.features {
            FeatureSet::Plain => chariot::nnue::Features::Plain,
            FeatureSet::KingBuckets => chariot::nnue::Features::KingBuckets,
        },
        output_buckets: args.output_buckets,
        references,
        init,
    };
    let start = Instant::now();
    let write = |path: &std::path::Path, net: &chariot::nnue::Network| {
        std::fs::write(path, net.to_bytes()).map_err(|e| format!("cannot write '{}': {e}", path.display()))
    };
    let mut checkpoint = |epoch: usize, net: &chariot::nnue::Network| {
        let mut name = args.output.clone().into_os_string();
        name.push(format!(".epoch{epoch}"));
        write(std::path::Path::new(&name), net)
    };
    let trained = nnue::train(&records, &options, &mut |line| eprintln!("{line}"), &mut checkpoint)?;
    write(&args.output, &trained.network)?;
    eprintln!(
        "done in {:.0} s: {} training positions, {} held out, k {:.1}; wrote {} ({}, {} outputs, {} bytes)",
        start.elapsed().as_secs_f64(),
        trained.train_positions,
        trained.validation_positions,
        trained.k,
        args.output.display(),
        trained.network.features().name(),
        trained.network.output_buckets(),
        trained.network.to_bytes().len()
    );
    Ok(())
}
