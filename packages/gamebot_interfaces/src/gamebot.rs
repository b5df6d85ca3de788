//! gamebot's own interfaces: mirrors of `msg/`, `srv/` and `action/`.

use crate::{ros_message, TypeVisitor};

pub(crate) fn visit<V: TypeVisitor>(v: &mut V) {
    use action::*;
    use msg::*;
    use srv::*;
    v.message::<Move>();
    v.message::<LocationState>();
    v.message::<GameState>();
    v.message::<PhysicalAction>();
    v.message::<ObservedPiece>();
    v.message::<BoardObservation>();
    v.message::<GameEvent>();
    v.message::<PlanProgress>();
    v.message::<SubmitMoveRequest>();
    v.message::<SubmitMoveResponse>();
    v.service::<SubmitMove>();
    v.message::<NewGameRequest>();
    v.message::<NewGameResponse>();
    v.service::<NewGame>();
    v.message::<MoveToolRequest>();
    v.message::<MoveToolResponse>();
    v.service::<MoveTool>();
    v.message::<SetGripperRequest>();
    v.message::<SetGripperResponse>();
    v.service::<SetGripper>();
    v.message::<GoToPoseRequest>();
    v.message::<GoToPoseResponse>();
    v.service::<GoToPose>();
    v.message::<HumanMoveRequest>();
    v.message::<HumanMoveResponse>();
    v.service::<HumanMove>();
    v.message::<SimFaultRequest>();
    v.message::<SimFaultResponse>();
    v.service::<SimFault>();
    v.message::<PutBoardRightRequest>();
    v.message::<PutBoardRightResponse>();
    v.service::<PutBoardRight>();
    v.message::<PlanMoveGoal>();
    v.message::<PlanMoveResult>();
    v.message::<PlanMoveFeedback>();
    v.action::<PlanMove>();
    v.message::<ExecuteMoveGoal>();
    v.message::<ExecuteMoveResult>();
    v.message::<ExecuteMoveFeedback>();
    v.action::<ExecuteMove>();
}

/// Messages (`msg/*.msg`).
pub mod msg {
    use super::*;
    use crate::geometry_msgs::Point;
    use crate::std_msgs::Header;

    ros_message! {
        /// One move by names: `element` goes from `from_location` to `to_location`;
        /// `text` is the canonical `element:from->to`.
        "gamebot_interfaces/msg/Move" => pub struct Move {
            pub element: String,
            pub from_location: String,
            pub to_location: String,
            pub text: String,
        }
    }

    impl Move {
        /// Builds a move and its canonical text.
        pub fn new(element: &str, from: &str, to: &str) -> Move {
            Move {
                element: element.to_string(),
                from_location: from.to_string(),
                to_location: to.to_string(),
                text: format!("{element}:{from}->{to}"),
            }
        }

        /// Whether no move is set (all fields empty).
        pub fn is_empty(&self) -> bool {
            self.text.is_empty() && self.element.is_empty()
        }
    }

    ros_message! {
        /// What stands on one location (empty strings and zeros when nothing).
        "gamebot_interfaces/msg/LocationState" => pub struct LocationState {
            pub location: String,
            pub location_type: String,
            pub relevant: bool,
            pub element: String,
            pub element_type: String,
            pub element_state: i32,
            pub owner: i32,
        }
    }

    ros_message! {
        /// The referee's authoritative state (`/game/state`, transient-local).
        /// Rebuild the position by loading `game_file` and replaying `move_history`.
        "gamebot_interfaces/msg/GameState" => pub struct GameState {
            pub header: Header,
            pub game_name: String,
            pub game_file: String,
            pub game_number: u32,
            pub move_history: Vec<String>,
            pub players: Vec<String>,
            pub player_kinds: Vec<String>,
            pub current_player: i32,
            pub winner: i32,
            pub scores: Vec<i32>,
            pub board: Vec<LocationState>,
            pub legal_moves: Vec<String>,
            pub phase: u8,
            pub state_hash: u64,
        }
    }

