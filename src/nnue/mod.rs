//! The network evaluation (NNUE): piece-square inputs seen from each side
//! (one set per place of that side's king if the network has king buckets),
//! one hidden layer per side, and one output, chosen among the network's
//! output buckets by the number of pieces on the board. The search keeps one
//! accumulator per ply, made from its parent's by the move played when the
//! node is evaluated, so a node's evaluation costs a small update and the
//! output layer.
//!
//! - [`features`]: which inputs a board turns on;
//! - [`network`]: the weights, their quantisation and the file;
//! - [`accumulator`]: the hidden layer's sums, refreshed or updated by a
//!   move, and the search's lazy stack of them;
//! - [`forward`]: the activation and the output layer;
//! - [`simd`]: the inner loops, for the baseline processor and for AVX2;
//! - [`speed`]: `chariot nnue-speed`.

pub mod accumulator;
pub mod features;
pub mod forward;
pub mod network;
pub mod simd;
pub mod speed;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{Features, INPUTS, KING_BUCKETS, PIECE_SQUARES, View, feature};
pub use network::{
    DEFAULT_SCALE, FILE_BYTES, FormatError, HIDDEN, LoadError, MAGIC, MAGIC_V1, MAX_FILE_BYTES, MAX_HIDDEN_WEIGHT,
    MAX_OUTPUT_BUCKETS, MAX_OUTPUT_WEIGHT, Network, QA, QB, file_bytes, output_bucket,
};
pub use speed::speed_report;
