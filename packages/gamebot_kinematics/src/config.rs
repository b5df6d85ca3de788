//! The arm YAML (`config/arms/<arm>.yaml`): everything about an arm that is not in its URDF.
//!
//! Joint values are in URDF units throughout (radians for revolute joints, metres for
//! prismatic ones); heights are in metres. See `docs/adding-an-arm.md` for the format.

use serde::Deserialize;
use std::collections::BTreeMap;

/// Top level of an arm YAML file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ArmConfig {
    /// Path of the URDF, relative to the YAML file.
    pub urdf: String,
    /// Root link of the arm (the frame `robot=` coordinates are given in).
    #[serde(default = "default_base_link")]
    pub base_link: String,
    /// Link whose origin is the point between the fingertips, z axis out of the gripper.
    #[serde(default = "default_tool_link")]
    pub tool_link: String,
    /// Every servo-driven joint: the arm joints from base to tool, and the gripper joint.
    pub joints: Vec<JointConfig>,
    /// The gripper.
    pub gripper: GripperConfig,
    /// Rest pose between moves (joint name -> value). Must name every arm joint.
    pub home: BTreeMap<String, f64>,
    /// Pose at the end of a game or before power-off (joint name -> value).
    pub park: BTreeMap<String, f64>,
    /// Height of the tool centre above a location's point when approaching it (m).
    pub approach_height_m: f64,
    /// Height of the tool centre above a location's point while gripping (m): the grasp
    /// depth, e.g. half the height of a 1 cm piece.
    pub grasp_height_m: f64,
    /// How legacy ten-angle `robot=` locations map onto joints (absent: not supported).
    #[serde(default)]
    pub legacy_angles: Option<Vec<LegacyAngle>>,
    /// How a piece is turned over at its location (absent: flip actions are refused).
    #[serde(default)]
    pub flip: Option<FlipConfig>,
    /// Numeric IK tuning; defaults suit small arms.
    #[serde(default)]
    pub ik: IkConfig,
}

fn default_base_link() -> String {
    "base_link".into()
}
fn default_tool_link() -> String {
    "tool0".into()
}

/// One servo-driven joint.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct JointConfig {
    /// URDF joint name.
    pub name: String,
    /// Servo controller channel.
    pub channel: u8,
    /// Pulse width (µs) at joint value 0.
    pub centre_us: f64,
    /// Pulse change per radian (revolute joints).
    #[serde(default)]
    pub us_per_rad: Option<f64>,
    /// Pulse change per metre (prismatic joints).
    #[serde(default)]
    pub us_per_m: Option<f64>,
    /// +1 when a larger pulse means a larger joint value, -1 otherwise.
    pub direction: i8,
    /// Smallest pulse the servo accepts (µs).
    #[serde(default = "default_min_us")]
    pub min_us: f64,
    /// Largest pulse the servo accepts (µs).
    #[serde(default = "default_max_us")]
    pub max_us: f64,
    /// Speed limit used for trajectories (URDF units per second).
    pub max_velocity: f64,
    /// Acceleration limit used for trajectories (URDF units per second²).
    pub max_acceleration: f64,
}

fn default_min_us() -> f64 {
    500.0
}
fn default_max_us() -> f64 {
    2500.0
}

/// The gripper: which joint drives the fingers and where open and closed are.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GripperConfig {
    /// The driven finger joint (its mimic joints follow it).
    pub joint: String,
    /// Joint value with the jaws open wide enough to pass over a piece.
    pub open: f64,
    /// Joint value commanded to hold a piece.
    pub closed: f64,
    /// Pause after the jaws reach their target, so the grip settles (s).
    #[serde(default = "default_settle")]
    pub settle_s: f64,
    /// Joint value the jaws open to when they let go of a piece they put
    /// down: just wide enough to free it, so on a crowded board the fingers
    /// stay clear of the neighbouring pieces (they open fully only above the
    /// pieces, before the next approach). Between `closed` and `open`;
    /// absent = `open`.
    #[serde(default)]
    pub release: Option<f64>,
}

impl GripperConfig {
    /// The joint value to let go of a piece at: `release`, or `open`.
    pub fn release_opening(&self) -> f64 {
        self.release.unwrap_or(self.open)
    }
}

fn default_settle() -> f64 {
    0.25
}

/// One of the legacy `robot=` angles: which joint it drives and how.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LegacyAngle {
    /// URDF joint name.
    pub joint: String,
    /// Joint value = sign · (legacy degrees + offset_deg), in radians.
    #[serde(default = "one")]
    pub sign: f64,
    /// Added to the legacy angle before the sign is applied (degrees).
    #[serde(default)]
    pub offset_deg: f64,
}

fn one() -> f64 {
    1.0
}

/// The turn-over manoeuvre: grip, lift, turn one joint from `from` to `to`, put down, release.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FlipConfig {
    /// Joint that turns the piece over.
    pub joint: String,
    /// Value of that joint when gripping.
    pub from: f64,
    /// Value after turning.
    pub to: f64,
    /// Extra height above the approach height while turning (m).
    #[serde(default)]
    pub lift_m: f64,
}

/// Numeric solver settings.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct IkConfig {
    /// Accepted position error (m).
    pub tolerance_m: f64,
    /// Accepted angle between the tool axis and the downward vertical (degrees).
    pub axis_tolerance_deg: f64,
    /// Random restarts after the seeded attempt fails.
    pub restarts: u32,
    /// Iterations per attempt.
    pub max_iterations: u32,
    /// Metres of position error one radian of axis error is worth.
    pub axis_weight_m: f64,
}

impl Default for IkConfig {
    fn default() -> Self {
        IkConfig {
            tolerance_m: 1e-4,
            axis_tolerance_deg: 0.5,
            restarts: 150,
            max_iterations: 60,
            axis_weight_m: 0.1,
        }
    }
}

impl JointConfig {
    /// µs per URDF unit, whichever of `us_per_rad` / `us_per_m` is given.
    pub fn us_per_unit(&self) -> f64 {
        self.us_per_rad.or(self.us_per_m).unwrap_or(f64::NAN)
    }
}
