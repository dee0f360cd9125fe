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
    #[arg(long)]
    hce: bool,
}

pub fn run(args: &BenchArgs) -> CommandResult {
    let eval = if args.hce { Evaluation::HandCrafted } else { Evaluation::Network };
    for line in bench::run_with(args.depth, args.threads, eval).report() {
        println!("{line}");
    }
    Ok(())
}
