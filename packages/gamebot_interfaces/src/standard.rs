//! The standard ROS 2 (Jazzy) messages the gamebot graph uses. Definitions
//! transcribed field by field in `testdata/ros/`.

use crate::{ros_message, TypeVisitor};

pub(crate) fn visit<V: TypeVisitor>(v: &mut V) {
    use action_msgs::*;
    use builtin_interfaces::*;
    use geometry_msgs::*;
    use sensor_msgs::*;
    use std_msgs::*;
    use trajectory_msgs::*;
    use visualization_msgs::*;
    v.message::<Time>();
    v.message::<Duration>();
    v.message::<Header>();
    v.message::<std_msgs::String>();
    v.message::<ColorRGBA>();
    v.message::<Point>();
    v.message::<Vector3>();
    v.message::<Quaternion>();
    v.message::<Pose>();
    v.message::<Transform>();
    v.message::<TransformStamped>();
    v.message::<Image>();
    v.message::<CompressedImage>();
    v.message::<RegionOfInterest>();
    v.message::<CameraInfo>();
    v.message::<JointState>();
    v.message::<JointTrajectory>();
    v.message::<JointTrajectoryPoint>();
    v.message::<Twist>();
    v.message::<MultiDOFJointTrajectory>();
    v.message::<MultiDOFJointTrajectoryPoint>();
    v.message::<control_msgs::JointTolerance>();
    v.message::<control_msgs::JointComponentTolerance>();
    v.message::<control_msgs::GripperCommand>();
    v.message::<control_msgs::FollowJointTrajectoryGoal>();
    v.message::<control_msgs::FollowJointTrajectoryResult>();
    v.message::<control_msgs::FollowJointTrajectoryFeedback>();
    v.action::<control_msgs::FollowJointTrajectory>();
    v.message::<control_msgs::GripperCommandGoal>();
    v.message::<control_msgs::GripperCommandResult>();
    v.message::<control_msgs::GripperCommandFeedback>();
    v.action::<control_msgs::GripperCommandAction>();
    v.message::<diagnostic_msgs::KeyValue>();
    v.message::<diagnostic_msgs::DiagnosticStatus>();
    v.message::<diagnostic_msgs::DiagnosticArray>();
    v.message::<rosgraph_msgs::Clock>();
    v.message::<tf2_msgs::TFMessage>();
    v.message::<UVCoordinate>();
    v.message::<MeshFile>();
    v.message::<Marker>();
    v.message::<MarkerArray>();
    v.message::<unique_identifier_msgs::UUID>();
    v.message::<GoalInfo>();
    v.message::<GoalStatus>();
    v.message::<GoalStatusArray>();
    v.message::<CancelGoalRequest>();
    v.message::<CancelGoalResponse>();
    v.service::<CancelGoal>();
    v.message::<rcl_interfaces::Log>();
    v.message::<ros_gz_interfaces::Entity>();
    v.message::<ros_gz_interfaces::SetEntityPoseRequest>();
    v.message::<ros_gz_interfaces::SetEntityPoseResponse>();
    v.service::<ros_gz_interfaces::SetEntityPose>();
}

/// `builtin_interfaces`: time stamps and durations.
pub mod builtin_interfaces {
    use super::*;

    ros_message! {
        /// A point in time: seconds and nanoseconds since the Unix epoch (or
        /// since the start of simulated time).
        "builtin_interfaces/msg/Time" => pub struct Time {
            pub sec: i32,
            pub nanosec: u32,
        }
    }

    ros_message! {
        /// A signed span of time; `nanosec` is always the non-negative remainder.
        "builtin_interfaces/msg/Duration" => pub struct Duration {
            pub sec: i32,
            pub nanosec: u32,
        }
    }

    impl Time {
        /// The current wall-clock time.
        pub fn now() -> Time {
            let d = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            Time::from_nanos(d.as_nanos() as i64)
        }

        /// From nanoseconds since the epoch (saturating at the `i32` second range).
        pub fn from_nanos(nanos: i64) -> Time {
            let sec = nanos.div_euclid(1_000_000_000);
            let nanosec = nanos.rem_euclid(1_000_000_000) as u32;
            Time {
                sec: sec.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                nanosec,
            }
        }

