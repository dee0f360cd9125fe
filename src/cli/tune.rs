//! `chariot tune`: the evaluation weights fitted to datagen files.

use super::CommandResult;
use clap::builder::RangedU64ValueParser;
use std::time::Instant;

#[derive(clap::Args)]
pub struct TuneArgs {
    /// Datagen files.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Weight of the search score in the target; the rest is the result.
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Passes over the positions.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Positions per Adam step (0: all, one step per epoch).
    #[arg(long, default_value_t = 0)]
    batch_size: usize,
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Print the losses every this many epochs.
    #[arg(long, default_value_t = 10, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    report_every: usize,
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    threads: usize,
    /// Fraction of the positions held out.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Use at most this many positions (a random subset).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Leave out positions before this ply.
    #[arg(long, default_value_t = 0)]
    min_ply: u16,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the weights into this params.rs (comments kept) instead of
    /// printing them.
    #[arg(long)]
    write_params: Option<std::path::PathBuf>,
}

pub fn run(args: &TuneArgs) -> CommandResult {
    if !(0.0..=1.0).contains(&args.lambda) || !(0.0..1.0).contains(&args.validation) {
        return Err("--lambda must be in 0..=1 and --validation in 0..1".into());
    }
    let mut records = Vec::new();
    for f in &args.files {
        records.extend(chariot::datagen::format::read_file(f)?);
    }
    let options = chariot::tune::Options {
        lambda: args.lambda,
        epochs: args.epochs,
        batch_size: args.batch_size,
        report_every: args.report_every,
        learning_rate: args.learning_rate,
        threads: args.threads,
        validation: args.validation,
        max_positions: args.max_positions.unwrap_or(usize::MAX),
        min_ply: args.min_ply,
        seed: args.seed,
    };
    let start = Instant::now();
    let fit = chariot::tune::tune(&records, &options, &mut |line| eprintln!("{line}"))?;
    eprintln!(
        "done in {:.0} s: k {:.1}; loss {:.6} -> {:.6}, held out {:.6} -> {:.6} (weights rounded)",
        start.elapsed().as_secs_f64(),
        fit.k,
        fit.train_before,
        fit.train_after,
        fit.validation_before,
        fit.validation_after
    );
    match &args.write_params {
        Some(path) => {
            let source = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let text = chariot::tune::rewrite_params(&source, &fit.weights)?;
            Ok(std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => {
            print!("{}", fit.weights.to_source());
            Ok(())
        }
    }
}
