//! The network evaluation (NNUE): piece-square inputs seen from each side,
//! one hidden layer per side, and one output. The search keeps one
//! [`Accumulator`] per ply, updated from its parent's by the move played,
//! so a node's evaluation costs only the small output layer.
//!
//! Inputs: 14 piece kinds (own K A B N R C P, then the other side's) by 90
//! points, for each perspective. Black's perspective is mirrored across
//! the river, so both sides see the board from their own back rank.
//!
//! Quantisation: the hidden layer's weights and biases are `i16` in units
//! of 1/`QA`; the output weights `i16` in units of 1/`QB`; the output bias
//! `i32` in units of 1/(`QA`·`QB`). The activation is the squared clipped
//! ReLU, `clamp(x, 0, 1)²`; the output times the file's scale is the score
//! in centipawns. The trainer (`tune::nnue`) writes this format.
//!
//! File layout (little-endian): the 16-byte [`MAGIC`], then `u32` inputs,
//! hidden size, QA, QB and scale, then the hidden weights (input-major,
//! `inputs × hidden` `i16`), the hidden biases (`hidden` `i16`), the
//! output weights (`2 × hidden` `i16`, the side to move's half first) and
//! the output bias (`i32`). Nothing may follow.

use crate::position::Position;
use crate::types::{Color, Move, Piece, Square};
use once_cell::sync::Lazy;
use std::fmt;
use std::sync::Arc;

/// Inputs per perspective: 14 piece kinds × 90 points.
pub const INPUTS: usize = 14 * 90;
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
/// The largest output weight a file may hold: the output sum, at most
/// `2 × HIDDEN × QA² × MAX_OUTPUT_WEIGHT`, then stays within `i32`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(33 * MAX_HIDDEN_WEIGHT as i64 <= i16::MAX as i64);
const _: () = assert!(2 * HIDDEN as i64 * (QA * QA) as i64 * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);

/// The start of a network file.
pub const MAGIC: &[u8; 16] = b"chariot-nnue v1\n";
const HEADER_BYTES: usize = 16 + 5 * 4;
/// The size of a file for this build's network shape.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// What is wrong with the bytes of a network file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than the header, or not starting with [`MAGIC`].
    BadMagic,
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
    /// The output bias (the last 4 bytes) beyond ±100 pawns of output.
    OutputBias(i32),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FormatError::BadMagic => write!(f, "not a Chariot network file (bad magic)"),
            FormatError::Shape { inputs, hidden } => {
                write!(f, "network of {inputs} inputs and {hidden} hidden units; this build reads {INPUTS}x{HIDDEN}")
            }
            FormatError::Quantisation { qa, qb } => {
                write!(f, "quantisation QA {qa}, QB {qb}; this build reads QA {QA}, QB {QB}")
            }
            FormatError::Scale(scale) => write!(f, "scale {scale} outside 1..=10000"),
            FormatError::Size(bytes) => write!(f, "{bytes} bytes; a {INPUTS}x{HIDDEN} network has {FILE_BYTES}"),
            FormatError::HiddenWeight { value, offset } => {
                write!(f, "a hidden weight beyond ±{MAX_HIDDEN_WEIGHT} ({value} at byte {offset})")
            }
            FormatError::OutputWeight { value, offset } => {
                write!(f, "an output weight beyond ±{MAX_OUTPUT_WEIGHT} ({value} at byte {offset})")
            }
            FormatError::OutputBias(_) => write!(f, "output bias beyond ±100 (at byte {})", FILE_BYTES - 4),
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

/// The input index of `piece` on `sq` as `perspective` sees it.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = if piece.color() == perspective { 0 } else { 7 } + piece.kind().index();
    let sq = if perspective == Color::Red { sq } else { sq.flip_rank() };
    relative * 90 + sq.index()
}

/// A quantised network, as read from a file.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// One row of hidden weights per input.
    hidden_weights: Vec<[i16; HIDDEN]>,
    hidden_bias: [i16; HIDDEN],
    /// The side to move's half, then the other side's.
    output_weights: [[i16; HIDDEN]; 2],
    output_bias: i32,
    scale: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}x{HIDDEN}x2, scale {})", self.scale)
    }
}