        /// Nanoseconds since the epoch.
        pub fn as_nanos(&self) -> i64 {
            self.sec as i64 * 1_000_000_000 + self.nanosec as i64
        }
    }

    impl Duration {
        /// From a std duration (saturating at `i32::MAX` seconds).
        pub fn from_std(d: std::time::Duration) -> Duration {
            Duration {
                sec: d.as_secs().min(i32::MAX as u64) as i32,
                nanosec: d.subsec_nanos(),
            }
        }

        /// To a std duration; negative durations become zero.
        pub fn to_std(&self) -> std::time::Duration {
            if self.sec < 0 {
                std::time::Duration::ZERO
            } else {
                std::time::Duration::new(self.sec as u64, self.nanosec)
            }
        }
    }
}

/// `std_msgs`: header, string, empty, colour.
pub mod std_msgs {
    use super::*;
    use crate::builtin_interfaces::Time;

    ros_message! {
        /// Time stamp and coordinate frame of a message's data.
        "std_msgs/msg/Header" => pub struct Header {
            pub stamp: Time,
            pub frame_id: std::string::String,
        }
    }

    ros_message! {
        /// A single string.
        "std_msgs/msg/String" => pub struct String {
            pub data: std::string::String,
        }
    }

    ros_message! {
        /// No data (a signal). ROS 2's generated type of an empty message
        /// carries one placeholder byte, which is what goes on the wire.
        "std_msgs/msg/Empty" => pub struct Empty {
            pub structure_needs_at_least_one_member: u8,
        }
    }

    ros_message! {
        /// A colour with alpha, each channel 0..1.
        "std_msgs/msg/ColorRGBA" => pub struct ColorRGBA {
            pub r: f32,
            pub g: f32,
            pub b: f32,
            pub a: f32,
        }
    }

    impl Header {
        /// A header stamped now in `frame_id`.
        pub fn now(frame_id: &str) -> Header {
            Header {
                stamp: Time::now(),
                frame_id: frame_id.to_string(),
            }
        }
    }
}

/// `geometry_msgs`: points, vectors, rotations, poses, transforms.
pub mod geometry_msgs {
    use super::*;
    use crate::std_msgs::Header;

    ros_message! {
        /// A position in space (metres).
        "geometry_msgs/msg/Point" => pub struct Point {
            pub x: f64,
            pub y: f64,
            pub z: f64,
        }
    }

    ros_message! {
        /// A free vector.
        "geometry_msgs/msg/Vector3" => pub struct Vector3 {
            pub x: f64,
            pub y: f64,
            pub z: f64,
        }
    }

    /// A rotation as a unit quaternion; the default is the identity (w = 1),
    /// as in the definition's default values.
    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(rename = "geometry_msgs/msg/Quaternion")]
    pub struct Quaternion {
        pub x: f64,
        pub y: f64,
        pub z: f64,
        pub w: f64,
    }

    impl Default for Quaternion {
        fn default() -> Self {
            Quaternion {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            }
        }
    }

    impl crate::RosMessage for Quaternion {
        const TYPE_NAME: &'static str = "geometry_msgs/msg/Quaternion";
    }

    ros_message! {
        /// Position and orientation.
        "geometry_msgs/msg/Pose" => pub struct Pose {
            pub position: Point,
            pub orientation: Quaternion,
        }
    }

    ros_message! {
        /// A rigid transform: translation then rotation.
        "geometry_msgs/msg/Transform" => pub struct Transform {
            pub translation: Vector3,
            pub rotation: Quaternion,
        }
    }

    ros_message! {
        /// Linear and angular velocity.
        "geometry_msgs/msg/Twist" => pub struct Twist {
            pub linear: Vector3,
            pub angular: Vector3,
        }
    }

    ros_message! {
        /// The transform from `header.frame_id` to `child_frame_id`.
        "geometry_msgs/msg/TransformStamped" => pub struct TransformStamped {
            pub header: Header,
            pub child_frame_id: String,
            pub transform: Transform,
        }
    }
}

