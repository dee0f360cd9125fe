//! The network's weights and its file.
//!
//! Quantisation: the hidden layer's weights and biases are `i16` in units
//! of 1/`QA`; the output weights `i16` in units of 1/`QB`; the output bias
//! `i32` in units of 1/(`QA`·`QB`). The output times the file's scale is
//! the score in centipawns. The trainer (`tune::nnue`) writes this format.
//!
//! File layout (little-endian), version 2: the 16-byte [`MAGIC`], then
//! `u32` feature set (0 piece-square, 1 palace king buckets), inputs,
//! hidden size, output buckets (1 to 8), QA, QB and scale, then the hidden
//! weights (input-major, `inputs × hidden` `i16`), the hidden biases
//! (`hidden` `i16`), each output bucket's weights (`2 × hidden` `i16`, the
//! side to move's half first) and each bucket's output bias (`i32`).
//! Nothing may follow. Version 1 ([`MAGIC_V1`], the first networks) has no
//! feature set and output bucket words: piece-square, one output.

use super::features::{Features, INPUTS};
use once_cell::sync::Lazy;
use std::fmt;
use std::sync::Arc;

/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Hidden layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output weight quantisation: 1.0 is `QB`.
pub const QB: i32 = 64;
/// The score of a network output of 1.0, in centipawns (unless the file
/// says otherwise).
pub const DEFAULT_SCALE: i32 = 400;

/// The largest hidden weight or bias a file may hold: 32 pieces and the
/// bias then stay within `i16`, so the accumulator cannot overflow.
pub const MAX_HIDDEN_WEIGHT: i16 = 992;
/// The largest output weight a file may hold: one half's output sum, at
/// most `HIDDEN × QA² × MAX_OUTPUT_WEIGHT`, then stays within `i32`, and
/// `v·w` within `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(33 * MAX_HIDDEN_WEIGHT as i64 <= i16::MAX as i64);
const _: () = assert!(HIDDEN as i64 * (QA * QA) as i64 * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);
const _: () = assert!(QA as i64 * MAX_OUTPUT_WEIGHT as i64 <= i16::MAX as i64);

/// The start of a network file written now (version 2).
pub const MAGIC: &[u8; 16] = b"chariot-nnue v2\n";
/// The start of a version 1 file (piece-square inputs only).
pub const MAGIC_V1: &[u8; 16] = b"chariot-nnue v1\n";
/// The most output buckets a network may have.
pub const MAX_OUTPUT_BUCKETS: usize = 8;
/// The size of a version 1 file (the plain 1260 × 128 network).
pub const FILE_BYTES: usize = file_bytes(1, Features::Plain, 1);
/// The largest file this build reads.
pub const MAX_FILE_BYTES: usize = file_bytes(2, Features::KingBuckets, MAX_OUTPUT_BUCKETS);

/// The size of a file of `version` for a network with `features`,
/// `buckets` outputs and this build's hidden size.
pub const fn file_bytes(version: u32, features: Features, buckets: usize) -> usize {
    header_bytes(version) + 2 * (features.inputs() * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

const fn header_bytes(version: u32) -> usize {
    16 + if version == 1 { 5 * 4 } else { 7 * 4 }
}

/// The output bucket of a position with `pieces` pieces (kings included)
/// among `buckets`: equal shares of 2..=32 pieces, the fullest boards in
/// the last.
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets - 1)
}

