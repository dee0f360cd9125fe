//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! Layers, each depending only on those above it in this list:
//! `types` -> `attacks` -> `zobrist` -> `position` -> `perft` -> ... ->
//! `protocol` (`book` sits between `rules` and `engine`; `eval` and `nnue`,
//! the two evaluations, below `search`); `tournament`
//! (`chariot match`) sits on `rules` and `record` and nothing uses it;
//! `serve` (the browser board) sits on `engine`, `analysis` and `record`,
//! beside `protocol`, and nothing uses it. The binary
//! (`main.rs`, its subcommands in `cli/`) is a thin command-line wrapper.

pub mod analysis;
pub mod attacks;
pub mod bench;
pub mod book;
pub mod cpu;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod files;
pub mod huge_pages;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;
pub mod prefetch;
pub mod protocol;
pub mod record;
pub mod rng;
pub mod rules;
pub mod search;
pub mod serve;
pub mod spawn;
pub mod strength;
pub mod tournament;
pub mod tune;
pub mod types;
pub mod zobrist;
