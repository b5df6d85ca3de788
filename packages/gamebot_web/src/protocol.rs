//! The WebSocket protocol between the page and the web node, as plain data:
//! what the server sends (JSON text frames; camera frames are binary:
//! one byte channel + JPEG) and the commands a page may send, each checked
//! before anything reaches the graph. Pure: no bus, no sockets.

use gamebot_interfaces::msg::{GameEvent, GameState, PlanProgress};
use serde::{Deserialize, Serialize};

/// Largest command a page may send (bytes); anything longer is refused.
pub const MAX_COMMAND_BYTES: usize = 4096;
/// Largest jog step of the tool (metres) one command may ask for.
pub const MAX_JOG_M: f64 = 0.05;
/// Tool targets must lie within this distance of the arm base (metres).
pub const MAX_REACH_M: f64 = 1.0;

/// The phase as the page names it (`#status[data-phase]`).
pub fn phase_name(state: &GameState) -> &'static str {
    match state.phase {
        GameState::PHASE_WAITING_FOR_HUMAN => "your-turn",
        GameState::PHASE_PLANNING => "thinking",
        GameState::PHASE_EXECUTING => "arm-moving",
        GameState::PHASE_GAME_OVER => "over",
        // The referee compares the camera's view with the expected board
        // (after the arm moved, or while it waits for the person to fix it);
        // any phase this node does not know yet is shown the same way.
        _ => "checking",
    }
}

/// The planner's progress as the page's robot panel shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ProgressView {
    pub game_file: String,
    /// Moves played before the position searched.
    pub ply: u32,
    pub strategy: String,
    pub iterations: u64,
    pub nodes: u64,
    pub playouts: u64,
    pub depth: u32,
    pub value: f64,
    pub best_move: String,
    pub pv: Vec<String>,
    pub seconds: f64,
    pub nodes_per_second: f64,
    pub done: bool,
}

impl ProgressView {
    pub fn of(p: &PlanProgress) -> ProgressView {
        // JSON has no NaN or infinity: such a value is shown as 0.
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        ProgressView {
            game_file: p.game_file.clone(),
            ply: p.ply,
            strategy: p.strategy.clone(),
            iterations: p.iterations,
            nodes: p.nodes,
            playouts: p.playouts,
            depth: p.depth,
            value: finite(p.value),
            best_move: p.best_move.text.clone(),
            pv: p.principal_variation.clone(),
            seconds: finite(p.seconds),
            nodes_per_second: finite(p.nodes_per_second),
            done: p.done,
        }
    }
}

/// One location of the position.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SquareView {
    pub location: String,
    pub element: String,
    pub element_type: String,
    pub element_state: i32,
    pub owner: i32,
}

/// The position as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StateView {
    pub game_name: String,
    pub game_file: String,
    pub game_number: u32,
    pub moves: Vec<String>,
    pub players: Vec<String>,
    pub player_kinds: Vec<String>,
    pub current_player: i32,
    pub winner: i32,
    pub scores: Vec<i32>,
    pub board: Vec<SquareView>,
    pub legal_moves: Vec<String>,
    pub phase: &'static str,
    /// The referee waits for the person to put the board right.
    pub help: bool,
    pub state_hash: String,
}

impl StateView {
    pub fn of(s: &GameState) -> StateView {
        StateView {
            game_name: s.game_name.clone(),
            game_file: s.game_file.clone(),
            game_number: s.game_number,
            moves: s.move_history.clone(),
            players: s.players.clone(),
            player_kinds: s.player_kinds.clone(),
            current_player: s.current_player,
            winner: s.winner,
            scores: s.scores.clone(),
            board: s
                .board
                .iter()
                .map(|l| SquareView {
                    location: l.location.clone(),
                    element: l.element.clone(),
                    element_type: l.element_type.clone(),
                    element_state: l.element_state,
                    owner: l.owner,
                })
                .collect(),
            legal_moves: s.legal_moves.clone(),
            phase: phase_name(s),
            help: s.phase == GameState::PHASE_WAITING_FOR_HELP,
            // As text: JavaScript numbers cannot hold every u64.
            state_hash: format!("{:016x}", s.state_hash),
        }
    }
}

