//! Typed errors of the kinematics crate.

use std::fmt;
use std::path::PathBuf;

/// Loading an arm (URDF + YAML) or a board placement failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The YAML is malformed or does not match the expected fields.
    #[error("{path}:{line}: {message}")]
    Yaml {
        path: PathBuf,
        /// 1-based line (0 when the parser gives none).
        line: usize,
        message: String,
    },
    /// The URDF is malformed XML or not a usable kinematic tree.
    #[error("{path}: invalid URDF: {message}")]
    Urdf { path: PathBuf, message: String },
    /// URDF and YAML are individually fine but do not fit together, or a value is out of range.
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
    /// Too large, not UTF-8, or nested too deep (see `gamebot_input`).
    #[error(transparent)]
    Input(#[from] gamebot_input::InputError),
}

/// A joint limit that stands between the solver and a target.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitBlock {
    /// URDF joint name.
    pub joint: String,
    /// The value the joint would need (from a solution that ignores the limits).
    pub needed: f64,
    /// The joint's limits.
    pub lower: f64,
    pub upper: f64,
}

/// Formats a list of blocking limits for [`IkError::Unreachable`].
#[derive(Clone, Debug, PartialEq)]
pub struct Blocks(pub Vec<LimitBlock>);

impl fmt::Display for Blocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "beyond the arm's reach (no joint limit involved)");
        }
        write!(f, "blocked by joint limit")?;
        if self.0.len() > 1 {
            write!(f, "s")?;
        }
        for (i, b) in self.0.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let side = if b.needed < b.lower { "lower" } else { "upper" };
            write!(
                f,
                "{sep}{} (needs {:.4}, {side} limit {:.4})",
                b.joint,
                b.needed,
                if b.needed < b.lower { b.lower } else { b.upper }
            )?;
        }
        Ok(())
    }
}

fn unreachable_message(t: &[f64; 3], distance_m: f64, blocks: &Blocks) -> String {
    let head = format!(
        "target ({:.4}, {:.4}, {:.4}) m is unreachable with the gripper vertical",
        t[0], t[1], t[2]
    );
    if blocks.0.is_empty() && distance_m < 1e-3 {
        // Within a millimetre but no pose found: a search failure, not a proven gap.
        return format!(
            "{head}: no pose within the joint limits was found (closest {:.2} mm)",
            distance_m * 1000.0
        );
    }
    format!(
        "{head}: {:.1} mm from the nearest reachable point; {blocks}",
        distance_m * 1000.0
    )
}

/// Inverse kinematics failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IkError {
    /// No joint configuration within limits puts the tool there pointing down.
    #[error("{}", unreachable_message(target, *distance_m, blocks))]
    Unreachable {
        /// Target tool position (m, arm base frame).
        target: [f64; 3],
        /// Smallest position error achievable within the limits (m).
        distance_m: f64,
        /// Limits that a limit-free solution violates (empty: out of reach altogether).
        blocks: Blocks,
    },
    /// A coordinate is NaN or infinite.
    #[error("target ({:?}, {:?}, {:?}) has a non-finite coordinate", target[0], target[1], target[2])]
    NonFinite { target: [f64; 3] },
    /// The seed pose has the wrong number of joints.
    #[error("seed has {got} joint values, the arm has {expected}")]
    SeedLength { got: usize, expected: usize },
    /// The closed-form solver was asked for on an arm whose structure it does not fit.
    #[error("no closed-form solver for arm {arm}: {reason}")]
    NoClosedForm {
        arm: String,
        reason: ClosedFormMismatch,
    },
}

/// Why the closed-form solver does not fit an arm's structure (e.g. "6 joints").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClosedFormMismatch(pub String);

/// A joint value or servo pulse outside its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LimitError {
    /// Joint value outside the URDF limits.
    #[error("joint {joint} = {value:.4} is outside its limits [{lower:.4}, {upper:.4}]{context}")]
    Joint {
        joint: String,
        value: f64,
        lower: f64,
        upper: f64,
        /// Where it happened (e.g. " at waypoint 3 (above a1)"), may be empty.
        context: String,
    },
    /// Servo pulse outside the servo's range.
    #[error("joint {joint} on channel {channel}: pulse {pulse_us:.0} µs is outside [{min_us:.0}, {max_us:.0}] µs{context}")]
    Pulse {
        joint: String,
        channel: u8,
        pulse_us: f64,
        min_us: f64,
        max_us: f64,
        context: String,
    },
    /// A value vector has the wrong length.
    #[error("expected {expected} joint values, got {got}{context}")]
    Length {
        expected: usize,
        got: usize,
        context: String,
    },
    /// A value is NaN or infinite.
    #[error("joint {joint} has a non-finite value{context}")]
    NonFinite { joint: String, context: String },
    /// A pulse was read back for a channel no joint uses.
    #[error("channel {channel} drives no joint of this arm")]
    UnknownChannel { channel: u8 },
}

/// A game location could not be turned into arm poses.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LocationError {
    /// IK failed above or at the location.
    #[error("location {name}: {which} pose unreachable: {source}")]
    Unreachable {
        name: String,
        /// "above" or "at".
        which: &'static str,
        #[source]
        source: IkError,
    },
    /// A legacy angle pose violates a joint limit or servo range.
    #[error("location {name}: {which} pose: {source}")]
    Limit {
        name: String,
        which: &'static str,
        #[source]
        source: LimitError,
    },
    /// The location has neither `robot=` nor a `point=` with a board placement.
    #[error("location {name}: no robot= position and no point= with a board placement")]
    NoPosition { name: String },
    /// Legacy angles given but the arm's YAML has no `legacy_angles` mapping.
    #[error("location {name}: ten-angle robot= positions need a legacy_angles mapping in the arm YAML of {arm}")]
    NoLegacyMapping { name: String, arm: String },
    /// A coordinate is NaN or infinite.
    #[error("location {name}: non-finite coordinate")]
    NonFinite { name: String },
}

/// A trajectory could not be planned.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrajectoryError {
    /// A waypoint violates a joint limit or servo range.
    #[error(transparent)]
    Limit(#[from] LimitError),
    /// A flip was requested on an arm without a `flip:` section.
    #[error("arm {arm} has no flip manoeuvre configured (flip: in its YAML)")]
    NoFlip { arm: String },
    /// A flip could not be planned at a location.
    #[error("flip at {name}: {source}")]
    Flip {
        name: String,
        #[source]
        source: IkError,
    },
}
