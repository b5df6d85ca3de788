//! Lynxmotion SSC-32U servo controller: the protocol as typed values, a
//! serial driver over the `serialport` crate, and an emulator on a
//! pseudo-terminal that answers like the real firmware.
//!
//! The simulation runs the emulator and the driver talks to it over a real
//! pty, so the byte-level path to the hardware is exercised in every
//! simulated game.

pub mod clock;
pub mod driver;
pub mod emulator;
pub mod protocol;

pub use clock::{Clock, ClockSetter, RtfError};
pub use driver::{Driver, DriverConfig, DriverError, TrajectoryPoint};
pub use emulator::{Emulator, EmulatorConfig, EmulatorError, MotionUpdate, PulseFrame};
pub use protocol::{Channel, Command, GroupMove, MoveTime, Movement, Pulse, ServoTarget, Speed};
