//! The names, types and QoS of the gamebot node graph, in one place so every
//! node (and docs/ARCHITECTURE.md) agrees. Names are absolute; launch-file
//! remaps still apply because nodes resolve them through [`crate::Bus`].

use crate::Qos;

/// `gamebot_interfaces/msg/GameState`, latched: late joiners get the position.
pub const GAME_STATE: &str = "/game/state";
/// QoS of [`GAME_STATE`].
pub const GAME_STATE_QOS: Qos = Qos::latched(1);

/// `gamebot_interfaces/msg/GameEvent`: moves, rejections, arm progress, game over.
pub const GAME_EVENTS: &str = "/game/events";
/// QoS of [`GAME_EVENTS`].
pub const GAME_EVENTS_QOS: Qos = Qos::reliable(100);

/// `gamebot_interfaces/msg/BoardObservation` from the detector.
pub const BOARD_OBSERVATION: &str = "/board/observation";
/// QoS of [`BOARD_OBSERVATION`].
pub const BOARD_OBSERVATION_QOS: Qos = Qos::reliable(5);

/// `sensor_msgs/msg/Image` from the camera (or the simulator).
pub const CAMERA_IMAGE: &str = "/camera/image_raw";
/// `sensor_msgs/msg/CameraInfo`.
pub const CAMERA_INFO: &str = "/camera/camera_info";
/// QoS of the camera topics (ROS sensor-data profile).
pub const CAMERA_QOS: Qos = Qos::sensor_data();

/// `visualization_msgs/msg/MarkerArray` for RViz.
pub const MARKERS: &str = "/visualization_marker_array";
/// QoS of [`MARKERS`].
pub const MARKERS_QOS: Qos = Qos::reliable(10);

/// `trajectory_msgs/msg/JointTrajectory` from the arm controller to the driver.
pub const ARM_TRAJECTORY: &str = "/arm/joint_trajectory";
/// QoS of [`ARM_TRAJECTORY`].
pub const ARM_TRAJECTORY_QOS: Qos = Qos::reliable(10);

/// `sensor_msgs/msg/JointState` from the driver.
pub const JOINT_STATES: &str = "/joint_states";
/// QoS of [`JOINT_STATES`] (what robot_state_publisher expects).
pub const JOINT_STATES_QOS: Qos = Qos::reliable(10);

/// `std_msgs/msg/String` holding the URDF, latched.
pub const ROBOT_DESCRIPTION: &str = "/robot_description";
/// QoS of [`ROBOT_DESCRIPTION`].
pub const ROBOT_DESCRIPTION_QOS: Qos = Qos::latched(1);

/// `tf2_msgs/msg/TFMessage`, dynamic transforms.
pub const TF: &str = "/tf";
/// QoS of [`TF`].
pub const TF_QOS: Qos = Qos::reliable(100);
/// `tf2_msgs/msg/TFMessage`, static transforms, latched.
pub const TF_STATIC: &str = "/tf_static";
/// QoS of [`TF_STATIC`].
pub const TF_STATIC_QOS: Qos = Qos::latched(1);

/// `gamebot_interfaces/srv/SubmitMove`: a human move, validated by the referee.
pub const SUBMIT_MOVE: &str = "/referee/submit_move";
/// `gamebot_interfaces/srv/NewGame`.
pub const NEW_GAME: &str = "/referee/new_game";

/// `gamebot_interfaces/action/PlanMove`, served by the planner.
pub const PLAN_MOVE: &str = "/planner/plan_move";
/// `gamebot_interfaces/action/ExecuteMove`, served by the arm controller.
pub const EXECUTE_MOVE: &str = "/arm/execute";