/// `sensor_msgs`: camera images and joint states.
pub mod sensor_msgs {
    use super::*;
    use crate::std_msgs::Header;

    ros_message! {
        /// An uncompressed image; `data` holds `height` rows of `step` bytes.
        "sensor_msgs/msg/Image" => pub struct Image {
            pub header: Header,
            pub height: u32,
            pub width: u32,
            pub encoding: String,
            pub is_bigendian: u8,
            pub step: u32,
            #[serde(with = "serde_bytes")]
            pub data: Vec<u8>,
        }
    }

    ros_message! {
        /// An image compressed as `format` (e.g. "png", "jpeg").
        "sensor_msgs/msg/CompressedImage" => pub struct CompressedImage {
            pub header: Header,
            pub format: String,
            #[serde(with = "serde_bytes")]
            pub data: Vec<u8>,
        }
    }

    ros_message! {
        /// A sub-window of an image.
        "sensor_msgs/msg/RegionOfInterest" => pub struct RegionOfInterest {
            pub x_offset: u32,
            pub y_offset: u32,
            pub height: u32,
            pub width: u32,
            pub do_rectify: bool,
        }
    }

    ros_message! {
        /// Camera calibration: intrinsics `k`, rectification `r`, projection
        /// `p` (row-major) and distortion `d` of `distortion_model`.
        "sensor_msgs/msg/CameraInfo" => pub struct CameraInfo {
            pub header: Header,
            pub height: u32,
            pub width: u32,
            pub distortion_model: String,
            pub d: Vec<f64>,
            pub k: [f64; 9],
            pub r: [f64; 9],
            pub p: [f64; 12],
            pub binning_x: u32,
            pub binning_y: u32,
            pub roi: RegionOfInterest,
        }
    }

    ros_message! {
        /// Joint positions (rad or m), velocities and efforts by joint name.
        "sensor_msgs/msg/JointState" => pub struct JointState {
            pub header: Header,
            pub name: Vec<String>,
            pub position: Vec<f64>,
            pub velocity: Vec<f64>,
            pub effort: Vec<f64>,
        }
    }
}

/// `trajectory_msgs`: joint trajectories for the arm.
pub mod trajectory_msgs {
    use super::*;
    use crate::builtin_interfaces::Duration;
    pub use crate::standard::trajectory_msgs_multi_dof::{
        MultiDOFJointTrajectory, MultiDOFJointTrajectoryPoint,
    };
    use crate::std_msgs::Header;

    ros_message! {
        /// A timed sequence of joint-space waypoints.
        "trajectory_msgs/msg/JointTrajectory" => pub struct JointTrajectory {
            pub header: Header,
            pub joint_names: Vec<String>,
            pub points: Vec<JointTrajectoryPoint>,
        }
    }

    ros_message! {
        /// One waypoint, reached `time_from_start` after the trajectory starts.
        "trajectory_msgs/msg/JointTrajectoryPoint" => pub struct JointTrajectoryPoint {
            pub positions: Vec<f64>,
            pub velocities: Vec<f64>,
            pub accelerations: Vec<f64>,
            pub effort: Vec<f64>,
            pub time_from_start: Duration,
        }
    }
}

/// `trajectory_msgs` for multi-DOF joints (part of `FollowJointTrajectory`).
mod trajectory_msgs_multi_dof {
    use super::*;
    use crate::builtin_interfaces::Duration;
    use crate::geometry_msgs::{Transform, Twist};
    use crate::std_msgs::Header;

    ros_message! {
        /// A timed sequence of waypoints for multi-DOF joints (planar, floating).
        "trajectory_msgs/msg/MultiDOFJointTrajectory" => pub struct MultiDOFJointTrajectory {
            pub header: Header,
            pub joint_names: Vec<String>,
            pub points: Vec<MultiDOFJointTrajectoryPoint>,
        }
    }

