//! One game between two engines, from an opening to the end the rules (or
//! a fault) decide. The rules module judges the position after every move;
//! a faulty engine loses the game and is restarted for the next one.

use super::clock::{Clock, TimeControl};
use super::process::{Answer, EngineProcess, Fault, Limit, Score};
use super::spec::EngineSpec;
use crate::position::Position;
use crate::rules::{self, GameResult, Reason};
use crate::types::{Color, Move};
use std::fmt;
use std::time::Duration;

/// An opening: a start position and the moves played from it before the
/// engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening { start: Position::startpos(), moves: Vec::new() }
    }
}

/// A resign rule: the side to move's engine loses when its own last
/// `moves` scores were all at or below `-score_cp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub score_cp: i32,
    pub moves: usize,
}

/// A draw rule: from game move `after_move` on, when both engines' last
/// `moves` scores were all within `score_cp` of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub after_move: usize,
    pub score_cp: i32,
    pub moves: usize,
}

/// What every game of a match shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// Time an engine may overstep its clock (or its fixed move time).
    pub margin_ms: u64,
    /// At fixed depth or nodes: how long to wait for a move before the
    /// engine is taken to hang.
    pub move_timeout_ms: u64,
    /// For the handshake and `isready`.
    pub ready_timeout: Duration,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// A game this many plies long (opening included) is a draw.
    pub max_plies: Option<usize>,
    /// UCI and UCCI engines think on the opponent's time (`go ponder`,
    /// then `ponderhit` or `stop`).
    pub ponder: bool,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            margin_ms: 100,
            move_timeout_ms: 60_000,
            ready_timeout: Duration::from_secs(10),
            resign: None,
            draw: None,
            max_plies: None,
            ponder: false,
        }
    }
}

/// An engine's seat at the board across games: its description, its time
/// control, and its process while it runs.
pub struct Player {
    pub spec: EngineSpec,
    pub control: TimeControl,
    process: Option<EngineProcess>,
    /// Processes started so far (1 + restarts).
    pub starts: usize,
    /// The reply the engine is pondering on.
    pondering: Option<Move>,
    /// Turn pondering on in the engine's options when it starts.
    pub ponder: bool,
}

impl Player {
    pub fn new(spec: EngineSpec, control: TimeControl) -> Player {
        Player { spec, control, process: None, starts: 0, pondering: None, ponder: false }
    }

    /// The running engine, started (or restarted) if needed, told that a
    /// new game begins.
    fn ready_for_game(&mut self, move_timeout_ms: u64, timeout: Duration) -> Result<&mut EngineProcess, Fault> {
        if self.spec.restart
            && let Some(process) = self.process.take()
        {
            process.quit();
        }
        if self.process.is_none() {
            self.starts += 1;
            let mut process = EngineProcess::start(&self.spec, timeout)?;
            if self.ponder {
                process.set_ponder(true)?;
            }
            self.process = Some(process);
        }
        let process = self.process.as_mut().expect("started above");
        if let Err(fault) = process.new_game(self.control, move_timeout_ms, timeout) {
            self.process = None;
            return Err(fault);
        }
        Ok(self.process.as_mut().expect("still running"))
    }

    /// Kills the process (it will be restarted for the next game).
    fn discard(&mut self) {
        self.process = None;
        self.pondering = None;
    }

