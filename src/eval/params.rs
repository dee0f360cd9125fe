//! Every evaluation weight, in one place, ready for tuning. Scores are in
//! centipawns of an uncrossed pawn; `(mg, eg)` pairs are tapered by phase.
//!
//! The weights live in one `Weights` value so that a tuner can change them
//! at run time (`examples/tune.rs`); the engine evaluates with the constant
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

impl<const N: usize> Tunable for [i32; N] {
    fn collect<'a>(&'a mut self, name: &str, out: &mut Vec<(String, &'a mut i32)>) {
        for (i, v) in self.iter_mut().enumerate() {
            out.push((format!("{name}[{i}]"), v));
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
    /// A crossed pawn, by how far it has advanced (rank from its own side
    /// 5..9), and how central it is (file distance from the centre 0..4).
    pawn_crossed_rank_mg: [i32; 5] = [40, 60, 70, 55, 10];
    pawn_crossed_rank_eg: [i32; 5] = [60, 90, 100, 80, 20];
    pawn_crossed_central: [i32; 5] = [25, 20, 12, 4, 0];
    /// Two crossed pawns side by side on one rank (linked pawns).
    pawn_linked: (i32, i32) = (25, 35);
    /// Central pawn (file e) before the river, still home: a small bonus.
    pawn_centre_home: i32 = 8;
    /// Piece-square shapes: centralisation and advancement bonuses.
    horse_central: [i32; 5] = [24, 18, 10, 0, -25];
    horse_advance_mg: [i32; 10] = [-20, -5, 5, 10, 20, 35, 40, 35, 20, 0];
    horse_advance_eg: [i32; 10] = [-10, 0, 5, 10, 15, 25, 30, 30, 20, 5];
    cannon_centre_file: (i32, i32) = (30, 5);
    cannon_home_rank: (i32, i32) = (8, 0);
    rook_advance: [i32; 10] = [-10, 0, 5, 5, 10, 15, 25, 20, 25, 10];
    king_off_home: (i32, i32) = (-25, 0);
    defender_centre: (i32, i32) = (10, 5);
    /// Mobility per reachable square (empty or enemy), by kind.
    rook_mobility: (i32, i32) = (6, 8);
    horse_mobility: (i32, i32) = (9, 10);
    cannon_mobility: (i32, i32) = (3, 3);
    /// A horse with no square to go to.
    horse_trapped: (i32, i32) = (-40, -30);
    /// A rook on a file with no pawns of either colour.
    rook_open_file: (i32, i32) = (25, 10);
    /// Two horses protecting each other.
    horses_connected: (i32, i32) = (20, 10);
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
    /// The side to move's initiative.
    tempo: i32 = 15;
}