/// The name of a `GameEvent` kind.
pub fn event_kind_name(kind: u8) -> &'static str {
    match kind {
        GameEvent::GAME_STARTED => "game-started",
        GameEvent::MOVE_PLAYED => "move-played",
        GameEvent::MOVE_REJECTED => "move-rejected",
        GameEvent::GAME_OVER => "game-over",
        GameEvent::ARM_STARTED => "arm-started",
        GameEvent::ARM_DONE => "arm-done",
        GameEvent::ARM_FAILED => "arm-failed",
        GameEvent::OBSERVATION_MISMATCH => "observation-mismatch",
        GameEvent::INFO => "info",
        _ => "unknown",
    }
}

/// A game event as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct EventView {
    pub kind: &'static str,
    pub game_number: u32,
    pub ply: u32,
    pub player: i32,
    #[serde(rename = "move")]
    pub mv: String,
    pub winner: i32,
    pub message: String,
}

impl EventView {
    pub fn of(e: &GameEvent) -> EventView {
        EventView {
            kind: event_kind_name(e.kind),
            game_number: e.game_number,
            ply: e.ply,
            player: e.player,
            mv: e.r#move.text.clone(),
            winner: e.winner,
            message: e.message.clone(),
        }
    }
}

/// A tool target in metres, `base_link` frame.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Xyz {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// What a page may ask for. `id` (optional) is echoed in the reply.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Play a move (`element:from->to`) for the player to move.
    Move {
        #[serde(default)]
        id: Option<u64>,
        #[serde(rename = "move")]
        mv: String,
    },
    /// Start a new game: game file (empty = the same) and one kind per player (empty = the same).
    NewGame {
        #[serde(default)]
        id: Option<u64>,
        #[serde(default)]
        game_file: String,
        #[serde(default)]
        player_kinds: Vec<String>,
    },
    /// Move the tool to an absolute point (metres, `base_link`).
    MoveTool {
        #[serde(default)]
        id: Option<u64>,
        target: Xyz,
    },
    /// Move the tool by a small step from `from` (the tool position the page shows).
    Jog {
        #[serde(default)]
        id: Option<u64>,
        from: Xyz,
        delta: Xyz,
    },
    /// Open or close the gripper.
    Gripper {
        #[serde(default)]
        id: Option<u64>,
        open: bool,
    },
    /// `home` or `park`.
    Pose {
        #[serde(default)]
        id: Option<u64>,
        pose: String,
    },
    /// The position after the first `ply` moves of the current game (replay).
    Position {
        #[serde(default)]
        id: Option<u64>,
        ply: u32,
    },
    /// A step of the board-to-arm registration wizard
    /// ([`crate::registration`]): `start`, `record`, `undo`, `save`, `cancel`.
    Register {
        #[serde(default)]
        id: Option<u64>,
        step: crate::registration::RegisterStep,
    },
    /// Camera frames on/off for this page; `annotated` picks the detector's overlay.
    Camera {
        #[serde(default)]
        id: Option<u64>,
        on: bool,
        #[serde(default)]
        annotated: bool,
    },
}

/// Why a command was refused before reaching the graph.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CommandError {
    #[error("message of {0} bytes is longer than the {MAX_COMMAND_BYTES} allowed")]
    TooLong(usize),
    #[error("not a valid command: {0}")]
    Parse(String),
    #[error("{0}")]
    Invalid(String),
}

fn finite(p: &Xyz, what: &str) -> Result<(), CommandError> {
    if [p.x, p.y, p.z].iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(CommandError::Invalid(format!(
            "{what}: coordinates must be finite numbers"
        )))
    }
}

impl Command {
    /// Parses and checks one text frame.
    pub fn parse(text: &str) -> Result<Command, CommandError> {
        if text.len() > MAX_COMMAND_BYTES {
            return Err(CommandError::TooLong(text.len()));
        }
        let c: Command =
            serde_json::from_str(text).map_err(|e| CommandError::Parse(e.to_string()))?;
        c.check()?;
        Ok(c)
    }

    /// The id to echo in the reply.
    pub fn id(&self) -> Option<u64> {
        match self {
            Command::Move { id, .. }
            | Command::NewGame { id, .. }
            | Command::MoveTool { id, .. }
            | Command::Jog { id, .. }
            | Command::Gripper { id, .. }
            | Command::Pose { id, .. }
            | Command::Position { id, .. }
            | Command::Register { id, .. }
            | Command::Camera { id, .. } => *id,
        }
    }

