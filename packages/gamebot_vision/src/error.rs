//! Typed errors of the vision crate. Every variant names what it was working
//! on (file, device, frame size) so a caller can print it as is.

use std::path::PathBuf;

/// Everything that can go wrong in detection, calibration, rendering or image I/O.
#[derive(Debug, thiserror::Error)]
pub enum VisionError {
    /// An OpenCV call failed; `context` says which step, `reason` what kind
    /// of failure in which OpenCV function (see [`describe_cv`]). OpenCV's own
    /// text (source paths, C++ conditions) goes to the debug log only: the
    /// callers check what they ask for before calling OpenCV, so this is a
    /// last resort, not the message a person should normally see.
    #[cfg(feature = "opencv")]
    #[error("OpenCV failed while {context}: {reason}")]
    OpenCv {
        context: &'static str,
        reason: String,
        /// OpenCV's error code (`cv::Error::Code`).
        code: i32,
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
    /// A file could not be read (it names itself).
    #[error(transparent)]
    Input(#[from] gamebot_input::InputError),
    /// A YAML configuration file could not be parsed.
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
        self.map_err(|e| {
            tracing::debug!(context, code = e.code, opencv = %e.message, "OpenCV error");
            VisionError::OpenCv {
                context,
                reason: describe_cv(e.code, &e.message),
                code: e.code,
            }
        })
    }
}

/// A short account of an OpenCV error for a person: the kind of failure (from
/// the code) and the OpenCV function, without OpenCV's source paths and C++
/// assertion text (`OpenCV(4.6.0) /usr/…/imgwarp.cpp:…: error: (-215:Assertion
/// failed) … in function 'warpPerspective'` becomes `an internal check failed
/// in warpPerspective (OpenCV error -215)`).
pub fn describe_cv(code: i32, message: &str) -> String {
    // cv::Error::Code values (stable across OpenCV versions).
    let kind = match code {
        -215 => "an internal check failed",
        -211 => "a value is out of range",
        -210 => "an unsupported image format",
        -209 => "image sizes do not match",
        -205 => "image formats do not match",
        -201 => "a bad size",
        -202 => "a division by zero",
        -5 => "a bad argument",
        -4 => "out of memory",
        -2 => "an error",
        _ => "an error",
    };
    let function = message
        .split("in function '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .filter(|f| !f.is_empty() && f.len() < 80);
    match function {
        Some(f) => format!("{kind} in {f} (OpenCV error {code})"),
        None => format!("{kind} (OpenCV error {code})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencv_text_is_summarised_not_shown() {
        let raw = "OpenCV(4.6.0) ./modules/imgproc/src/imgwarp.cpp:2711: error: \
                   (-215:Assertion failed) (M0.type() == CV_32F || M0.type() == CV_64F) \
                   && M0.rows == 3 && M0.cols == 3 in function 'warpPerspective'\n";
        let d = describe_cv(-215, raw);
        assert_eq!(
            d,
            "an internal check failed in warpPerspective (OpenCV error -215)"
        );
        assert!(!d.contains("cpp") && !d.contains("M0"), "{d}");
        assert_eq!(
            describe_cv(-4, "no memory"),
            "out of memory (OpenCV error -4)"
        );
    }
}
