//! Arm kinematics for gamebot.
//!
//! An arm is described only by its URDF and `config/arms/<arm>.yaml` ([`Arm::load`]).
//! The crate provides forward kinematics on the URDF chain (crate `k`), inverse kinematics
//! to a position with the gripper pointing straight down (a numeric Levenberg–Marquardt
//! solver for any arm, and a closed form for AL5D-type arms), game locations resolved to
//! poses above and at the board, pick-and-place trajectories with per-joint speed and
//! acceleration limits, servo pulse mapping, and reachability maps. It knows nothing of ROS.
//! Section numbers (§) refer to the rule language reference, `docs/language.md`.

#![forbid(unsafe_code)]

pub mod arm;
pub mod closed_form;
pub mod config;
pub mod error;
pub mod ik;
pub mod locations;
pub mod placement;
pub mod reach;
pub mod registration;
pub mod trajectory;
mod urdf_locate;

pub use arm::{
    find_arm_config, find_board_config, find_project_file, Arm, JointInfo, JointKind, ServoPulse,
};
pub use closed_form::{legacy_al5d_angles, LegacyUnreachable};
pub use error::{
    ClosedFormMismatch, IkError, LimitError, LoadError, LocationError, TrajectoryError,
};
pub use ik::{IkSolution, SolverChoice, SolverKind};
pub use locations::{LocationInput, PoseSource, ResolvedLocation, RobotPosition};
pub use placement::{Board, FlipStation, PlaneMapping};
pub use reach::{render_map, write_map_png, Marker, Reach, ReachMap};
pub use registration::{fit, Fit, FitError, Mark, Placement, PointPair, Session};
pub use trajectory::{Action, Trajectory, Waypoint};

#[cfg(test)]
mod tests;
