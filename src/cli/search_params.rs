//! `chariot search-params`: the table of tunable search constants, for
//! people and for the SPSA driver (scripts/spsa.py reads its columns).

use super::{CommandResult, put};
use chariot::search::params::PARAMS;
use std::io;

#[derive(clap::Args)]
pub struct SearchParamsArgs {}

pub fn run(_: &SearchParamsArgs) -> CommandResult {
    let mut out = io::stdout().lock();
    put(&mut out, &format!("{:<24} {:>8} {:>8} {:>8} {:>8}", "name", "default", "min", "max", "step"))?;
    for p in PARAMS {
        put(&mut out, &format!("{:<24} {:>8} {:>8} {:>8} {:>8}", p.name, p.default, p.min, p.max, p.step))?;
    }
    Ok(())
}