/// The network built into the binary (see `docs/training.md` and `nets/MANIFEST.md` for how it was
/// trained).
static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(Network::from_bytes(include_bytes!("../../nets/default.nnue")).expect("the embedded network is valid"))
});

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    /// A network from its raw parts (the trainer's quantised output).
    /// Values beyond the safe ranges are clipped.
    pub fn from_parts(
        hidden_weights: Vec<[i16; HIDDEN]>,
        hidden_bias: [i16; HIDDEN],
        output_weights: [[i16; HIDDEN]; 2],
        output_bias: i32,
        scale: i32,
    ) -> Network {
        assert_eq!(hidden_weights.len(), INPUTS);
        let clip = |v: i16, max: i16| v.clamp(-max, max);
        let mut net = Network { hidden_weights, hidden_bias, output_weights, output_bias, scale };
        for row in &mut net.hidden_weights {
            row.iter_mut().for_each(|w| *w = clip(*w, MAX_HIDDEN_WEIGHT));
        }
        net.hidden_bias.iter_mut().for_each(|w| *w = clip(*w, MAX_HIDDEN_WEIGHT));
        net.output_weights.iter_mut().flatten().for_each(|w| *w = clip(*w, MAX_OUTPUT_WEIGHT));
        net
    }

    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// Reads a network file, or says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        if bytes.len() < HEADER_BYTES || &bytes[..16] != MAGIC {
            return Err(FormatError::BadMagic);
        }
        let word = |i: usize| u32::from_le_bytes(bytes[16 + 4 * i..20 + 4 * i].try_into().expect("4 bytes"));
        let (inputs, hidden, qa, qb, scale) = (word(0), word(1), word(2), word(3), word(4));
        if (inputs as usize, hidden as usize) != (INPUTS, HIDDEN) {
            return Err(FormatError::Shape { inputs, hidden });
        }
        if (qa as i32, qb as i32) != (QA, QB) {
            return Err(FormatError::Quantisation { qa, qb });
        }
        if !(1..=10_000).contains(&scale) {
            return Err(FormatError::Scale(scale));
        }
        if bytes.len() != FILE_BYTES {
            return Err(FormatError::Size(bytes.len()));
        }
        let mut values = bytes[HEADER_BYTES..FILE_BYTES - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || -> [i16; HIDDEN] { std::array::from_fn(|_| values.next().expect("size checked")) };
        let hidden_weights: Vec<[i16; HIDDEN]> = (0..INPUTS).map(|_| row()).collect();
        let hidden_bias = row();
        let output_weights = [row(), row()];
        let output_bias = i32::from_le_bytes(bytes[FILE_BYTES - 4..].try_into().expect("4 bytes"));
        // The first value beyond `max` and its byte offset, counting `i16`s
        // from `first_byte`.
        let beyond = |values: &mut dyn Iterator<Item = &i16>, max: i16, first_byte: usize| {
            values
                .enumerate()
                .find(|(_, v)| v.unsigned_abs() > max as u16)
                .map(|(i, &value)| (value, first_byte + 2 * i))
        };
        if let Some((value, offset)) =
            beyond(&mut hidden_weights.iter().flatten().chain(&hidden_bias), MAX_HIDDEN_WEIGHT, HEADER_BYTES)
        {
            return Err(FormatError::HiddenWeight { value, offset });
        }
        let output_start = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN);
        if let Some((value, offset)) = beyond(&mut output_weights.iter().flatten(), MAX_OUTPUT_WEIGHT, output_start) {
            return Err(FormatError::OutputWeight { value, offset });
        }
        if output_bias.unsigned_abs() > (QA * QB * 100) as u32 {
            return Err(FormatError::OutputBias(output_bias));
        }
        Ok(Network { hidden_weights, hidden_bias, output_weights, output_bias, scale: scale as i32 })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for word in [INPUTS as u32, HIDDEN as u32, QA as u32, QB as u32, self.scale as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        let rows = self.hidden_weights.iter().chain([&self.hidden_bias]).chain(&self.output_weights);
        for v in rows.flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// Reads a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, LoadError> {
        // The file's size is known: a bigger one (or a device, a pipe) is
        // refused unread.
        let bytes = crate::files::read_regular_file(path, FILE_BYTES as u64)
            .map_err(|error| LoadError::Read { path: path.to_path_buf(), error })?;
        Network::from_bytes(&bytes).map_err(|error| LoadError::Invalid { path: path.to_path_buf(), error })
    }

    /// The evaluation in centipawns from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color) -> i32 {
        let halves = [&acc.values[side.index()], &acc.values[(!side).index()]];
        let mut sum = 0i32;
        for (half, weights) in halves.into_iter().zip(&self.output_weights) {
            for i in 0..HIDDEN {
                // v·w fits in 16 bits (v <= QA = 255, |w| <= 127), so one
                // factor is made in i16 and only the second product is
                // widened: the same sum, in the 16-bit multiply-add that
                // every x86-64 has (a 32-bit multiply needs SSE4.1).
                let v = half[i].clamp(0, QA as i16);
                let vw = v * weights[i];
                sum += i32::from(v) * i32::from(vw);
            }
        }
        // The sum is in QA²·QB units: one QA goes first, then the bias
        // (QA·QB units) joins it.
        let out = sum / QA + self.output_bias;
        (i64::from(out) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch (tests, the `eval` command).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::refresh(self, pos), pos.side_to_move())
    }
}