    ros_message! {
        /// One multi-DOF waypoint: a transform (and twists) per joint.
        "trajectory_msgs/msg/MultiDOFJointTrajectoryPoint" => pub struct MultiDOFJointTrajectoryPoint {
            pub transforms: Vec<Transform>,
            pub velocities: Vec<Twist>,
            pub accelerations: Vec<Twist>,
            pub time_from_start: Duration,
        }
    }
}

/// `control_msgs`: the two actions of a ros2_control arm (joint trajectory
/// controller and gripper controller).
pub mod control_msgs {
    use super::*;
    use crate::builtin_interfaces::Duration;
    use crate::std_msgs::Header;
    use crate::trajectory_msgs::{
        JointTrajectory, JointTrajectoryPoint, MultiDOFJointTrajectory,
        MultiDOFJointTrajectoryPoint,
    };

    ros_message! {
        /// Tolerance of one joint (0 = the controller's default, negative = none).
        /// The Jazzy-era four-field form (no `effort`).
        "control_msgs/msg/JointTolerance" => pub struct JointTolerance {
            pub name: String,
            pub position: f64,
            pub velocity: f64,
            pub acceleration: f64,
        }
    }

    ros_message! {
        /// Tolerance of one component of a multi-DOF joint; see the axis constants.
        "control_msgs/msg/JointComponentTolerance" => pub struct JointComponentTolerance {
            pub joint_name: String,
            pub component: u16,
            pub position: f64,
            pub velocity: f64,
            pub acceleration: f64,
        }
    }

    #[allow(missing_docs)]
    impl JointComponentTolerance {
        pub const X_AXIS: u16 = 1;
        pub const Y_AXIS: u16 = 2;
        pub const Z_AXIS: u16 = 3;
        pub const TRANSLATION: u16 = 4;
        pub const ROTATION: u16 = 5;
    }

    ros_message! {
        /// Gripper target: `position` (gap, m; for gamebot the finger joint value)
        /// and the effort limit (N; ignored by hobby servos).
        "control_msgs/msg/GripperCommand" => pub struct GripperCommand {
            pub position: f64,
            pub max_effort: f64,
        }
    }

    ros_message! {
        /// Goal of `FollowJointTrajectory`.
        "control_msgs/action/FollowJointTrajectory_Goal" => pub struct FollowJointTrajectoryGoal {
            pub trajectory: JointTrajectory,
            pub multi_dof_trajectory: MultiDOFJointTrajectory,
            pub path_tolerance: Vec<JointTolerance>,
            pub component_path_tolerance: Vec<JointComponentTolerance>,
            pub goal_tolerance: Vec<JointTolerance>,
            pub component_goal_tolerance: Vec<JointComponentTolerance>,
            pub goal_time_tolerance: Duration,
        }
    }

    ros_message! {
        /// Result of `FollowJointTrajectory`: an error code (constants) and its text.
        "control_msgs/action/FollowJointTrajectory_Result" => pub struct FollowJointTrajectoryResult {
            pub error_code: i32,
            pub error_string: String,
        }
    }

    #[allow(missing_docs)]
    impl FollowJointTrajectoryResult {
        pub const SUCCESSFUL: i32 = 0;
        pub const INVALID_GOAL: i32 = -1;
        pub const INVALID_JOINTS: i32 = -2;
        pub const OLD_HEADER_TIMESTAMP: i32 = -3;
        pub const PATH_TOLERANCE_VIOLATED: i32 = -4;
        pub const GOAL_TOLERANCE_VIOLATED: i32 = -5;
    }

    ros_message! {
        /// Feedback of `FollowJointTrajectory`: desired, actual and error per joint.
        "control_msgs/action/FollowJointTrajectory_Feedback" => pub struct FollowJointTrajectoryFeedback {
            pub header: Header,
            pub joint_names: Vec<String>,
            pub desired: JointTrajectoryPoint,
            pub actual: JointTrajectoryPoint,
            pub error: JointTrajectoryPoint,
            pub multi_dof_joint_names: Vec<String>,
            pub multi_dof_desired: MultiDOFJointTrajectoryPoint,
            pub multi_dof_actual: MultiDOFJointTrajectoryPoint,
            pub multi_dof_error: MultiDOFJointTrajectoryPoint,
        }
    }