    /// Stops the engine politely at the end of a match.
    pub fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit();
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Decided by the rules (mate, stalemate, repetition, 60-move rule,
    /// dead material).
    Rules(Reason),
    /// The side that lost played this (illegal or unreadable) move.
    IllegalMove(String),
    /// The side that lost answered `bestmove (none)` or `nobestmove` while
    /// it had legal moves.
    NoMove,
    /// The side that lost overstepped its time: it answered after
    /// `used_ms`, or (`used_ms: None`) not before `allowed_ms` had passed.
    TimeForfeit { used_ms: Option<u64>, allowed_ms: u64 },
    /// The side that lost gave no move within the move timeout (fixed
    /// depth or nodes).
    Hang { waited_ms: u64 },
    /// The side that lost crashed, exited or could not be started.
    Crash(String),
    /// The side that lost kept scoring itself lost (resign rule).
    Resign,
    /// The side that lost resigned (an xboard engine's `resign`).
    Resigned,
    /// Both engines kept scoring the game level (draw rule).
    DrawAdjudication,
    /// The game reached the ply limit.
    MaxPlies,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Rules(reason) => write!(f, "{reason}"),
            Ending::IllegalMove(text) => write!(f, "illegal move '{text}'"),
            Ending::NoMove => write!(f, "no move given while legal moves remain"),
            Ending::TimeForfeit { used_ms: Some(used), allowed_ms } => {
                write!(f, "time forfeit (moved after {used} ms, {allowed_ms} ms allowed with the margin)")
            }
            Ending::TimeForfeit { used_ms: None, allowed_ms } => {
                write!(f, "time forfeit (no move in the {allowed_ms} ms allowed with the margin)")
            }
            Ending::Hang { waited_ms } => write!(f, "no move within {waited_ms} ms (hang)"),
            Ending::Crash(why) => write!(f, "engine failure: {why}"),
            Ending::Resign => write!(f, "resign adjudication"),
            Ending::Resigned => write!(f, "resigned"),
            Ending::DrawAdjudication => write!(f, "draw adjudication"),
            Ending::MaxPlies => write!(f, "ply limit"),
        }
    }
}

impl Ending {
    /// The PGN `Termination` tag value.
    pub fn termination(&self) -> &'static str {
        match self {
            Ending::Rules(_) | Ending::Resign | Ending::DrawAdjudication => "adjudication",
            Ending::Resigned => "normal",
            Ending::IllegalMove(_) | Ending::NoMove => "illegal move",
            Ending::TimeForfeit { .. } | Ending::Hang { .. } => "time forfeit",
            Ending::Crash(_) => "abandoned",
            Ending::MaxPlies => "adjudication",
        }
    }
}

/// What an engine reported with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub red: String,
    pub black: String,
    pub start: Position,
    /// The opening's moves, then the engines' moves.
    pub moves: Vec<Move>,
    /// One per move: `None` for opening moves.
    pub infos: Vec<Option<MoveInfo>>,
    pub result: GameResult,
    pub ending: Ending,
}

impl Game {
    /// The engine (by colour) that lost, if any.
    pub fn loser(&self) -> Option<Color> {
        match self.result {
            GameResult::RedWins => Some(Color::Black),
            GameResult::BlackWins => Some(Color::Red),
            _ => None,
        }
    }

    /// A sentence for the PGN and the log: "Black loses: illegal move 'h2h9'".
    pub fn summary(&self) -> String {
        match self.loser() {
            Some(Color::Red) => format!("{} (Red) loses: {}", self.red, self.ending),
            Some(Color::Black) => format!("{} (Black) loses: {}", self.black, self.ending),
            None => format!("draw: {}", self.ending),
        }
    }
}

/// Plays one game: `red` moves first from the opening's side to move
/// (`red` plays Red, whoever is to move).
pub fn play_game(red: &mut Player, black: &mut Player, opening: &Opening, settings: &GameSettings) -> Game {
    let mut game = Game {
        red: red.spec.name.clone(),
        black: black.spec.name.clone(),
        start: opening.start,
        moves: opening.moves.clone(),
        infos: vec![None; opening.moves.len()],
        result: GameResult::Ongoing,
        ending: Ending::MaxPlies,
    };
    let (result, ending) = play(red, black, &mut game, settings);
    // An engine still pondering is stopped, so that it starts the next
    // game idle; one that does not stop is restarted.
    for player in [red, black] {
        if player.pondering.take().is_some()
            && let Some(process) = player.process.as_mut()
            && process.stop_ponder(settings.ready_timeout).is_err()
        {
            player.discard();
        }
    }
    game.result = result;
    game.ending = ending;
    game
}

/// Plays `m` on the last of `positions`; a capture moves `window`, the
/// first position that can recur, to the new one.
fn push_move(positions: &mut Vec<Position>, window: &mut usize, m: Move) {
    let mut next = *positions.last().expect("not empty");
    if next.is_capture(m) {
        *window = positions.len();
    }
    next.make_move(m);
    positions.push(next);
}