/// The hidden layer's sums for both perspectives (index: the colour whose
/// view it is), before the activation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator { values: [[0; HIDDEN]; 2] }
    }
}

impl Accumulator {
    /// Computed from every piece of `pos`.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { values: [net.hidden_bias; 2] };
        for sq in Square::all() {
            if let Some(piece) = pos.piece_on(sq) {
                for c in Color::BOTH {
                    let row = &net.hidden_weights[feature(c, piece, sq)];
                    let values = &mut acc.values[c.index()];
                    for i in 0..HIDDEN {
                        values[i] += row[i];
                    }
                }
            }
        }
        acc
    }

    /// The accumulator after `m` (legal) is played in `pos`, whose
    /// accumulator this is.
    #[inline]
    pub fn after_move(&self, net: &Network, pos: &Position, m: Move) -> Accumulator {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_on(from) else {
            debug_assert!(false, "after_move {m} from an empty square");
            return *self;
        };
        let captured = pos.piece_on(to);
        let mut next = Accumulator::default();
        for c in Color::BOTH {
            let (old, new) = (&self.values[c.index()], &mut next.values[c.index()]);
            let add = &net.hidden_weights[feature(c, piece, to)];
            let sub = &net.hidden_weights[feature(c, piece, from)];
            match captured {
                Some(victim) => {
                    let gone = &net.hidden_weights[feature(c, victim, to)];
                    for i in 0..HIDDEN {
                        new[i] = old[i] + add[i] - sub[i] - gone[i];
                    }
                }
                None => {
                    for i in 0..HIDDEN {
                        new[i] = old[i] + add[i] - sub[i];
                    }
                }
            }
        }
        next
    }
}

