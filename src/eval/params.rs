//! Every evaluation weight, in one place, ready for tuning. Scores are in
//! centipawns of an uncrossed pawn; `(mg, eg)` pairs are tapered by phase.

/// Material per piece kind (King, Advisor, Elephant, Horse, Rook, Cannon,
/// Pawn), middlegame and endgame.
pub const MATERIAL_MG: [i32; 7] = [0, 200, 200, 420, 950, 460, 70];
pub const MATERIAL_EG: [i32; 7] = [0, 180, 180, 470, 1050, 420, 110];

/// Phase weight of each kind; the start position has `PHASE_MAX`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
pub const PHASE_MAX: i32 = 2 * (2 * 2 + 2 * 4 + 2 * 2);

/// A crossed pawn, by how far it has advanced (rank from its own side 5..9),
/// and how central it is (file distance from the centre 0..4).
pub const PAWN_CROSSED_RANK_MG: [i32; 5] = [40, 60, 70, 55, 10];
pub const PAWN_CROSSED_RANK_EG: [i32; 5] = [60, 90, 100, 80, 20];
pub const PAWN_CROSSED_CENTRAL: [i32; 5] = [25, 20, 12, 4, 0];
/// Two crossed pawns side by side on one rank (linked pawns).
pub const PAWN_LINKED: (i32, i32) = (25, 35);
/// Central pawn (file e) before the river, still home: a small bonus.
pub const PAWN_CENTRE_HOME: i32 = 8;

/// Piece-square shapes: centralisation and advancement bonuses.
pub const HORSE_CENTRAL: [i32; 5] = [24, 18, 10, 0, -25];
pub const HORSE_ADVANCE_MG: [i32; 10] = [-20, -5, 5, 10, 20, 35, 40, 35, 20, 0];
pub const HORSE_ADVANCE_EG: [i32; 10] = [-10, 0, 5, 10, 15, 25, 30, 30, 20, 5];
pub const CANNON_CENTRE_FILE: (i32, i32) = (30, 5);
pub const CANNON_HOME_RANK: (i32, i32) = (8, 0);
pub const ROOK_ADVANCE: [i32; 10] = [-10, 0, 5, 5, 10, 15, 25, 20, 25, 10];
pub const KING_OFF_HOME: (i32, i32) = (-25, 0);
pub const DEFENDER_CENTRE: (i32, i32) = (10, 5);

/// Mobility per reachable square (empty or enemy), by kind.
pub const ROOK_MOBILITY: (i32, i32) = (6, 8);
pub const HORSE_MOBILITY: (i32, i32) = (9, 10);
pub const CANNON_MOBILITY: (i32, i32) = (3, 3);
/// A horse with no square to go to.
pub const HORSE_TRAPPED: (i32, i32) = (-40, -30);

/// A rook on a file with no pawns of either colour.
pub const ROOK_OPEN_FILE: (i32, i32) = (25, 10);
/// Two horses protecting each other.
pub const HORSES_CONNECTED: (i32, i32) = (20, 10);
/// A cannon on the king's file with exactly one screen between: it pins
/// the screen (central cannon pressure).
pub const CANNON_ON_KING_FILE: (i32, i32) = (35, 10);
/// A cannon on the king's file with nothing between: the "empty-head
/// cannon", the king can hardly leave the file.
pub const EMPTY_HEAD_CANNON: (i32, i32) = (90, 40);
/// A cannon on the enemy back rank (bottom cannon).
pub const BOTTOM_CANNON: (i32, i32) = (30, 10);

/// King safety: each attack by a rook, horse, cannon or crossed pawn on a
/// point of the enemy palace, scaled by the attacker's weight, then squared
/// down by `KING_DANGER_DIVISOR`.
pub const KING_ATTACK_WEIGHT: [i32; 7] = [0, 0, 0, 6, 8, 5, 3];
pub const KING_DANGER_DIVISOR: i32 = 8;
pub const KING_DANGER_MAX: i32 = 500;
/// Missing defenders against the enemy's attacking material.
pub const MISSING_ADVISOR: i32 = 30;
pub const MISSING_ELEPHANT: i32 = 20;

/// The side to move's initiative.
pub const TEMPO: i32 = 15;