    /// `control_msgs/action/FollowJointTrajectory`.
    pub struct FollowJointTrajectory;

    impl crate::RosAction for FollowJointTrajectory {
        const TYPE_NAME: &'static str = "control_msgs/action/FollowJointTrajectory";
        const FEEDBACK_MESSAGE_TYPE_NAME: &'static str =
            "control_msgs/action/FollowJointTrajectory_FeedbackMessage";
        type Goal = FollowJointTrajectoryGoal;
        type Result = FollowJointTrajectoryResult;
        type Feedback = FollowJointTrajectoryFeedback;
    }

    ros_message! {
        /// Goal of the `GripperCommand` action.
        "control_msgs/action/GripperCommand_Goal" => pub struct GripperCommandGoal {
            pub command: GripperCommand,
        }
    }

    ros_message! {
        /// Result of the `GripperCommand` action.
        "control_msgs/action/GripperCommand_Result" => pub struct GripperCommandResult {
            pub position: f64,
            pub effort: f64,
            pub stalled: bool,
            pub reached_goal: bool,
        }
    }

    ros_message! {
        /// Feedback of the `GripperCommand` action.
        "control_msgs/action/GripperCommand_Feedback" => pub struct GripperCommandFeedback {
            pub position: f64,
            pub effort: f64,
            pub stalled: bool,
            pub reached_goal: bool,
        }
    }

    /// `control_msgs/action/GripperCommand` (named `...Action` here because the
    /// message `GripperCommand` has the same name).
    pub struct GripperCommandAction;

    impl crate::RosAction for GripperCommandAction {
        const TYPE_NAME: &'static str = "control_msgs/action/GripperCommand";
        const FEEDBACK_MESSAGE_TYPE_NAME: &'static str =
            "control_msgs/action/GripperCommand_FeedbackMessage";
        type Goal = GripperCommandGoal;
        type Result = GripperCommandResult;
        type Feedback = GripperCommandFeedback;
    }
}

/// `diagnostic_msgs`: hardware status for `/diagnostics`.
pub mod diagnostic_msgs {
    use super::*;
    use crate::std_msgs::Header;

    ros_message! {
        /// One key and its value.
        "diagnostic_msgs/msg/KeyValue" => pub struct KeyValue {
            pub key: String,
            pub value: String,
        }
    }

    ros_message! {
        /// The status of one piece of hardware; `level` is one of the constants.
        "diagnostic_msgs/msg/DiagnosticStatus" => pub struct DiagnosticStatus {
            pub level: u8,
            pub name: String,
            pub message: String,
            pub hardware_id: String,
            pub values: Vec<KeyValue>,
        }
    }

    #[allow(missing_docs)]
    impl DiagnosticStatus {
        pub const OK: u8 = 0;
        pub const WARN: u8 = 1;
        pub const ERROR: u8 = 2;
        pub const STALE: u8 = 3;
    }

    ros_message! {
        /// Statuses published together on `/diagnostics`.
        "diagnostic_msgs/msg/DiagnosticArray" => pub struct DiagnosticArray {
            pub header: Header,
            pub status: Vec<DiagnosticStatus>,
        }
    }
}

/// `rosgraph_msgs`: simulated time.
pub mod rosgraph_msgs {
    use super::*;
    use crate::builtin_interfaces::Time;

    ros_message! {
        /// The current simulation time, on `/clock`.
        "rosgraph_msgs/msg/Clock" => pub struct Clock {
            pub clock: Time,
        }
    }
}

/// `tf2_msgs`: the `/tf` message.
pub mod tf2_msgs {
    use super::*;
    use crate::geometry_msgs::TransformStamped;

    ros_message! {
        /// A batch of transforms, as published on `/tf` and `/tf_static`.
        "tf2_msgs/msg/TFMessage" => pub struct TFMessage {
            pub transforms: Vec<TransformStamped>,
        }
    }
}