/// What is wrong with the bytes of a network file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than the header, or not starting with [`MAGIC`] or
    /// [`MAGIC_V1`].
    BadMagic,
    /// A feature set this build does not know (bytes 16-19 of a v2 file).
    FeatureSet(u32),
    /// Output buckets outside 1..=8 (bytes 28-31 of a v2 file).
    OutputBuckets(u32),
    /// Another network shape than this build's.
    Shape {
        inputs: u32,
        hidden: u32,
    },
    Quantisation {
        qa: u32,
        qb: u32,
    },
    /// The scale (bytes 32-35) outside 1..=10000.
    Scale(u32),
    /// The file's length, not [`FILE_BYTES`].
    Size(usize),
    /// A hidden weight or bias beyond [`MAX_HIDDEN_WEIGHT`]: the first one,
    /// and its byte offset.
    HiddenWeight {
        value: i16,
        offset: usize,
    },
    /// An output weight beyond [`MAX_OUTPUT_WEIGHT`], and its byte offset.
    OutputWeight {
        value: i16,
        offset: usize,
    },
    /// An output bias beyond ±100 pawns of output, and its byte offset.
    OutputBias {
        value: i32,
        offset: usize,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FormatError::BadMagic => write!(f, "not a Chariot network file (bad magic)"),
            FormatError::OutputBuckets(n) => {
                write!(f, "{n} output buckets; this build reads 1 to {MAX_OUTPUT_BUCKETS}")
            }
            FormatError::FeatureSet(code) => {
                write!(f, "feature set {code} unknown (this build reads 0, piece-square, and 1, palace king buckets)")
            }
            FormatError::Shape { inputs, hidden } => write!(
                f,
                "network of {inputs} inputs and {hidden} hidden units; this build reads {INPUTS}x{HIDDEN} \
                 (piece-square) and {}x{HIDDEN} (palace king buckets)",
                Features::KingBuckets.inputs()
            ),
            FormatError::Quantisation { qa, qb } => {
                write!(f, "quantisation QA {qa}, QB {qb}; this build reads QA {QA}, QB {QB}")
            }
            FormatError::Scale(scale) => write!(f, "scale {scale} outside 1..=10000"),
            FormatError::Size(bytes) => write!(f, "{bytes} bytes; not the size its header gives"),
            FormatError::HiddenWeight { value, offset } => {
                write!(f, "a hidden weight beyond ±{MAX_HIDDEN_WEIGHT} ({value} at byte {offset})")
            }
            FormatError::OutputWeight { value, offset } => {
                write!(f, "an output weight beyond ±{MAX_OUTPUT_WEIGHT} ({value} at byte {offset})")
            }
            FormatError::OutputBias { offset, .. } => write!(f, "output bias beyond ±100 (at byte {offset})"),
        }
    }
}

impl std::error::Error for FormatError {}

/// Why [`Network::load`] failed: the file, and what went wrong with it.
#[derive(Debug)]
pub enum LoadError {
    Read { path: std::path::PathBuf, error: crate::files::ReadProblem },
    Invalid { path: std::path::PathBuf, error: FormatError },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Invalid { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Read { error, .. } => Some(error),
            LoadError::Invalid { error, .. } => Some(error),
        }
    }
}

/// For callers that report errors as text (the command line).
impl From<LoadError> for String {
    fn from(e: LoadError) -> String {
        e.to_string()
    }
}

/// One input's hidden weights (or the biases, or one output half), on a
/// cache line of its own: an update reads whole rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// A quantised network, as read from a file.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(super) features: Features,
    /// One row of hidden weights per input.
    pub(super) hidden_weights: Vec<Row>,
    pub(super) hidden_bias: Row,
    /// One output per bucket (by the number of pieces on the board).
    pub(super) outputs: Vec<Output>,
    pub(super) scale: i32,
}

/// One output bucket: its weights (the side to move's half, then the
/// other side's) and bias.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Output {
    pub(super) weights: [Row; 2],
    pub(super) bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({}, {}x{HIDDEN}x2 -> {} outputs, scale {})",
            self.features.name(),
            self.features.inputs(),
            self.outputs.len(),
            self.scale
        )
    }
}

/// The network built into the binary (see `docs/training.md` and `nets/MANIFEST.md` for how it was
/// trained).
static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(include_bytes!("../../nets/default.nnue")).expect("the embedded network is valid"))
});