    fn check(&self) -> Result<(), CommandError> {
        match self {
            Command::Move { mv, .. } => {
                let t = mv.trim();
                if t.is_empty() || !t.contains("->") || t.chars().any(char::is_control) {
                    return Err(CommandError::Invalid(format!(
                        "move `{mv}`: expected element:from->to"
                    )));
                }
            }
            Command::NewGame {
                game_file,
                player_kinds,
                ..
            } => {
                if game_file.contains("..") || game_file.chars().any(char::is_control) {
                    return Err(CommandError::Invalid(format!(
                        "game file `{game_file}`: must name a file without `..`"
                    )));
                }
                if !game_file.is_empty() && !game_file.ends_with(".game") {
                    return Err(CommandError::Invalid(format!(
                        "game file `{game_file}`: expected a .game file"
                    )));
                }
                if player_kinds.len() > 16 || player_kinds.iter().any(|k| k.len() > 200) {
                    return Err(CommandError::Invalid(
                        "too many or too long player kinds".into(),
                    ));
                }
            }
            Command::MoveTool { target, .. } => {
                finite(target, "target")?;
                let r = (target.x.powi(2) + target.y.powi(2) + target.z.powi(2)).sqrt();
                if r > MAX_REACH_M {
                    return Err(CommandError::Invalid(format!(
                        "target is {r:.2} m from the base; at most {MAX_REACH_M} m"
                    )));
                }
            }
            Command::Jog { from, delta, .. } => {
                finite(from, "from")?;
                finite(delta, "delta")?;
                let step = (delta.x.powi(2) + delta.y.powi(2) + delta.z.powi(2)).sqrt();
                if step > MAX_JOG_M {
                    return Err(CommandError::Invalid(format!(
                        "jog of {step:.3} m is more than the {MAX_JOG_M} m allowed per step"
                    )));
                }
            }
            Command::Pose { pose, .. } => {
                if pose != "home" && pose != "park" {
                    return Err(CommandError::Invalid(format!(
                        "pose `{pose}`: expected home or park"
                    )));
                }
            }
            Command::Gripper { .. }
            | Command::Camera { .. }
            | Command::Position { .. }
            | Command::Register { .. } => {}
        }
        Ok(())
    }
}

/// The answer to one command.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Reply {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: Option<u64>,
    pub ok: bool,
    pub message: String,
    /// What a query returns (a replayed position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl Reply {
    pub fn ok(id: Option<u64>, message: impl Into<String>) -> Reply {
        Reply {
            kind: "reply",
            id,
            ok: true,
            message: message.into(),
            data: None,
        }
    }
    pub fn err(id: Option<u64>, message: impl Into<String>) -> Reply {
        Reply {
            kind: "reply",
            id,
            ok: false,
            message: message.into(),
            data: None,
        }
    }
    /// A refused frame (id unknown): `type` is `error`.
    pub fn bad_message(message: impl Into<String>) -> Reply {
        Reply {
            kind: "error",
            id: None,
            ok: false,
            message: message.into(),
            data: None,
        }
    }
}

/// How the page's click reaches the world for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveRoute {
    /// `human`: the referee takes the move directly.
    Referee,
    /// `camera`: the person moves on the board; in simulation the simulated hand does it.
    Camera,
    /// An AI player is to move: not the page's turn.
    NotYours(String),
}

