//! `chariot bench`: the bench signature and speed.

use super::CommandResult;
use chariot::bench::{self, Evaluation};
use clap::builder::RangedU64ValueParser;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search depth, 1..=64.
    #[arg(
        default_value_t = bench::DEFAULT_DEPTH,
        value_parser = clap::value_parser!(i32).range(1..=64),
        allow_negative_numbers = true
    )]
    depth: i32,
    /// Search threads (the signature is defined for one; more measure
    /// the time to depth of Lazy SMP, and their node count varies).
    #[arg(long, default_value_t = 1, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    threads: usize,
    /// Evaluate with the hand-crafted evaluation (`Use NNUE` false,
    /// as the strength levels do) instead of the built-in network; the
    /// signature is then its own.
    #[arg(long, conflicts_with = "eval_file")]
    hce: bool,
    /// Evaluate with this network file instead of the built-in one (its
    /// signature is its own).
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
}

pub fn run(args: &BenchArgs) -> CommandResult {
    let result = match &args.eval_file {
        Some(path) => bench::run_with_network(
            args.depth,
            args.threads,
            Some(std::sync::Arc::new(chariot::nnue::Network::load(path)?)),
        ),
        None => bench::run_with(
            args.depth,
            args.threads,
            if args.hce { Evaluation::HandCrafted } else { Evaluation::Network },
        ),
    };
    for line in result.report() {
        println!("{line}");
    }
    Ok(())
}

#[derive(clap::Args)]
pub struct NnueSpeedArgs {
    /// Time this network file instead of the built-in one.
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
}

/// `chariot nnue-speed`: what each step of the network costs.
pub fn nnue_speed(args: &NnueSpeedArgs) -> CommandResult {
    let net = match &args.eval_file {
        Some(path) => std::sync::Arc::new(chariot::nnue::Network::load(path)?),
        None => chariot::nnue::Network::embedded(),
    };
    print!("{}", chariot::nnue::speed_report(&net));
    Ok(())
}
