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
    material_mg: [i32; 7] = [0, 294, 154, 773, 1623, 843, 121];
    material_eg: [i32; 7] = [0, 119, 132, 400, 1407, 374, 108];
    /// Piece-square tables by kind (King, Advisor, Elephant, Horse, Rook,
    /// Cannon, Pawn), middlegame and endgame. Index: rank counted from the
    /// piece's own side x 5 + file distance from the centre (the board is
    /// the same on both wings). The pawns' table counts as pawn structure.
    pst_mg: [[i32; 50]; 7] = [
        [
            40, 48, -25, -25, -25,
            -2, -82, -25, -25, -25,
            -20, -241, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
            -25, -25, -25, -25, -25,
        ],
        [
            10, 8, 0, 0, 0,
            100, 0, 0, 0, 0,
            10, -11, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
        ],
        [
            10, 0, -3, 0, 0,
            10, 0, 0, 0, 0,
            48, 0, 0, 0, -66,
            10, 0, 0, 0, 0,
            10, 0, -41, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
            10, 0, 0, 0, 0,
        ],
        [
            -197, 74, 92, -55, -306,
            -34, -46, -7, -110, 15,
            270, 75, -6, -74, -84,
            11, 5, -41, -89, -146,
            123, 51, 130, 41, 21,
            236, 148, 54, 79, 41,
            59, 309, 52, 495, 93,
            355, 263, -11, 166, 108,
            279, 173, 289, 145, -2,
            -32, -72, 31, 124, 139,
        ],
        [
            -28, -21, -11, -13, -11,
            -64, -5, -24, -43, -7,
            13, 6, 63, 48, 41,
            97, 67, 94, 78, 65,
            128, 81, 125, 30, 10,
            74, 34, 102, 14, 14,
            77, 90, 146, 44, 76,
            255, 102, 92, -21, 149,
            295, 133, 144, 49, 76,
            155, 337, 180, 53, 39,
        ],
        [
            278, 69, 71, -17, -8,
            258, 4, 117, -1, 96,
            160, 58, 120, 46, 65,
            137, 70, 11, -66, 25,
            162, 57, 97, 31, 1,
            218, 21, -39, -80, 56,
            59, 33, 83, 36, 59,
            -115, -55, 41, -50, 146,
            2, -6, 183, -100, -41,
            -4, -220, 54, 51, 59,
        ],
        [
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            30, 0, -53, 0, -51,
            -6, 0, 0, 0, -19,
            114, 43, 106, 112, 0,
            138, 173, 139, 11, 24,
            88, 301, 181, 103, 29,
            107, 241, 294, 158, 291,
            95, 299, 167, 149, 102,
        ],
    ];
    pst_eg: [[i32; 50]; 7] = [
        [
            -8, -9, 0, 0, 0,
            5, 7, 0, 0, 0,
            -11, 28, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
        ],
        [
            5, -54, 0, 0, 0,
            -67, 0, 0, 0, 0,
            5, -50, 0, 0, 0,
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
            -57, 0, 0, 0, -45,
            5, 0, 0, 0, 0,
            5, 0, -33, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
            5, 0, 0, 0, 0,
        ],
        [
            -200, -13, -17, -56, -214,
            -138, 37, -27, 85, -164,
            -40, 98, 4, -7, 21,
            45, 43, 36, 64, 93,
            38, 38, 35, 27, 77,
            12, 37, 75, 25, 25,
            61, 18, 42, -53, -20,
            -33, 13, 79, 28, 59,
            -16, -5, -4, -3, 50,
            -4, 29, 73, 21, 51,
        ],
        [
            -49, 54, 12, 63, -43,
            38, 31, 74, 122, 184,
            6, 94, 13, 20, 90,
            137, 66, 109, 116, 131,
            79, 94, 69, 117, 91,
            106, 68, 105, 68, 89,
            64, 65, 42, 79, 62,
            10, 21, 58, 104, 46,
            -14, -10, -8, 22, 18,
            27, -124, -3, 63, 60,
        ],
        [
            -48, -11, -49, -47, -45,
            -19, 43, -37, 49, -5,
            -21, 14, 0, 12, -42,
            -29, 3, 24, 40, -2,
            0, 11, -41, 5, 6,
            -58, 12, -50, 45, -6,
            -14, -11, -37, 3, -2,
            50, 34, -28, 23, -65,
            75, 12, -154, 76, 48,
            -63, 39, -18, 0, 13,
        ],
        [
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            59, 0, 14, 0, 91,
            89, 0, 16, 0, 70,
            127, 157, 144, 90, 105,
            63, 62, 142, 133, 126,
            -10, 82, 64, 105, 123,
            -82, -10, 3, 47, 16,
            -167, -56, -29, -32, -57,
        ],
    ];
    /// Two crossed pawns side by side on one rank (linked pawns).
    pawn_linked: (i32, i32) = (78, -18);
    /// Mobility per reachable square (empty or enemy), by kind.
    rook_mobility: (i32, i32) = (13, -6);
    horse_mobility: (i32, i32) = (34, -7);
    cannon_mobility: (i32, i32) = (11, -3);
    /// A horse with no square to go to.
    horse_trapped: (i32, i32) = (-8, -144);
    /// A rook on a file with no pawns of either colour.
    rook_open_file: (i32, i32) = (88, -8);
    /// A horse protected by the other horse (each of two that protect each
    /// other counts).
    horse_protected_by_horse: (i32, i32) = (45, -5);
    /// A cannon on the king's file with exactly one screen between: it pins
    /// the screen (central cannon pressure).
    cannon_on_king_file: (i32, i32) = (35, 10);
    /// A cannon on the king's file with nothing between: the "empty-head
    /// cannon", the king can hardly leave the file.
    empty_head_cannon: (i32, i32) = (231, -30);
    /// A cannon on the enemy back rank (bottom cannon).
    bottom_cannon: (i32, i32) = (35, 14);
    /// King safety: each attack by a horse, rook, cannon or crossed pawn on
    /// a point of the enemy palace, scaled by the attacker's weight (by kind
    /// as in `material_mg`), then squared down by `king_danger_divisor`.
    king_attack_weight: [i32; 7] = [0, 0, 0, 8, 6, 9, 14];
    king_danger_max: i32 = 741;
    /// Missing defenders against the enemy's attacking material.
    missing_advisor: i32 = 99;
    missing_elephant: i32 = 167;
    /// Threats: an enemy piece (by kind) attacked by one of our pawns, by a
    /// horse or cannon, by a rook; and an enemy piece we attack that nothing
    /// of its side defends.
    threat_by_pawn: [(i32, i32); 7] = [(0, 0), (78, -55), (74, -34), (161, -11), (-35, 21), (204, -22), (25, -7)];
    threat_by_minor: [(i32, i32); 7] = [(0, 0), (7, -12), (5, -7), (91, 45), (100, -47), (51, -49), (7, 13)];
    threat_by_rook: [(i32, i32); 7] = [(0, 0), (-53, 15), (-59, 13), (46, 16), (60, 6), (-10, 54), (-17, 18)];
    hanging: [(i32, i32); 7] = [(0, 0), (56, 28), (75, 26), (19, 42), (26, -5), (98, 44), (4, 57)];
    /// The side to move's initiative.
    tempo: i32 = 14;
}