/// Times the built-in network (`chariot nnue-speed`): nanoseconds per full
/// refresh, per incremental update and per output-layer evaluation, over
/// the positions and moves of random games.
pub fn speed_report() -> String {
    use std::hint::black_box;
    use std::time::Instant;
    let net = Network::embedded();
    let mut rng = crate::rng::Rng::new(1);
    let mut steps: Vec<(Position, Move)> = Vec::new();
    let mut pos = Position::startpos();
    while steps.len() < 10_000 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.rule60_count() > 100 {
            pos = Position::startpos();
            continue;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        steps.push((pos, m));
        pos.make_move(m);
    }
    let rounds = 20;
    let per_call = |start: Instant| start.elapsed().as_nanos() as f64 / (rounds * steps.len()) as f64;
    let start = Instant::now();
    for _ in 0..rounds {
        for (pos, _) in &steps {
            black_box(Accumulator::refresh(&net, black_box(pos)));
        }
    }
    let refresh = per_call(start);
    let accs: Vec<Accumulator> = steps.iter().map(|(p, _)| Accumulator::refresh(&net, p)).collect();
    let start = Instant::now();
    for _ in 0..rounds {
        for ((pos, m), acc) in steps.iter().zip(&accs) {
            black_box(black_box(acc).after_move(&net, pos, *m));
        }
    }
    let update = per_call(start);
    let start = Instant::now();
    for _ in 0..rounds {
        for ((pos, _), acc) in steps.iter().zip(&accs) {
            black_box(net.evaluate(black_box(acc), pos.side_to_move()));
        }
    }
    let output = per_call(start);
    format!(
        "network {INPUTS}x{HIDDEN}x2 -> 1, {} positions x {rounds}\n\
         full refresh      : {refresh:.1} ns\n\
         incremental update: {update:.1} ns\n\
         output layer      : {output:.1} ns\n",
        steps.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network with small pseudo-random weights.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut small = |range: i64| (rng.below(2 * range as u64 + 1) as i64 - range) as i16;
        let hidden_weights = (0..INPUTS).map(|_| std::array::from_fn(|_| small(200))).collect();
        let hidden_bias = std::array::from_fn(|_| small(200));
        let output_weights = [std::array::from_fn(|_| small(100)), std::array::from_fn(|_| small(100))];
        Network::from_parts(hidden_weights, hidden_bias, output_weights, small(5000) as i32, DEFAULT_SCALE)
    }

    #[test]
    fn features_mirror_between_the_perspectives() {
        let sq = Square::parse("c3").unwrap();
        let red_pawn = feature(Color::Red, Piece::RedPawn, sq);
        let black_pawn = feature(Color::Black, Piece::BlackPawn, sq.flip_rank());
        assert_eq!(red_pawn, black_pawn);
        assert_eq!(feature(Color::Black, Piece::RedPawn, sq), 13 * 90 + sq.flip_rank().index());
        assert!(feature(Color::Red, Piece::BlackPawn, Square::from_index(89)) < INPUTS);
    }

    #[test]
    fn the_file_survives_a_round_trip() {
        let net = random_network(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
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

    /// Random games (captures and both colours to move): the accumulator
    /// updated move by move always equals the one computed from scratch.
    #[test]
    fn the_incremental_accumulator_equals_a_refresh() {
        for net in [random_network(5), (*Network::embedded()).clone()] {
            let mut rng = crate::rng::Rng::new(9);
            let mut captures = 0;
            for _ in 0..20 {
                let mut pos = Position::startpos();
                let mut acc = Accumulator::refresh(&net, &pos);
                for _ in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Captures half the time, when there are any, so that
                    // the board empties.
                    let takes: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
                    let pool: &[Move] = if !takes.is_empty() && rng.below(2) == 0 { &takes } else { &moves };
                    let m = pool[rng.below(pool.len() as u64) as usize];
                    captures += pos.is_capture(m) as usize;
                    acc = acc.after_move(&net, &pos, m);
                    pos.make_move(m);
                    assert_eq!(acc, Accumulator::refresh(&net, &pos), "{}", pos.to_fen());
                    assert_eq!(net.evaluate(&acc, pos.side_to_move()), net.evaluate_position(&pos));
                }
            }
            assert!(captures > 100, "only {captures} captures");
        }
    }

    #[test]
    fn the_embedded_network_loads_and_evaluates_sensibly() {
        let net = Network::embedded();
        let start = Position::startpos();
        let a = net.evaluate_position(&start);
        assert_eq!(a, net.evaluate_position(&start));
        assert!(a.abs() < 150, "start position {a}");
        // A rook up is good for its owner, whoever is to move.
        let up = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
        assert!(net.evaluate_position(&up) > 300, "{}", net.evaluate_position(&up));
        let down = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 b - - 0 1").unwrap();
        assert!(net.evaluate_position(&down) < -300, "{}", net.evaluate_position(&down));
    }
}
