//! Every evaluation weight, in one place, ready for tuning. Scores are in
//! centipawns of an uncrossed pawn; `(mg, eg)` pairs are tapered by phase.
//!
//! The weights live in one `Weights` value so that a tuner can change them
//! at run time (`chariot tune`, `src/tune`); the engine evaluates with the constant
//! `WEIGHTS`, which the compiler folds into the code.

/// Phase weight of each kind (King, Advisor, Elephant, Horse, Rook, Cannon,
/// Pawn); the start position has `PHASE_MAX`. Not tuned: it defines the scale.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
pub const PHASE_MAX: i32 = 2 * (2 * 2 + 2 * 4 + 2 * 2);
/// Scales king danger down after squaring; the attack weights set its size.
pub const KING_DANGER_DIVISOR: i32 = 8;

/// One tunable weight or a group of them, seen as a list of integers.
pub trait Tunable {
    /// Each integer with its name.
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>);
    /// The integers alone, in the same order (no names to build: the
    /// tuner reads a trace's counts this way for every position).
    fn values(&self, out: &mut Vec<i32>);
    /// Sets every integer to `value`.
    fn fill(&mut self, value: i32);
}

impl Tunable for i32 {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        out.push((name.to_string(), self));
    }
    fn values(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn fill(&mut self, value: i32) {
        *self = value;
    }
}

impl Tunable for (i32, i32) {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        out.push((format!("{name}.mg"), &mut self.0));
        out.push((format!("{name}.eg"), &mut self.1));
    }
    fn values(&self, out: &mut Vec<i32>) {
        out.extend([self.0, self.1]);
    }
    fn fill(&mut self, value: i32) {
        *self = (value, value);
    }
}

impl<T: Tunable, const N: usize> Tunable for [T; N] {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        for (i, v) in self.iter_mut().enumerate() {
            v.collect(&format!("{name}[{i}]"), out);
        }
    }
    fn values(&self, out: &mut Vec<i32>) {
        for v in self {
            v.values(out);
        }
    }
    fn fill(&mut self, value: i32) {
        for v in self {
            v.fill(value);
        }
    }
}

macro_rules! weights {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:expr;)*) => {
        /// All evaluation weights.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Weights {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        /// The weights the engine plays with.
        pub const WEIGHTS: Weights = Weights { $($name: $value,)* };

        impl Weights {
            /// Every weight as (name, value), in declaration order.
            pub fn params_mut(&mut self) -> Vec<(String, &mut i32)> {
                let mut out = Vec::new();
                $(self.$name.collect(stringify!($name), &mut out);)*
                out
            }

            /// Every weight's value, in declaration order (as `params_mut`).
            pub fn values(&self) -> Vec<i32> {
                let mut out = Vec::new();
                $(self.$name.values(&mut out);)*
                out
            }

            /// Every weight set to `value` (a tracer's counts start at 0).
            pub fn filled(value: i32) -> Weights {
                let mut w = WEIGHTS;
                $(w.$name.fill(value);)*
                w
            }

            /// The weights as Rust source for the `weights!` block.
            pub fn to_source(&self) -> String {
                let mut s = String::new();
                $(s += &format!("    {}: {} = {:?};\n", stringify!($name), stringify!($ty), self.$name);)*
                s
            }
        }
    };
}

