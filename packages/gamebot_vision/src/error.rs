//! Typed errors of the vision crate. Every variant names what it was working
//! on (file, device, frame size) so a caller can print it as is.

use std::path::PathBuf;

/// Everything that can go wrong in detection, calibration, rendering or image I/O.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    /// An OpenCV call failed; `context` says which step.
    #[cfg(feature = "opencv")]
    #[error("OpenCV failed while {context}: {source}")]
    OpenCv {
        context: &'static str,
        #[source]
        source: opencv::Error,
    },
    /// An image file could not be read or decoded.
    #[error("{path}: cannot read image: {reason}")]
    ImageRead { path: PathBuf, reason: String },
    /// An image file could not be written.
    #[error("{path}: cannot write image: {reason}")]
    ImageWrite { path: PathBuf, reason: String },
    /// A frame does not have the size the detector was configured (calibrated) for.
    #[error("{source_name}: frame is {got_w}x{got_h}, expected {want_w}x{want_h}")]
    WrongSize {
        source_name: String,
        got_w: i32,
        got_h: i32,
        want_w: i32,
        want_h: i32,
    },
    /// A frame is not an 8-bit, 3-channel BGR image.
    #[error("{source_name}: frame is not 8-bit BGR (OpenCV type {typ}, {channels} channels)")]
    WrongFormat {
        source_name: String,
        typ: i32,
        channels: i32,
    },
    /// A camera could not be opened or delivered no frame.
    #[error("camera {device}: {reason}")]
    Camera { device: String, reason: String },
    /// A frame source has no more frames (end of file list, simulation closed).
    #[error("{source_name}: no more frames")]
    EndOfStream { source_name: String },
    /// A YAML configuration file could not be read or parsed.
    #[error("{path}: {reason}")]
    Config { path: PathBuf, reason: String },
    /// Calibration could not be computed.
    #[error("calibration failed: {0}")]
    Calibration(String),
    /// The game data cannot be used by the camera (e.g. no signatures, bad ranges).
    #[error("{0}")]
    Board(String),
}

/// Shorthand for results of this crate.
pub type Result<T, E = VisionError> = std::result::Result<T, E>;

/// Attaches a description of the step to an OpenCV error.
#[cfg(feature = "opencv")]
pub(crate) trait CvContext<T> {
    fn cv(self, context: &'static str) -> Result<T>;
}

#[cfg(feature = "opencv")]
impl<T> CvContext<T> for opencv::Result<T> {
    fn cv(self, context: &'static str) -> Result<T> {
        self.map_err(|source| VisionError::OpenCv { context, source })
    }
}