fn play(red: &mut Player, black: &mut Player, game: &mut Game, settings: &GameSettings) -> (GameResult, Ending) {
    let mut positions = vec![game.start];
    // The first position since the last capture (none can recur before it).
    let mut window = 0;
    for &m in &game.moves {
        push_move(&mut positions, &mut window, m);
    }
    if let Some(report) = rules::end_of_game(&positions, &game.moves, window) {
        return (report.result, Ending::Rules(report.reason));
    }
    for (player, color) in [(&mut *red, Color::Red), (&mut *black, Color::Black)] {
        if let Err(fault) = player.ready_for_game(settings.move_timeout_ms, settings.ready_timeout) {
            let why = match fault {
                Fault::Crashed(why) => why,
                Fault::NoAnswer { .. } => fault.to_string(),
            };
            return (GameResult::win_for(!color), Ending::Crash(why));
        }
    }
    let mut clocks = [Clock::new(red.control), Clock::new(black.control)];
    loop {
        let pos = *positions.last().expect("not empty");
        let mover = pos.side_to_move();
        let player = if mover == Color::Red { &mut *red } else { &mut *black };
        let allowed_ms = clocks[mover.index()].allowed_ms(settings.margin_ms, settings.move_timeout_ms);
        let limit = go_limit(&clocks, mover);
        let Some(process) = player.process.as_mut() else {
            return (GameResult::win_for(!mover), Ending::Crash("the engine stopped".into()));
        };
        let answer = match player.pondering.take() {
            // The expected reply: the ponder search goes on, timed from now.
            Some(guess) if game.moves.last() == Some(&guess) => process.ponder_hit(allowed_ms),
            Some(_) => process
                .stop_ponder(settings.ready_timeout)
                .and_then(|()| process.search(&game.start, &game.moves, limit, allowed_ms)),
            None => process.search(&game.start, &game.moves, limit, allowed_ms),
        };
        let answer = match answer {
            Ok(answer) => answer,
            Err(fault) => {
                player.discard();
                let ending = match fault {
                    Fault::Crashed(why) => Ending::Crash(why),
                    Fault::NoAnswer { waited_ms, .. } => match player.control {
                        TimeControl::Depth(_) | TimeControl::Nodes(_) => Ending::Hang { waited_ms },
                        _ => Ending::TimeForfeit { used_ms: None, allowed_ms: waited_ms },
                    },
                };
                return (GameResult::win_for(!mover), ending);
            }
        };
        if !clocks[mover.index()].charge(answer.elapsed_ms, settings.margin_ms) {
            let used_ms = Some(answer.elapsed_ms);
            return (GameResult::win_for(!mover), Ending::TimeForfeit { used_ms, allowed_ms });
        }
        let Answer { text, mv, ponder, elapsed_ms, score, depth } = answer;
        let mv = match mv {
            Some(m) if pos.check_move(m).is_ok() => m,
            Some(_) => return (GameResult::win_for(!mover), Ending::IllegalMove(text)),
            None if text == "resign" => return (GameResult::win_for(!mover), Ending::Resigned),
            None if matches!(text.as_str(), "(none)" | "0000" | "none" | "") => {
                return (GameResult::win_for(!mover), Ending::NoMove);
            }
            None => return (GameResult::win_for(!mover), Ending::IllegalMove(text)),
        };
        push_move(&mut positions, &mut window, mv);
        game.moves.push(mv);
        game.infos.push(Some(MoveInfo { score, depth, elapsed_ms }));
        if let Some(report) = rules::end_of_game(&positions, &game.moves, window) {
            return (report.result, Ending::Rules(report.reason));
        }
        if let Some(rule) = settings.resign
            && resigns(&game.infos, rule)
        {
            return (GameResult::win_for(!mover), Ending::Resign);
        }
        if let Some(rule) = settings.draw
            && agreed_draw(&game.infos, rule)
        {
            return (GameResult::Draw, Ending::DrawAdjudication);
        }
        if settings.max_plies.is_some_and(|max| game.moves.len() >= max) {
            return (GameResult::Draw, Ending::MaxPlies);
        }
        let now = positions.last().expect("not empty");
        if settings.ponder
            && let Some(guess) = ponder.filter(|&p| now.check_move(p).is_ok())
        {
            let player = if mover == Color::Red { &mut *red } else { &mut *black };
            let mut line = game.moves.clone();
            line.push(guess);
            let limit = go_limit(&clocks, mover);
            let started = player.process.as_mut().map(|p| p.ponder(&game.start, &line, limit));
            match started {
                Some(Ok(())) => player.pondering = Some(guess),
                // Found at its next move (the process is gone).
                _ => player.discard(),
            }
        }
    }
}

