//! The names, types and QoS of the gamebot node graph, in one place so every
//! node (and docs/ARCHITECTURE.md) agrees. Each topic is one typed value: a
//! [`Topic<T>`] carries its name, its message type and its QoS, so a node
//! cannot publish the wrong type on a name or forget the QoS that goes with
//! it. Services and actions likewise ([`Service<S>`], [`Action<A>`]). Names
//! are absolute; launch-file remaps still apply because nodes resolve them
//! through [`crate::Bus`].

use std::marker::PhantomData;

use gamebot_interfaces::action::{ExecuteMove, PlanMove};
use gamebot_interfaces::control_msgs::{FollowJointTrajectory, GripperCommandAction};
use gamebot_interfaces::diagnostic_msgs::DiagnosticArray;
use gamebot_interfaces::msg::{BoardObservation, GameEvent, GameState, PlanProgress};
use gamebot_interfaces::rcl_interfaces::Log;
use gamebot_interfaces::ros_gz_interfaces::SetEntityPose;
use gamebot_interfaces::rosgraph_msgs::Clock;
use gamebot_interfaces::sensor_msgs::{CameraInfo, Image, JointState};
use gamebot_interfaces::srv::{
    GoToPose, HumanMove, MoveTool, NewGame, PutBoardRight, SetGripper, SimFault, SubmitMove,
};
use gamebot_interfaces::std_msgs::String as StringMsg;
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_interfaces::trajectory_msgs::JointTrajectory;
use gamebot_interfaces::visualization_msgs::MarkerArray;

use crate::Qos;

/// A topic of the graph: name, message type `T` and QoS together.
pub struct Topic<T> {
    /// The absolute name, e.g. `/game/state`.
    pub name: &'static str,
    /// The QoS every endpoint of the topic uses.
    pub qos: Qos,
    _type: PhantomData<fn() -> T>,
}

impl<T> Topic<T> {
    /// A topic called `name` with `qos`.
    pub const fn new(name: &'static str, qos: Qos) -> Topic<T> {
        Topic {
            name,
            qos,
            _type: PhantomData,
        }
    }
}

impl<T> Clone for Topic<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Topic<T> {}

impl<T> std::fmt::Debug for Topic<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Topic({}, {:?})", self.name, self.qos)
    }
}

/// A service of the graph: name and service type `S`.
pub struct Service<S> {
    /// The absolute name, e.g. `/referee/submit_move`.
    pub name: &'static str,
    _type: PhantomData<fn() -> S>,
}

impl<S> Service<S> {
    /// A service called `name`.
    pub const fn new(name: &'static str) -> Service<S> {
        Service {
            name,
            _type: PhantomData,
        }
    }
}

impl<S> Clone for Service<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Service<S> {}

/// An action of the graph: name and action type `A`.
pub struct Action<A> {
    /// The absolute name, e.g. `/planner/plan_move`.
    pub name: &'static str,
    _type: PhantomData<fn() -> A>,
}

impl<A> Action<A> {
    /// An action called `name`.
    pub const fn new(name: &'static str) -> Action<A> {
        Action {
            name,
            _type: PhantomData,
        }
    }
}

impl<A> Clone for Action<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A> Copy for Action<A> {}

/// The position, latched: late joiners get it.
pub const GAME_STATE: Topic<GameState> = Topic::new("/game/state", Qos::latched(1));

/// Moves, rejections, arm progress, game over.
pub const GAME_EVENTS: Topic<GameEvent> = Topic::new("/game/events", Qos::reliable(100));

/// What the detector sees.
pub const BOARD_OBSERVATION: Topic<BoardObservation> =
    Topic::new("/board/observation", Qos::reliable(5));

/// Frames from the camera (or the simulator), ROS sensor-data profile.
pub const CAMERA_IMAGE: Topic<Image> = Topic::new("/camera/image_raw", Qos::sensor_data());
/// The camera's calibration, with every frame.
pub const CAMERA_INFO: Topic<CameraInfo> = Topic::new("/camera/camera_info", Qos::sensor_data());

/// Markers for RViz.
pub const MARKERS: Topic<MarkerArray> =
    Topic::new("/visualization_marker_array", Qos::reliable(10));

/// Joint trajectories (kept for tools that publish one directly).
pub const ARM_TRAJECTORY: Topic<JointTrajectory> =
    Topic::new("/arm/joint_trajectory", Qos::reliable(10));

/// The driver's joint states (what robot_state_publisher expects).
pub const JOINT_STATES: Topic<JointState> = Topic::new("/joint_states", Qos::reliable(10));