    #[allow(missing_docs)]
    impl GameState {
        pub const PHASE_WAITING_FOR_HUMAN: u8 = 0;
        pub const PHASE_PLANNING: u8 = 1;
        pub const PHASE_EXECUTING: u8 = 2;
        pub const PHASE_GAME_OVER: u8 = 3;
        pub const PHASE_CONFIRMING: u8 = 4;
        pub const PHASE_WAITING_FOR_HELP: u8 = 5;
    }

    ros_message! {
        /// One arm action (transfer, flip, park) with the locations' arm
        /// coordinates in metres in `base_link`.
        "gamebot_interfaces/msg/PhysicalAction" => pub struct PhysicalAction {
            pub kind: u8,
            pub element: String,
            pub element_type: String,
            pub from_location: String,
            pub to_location: String,
            pub from_state: i32,
            pub to_state: i32,
            pub from_position: Point,
            pub to_position: Point,
            pub neighbours: Vec<Point>,
        }
    }

    #[allow(missing_docs)]
    impl PhysicalAction {
        pub const TRANSFER: u8 = 0;
        pub const FLIP: u8 = 1;
        pub const PARK: u8 = 2;
    }

    ros_message! {
        /// A detected blob matched to an element type.
        "gamebot_interfaces/msg/ObservedPiece" => pub struct ObservedPiece {
            pub location: String,
            pub element_type: String,
            pub element_state: i32,
            pub u: f32,
            pub v: f32,
            pub area: f32,
            pub confidence: f32,
            pub position: Point,
        }
    }

    ros_message! {
        /// The detector's view of the board (`/board/observation`).
        "gamebot_interfaces/msg/BoardObservation" => pub struct BoardObservation {
            pub header: Header,
            pub game_name: String,
            pub pieces: Vec<ObservedPiece>,
            pub unassigned: Vec<ObservedPiece>,
            pub stable: bool,
            pub occlusion: String,
        }
    }

    ros_message! {
        /// Something that happened (`/game/events`); see the kind constants.
        "gamebot_interfaces/msg/GameEvent" => pub struct GameEvent {
            pub header: Header,
            pub kind: u8,
            pub game_number: u32,
            pub ply: u32,
            pub player: i32,
            pub r#move: Move,
            pub actions: Vec<PhysicalAction>,
            pub winner: i32,
            pub message: String,
        }
    }

    #[allow(missing_docs)]
    impl GameEvent {
        pub const GAME_STARTED: u8 = 0;
        pub const MOVE_PLAYED: u8 = 1;
        pub const MOVE_REJECTED: u8 = 2;
        pub const GAME_OVER: u8 = 3;
        pub const ARM_STARTED: u8 = 4;
        pub const ARM_DONE: u8 = 5;
        pub const ARM_FAILED: u8 = 6;
        pub const OBSERVATION_MISMATCH: u8 = 7;
        pub const INFO: u8 = 8;
    }

    ros_message! {
        /// What the planner is thinking (`/planner/progress`): the search's
        /// statistics while a PlanMove goal runs, and once more at its end.
        "gamebot_interfaces/msg/PlanProgress" => pub struct PlanProgress {
            pub game_file: String,
            pub ply: u32,
            pub strategy: String,
            pub iterations: u64,
            pub nodes: u64,
            pub playouts: u64,
            pub depth: u32,
            pub value: f64,
            pub best_move: Move,
            pub principal_variation: Vec<String>,
            pub seconds: f64,
            pub nodes_per_second: f64,
            pub done: bool,
        }
    }
}

/// Services (`srv/*.srv`).
pub mod srv {
    use super::*;
    use crate::msg::Move;

    ros_message! {
        /// A human move as `element:from->to` for game `game_number` (0: current).
        "gamebot_interfaces/srv/SubmitMove_Request" => pub struct SubmitMoveRequest {
            pub r#move: String,
            pub game_number: u32,
        }
    }

    ros_message! {
        /// Whether the move was accepted, why not, and the move as understood.
        "gamebot_interfaces/srv/SubmitMove_Response" => pub struct SubmitMoveResponse {
            pub accepted: bool,
            pub reason: String,
            pub r#move: Move,
        }
    }

    /// `gamebot_interfaces/srv/SubmitMove`: a human player's move.
    pub struct SubmitMove;

