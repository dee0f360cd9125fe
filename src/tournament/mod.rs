//! `chariot match`: games between engines that speak UCI (Pikafish ranks
//! 0-9 or Fairy-Stockfish ranks 1-10) or UCCI, judged by the rules of
//! [`crate::rules`] after every move.
//!
//! - [`spec`]: how an engine is described (`name=A cmd=... proto=uci`).
//! - [`process`]: a running engine; every protocol detail (ranks 1-10,
//!   UCCI seconds) stays there, the rest speaks ICCS and milliseconds.
//! - [`clock`]: time controls and the clock of one side.
//! - [`game`]: one game, with the rules, fault and score adjudication.
//! - [`pgn`]: games written as PGN.
//! - [`openings`]: opening files (PGN, move lists, FEN, EPD).
//! - [`stats`]: W/D/L, Elo, LOS, pentanomial counts, SPRT.
//! - [`runner`]: the schedule, concurrent games, results, resume.
//! - [`config`]: a match's options checked and made into a [`runner::MatchConfig`].
//!
//! Layering: this module uses `position`, `rules`, `record` and `types`;
//! nothing in the library uses it (only the binary).

pub mod clock;
pub mod config;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod process;
pub mod runner;
pub mod spec;
pub mod stats;