/// The `go` limit for `mover`, from both clocks.
fn go_limit(clocks: &[Clock; 2], mover: Color) -> Limit {
    let own = &clocks[mover.index()];
    match own.control {
        TimeControl::Clock { .. } => {
            let (r, b) = (&clocks[Color::Red.index()], &clocks[Color::Black.index()]);
            let inc = |c: &Clock| match c.control {
                TimeControl::Clock { increment_ms, .. } => increment_ms,
                _ => 0,
            };
            Limit::Clock {
                red_ms: r.remaining_ms,
                red_inc_ms: inc(r),
                black_ms: b.remaining_ms,
                black_inc_ms: inc(b),
                moves_to_go: own.moves_to_go(),
            }
        }
        TimeControl::MoveTime { ms } => Limit::MoveTime(ms),
        TimeControl::Depth(d) => Limit::Depth(d),
        TimeControl::Nodes(n) => Limit::Nodes(n),
    }
}

/// The last mover's own last `rule.moves` scores (every second entry from
/// the end) were all at or below `-rule.score_cp`.
fn resigns(infos: &[Option<MoveInfo>], rule: ResignRule) -> bool {
    own_scores(infos, rule.moves).is_some_and(|scores| scores.iter().all(|&s| s <= -rule.score_cp))
}

/// Both engines' last `rule.moves` scores each within `rule.score_cp` of
/// zero, from game move `rule.after_move` on.
fn agreed_draw(infos: &[Option<MoveInfo>], rule: DrawRule) -> bool {
    if infos.len() < 2 * rule.after_move || infos.len() < 2 {
        return false;
    }
    let level = |scores: Option<Vec<i32>>| scores.is_some_and(|s| s.iter().all(|&v| v.abs() <= rule.score_cp));
    level(own_scores(infos, rule.moves)) && level(own_scores(&infos[..infos.len() - 1], rule.moves))
}

/// The last `count` scores of the engine that made the last move (its own
/// view), or `None` if it has not made that many scored moves in a row.
fn own_scores(infos: &[Option<MoveInfo>], count: usize) -> Option<Vec<i32>> {
    if count == 0 {
        return None;
    }
    infos
        .iter()
        .rev()
        .step_by(2)
        .take(count)
        .map(|info| info.and_then(|i| i.score).map(Score::as_cp))
        .collect::<Option<Vec<i32>>>()
        .filter(|scores| scores.len() == count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(cps: &[i32]) -> Vec<Option<MoveInfo>> {
        cps.iter().map(|&cp| Some(MoveInfo { score: Some(Score::Cp(cp)), depth: None, elapsed_ms: 0 })).collect()
    }

    #[test]
    fn resign_needs_the_losers_own_scores_in_a_row() {
        let rule = ResignRule { score_cp: 500, moves: 2 };
        // The last mover scored -600 and -700; the other side's scores do
        // not matter.
        assert!(resigns(&scored(&[-600, 0, -700, 0, -600]), rule));
        assert!(!resigns(&scored(&[-600, 0, -400, 0, -600]), rule));
        assert!(!resigns(&scored(&[0, -600]), rule), "only one scored move");
        let mut unscored = scored(&[0, -600, 0, -600]);
        unscored[1] = None;
        assert!(!resigns(&unscored, rule));
    }

    #[test]
    fn draw_needs_both_sides_level_after_the_given_move() {
        let rule = DrawRule { after_move: 2, score_cp: 10, moves: 2 };
        assert!(agreed_draw(&scored(&[5, -5, 0, 10]), rule));
        assert!(!agreed_draw(&scored(&[5, -5, 0, 11]), rule));
        assert!(!agreed_draw(&scored(&[5, -5, 0]), rule), "before move 2 is complete");
    }
}