    impl crate::RosService for SubmitMove {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/SubmitMove";
        type Request = SubmitMoveRequest;
        type Response = SubmitMoveResponse;
    }

    ros_message! {
        /// Start a new game (empty fields keep the current file / players).
        "gamebot_interfaces/srv/NewGame_Request" => pub struct NewGameRequest {
            pub game_file: String,
            pub player_kinds: Vec<String>,
        }
    }

    ros_message! {
        /// Outcome of NewGame and the new game's number.
        "gamebot_interfaces/srv/NewGame_Response" => pub struct NewGameResponse {
            pub success: bool,
            pub message: String,
            pub game_number: u32,
        }
    }

    /// `gamebot_interfaces/srv/NewGame`: restart, optionally with another game or players.
    pub struct NewGame;

    impl crate::RosService for NewGame {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/NewGame";
        type Request = NewGameRequest;
        type Response = NewGameResponse;
    }

    ros_message! {
        /// Move the tool centre point to `point` (base_link, m), gripper vertical.
        "gamebot_interfaces/srv/MoveTool_Request" => pub struct MoveToolRequest {
            pub point: crate::geometry_msgs::Point,
        }
    }

    ros_message! {
        /// Outcome of a tool move, with the joint positions sent.
        "gamebot_interfaces/srv/MoveTool_Response" => pub struct MoveToolResponse {
            pub success: bool,
            pub message: String,
            pub joint_names: Vec<String>,
            pub joint_positions: Vec<f64>,
        }
    }

    /// Manual control: move the tool to a point.
    pub struct MoveTool;

    impl crate::RosService for MoveTool {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/MoveTool";
        type Request = MoveToolRequest;
        type Response = MoveToolResponse;
    }

    ros_message! {
        /// Open (true) or close (false) the gripper.
        "gamebot_interfaces/srv/SetGripper_Request" => pub struct SetGripperRequest {
            pub open: bool,
        }
    }

    ros_message! {
        /// Outcome of a gripper command.
        "gamebot_interfaces/srv/SetGripper_Response" => pub struct SetGripperResponse {
            pub success: bool,
            pub message: String,
        }
    }

    /// Manual control: open or close the gripper.
    pub struct SetGripper;

    impl crate::RosService for SetGripper {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/SetGripper";
        type Request = SetGripperRequest;
        type Response = SetGripperResponse;
    }

    ros_message! {
        /// A move for the simulated person's hand.
        "gamebot_interfaces/srv/HumanMove_Request" => pub struct HumanMoveRequest {
            pub r#move: String,
            pub cover_seconds: f32,
            /// The ply the move is for (1-based); 0: not checked.
            pub ply: u32,
        }
    }

    ros_message! {
        /// Whether the simulated hand took the move.
        "gamebot_interfaces/srv/HumanMove_Response" => pub struct HumanMoveResponse {
            pub accepted: bool,
            pub message: String,
        }
    }

    /// The simulated person's hand makes a move in the world (`/sim/human_move`).
    pub struct HumanMove;

    impl crate::RosService for HumanMove {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/HumanMove";
        type Request = HumanMoveRequest;
        type Response = HumanMoveResponse;
    }

    ros_message! {
        /// Faults to inject into the simulated world.
        "gamebot_interfaces/srv/SimFault_Request" => pub struct SimFaultRequest {
            pub spec: String,
            pub serial_drop_s: f32,
            pub camera_dropout_s: f32,
        }
    }

    ros_message! {
        /// Whether the faults were taken.
        "gamebot_interfaces/srv/SimFault_Response" => pub struct SimFaultResponse {
            pub success: bool,
            pub message: String,
        }
    }

    /// Fault injection into the simulated world (`/sim/fault`).
    pub struct SimFault;

    impl crate::RosService for SimFault {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/SimFault";
        type Request = SimFaultRequest;
        type Response = SimFaultResponse;
    }

    ros_message! {
        /// The position the simulated person's hand is to make the world show.
        "gamebot_interfaces/srv/PutBoardRight_Request" => pub struct PutBoardRightRequest {
            pub r#move: String,
            /// The ply `move` is for (1-based); 0: not checked.
            pub ply: u32,
        }
    }