/// The route for a move by the player to move in `state`.
pub fn move_route(state: &GameState) -> MoveRoute {
    let idx = state.current_player - 1;
    let kind = usize::try_from(idx)
        .ok()
        .and_then(|i| state.player_kinds.get(i))
        .map(String::as_str)
        .unwrap_or("human");
    match kind.trim() {
        "human" | "" => MoveRoute::Referee,
        k if k == "camera" || k.starts_with("camera:") => MoveRoute::Camera,
        k => MoveRoute::NotYours(k.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_commands_parse() {
        assert_eq!(
            Command::parse(r#"{"cmd":"move","id":3,"move":"x1:sx(1)->cell(2,2)"}"#).unwrap(),
            Command::Move {
                id: Some(3),
                mv: "x1:sx(1)->cell(2,2)".into()
            }
        );
        assert!(matches!(
            Command::parse(r#"{"cmd":"pose","pose":"park"}"#).unwrap(),
            Command::Pose { .. }
        ));
        assert!(Command::parse(
            r#"{"cmd":"jog","from":{"x":0,"y":0.2,"z":0.1},"delta":{"x":0.01,"y":0,"z":0}}"#
        )
        .is_ok());
        assert!(Command::parse(r#"{"cmd":"new_game","game_file":"games/connect4.game","player_kinds":["human","ai:random"]}"#).is_ok());
        assert_eq!(
            Command::parse(r#"{"cmd":"register","id":7,"step":"record"}"#).unwrap(),
            Command::Register {
                id: Some(7),
                step: crate::registration::RegisterStep::Record
            }
        );
    }

    #[test]
    fn bad_commands_are_refused_with_a_reason() {
        for (text, needle) in [
            ("not json", "not a valid command"),
            ("{}", "not a valid command"),
            (r#"{"cmd":"fly"}"#, "not a valid command"),
            (r#"{"cmd":"move","move":"x1"}"#, "expected element:from->to"),
            (
                r#"{"cmd":"move","move":"a->b","extra":1}"#,
                "not a valid command",
            ),
            (r#"{"cmd":"pose","pose":"dance"}"#, "expected home or park"),
            (
                r#"{"cmd":"register","step":"fly"}"#,
                "unknown variant `fly`",
            ),
            (r#"{"cmd":"register"}"#, "missing field `step`"),
            (
                r#"{"cmd":"register","step":"save","board":"/etc/passwd"}"#,
                "unknown field `board`",
            ),
            (
                r#"{"cmd":"jog","from":{"x":0,"y":0,"z":0},"delta":{"x":1,"y":0,"z":0}}"#,
                "per step",
            ),
            (
                r#"{"cmd":"move_tool","target":{"x":5,"y":0,"z":0}}"#,
                "from the base",
            ),
            (
                r#"{"cmd":"new_game","game_file":"../../etc/passwd"}"#,
                "without `..`",
            ),
            (
                r#"{"cmd":"new_game","game_file":"/etc/passwd"}"#,
                "expected a .game file",
            ),
        ] {
            let e = Command::parse(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        let long = format!(r#"{{"cmd":"move","move":"{}"}}"#, "a".repeat(5000));
        assert!(matches!(
            Command::parse(&long),
            Err(CommandError::TooLong(_))
        ));
        // JSON numbers that overflow to infinity are refused too.
        assert!(Command::parse(r#"{"cmd":"move_tool","target":{"x":1e400,"y":0,"z":0}}"#).is_err());
    }

    #[test]
    fn phases_and_routes() {
        let mut s = GameState {
            player_kinds: vec!["human".into(), "ai:random".into()],
            current_player: 1,
            ..Default::default()
        };
        assert_eq!(phase_name(&s), "your-turn");
        assert_eq!(move_route(&s), MoveRoute::Referee);
        s.current_player = 2;
        s.phase = GameState::PHASE_PLANNING;
        assert_eq!(phase_name(&s), "thinking");
        assert_eq!(move_route(&s), MoveRoute::NotYours("ai:random".into()));
        s.player_kinds[1] = "camera".into();
        assert_eq!(move_route(&s), MoveRoute::Camera);
        s.phase = GameState::PHASE_EXECUTING;
        assert_eq!(phase_name(&s), "arm-moving");
        s.phase = GameState::PHASE_GAME_OVER;
        assert_eq!(phase_name(&s), "over");
        s.phase = GameState::PHASE_CONFIRMING;
        assert_eq!(phase_name(&s), "checking");
        s.phase = GameState::PHASE_WAITING_FOR_HELP;
        assert_eq!(phase_name(&s), "checking");
        assert!(StateView::of(&s).help);
        s.phase = 42;
        assert_eq!(phase_name(&s), "checking");
        assert!(!StateView::of(&s).help);
    }

    #[test]
    fn progress_views_are_json_safe() {
        let p = PlanProgress {
            ply: 3,
            iterations: 1200,
            value: f64::NAN,
            seconds: 0.5,
            nodes_per_second: f64::INFINITY,
            best_move: gamebot_interfaces::msg::Move {
                text: "x(1):sx(1)->cell(1,1)".into(),
                ..Default::default()
            },
            principal_variation: vec![
                "x(1):sx(1)->cell(1,1)".into(),
                "o(1):so(1)->cell(2,2)".into(),
            ],
            ..Default::default()
        };
        let v = serde_json::to_value(ProgressView::of(&p)).unwrap();
        assert_eq!(v["best_move"], "x(1):sx(1)->cell(1,1)");
        assert_eq!(v["iterations"], 1200);
        assert_eq!(v["value"], 0.0);
        assert_eq!(v["nodes_per_second"], 0.0);
        assert_eq!(v["pv"].as_array().unwrap().len(), 2);
    }
}