weights! {
    /// Material per piece kind (King, Advisor, Elephant, Horse, Rook,
    /// Cannon, Pawn), middlegame and endgame.
    material_mg: [i32; 7] = [0, 418, 163, 742, 1978, 868, 134];
    material_eg: [i32; 7] = [0, 119, 120, 405, 1290, 368, 100];
    /// Piece-square tables by kind (King, Advisor, Elephant, Horse, Rook,
    /// Cannon, Pawn), middlegame and endgame. Index: rank counted from the
    /// piece's own side x 5 + file distance from the centre (the board is
    /// the same on both wings). The pawns' table counts as pawn structure.
    pst_mg: [[i32; 50]; 7] = [
        [
            68, 77, -25, -25, -25,
            -20, -114, -25, -25, -25,
            -98, -275, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
        ],
        [
            10, 55, 0, 0, 0,
            138, 0, 0, 0, 0,
            10, 9, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
        ],
        [
            10, 0, -16, 0, 0,
            10, 0, 0, 0, 0,
            75, 0, 0, 0, -85,
            10, 0, 0, 0, 0,
            10, 0, -44, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
        ],
        [
            -337, 23, 66, -98, -331,
            -59, -76, -40, -19, -27,
            79, 162, -4, -120, -44,
            -9, -34, -37, -26, -24,
            196, 64, 187, 53, 49,
            205, 191, 163, -26, 105,
            -21, 325, 40, 521, 97,
            353, 488, 41, 185, 100,
            762, 189, 372, 81, 109,
            -85, -148, -19, 66, 247,
        ],
        [
            -26, 73, -54, 12, -80,
            53, 15, 27, 2, -46,
            128, 73, 8, -10, -2,
            161, 86, 123, 54, 74,
            57, 132, 138, 71, 46,
            -1, 68, 141, 30, -7,
            78, 182, 141, 74, 67,
            185, 86, 61, 3, 95,
            346, 153, 155, 105, 6,
            61, 268, 157, 35, -50,
        ],
        [
            489, 186, 21, -56, 31,
            125, 61, 106, 8, 52,
            156, 62, 128, 63, 77,
            150, 42, 33, -69, -121,
            182, 97, 87, 45, 8,
            221, -14, 11, -66, 63,
            99, 15, 92, 34, 62,
            -146, -44, -21, -47, 146,
            -110, 17, 89, -83, -19,
            -84, -205, 31, 96, 97,
        ],
        [
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            14, 0, -78, 0, -56,
            -64, 0, -18, 0, -56,
            131, 120, 99, 151, -20,
            124, 255, 250, 176, 34,
            -103, 32, 194, 221, 57,
            109, 298, 282, 421, 168,
            224, 264, 257, 349, 140,
        ],
    ];
    pst_eg: [[i32; 50]; 7] = [
        [
            -12, -17, 0, 0, 0,
            20, 26, 0, 0, 0,
            2, 11, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
        ],
        [
            5, -59, 0, 0, 0,
            -58, 0, 0, 0, 0,
            5, -61, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
        ],
        [
            5, 0, -40, 0, 0,
            5, 0, 0, 0, 0,
            -62, 0, 0, 0, -44,
            5, 0, 0, 0, 0,
            5, 0, -43, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
        ],
        [
            -101, 5, -26, -26, -126,
            -105, 72, 0, 65, -212,
            2, 26, 9, 51, -20,
            83, 35, 38, 64, 60,
            9, 64, 60, 43, 77,
            38, 31, 16, 61, 25,
            97, 14, 70, -54, -53,
            -42, -41, 60, 0, 99,
            -150, 1, -22, 48, 5,
            -10, 115, 109, 9, -83,
        ],
        [
            -2, -120, 70, -6, -74,
            56, 68, 96, 40, 98,
            11, 9, 89, 16, 59,
            114, 23, 114, 125, 86,
            112, 5, 5, 79, 71,
            173, 78, 88, 75, 108,
            138, 5, 65, 63, 80,
            114, 59, 97, 97, 55,
            57, 45, -23, -11, 132,
            160, -85, 15, 37, 133,
        ],
        [
            -81, -14, -38, 10, -40,
            50, 55, -115, 67, 20,
            -29, -1, -10, 19, -23,
            -29, 18, 13, 49, 47,
            -30, 30, -33, 3, 24,
            -56, 40, -50, 58, 13,
            -2, 21, -28, 36, -3,
            26, -54, 31, 21, -60,
            -20, -32, -134, 69, -2,
            -125, -11, 4, -23, -13,
        ],
        [
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            71, 0, -15, 0, 91,
            105, 0, 52, 0, 91,
            88, 95, 145, 56, 125,
            80, 53, 118, 81, 112,
            93, 225, 51, 69, 127,
            -85, -11, 29, 8, 60,
            -255, -60, -46, -107, -74,
        ],
    ];
    /// Two crossed pawns side by side on one rank (linked pawns).
    pawn_linked: (i32, i32) = (24, -50);
    /// Mobility per reachable square (empty or enemy), by kind.
    rook_mobility: (i32, i32) = (10, -1);
    horse_mobility: (i32, i32) = (29, -9);
    cannon_mobility: (i32, i32) = (7, -3);
    /// A horse with no square to go to.
    horse_trapped: (i32, i32) = (-32, -160);
    /// A rook on a file with no pawns of either colour.
    rook_open_file: (i32, i32) = (38, 10);
    /// A horse protected by the other horse (each of two that protect each
    /// other counts).
    horse_protected_by_horse: (i32, i32) = (69, -13);
    /// A cannon on the king's file with exactly one screen between: it pins
    /// the screen (central cannon pressure).
    cannon_on_king_file: (i32, i32) = (35, 10);
    /// A cannon on the king's file with nothing between: the "empty-head
    /// cannon", the king can hardly leave the file.
    empty_head_cannon: (i32, i32) = (251, -53);
    /// A cannon on the enemy back rank (bottom cannon).
    bottom_cannon: (i32, i32) = (72, -28);
    /// King safety: each attack by a horse, rook, cannon or crossed pawn on
    /// a point of the enemy palace, scaled by the attacker's weight (by kind
    /// as in `material_mg`), then squared down by `king_danger_divisor`.
    king_attack_weight: [i32; 7] = [0, 0, 0, 8, 5, 9, 15];
    king_danger_max: i32 = 904;
    /// Missing defenders against the enemy's attacking material.
    missing_advisor: i32 = -55;
    missing_elephant: i32 = 152;
    /// Threats: an enemy piece (by kind) attacked by one of our pawns, by a
    /// horse or cannon, by a rook; and an enemy piece we attack that nothing
    /// of its side defends.
    threat_by_pawn: [(i32, i32); 7] = [(0, 0), (102, -48), (-8, -24), (177, -37), (-91, 108), (199, -38), (-68, 37)];
    threat_by_minor: [(i32, i32); 7] = [(0, 0), (22, -5), (-2, 7), (96, 64), (105, -13), (58, -9), (-11, 4)];
    threat_by_rook: [(i32, i32); 7] = [(0, 0), (-31, 0), (-21, -23), (54, 41), (-308, -159), (-2, 67), (-14, 22)];
    hanging: [(i32, i32); 7] = [(0, 0), (122, 16), (86, 46), (18, 34), (29, -29), (127, -2), (23, 55)];
    /// The side to move's initiative.
    tempo: i32 = 16;
}