    ros_message! {
        /// What the hand did.
        "gamebot_interfaces/srv/PutBoardRight_Response" => pub struct PutBoardRightResponse {
            pub accepted: bool,
            pub message: String,
            pub actions: u32,
        }
    }

    /// The simulated person answers a call for help (`/sim/put_board_right`).
    pub struct PutBoardRight;

    impl crate::RosService for PutBoardRight {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/PutBoardRight";
        type Request = PutBoardRightRequest;
        type Response = PutBoardRightResponse;
    }

    ros_message! {
        /// Go to a named pose: "home" or "park".
        "gamebot_interfaces/srv/GoToPose_Request" => pub struct GoToPoseRequest {
            pub pose: String,
        }
    }

    ros_message! {
        /// Outcome of a named-pose move.
        "gamebot_interfaces/srv/GoToPose_Response" => pub struct GoToPoseResponse {
            pub success: bool,
            pub message: String,
        }
    }

    /// Manual control: go to the home or park pose.
    pub struct GoToPose;

    impl crate::RosService for GoToPose {
        const TYPE_NAME: &'static str = "gamebot_interfaces/srv/GoToPose";
        type Request = GoToPoseRequest;
        type Response = GoToPoseResponse;
    }
}

/// Actions (`action/*.action`).
pub mod action {
    use super::*;
    use crate::msg::{Move, PhysicalAction};

    ros_message! {
        /// Position (game file + history), strategy, time budget and seed.
        "gamebot_interfaces/action/PlanMove_Goal" => pub struct PlanMoveGoal {
            pub game_file: String,
            pub move_history: Vec<String>,
            pub strategy: String,
            pub time_budget_ms: u32,
            pub seed: u64,
        }
    }

    ros_message! {
        /// The chosen move and its value, or why planning failed.
        "gamebot_interfaces/action/PlanMove_Result" => pub struct PlanMoveResult {
            pub success: bool,
            pub message: String,
            pub r#move: Move,
            pub value: f64,
            pub iterations: u64,
        }
    }

    ros_message! {
        /// Search progress.
        "gamebot_interfaces/action/PlanMove_Feedback" => pub struct PlanMoveFeedback {
            pub iterations: u64,
            pub best_move: Move,
            pub value: f64,
            pub depth: u32,
        }
    }

    /// `gamebot_interfaces/action/PlanMove`: the planner's action.
    pub struct PlanMove;

    impl crate::RosAction for PlanMove {
        const TYPE_NAME: &'static str = "gamebot_interfaces/action/PlanMove";
        const FEEDBACK_MESSAGE_TYPE_NAME: &'static str =
            "gamebot_interfaces/action/PlanMove_FeedbackMessage";
        type Goal = PlanMoveGoal;
        type Result = PlanMoveResult;
        type Feedback = PlanMoveFeedback;
    }

    ros_message! {
        /// A move and the arm actions that carry it out.
        "gamebot_interfaces/action/ExecuteMove_Goal" => pub struct ExecuteMoveGoal {
            pub r#move: Move,
            pub actions: Vec<PhysicalAction>,
        }
    }

    ros_message! {
        /// Whether the arm completed the actions.
        "gamebot_interfaces/action/ExecuteMove_Result" => pub struct ExecuteMoveResult {
            pub success: bool,
            pub message: String,
            pub actions_done: u32,
        }
    }

    ros_message! {
        /// Which action and step the arm is at.
        "gamebot_interfaces/action/ExecuteMove_Feedback" => pub struct ExecuteMoveFeedback {
            pub action_index: u32,
            pub actions_total: u32,
            pub step: String,
        }
    }

    /// `gamebot_interfaces/action/ExecuteMove`: the arm controller's action.
    pub struct ExecuteMove;

    impl crate::RosAction for ExecuteMove {
        const TYPE_NAME: &'static str = "gamebot_interfaces/action/ExecuteMove";
        const FEEDBACK_MESSAGE_TYPE_NAME: &'static str =
            "gamebot_interfaces/action/ExecuteMove_FeedbackMessage";
        type Goal = ExecuteMoveGoal;
        type Result = ExecuteMoveResult;
        type Feedback = ExecuteMoveFeedback;
    }
}
