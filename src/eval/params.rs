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
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>);
}

impl Tunable for i32 {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        out.push((name.to_string(), self));
    }
}

impl Tunable for (i32, i32) {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        out.push((format!("{name}.mg"), &mut self.0));
        out.push((format!("{name}.eg"), &mut self.1));
    }
}

impl<T: Tunable, const N: usize> Tunable for [T; N] {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        for (i, v) in self.iter_mut().enumerate() {
            v.collect(&format!("{name}[{i}]"), out);
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
    material_mg: [i32; 7] = [0, 200, 200, 420, 950, 460, 70];
    material_eg: [i32; 7] = [0, 180, 180, 470, 1050, 420, 110];
    /// Piece-square tables by kind (King, Advisor, Elephant, Horse, Rook,
    /// Cannon, Pawn), middlegame and endgame. Index: rank counted from the
    /// piece's own side x 5 + file distance from the centre (the board is
    /// the same on both wings). The pawns' table counts as pawn structure.
    pst_mg: [[i32; 50]; 7] = [
        [0, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25, -25],
        [10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0],
        [10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 0, 0, 0, 0],
        [4, -2, -10, -20, -45, 19, 13, 5, -5, -30, 29, 23, 15, 5, -20, 34, 28, 20, 10, -15, 44, 38, 30, 20, -5, 59, 53, 45, 35, 10, 64, 58, 50, 40, 15, 59, 53, 45, 35, 10, 44, 38, 30, 20, -5, 24, 18, 10, 0, -25],
        [-10, -10, -10, -10, -10, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 15, 15, 15, 15, 15, 25, 25, 25, 25, 25, 20, 20, 20, 20, 20, 25, 25, 25, 25, 25, 10, 10, 10, 10, 10],
        [30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 38, 8, 8, 8, 8, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0, 30, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 65, 60, 52, 44, 40, 85, 80, 72, 64, 60, 95, 90, 82, 74, 70, 80, 75, 67, 59, 55, 35, 30, 22, 14, 10],
    ];
    pst_eg: [[i32; 50]; 7] = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0],
        [5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0],
        [2, -1, -5, -10, -22, 12, 9, 5, 0, -12, 17, 14, 10, 5, -7, 22, 19, 15, 10, -2, 27, 24, 20, 15, 3, 37, 34, 30, 25, 13, 42, 39, 35, 30, 18, 42, 39, 35, 30, 18, 32, 29, 25, 20, 8, 17, 14, 10, 5, -7],
        [-5, -5, -5, -5, -5, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 12, 12, 12, 12, 12, 10, 10, 10, 10, 10, 12, 12, 12, 12, 12, 5, 5, 5, 5, 5],
        [5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 85, 80, 72, 64, 60, 115, 110, 102, 94, 90, 125, 120, 112, 104, 100, 105, 100, 92, 84, 80, 45, 40, 32, 24, 20],
    ];
    /// Two crossed pawns side by side on one rank (linked pawns).
    pawn_linked: (i32, i32) = (25, 35);
    /// Mobility per reachable square (empty or enemy), by kind.
    rook_mobility: (i32, i32) = (6, 8);
    horse_mobility: (i32, i32) = (9, 10);
    cannon_mobility: (i32, i32) = (3, 3);
    /// A horse with no square to go to.
    horse_trapped: (i32, i32) = (-40, -30);
    /// A rook on a file with no pawns of either colour.
    rook_open_file: (i32, i32) = (25, 10);
    /// A horse protected by the other horse (each of two that protect each
    /// other counts).
    horse_protected_by_horse: (i32, i32) = (10, 5);
    /// A cannon on the king's file with exactly one screen between: it pins
    /// the screen (central cannon pressure).
    cannon_on_king_file: (i32, i32) = (35, 10);
    /// A cannon on the king's file with nothing between: the "empty-head
    /// cannon", the king can hardly leave the file.
    empty_head_cannon: (i32, i32) = (90, 40);
    /// A cannon on the enemy back rank (bottom cannon).
    bottom_cannon: (i32, i32) = (30, 10);
    /// King safety: each attack by a horse, rook, cannon or crossed pawn on
    /// a point of the enemy palace, scaled by the attacker's weight (by kind
    /// as in `material_mg`), then squared down by `king_danger_divisor`.
    king_attack_weight: [i32; 7] = [0, 0, 0, 6, 8, 5, 3];
    king_danger_max: i32 = 500;
    /// Missing defenders against the enemy's attacking material.
    missing_advisor: i32 = 30;
    missing_elephant: i32 = 20;
    /// Threats: an enemy piece (by kind) attacked by one of our pawns, by a
    /// horse or cannon, by a rook; and an enemy piece we attack that nothing
    /// of its side defends.
    threat_by_pawn: [(i32, i32); 7] = [(0, 0); 7];
    threat_by_minor: [(i32, i32); 7] = [(0, 0); 7];
    threat_by_rook: [(i32, i32); 7] = [(0, 0); 7];
    hanging: [(i32, i32); 7] = [(0, 0); 7];
    /// The side to move's initiative.
    tempo: i32 = 15;
}