/// `visualization_msgs`: RViz markers.
pub mod visualization_msgs {
    use super::*;
    use crate::builtin_interfaces::Duration;
    use crate::geometry_msgs::{Point, Pose, Vector3};
    use crate::sensor_msgs::CompressedImage;
    use crate::std_msgs::{ColorRGBA, Header};

    ros_message! {
        /// A texture coordinate.
        "visualization_msgs/msg/UVCoordinate" => pub struct UVCoordinate {
            pub u: f32,
            pub v: f32,
        }
    }

    ros_message! {
        /// A mesh carried inside the marker.
        "visualization_msgs/msg/MeshFile" => pub struct MeshFile {
            pub filename: String,
            #[serde(with = "serde_bytes")]
            pub data: Vec<u8>,
        }
    }

    ros_message! {
        /// A shape for RViz to draw; see the `Marker` constants for `type` and `action`.
        "visualization_msgs/msg/Marker" => pub struct Marker {
            pub header: Header,
            pub ns: String,
            pub id: i32,
            pub r#type: i32,
            pub action: i32,
            pub pose: Pose,
            pub scale: Vector3,
            pub color: ColorRGBA,
            pub lifetime: Duration,
            pub frame_locked: bool,
            pub points: Vec<Point>,
            pub colors: Vec<ColorRGBA>,
            pub texture_resource: String,
            pub texture: CompressedImage,
            pub uv_coordinates: Vec<UVCoordinate>,
            pub text: String,
            pub mesh_resource: String,
            pub mesh_file: MeshFile,
            pub mesh_use_embedded_materials: bool,
        }
    }

    #[allow(missing_docs)]
    impl Marker {
        pub const ARROW: i32 = 0;
        pub const CUBE: i32 = 1;
        pub const SPHERE: i32 = 2;
        pub const CYLINDER: i32 = 3;
        pub const LINE_STRIP: i32 = 4;
        pub const LINE_LIST: i32 = 5;
        pub const CUBE_LIST: i32 = 6;
        pub const SPHERE_LIST: i32 = 7;
        pub const POINTS: i32 = 8;
        pub const TEXT_VIEW_FACING: i32 = 9;
        pub const MESH_RESOURCE: i32 = 10;
        pub const TRIANGLE_LIST: i32 = 11;
        pub const ARROW_STRIP: i32 = 12;
        pub const ADD: i32 = 0;
        pub const MODIFY: i32 = 0;
        pub const DELETE: i32 = 2;
        pub const DELETEALL: i32 = 3;
    }

    ros_message! {
        /// Several markers at once (`/visualization_marker_array`).
        "visualization_msgs/msg/MarkerArray" => pub struct MarkerArray {
            pub markers: Vec<Marker>,
        }
    }
}

/// `unique_identifier_msgs`: the UUID that names action goals.
pub mod unique_identifier_msgs {
    use super::*;

    ros_message! {
        /// A 128-bit universally unique identifier.
        "unique_identifier_msgs/msg/UUID" => pub struct UUID {
            pub uuid: [u8; 16],
        }
    }
}

/// `action_msgs`: goal bookkeeping shared by every action.
pub mod action_msgs {
    use super::*;
    use crate::builtin_interfaces::Time;
    use crate::unique_identifier_msgs::UUID;

    ros_message! {
        /// A goal's id and the time it was accepted.
        "action_msgs/msg/GoalInfo" => pub struct GoalInfo {
            pub goal_id: UUID,
            pub stamp: Time,
        }
    }

    ros_message! {
        /// A goal's state; see the `STATUS_*` constants.
        "action_msgs/msg/GoalStatus" => pub struct GoalStatus {
            pub goal_info: GoalInfo,
            pub status: i8,
        }
    }

    #[allow(missing_docs)]
    impl GoalStatus {
        pub const STATUS_UNKNOWN: i8 = 0;
        pub const STATUS_ACCEPTED: i8 = 1;
        pub const STATUS_EXECUTING: i8 = 2;
        pub const STATUS_CANCELING: i8 = 3;
        pub const STATUS_SUCCEEDED: i8 = 4;
        pub const STATUS_CANCELED: i8 = 5;
        pub const STATUS_ABORTED: i8 = 6;
    }