/// The URDF, latched.
pub const ROBOT_DESCRIPTION: Topic<StringMsg> = Topic::new("/robot_description", Qos::latched(1));

/// Dynamic transforms.
pub const TF: Topic<TFMessage> = Topic::new("/tf", Qos::reliable(100));
/// Static transforms, latched.
pub const TF_STATIC: Topic<TFMessage> = Topic::new("/tf_static", Qos::latched(1));

/// Every node's log records.
pub const ROSOUT: Topic<Log> = Topic::new("/rosout", Qos::rosout());

/// A human move, validated by the referee.
pub const SUBMIT_MOVE: Service<SubmitMove> = Service::new("/referee/submit_move");
/// Start a new game.
pub const NEW_GAME: Service<NewGame> = Service::new("/referee/new_game");

/// Plan a move, served by the planner.
pub const PLAN_MOVE: Action<PlanMove> = Action::new("/planner/plan_move");
/// Execute a move's physical actions, served by the arm controller.
pub const EXECUTE_MOVE: Action<ExecuteMove> = Action::new("/arm/execute");

/// The arm driver's joint trajectories (`ssc32_bridge`, or the stock
/// `joint_trajectory_controller` under ros2_control).
pub const FOLLOW_JOINT_TRAJECTORY: Action<FollowJointTrajectory> =
    Action::new("/joint_trajectory_controller/follow_joint_trajectory");
/// The gripper (`ssc32_bridge`, or the stock gripper controller).
pub const GRIPPER_COMMAND: Action<GripperCommandAction> =
    Action::new("/gripper_controller/gripper_cmd");

/// Hardware status (the bridge: port, firmware, state, last fault).
pub const DIAGNOSTICS: Topic<DiagnosticArray> = Topic::new("/diagnostics", Qos::reliable(10));
/// Simulated time; publishers are best-effort as in ROS 2, subscribers accept it.
pub const CLOCK: Topic<Clock> = Topic::new("/clock", Qos::sensor_data());

/// Manual control: tool centre point to a point, gripper vertical.
pub const ARM_MOVE_TOOL: Service<MoveTool> = Service::new("/arm/move_tool");
/// Manual control: open or close the gripper.
pub const ARM_SET_GRIPPER: Service<SetGripper> = Service::new("/arm/set_gripper");
/// Manual control: the home or park pose.
pub const ARM_GO_TO_POSE: Service<GoToPose> = Service::new("/arm/go_to_pose");

/// Simulation: the simulated person's hand makes a move in the world (sim_world).
pub const SIM_HUMAN_MOVE: Service<HumanMove> = Service::new("/sim/human_move");
/// Simulation: the pieces as they really lie in the simulated world (sim_world → RViz).
pub const SIM_MARKERS: Topic<MarkerArray> = Topic::new("/sim/markers", Qos::reliable(10));
/// Simulation: inject faults into the world (sim_world).
pub const SIM_FAULT: Service<SimFault> = Service::new("/sim/fault");
/// Simulation: the simulated person answers the referee's call for help by
/// putting the pieces right (sim_world).
pub const SIM_PUT_BOARD_RIGHT: Service<PutBoardRight> = Service::new("/sim/put_board_right");

/// Gazebo: every entity's pose in the world `gamebot` (gz-sim's
/// SceneBroadcaster, `gz.msgs.Pose_V`, bridged by ros_gz_bridge; a model's
/// pose has `child_frame_id` = the model name). `gazebo_hand` subscribes to
/// `/world/<world>/pose/info` for its `world` parameter; this is the name
/// for the world `gamebot gazebo world` writes. Best-effort, so it matches
/// the bridge's publisher whatever its reliability.
pub const GZ_POSE_INFO: Topic<TFMessage> =
    Topic::new("/world/gamebot/pose/info", Qos::sensor_data());
/// Gazebo: put a model at a pose (gz-sim's UserCommands system, bridged by
/// ros_gz_bridge) — `gazebo_hand` moves the pieces with it
/// (`/world/<world>/set_pose`; this is the name for the world `gamebot`).
pub const GZ_SET_POSE: Service<SetEntityPose> = Service::new("/world/gamebot/set_pose");

/// The detector's camera frames with what it found drawn on them (throttled; web UI, RViz).
pub const DETECTOR_IMAGE_ANNOTATED: Topic<Image> =
    Topic::new("/detector/image_annotated", Qos::sensor_data());

/// What the planner is thinking while a PlanMove goal runs, and once more when
/// the search ends (the web UI's robot panel). The action's own feedback goes
/// only to the client that sent the goal; this topic is for everyone else.
pub const PLAN_PROGRESS: Topic<PlanProgress> = Topic::new("/planner/progress", Qos::reliable(10));
