//! # gamebot_vision
//!
//! Camera vision for gamebot, on the system OpenCV:
//!
//! - [`detect`]: per-signature HSV segmentation of a frame (`[REALBOARD
//!   ELEMENT TYPES]`), morphological clean-up, blobs, assignment to the game's
//!   `camera=` locations, confidences and occlusion cues;
//! - [`filter`]: temporal stabilisation — K agreeing frames, nothing while occluded;
//! - [`calib`]: image → table homography from ArUco markers or listed points,
//!   stored in `config/camera/*.yaml`;
//! - [`source`]: frames from a V4L2 camera, image files or the simulation;
//! - [`render`]: synthetic camera frames of a game position with ground truth;
//! - [`annotate`]: annotated images and named reports of observations;
//! - [`accuracy`]: detector accuracy on rendered random positions.
//!
//! Coordinates: *image pixels* are the real camera's; *board pixels* are the
//! game files' `camera=` frame (640×480, 20 px/cm, top-down; see
//! [`board_model::BoardMapping`]); *table cm* are the arm base frame. A calibration
//! maps image pixels to both. Without one, the image is taken to be the
//! board pixel frame (the default, ideal camera).
//!
//! ```no_run
//! use gamebot_vision::{board_model::VisionBoard, detect::{Detector, DetectorConfig}};
//! let game = gamebot_rules::Game::load("games/tictactoe.game")?;
//! let mut det = Detector::new(VisionBoard::from_game(&game)?, None, DetectorConfig::default())?;
//! let frame = gamebot_vision::source::read_image("frame.png")?;
//! let obs = det.detect(&frame)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

// Without the `opencv` feature only `camera_file`, `error` and `geom` build.
#[cfg(feature = "opencv")]
pub mod accuracy;
#[cfg(feature = "opencv")]
pub mod annotate;
#[cfg(feature = "opencv")]
pub mod board_model;
#[cfg(feature = "opencv")]
pub mod calib;
#[cfg(feature = "opencv")]
pub mod camera;
pub mod camera_file;
#[cfg(feature = "opencv")]
pub mod cc;
#[cfg(feature = "opencv")]
pub mod detect;
pub mod error;
#[cfg(feature = "opencv")]
pub mod filter;
pub mod geom;
#[cfg(feature = "opencv")]
pub mod hsv;
#[cfg(feature = "opencv")]
pub mod render;
#[cfg(feature = "opencv")]
pub mod source;

pub use error::{Result, VisionError};

/// Limits OpenCV's internal worker threads (1 = measure on one core).
#[cfg(feature = "opencv")]
pub fn set_opencv_threads(n: i32) -> Result<()> {
    use error::CvContext;
    opencv::core::set_num_threads(n).cv("setting OpenCV's thread count")
}
#[cfg(feature = "opencv")]
pub use opencv::core::Mat;

#[cfg(all(test, feature = "opencv"))]
mod tests {
    /// The nodes move these into their worker threads.
    #[test]
    fn main_types_are_send() {
        fn send<T: Send>() {}
        send::<crate::detect::Detector>();
        send::<crate::filter::TemporalFilter>();
        send::<crate::render::Renderer>();
        send::<crate::source::CameraSource>();
        send::<crate::source::PushSource>();
        send::<crate::source::PushHandle>();
    }
}