    ros_message! {
        /// Every goal an action server knows, on `<action>/_action/status`.
        "action_msgs/msg/GoalStatusArray" => pub struct GoalStatusArray {
            pub status_list: Vec<GoalStatus>,
        }
    }

    ros_message! {
        /// Cancel the goal with this id and/or every goal accepted before this stamp
        /// (zero id and zero stamp: all goals).
        "action_msgs/srv/CancelGoal_Request" => pub struct CancelGoalRequest {
            pub goal_info: GoalInfo,
        }
    }

    ros_message! {
        /// Outcome of a cancel request; see the `ERROR_*` constants.
        "action_msgs/srv/CancelGoal_Response" => pub struct CancelGoalResponse {
            pub return_code: i8,
            pub goals_canceling: Vec<GoalInfo>,
        }
    }

    #[allow(missing_docs)]
    impl CancelGoalResponse {
        pub const ERROR_NONE: i8 = 0;
        pub const ERROR_REJECTED: i8 = 1;
        pub const ERROR_UNKNOWN_GOAL_ID: i8 = 2;
        pub const ERROR_GOAL_TERMINATED: i8 = 3;
    }

    /// The cancel service every action server offers.
    pub struct CancelGoal;

    impl crate::RosService for CancelGoal {
        const TYPE_NAME: &'static str = "action_msgs/srv/CancelGoal";
        type Request = CancelGoalRequest;
        type Response = CancelGoalResponse;
    }
}

/// `rcl_interfaces`: the `/rosout` log record.
pub mod rcl_interfaces {
    use super::*;
    use crate::builtin_interfaces::Time;

    ros_message! {
        /// One log record as published on `/rosout`; `level` is one of the constants.
        "rcl_interfaces/msg/Log" => pub struct Log {
            pub stamp: Time,
            pub level: u8,
            pub name: String,
            pub msg: String,
            pub file: String,
            pub function: String,
            pub line: u32,
        }
    }

    #[allow(missing_docs)]
    impl Log {
        pub const DEBUG: u8 = 10;
        pub const INFO: u8 = 20;
        pub const WARN: u8 = 30;
        pub const ERROR: u8 = 40;
        pub const FATAL: u8 = 50;
    }
}

/// `ros_gz_interfaces`: the Gazebo entity services that ros_gz_bridge
/// bridges (only what `gazebo_hand` uses: moving a model).
pub mod ros_gz_interfaces {
    use super::*;
    use crate::geometry_msgs::Pose;

    ros_message! {
        /// A Gazebo entity, by id or by name and type; see the type constants.
        "ros_gz_interfaces/msg/Entity" => pub struct Entity {
            pub id: u64,
            pub name: String,
            pub r#type: u8,
        }
    }

    #[allow(missing_docs)]
    impl Entity {
        pub const NONE: u8 = 0;
        pub const LIGHT: u8 = 1;
        pub const MODEL: u8 = 2;
        pub const LINK: u8 = 3;
        pub const VISUAL: u8 = 4;
        pub const COLLISION: u8 = 5;
        pub const SENSOR: u8 = 6;
        pub const JOINT: u8 = 7;
    }

    ros_message! {
        /// Put an entity at a pose (relative to its parent; the world for a model).
        "ros_gz_interfaces/srv/SetEntityPose_Request" => pub struct SetEntityPoseRequest {
            pub entity: Entity,
            pub pose: Pose,
        }
    }

    ros_message! {
        /// Whether Gazebo took the request.
        "ros_gz_interfaces/srv/SetEntityPose_Response" => pub struct SetEntityPoseResponse {
            pub success: bool,
        }
    }

    /// Gazebo's set-pose service of a world (`/world/<world>/set_pose`,
    /// served by gz-sim's UserCommands system and bridged by ros_gz_bridge).
    pub struct SetEntityPose;

    impl crate::RosService for SetEntityPose {
        const TYPE_NAME: &'static str = "ros_gz_interfaces/srv/SetEntityPose";
        type Request = SetEntityPoseRequest;
        type Response = SetEntityPoseResponse;
    }
}