/// One output bucket's raw weights (side to move's half, then the
/// other's) and bias, as [`Network::from_parts`] takes them.
pub type OutputParts = ([[i16; HIDDEN]; 2], i32);

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    /// A network from its raw parts (the trainer's quantised output).
    /// Values beyond the safe ranges are clipped.
    pub fn from_parts(
        features: Features,
        hidden_weights: Vec<[i16; HIDDEN]>,
        hidden_bias: [i16; HIDDEN],
        outputs: Vec<OutputParts>,
        scale: i32,
    ) -> Network {
        assert_eq!(hidden_weights.len(), features.inputs());
        assert!((1..=MAX_OUTPUT_BUCKETS).contains(&outputs.len()));
        let max_bias = QA * QB * 100;
        let clip = |row: [i16; HIDDEN], max: i16| Row(row.map(|v| v.clamp(-max, max)));
        Network {
            features,
            hidden_weights: hidden_weights.into_iter().map(|row| clip(row, MAX_HIDDEN_WEIGHT)).collect(),
            hidden_bias: clip(hidden_bias, MAX_HIDDEN_WEIGHT),
            outputs: outputs
                .into_iter()
                .map(|(weights, bias)| Output {
                    weights: weights.map(|row| clip(row, MAX_OUTPUT_WEIGHT)),
                    bias: bias.clamp(-max_bias, max_bias),
                })
                .collect(),
            scale,
        }
    }

    /// The raw parts, as [`Network::from_parts`] takes them (the trainer
    /// starts from them with `--init`).
    pub fn to_parts(&self) -> (Vec<[i16; HIDDEN]>, [i16; HIDDEN], Vec<OutputParts>) {
        (
            self.hidden_weights.iter().map(|row| row.0).collect(),
            self.hidden_bias.0,
            self.outputs.iter().map(|o| (o.weights.map(|row| row.0), o.bias)).collect(),
        )
    }

    pub fn scale(&self) -> i32 {
        self.scale
    }

    pub fn features(&self) -> Features {
        self.features
    }

    pub fn output_buckets(&self) -> usize {
        self.outputs.len()
    }

    /// Adds `cp` centipawns to every evaluation by output bucket `bucket`
    /// (through its bias, to the bias's unit of 1/`QA`·`QB` of an output).
    pub fn shift_output(&mut self, bucket: usize, cp: f64) {
        let units = cp * f64::from(QA * QB) / f64::from(self.scale);
        self.outputs[bucket].bias += units.round() as i32;
    }

    /// Reads a network file (either version), or says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        let version = match bytes.get(..16) {
            Some(m) if m == MAGIC_V1 => 1,
            Some(m) if m == MAGIC => 2,
            _ => return Err(FormatError::BadMagic),
        };
        let header = header_bytes(version);
        if bytes.len() < header {
            return Err(FormatError::BadMagic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[16 + 4 * i..20 + 4 * i].try_into().expect("4 bytes"));
        // Version 1: inputs, hidden, QA, QB, scale. Version 2: feature
        // set, inputs, hidden, output buckets, QA, QB, scale.
        let (features, inputs, hidden, buckets, rest) = match version {
            1 => (Features::Plain, word(0), word(1), 1, 2),
            _ => {
                let features = Features::from_code(word(0)).ok_or(FormatError::FeatureSet(word(0)))?;
                (features, word(1), word(2), word(3), 4)
            }
        };
        let (qa, qb, scale) = (word(rest), word(rest + 1), word(rest + 2));
        if (inputs as usize, hidden as usize) != (features.inputs(), HIDDEN) {
            return Err(FormatError::Shape { inputs, hidden });
        }
        if !(1..=MAX_OUTPUT_BUCKETS as u32).contains(&buckets) {
            return Err(FormatError::OutputBuckets(buckets));
        }
        let buckets = buckets as usize;
        if (qa as i32, qb as i32) != (QA, QB) {
            return Err(FormatError::Quantisation { qa, qb });
        }
        if !(1..=10_000).contains(&scale) {
            return Err(FormatError::Scale(scale));
        }
        let size = file_bytes(version, features, buckets);
        if bytes.len() != size {
            return Err(FormatError::Size(bytes.len()));
        }
        let biases_start = size - 4 * buckets;
        let mut values = bytes[header..biases_start].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || Row(std::array::from_fn(|_| values.next().expect("size checked")));
        let hidden_weights: Vec<Row> = (0..features.inputs()).map(|_| row()).collect();
        let hidden_bias = row();
        let output_weights: Vec<[Row; 2]> = (0..buckets).map(|_| [row(), row()]).collect();
        let bias = |b: usize| {
            i32::from_le_bytes(bytes[biases_start + 4 * b..biases_start + 4 * b + 4].try_into().expect("4 bytes"))
        };
        // The first value beyond `max` and its byte offset, counting `i16`s
        // from `first_byte`.
        let beyond = |values: &mut dyn Iterator<Item = &i16>, max: i16, first_byte: usize| {
            values
                .enumerate()
                .find(|(_, v)| v.unsigned_abs() > max as u16)
                .map(|(i, &value)| (value, first_byte + 2 * i))
        };
        if let Some((value, offset)) =
            beyond(&mut hidden_weights.iter().chain([&hidden_bias]).flat_map(|r| &r.0), MAX_HIDDEN_WEIGHT, header)
        {
            return Err(FormatError::HiddenWeight { value, offset });
        }
        let output_start = header + 2 * (features.inputs() * HIDDEN + HIDDEN);
        if let Some((value, offset)) =
            beyond(&mut output_weights.iter().flatten().flat_map(|r| &r.0), MAX_OUTPUT_WEIGHT, output_start)
        {
            return Err(FormatError::OutputWeight { value, offset });
        }
        let mut outputs = Vec::with_capacity(buckets);
        for (b, weights) in output_weights.into_iter().enumerate() {
            let value = bias(b);
            if value.unsigned_abs() > (QA * QB * 100) as u32 {
                return Err(FormatError::OutputBias { value, offset: biases_start + 4 * b });
            }
            outputs.push(Output { weights, bias: value });
        }
        Ok(Network { features, hidden_weights, hidden_bias, outputs, scale: scale as i32 })
    }

    /// The bytes of the network's file: version 1 for a piece-square
    /// network with one output (the format it always had, so its file
    /// stays the same), version 2 otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = if self.features == Features::Plain && self.outputs.len() == 1 { 1 } else { 2 };
        let mut out = Vec::with_capacity(file_bytes(version, self.features, self.outputs.len()));
        let words: Vec<u32> = if version == 1 {
            out.extend_from_slice(MAGIC_V1);
            vec![self.features.inputs() as u32, HIDDEN as u32, QA as u32, QB as u32, self.scale as u32]
        } else {
            out.extend_from_slice(MAGIC);
            vec![
                self.features.code(),
                self.features.inputs() as u32,
                HIDDEN as u32,
                self.outputs.len() as u32,
                QA as u32,
                QB as u32,
                self.scale as u32,
            ]
        };
        for word in words {
            out.extend_from_slice(&word.to_le_bytes());
        }
        let rows =
            self.hidden_weights.iter().chain([&self.hidden_bias]).chain(self.outputs.iter().flat_map(|o| &o.weights));
        for v in rows.flat_map(|r| &r.0) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for output in &self.outputs {
            out.extend_from_slice(&output.bias.to_le_bytes());
        }
        out
    }

    /// Reads a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, LoadError> {
        // The file's size is known: a bigger one (or a device, a pipe) is
        // refused unread.
        let bytes = crate::files::read_regular_file(path, MAX_FILE_BYTES as u64)
            .map_err(|error| LoadError::Read { path: path.to_path_buf(), error })?;
        Network::from_bytes(&bytes).map_err(|error| LoadError::Invalid { path: path.to_path_buf(), error })
    }
}

