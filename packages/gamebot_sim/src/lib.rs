//! # gamebot_sim — the simulated table
//!
//! A pure library (no ROS) of the world the arm and the camera work in:
//!
//! - **Pieces** are bodies (upright cylinders) with continuous positions in
//!   the arm's `base_link` frame, in metres: [`World::new`] builds one per
//!   element of the game on its location — the location's position as
//!   `gamebot_kinematics` resolves it for the arm (`robot=` x,y,z; legacy
//!   angles through FK; else `point=` through the board placement) — with its
//!   element name, type, state, radius (from the game's `[REALBOARD ELEMENT
//!   TYPES]` size range, as the renderer draws it, capped by the spacing of
//!   the locations) and height ([`WorldConfig::piece_height_m`]). Several
//!   elements on one place form a real stack (z grows). Elements on places
//!   without any position are bookkeeping and get no body.
//! - **The arm** follows the servo outputs of an emulated SSC-32U
//!   ([`gamebot_ssc32::Emulator`] on a pty, reached through
//!   [`World::serial_path`]): the world follows the emulator's motion model
//!   exactly ([`gamebot_ssc32::MotionUpdate`]), maps pulses to joint values
//!   through the arm YAML (`Arm::positions_from_pulses`) and runs FK on the
//!   URDF's whole tree for the tool pose, the fingers and every link. Channels
//!   never commanded keep [`WorldConfig::rest_pose`] (default: the arm YAML's
//!   park pose).
//! - **Grasping is geometric**: closing fingers attach the piece whose centre
//!   lies between them (tool frame) and whose height overlaps the fingertips
//!   (the finger links' visuals), once they touch it (half the finger gap ≤
//!   its radius); the piece is centred between the fingers and carried with
//!   the tool. Closing on nothing grasps nothing. Opening beyond the piece
//!   releases it: it falls straight down onto the table, the sheet or the
//!   highest piece under its centre, and stays where it was put.
//! - **Contacts** ([`World::contacts`]): every time an arm link's volume or
//!   the carried piece overlaps a piece other than the carried one (3-D,
//!   cylinder model), or a piece is put down overlapping another, one
//!   [`Contact`] with both names and the position.
//! - **The person's hand** ([`World::human_move`]): [`HandAction`]s transfer
//!   a piece (to a location or a free table point, put down with a few mm of
//!   seeded error), flip one (its state changes), or cover part of the board
//!   for a while; they take sim time and the camera sees the hand.
//! - **Faults** ([`FaultSpec`], e.g.
//!   `slip=0.05,place_sigma_mm=2,nudge=0.02,servo_offset_deg=1.5,serial_drop=0.01,stall=0.005`),
//!   seeded by [`WorldConfig::seed`] and counted per kind
//!   ([`World::fault_counts`]). See [`faults::help`] for the table.
//! - **Camera frames** ([`World::render`], [`World::render_if_due`]): the
//!   world as it is, through `gamebot_vision`'s renderer
//!   ([`gamebot_vision::render::TableScene`]): pieces at their positions, the
//!   URDF's link visuals at the arm's pose (they hide what they cover), the
//!   hand in a skin colour no signature accepts. [`World::camera_info`] and
//!   [`World::camera_calibration`] describe the camera.
//! - **Time**: one [`gamebot_ssc32::Clock`] ([`World::clock`]) shared by the
//!   emulator, the driver and the nodes: virtual (tests; [`World::step`]
//!   advances it) or scaled real time with a real-time factor.
//!
//! Running it: a caller keeps calling [`World::update`] (or
//! [`World::step`]) — from a test thread, or a loop in the application at
//! the render rate. Each call processes the time elapsed since the last in
//! physics ticks ([`WorldConfig::tick`], 5 ms), replaying every servo
//! command at the time the emulator executed it, so the outcome does not
//! depend on how often `update` is called.
//!
//! ```no_run
//! use gamebot_sim::{World, WorldConfig};
//! let game = gamebot_rules::Game::load("games/tictactoe.game")?;
//! let mut world = World::new(&game, &game.initial_state(), WorldConfig::default())?;
//! // A driver opens world.serial_path() with world.clock().clone() ...
//! world.step(std::time::Duration::from_millis(100))?;
//! let frame = world.render()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod arm_model;
pub mod faults;
mod hand;
mod world;

use std::path::PathBuf;

pub use arm_model::ArmState;
pub use faults::{FaultError, FaultKind, FaultSpec};
pub use hand::{HandAction, HandTarget};
pub use world::{
    CameraInfo, Contact, Frame, Occupant, PieceInfo, World, WorldConfig, DEFAULT_BAUD,
};

/// Errors of the simulated world. Each names what it could not use.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The arm or board configuration.
    #[error(transparent)]
    Load(#[from] gamebot_kinematics::LoadError),
    /// The URDF's geometry.
    #[error("{path}: {message}")]
    Urdf { path: PathBuf, message: String },
    /// The camera, the board picture or rendering.
    #[error(transparent)]
    Vision(#[from] gamebot_vision::VisionError),
    /// The emulated servo controller.
    #[error(transparent)]
    Emulator(#[from] gamebot_ssc32::EmulatorError),
    /// The real-time factor.
    #[error(transparent)]
    Rtf(#[from] gamebot_ssc32::RtfError),
    /// The fault spec.
    #[error(transparent)]
    Faults(#[from] FaultError),
    /// A bad setting.
    #[error("simulation config: {0}")]
    Config(String),
    /// No such element (or it has no body on the table).
    #[error("no piece `{0}` on the simulated table")]
    UnknownElement(String),
    /// No such location (or it has no position).
    #[error("no location `{0}` with a position in this game")]
    UnknownLocation(String),
    /// An element is not where a hand action says.
    #[error("{element} is not on {location}: it lies {distance_mm:.1} mm away")]
    NotThere {
        element: String,
        location: String,
        distance_mm: f64,
    },
    /// A hand move is still running.
    #[error("the person's hand is still busy with the previous move")]
    HandBusy,
}

#[cfg(test)]
mod tests {
    /// The nodes move the world into their worker thread.
    #[test]
    fn world_is_send() {
        fn send<T: Send>() {}
        send::<crate::World>();
        send::<crate::Frame>();
    }
}