/// Networks for the tests of the other parts.
#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::position::Position;

    const HEADER_BYTES: usize = header_bytes(1);

    /// A piece-square network with small pseudo-random weights.
    pub fn random_network(seed: u64) -> Network {
        random_network_with(Features::Plain, 1, seed)
    }

    /// A network of `features` and `buckets` outputs with small
    /// pseudo-random weights.
    pub fn random_network_with(features: Features, buckets: usize, seed: u64) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let hidden_weights = (0..features.inputs()).map(|_| std::array::from_fn(|_| small(200))).collect();
        let hidden_bias = std::array::from_fn(|_| small(200));
        let outputs = (0..buckets)
            .map(|_| ([std::array::from_fn(|_| small(100)), std::array::from_fn(|_| small(100))], small(5000) as i32))
            .collect();
        Network::from_parts(features, hidden_weights, hidden_bias, outputs, DEFAULT_SCALE)
    }

    #[test]
    fn the_file_survives_a_round_trip() {
        let net = random_network(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(&bytes[..16], MAGIC_V1);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let net = random_network_with(Features::KingBuckets, MAX_OUTPUT_BUCKETS, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), MAX_FILE_BYTES);
        assert_eq!(&bytes[..16], MAGIC);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let net = random_network_with(Features::Plain, 4, 3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(2, Features::Plain, 4));
        assert_eq!(&bytes[..16], MAGIC);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn a_shifted_output_moves_its_bucket_alone() {
        let net = random_network_with(Features::Plain, 4, 5);
        let start = Position::startpos();
        let few = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let (start_bucket, few_bucket) = (output_bucket(32, 4), output_bucket(3, 4));
        assert_ne!(start_bucket, few_bucket);
        for cp in [10.0, -25.5, 0.3] {
            let mut shifted = net.clone();
            shifted.shift_output(start_bucket, cp);
            let moved = shifted.evaluate_position(&start) - net.evaluate_position(&start);
            assert!((f64::from(moved) - cp).abs() <= 1.0, "{cp} cp moved {moved}");
            assert_eq!(shifted.evaluate_position(&few), net.evaluate_position(&few));
        }
    }

    #[test]
    fn the_shipped_network_file_writes_back_its_own_bytes() {
        let bytes = include_bytes!("../../nets/default.nnue");
        let net = Network::from_bytes(bytes).unwrap();
        assert_eq!(net.to_bytes(), bytes.to_vec());
    }

    #[test]
    fn version_2_headers_are_checked() {
        let good = random_network_with(Features::KingBuckets, 2, 5).to_bytes();
        let mut set = good.clone();
        set[16] = 7;
        assert_eq!(Network::from_bytes(&set), Err(FormatError::FeatureSet(7)));
        assert!(FormatError::FeatureSet(7).to_string().contains("feature set 7 unknown"));
        // A king-bucket file that says it is piece-square has the wrong
        // input count for that set.
        let mut plain = good.clone();
        plain[16] = 0;
        assert_eq!(
            Network::from_bytes(&plain),
            Err(FormatError::Shape { inputs: Features::KingBuckets.inputs() as u32, hidden: HIDDEN as u32 })
        );
        assert_eq!(Network::from_bytes(&good[..good.len() - 2]), Err(FormatError::Size(good.len() - 2)));
        assert_eq!(Network::from_bytes(&good[..30]), Err(FormatError::BadMagic));
        for n in [0u32, 9] {
            let mut buckets = good.clone();
            buckets[28..32].copy_from_slice(&n.to_le_bytes());
            assert_eq!(Network::from_bytes(&buckets), Err(FormatError::OutputBuckets(n)));
        }
        let mut bias = good.clone();
        let at = good.len() - 4;
        bias[at..].copy_from_slice(&(QA * QB * 101).to_le_bytes());
        assert_eq!(Network::from_bytes(&bias), Err(FormatError::OutputBias { value: QA * QB * 101, offset: at }));
    }

    #[test]
    fn bad_files_are_refused() {
        let good = random_network(4).to_bytes();
        assert!(Network::from_bytes(&good[..good.len() - 1]).is_err());
        assert!(Network::from_bytes(b"").is_err());
        let mut longer = good.clone();
        longer.push(0);
        assert!(Network::from_bytes(&longer).is_err());
        let mut magic = good.clone();
        magic[0] = b'x';
        assert!(Network::from_bytes(&magic).is_err());
        let mut hidden = good.clone();
        hidden[20] = 1; // hidden size
        assert!(Network::from_bytes(&hidden).is_err());
        let mut weight = good.clone();
        weight[HEADER_BYTES..HEADER_BYTES + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        assert!(Network::from_bytes(&weight).is_err());
    }

    #[test]
    fn errors_name_the_problem_and_where() {
        let good = random_network(4).to_bytes();
        assert_eq!(Network::from_bytes(b"chariot"), Err(FormatError::BadMagic));
        assert_eq!(Network::from_bytes(&good[..good.len() - 1]), Err(FormatError::Size(FILE_BYTES - 1)));
        let mut hidden = good.clone();
        hidden[20] = 1; // hidden size 128 -> 1
        assert_eq!(Network::from_bytes(&hidden), Err(FormatError::Shape { inputs: INPUTS as u32, hidden: 1 }));
        let mut weight = good.clone();
        let at = HEADER_BYTES + 2 * 1000;
        weight[at..at + 2].copy_from_slice(&(-2000i16).to_le_bytes());
        let error = Network::from_bytes(&weight).unwrap_err();
        assert_eq!(error, FormatError::HiddenWeight { value: -2000, offset: at });
        assert!(error.to_string().contains(&format!("-2000 at byte {at}")), "{error}");
        let mut output = good.clone();
        output[FILE_BYTES - 6..FILE_BYTES - 4].copy_from_slice(&500i16.to_le_bytes());
        assert_eq!(Network::from_bytes(&output), Err(FormatError::OutputWeight { value: 500, offset: FILE_BYTES - 6 }));
        let missing = std::path::Path::new("/nonexistent/chariot.nnue");
        let error = Network::load(missing).unwrap_err();
        assert!(matches!(error, LoadError::Read { .. }));
        assert!(error.to_string().starts_with("/nonexistent/chariot.nnue: "), "{error}");
    }
}
