//! The camera calibration file (`config/camera/*.yaml`): its contents,
//! loading with validation, and saving. Written by `gamebot calibrate`
//! ([`crate::calib`]), read by the detector, the camera node and the
//! simulation.
//!
//! This module needs no OpenCV: with the crate's `opencv` feature off only it,
//! [`crate::geom`] and [`crate::error`] are built, so the fuzz target
//! `camera_yaml` can exercise the real parser under the sanitizer without
//! linking OpenCV.

use std::path::Path;

use gamebot_kinematics::PlaneMapping;
use serde::{Deserialize, Serialize};

use crate::error::{Result, VisionError};
use crate::geom::Homography;

/// The calibration methods a camera file may name.
pub const METHODS: [&str; 3] = ["aruco", "points", "identity"];

/// Largest accepted homography entry (in magnitude): real calibrations stay
/// within a few thousand; beyond this the file is corrupt.
pub const ENTRY_LIMIT: f64 = 1e12;

/// Largest accepted reprojection error in pixels.
pub const ERROR_LIMIT_PX: f64 = 1e6;

/// Largest accepted image side in pixels.
pub const SIDE_LIMIT_PX: i32 = 100_000;

/// The result of calibration, stored in `config/camera/*.yaml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CameraCalibration {
    /// Size of the images the homography applies to.
    pub image_width: i32,
    pub image_height: i32,
    /// `aruco`, `points` or `identity`.
    pub method: String,
    /// Board file used (informational; must exist when given).
    #[serde(default)]
    pub board: String,
    /// Image pixel → table cm (arm base frame).
    pub image_to_table_cm: Homography,
    /// Image pixel → board pixel (the `camera=` frame of game files).
    pub image_to_board_px: Homography,
    /// RMS distance in image pixels between the observed calibration points
    /// and the table points projected back through the homography.
    pub reprojection_rms_px: f64,
    /// Largest such distance.
    pub reprojection_max_px: f64,
    /// Number of point correspondences used.
    pub points: usize,
}

impl CameraCalibration {
    /// The calibration of an ideal camera whose image *is* the board pixel frame.
    pub fn identity(mapping: &PlaneMapping, width: i32, height: i32) -> CameraCalibration {
        let to_px = Homography(mapping.cm_to_px_matrix());
        CameraCalibration {
            image_width: width,
            image_height: height,
            method: "identity".into(),
            board: String::new(),
            image_to_table_cm: to_px.inverse().unwrap_or(Homography::IDENTITY),
            image_to_board_px: Homography::IDENTITY,
            reprojection_rms_px: 0.0,
            reprojection_max_px: 0.0,
            points: 0,
        }
    }

    /// Reads a camera file (bounded read, encoding checked).
    pub fn load(path: impl AsRef<Path>) -> Result<CameraCalibration> {
        let path = path.as_ref();
        let text = gamebot_input::read_text(path)?;
        Self::parse(path, &text)
    }

    /// Parses and validates a camera file's text (`path` is used in messages
    /// and to find a relative board file). Refused, each with the key and
    /// value named: unknown keys, a homography entry that is not finite or
    /// beyond ±[`ENTRY_LIMIT`], an unknown `method`, a negative, non-finite or
    /// absurd reprojection error, a board file that does not exist, an image
    /// size that is not positive or beyond [`SIDE_LIMIT_PX`], and an
    /// `image_to_board_px` that cannot be inverted.
    pub fn parse(path: &Path, text: &str) -> Result<CameraCalibration> {
        let err = |reason: String| VisionError::Config {
            path: path.to_path_buf(),
            reason,
        };
        gamebot_input::check_yaml_depth(
            &path.display().to_string(),
            text,
            gamebot_input::DEPTH_LIMIT,
        )
        .map_err(|e| err(e.to_string()))?;
        let c: CameraCalibration = serde_yaml::from_str(text).map_err(|e| err(e.to_string()))?;
        c.validate(path).map_err(err)?;
        Ok(c)
    }

    /// The checks of [`Self::parse`] on an already built value; the error
    /// names the offending key and its value.
    pub fn validate(&self, path: &Path) -> std::result::Result<(), String> {
        if !METHODS.contains(&self.method.as_str()) {
            return Err(format!(
                "method `{}` is not one of {}",
                self.method,
                METHODS.join(", ")
            ));
        }
        for (key, v) in [
            ("reprojection_rms_px", self.reprojection_rms_px),
            ("reprojection_max_px", self.reprojection_max_px),
        ] {
            if !(v.is_finite() && (0.0..=ERROR_LIMIT_PX).contains(&v)) {
                return Err(format!(
                    "{key} is {}: must be a finite number of pixels from 0 to {ERROR_LIMIT_PX:e}",
                    show(v)
                ));
            }
        }
        for (key, h) in [
            ("image_to_table_cm", &self.image_to_table_cm),
            ("image_to_board_px", &self.image_to_board_px),
        ] {
            for (i, row) in h.0.iter().enumerate() {
                for (j, v) in row.iter().enumerate() {
                    if !(v.is_finite() && v.abs() <= ENTRY_LIMIT) {
                        return Err(format!(
                            "{key}[{i}][{j}] is {}: must be finite and within ±{ENTRY_LIMIT:e}",
                            show(*v)
                        ));
                    }
                }
            }
        }
        for (key, v) in [
            ("image_width", self.image_width),
            ("image_height", self.image_height),
        ] {
            if !(1..=SIDE_LIMIT_PX).contains(&v) {
                return Err(format!("{key} is {v}: must be 1 to {SIDE_LIMIT_PX} pixels"));
            }
        }
        if !self.board.is_empty() {
            // Relative to the working directory or to any directory above the camera file.
            let found = Path::new(&self.board).is_file()
                || path.ancestors().any(|dir| dir.join(&self.board).is_file());
            if !found {
                return Err(format!(
                    "board file `{}` does not exist (looked in the working directory and the \
                     directories above this file)",
                    self.board
                ));
            }
        }
        if self.image_to_table_cm.inverse().is_none() {
            return Err("image_to_table_cm is not an invertible homography".into());
        }
        if self.image_to_board_px.inverse().is_none() {
            return Err("image_to_board_px is not an invertible homography".into());
        }
        Ok(())
    }

    /// Writes the camera file (with a comment header).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let err = |reason: String| VisionError::Config {
            path: path.to_path_buf(),
            reason,
        };
        let body = serde_yaml::to_string(self).map_err(|e| err(e.to_string()))?;
        let text = format!(
            "# Camera calibration written by `gamebot calibrate`.\n\
             # image_to_table_cm maps image pixels to the table plane (cm, arm base frame);\n\
             # image_to_board_px maps image pixels to the game files' camera= pixel frame.\n{body}"
        );
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
        }
        std::fs::write(path, text).map_err(|e| err(e.to_string()))
    }
}

/// A number as a person reads it: huge and tiny ones in exponent form.
fn show(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid camera file (the identity calibration) with `edit` applied to its text.
    fn file_with(edit: impl Fn(String) -> String) -> String {
        let c = CameraCalibration::identity(&PlaneMapping::default(), 640, 480);
        edit(serde_yaml::to_string(&c).unwrap())
    }

    fn refused(text: &str) -> String {
        let e = CameraCalibration::parse(Path::new("cam.yaml"), text)
            .expect_err(text)
            .to_string();
        assert!(e.starts_with("cam.yaml: "), "{e}");
        e
    }

    #[test]
    fn project_camera_files_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/camera");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "yaml") {
                let c = CameraCalibration::load(&p).unwrap();
                assert!(c.reprojection_max_px < 1.0, "{}", p.display());
                n += 1;
            }
        }
        assert!(n > 0, "no camera file in {}", dir.display());
    }

    #[test]
    fn round_trip_and_unreadable_files() {
        let dir = std::env::temp_dir().join(format!("gbv-camfile-{}", std::process::id()));
        let p = dir.join("cam.yaml");
        let c = CameraCalibration::identity(&PlaneMapping::default(), 640, 480);
        c.save(&p).unwrap();
        assert_eq!(CameraCalibration::load(&p).unwrap(), c);
        std::fs::write(&p, "image_width: [").unwrap();
        let e = CameraCalibration::load(&p).unwrap_err().to_string();
        assert!(e.contains("cam.yaml"), "{e}");
        let e = CameraCalibration::load(dir.join("missing.yaml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.yaml"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_huge_entry_is_named() {
        let text = file_with(|t| t.replacen("- 0.05", "- 1e300", 1));
        assert!(text.contains("1e300"), "{text}");
        let e = refused(&text);
        assert!(
            e.contains("image_to_table_cm[0][0] is 1e300") && e.contains("±1e12"),
            "{e}"
        );
    }

    #[test]
    fn nan_entries_and_errors_are_named() {
        let text = file_with(|t| t.replacen("- 1.0", "- .nan", 1));
        assert!(text.contains(".nan"), "{text}");
        let e = refused(&text);
        assert!(
            e.contains("image_to_table_cm[") && e.contains("is NaN"),
            "{e}"
        );
        let text =
            file_with(|t| t.replace("reprojection_max_px: 0.0", "reprojection_max_px: .nan"));
        let e = refused(&text);
        assert!(e.contains("reprojection_max_px is NaN"), "{e}");
    }

    #[test]
    fn an_unknown_key_is_named() {
        let text = file_with(|t| t + "focal_px: 1000\n");
        let e = refused(&text);
        assert!(e.contains("unknown field `focal_px`"), "{e}");
    }

    #[test]
    fn an_unknown_method_is_named() {
        let text = file_with(|t| t.replace("method: identity", "method: magic"));
        let e = refused(&text);
        assert!(
            e.contains("method `magic` is not one of aruco, points, identity"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_board_file_is_named() {
        let text = file_with(|t| t.replace("board: ''", "board: config/boards/no_such_board.yaml"));
        assert!(text.contains("no_such_board"), "{text}");
        let e = refused(&text);
        assert!(
            e.contains("board file `config/boards/no_such_board.yaml` does not exist"),
            "{e}"
        );
        // The repository's own board, relative to a camera file below the checkout, is found.
        let text = file_with(|t| t.replace("board: ''", "board: config/boards/a4.yaml"));
        let cam = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/camera/x.yaml");
        CameraCalibration::parse(&cam, &text).unwrap();
    }

    #[test]
    fn a_negative_rms_is_named() {
        let text =
            file_with(|t| t.replace("reprojection_rms_px: 0.0", "reprojection_rms_px: -0.5"));
        let e = refused(&text);
        assert!(e.contains("reprojection_rms_px is -0.5"), "{e}");
    }

    #[test]
    fn image_sizes_and_singular_maps_are_refused() {
        let e = refused(&file_with(|t| {
            t.replace("image_width: 640", "image_width: 0")
        }));
        assert!(e.contains("image_width is 0"), "{e}");
        let e = refused(&file_with(|t| {
            t.replace("image_height: 480", "image_height: 2000000")
        }));
        assert!(e.contains("image_height is 2000000"), "{e}");
        let mut c = CameraCalibration::identity(&PlaneMapping::default(), 640, 480);
        c.image_to_board_px = Homography([[0.0; 3]; 3]);
        let e = refused(&serde_yaml::to_string(&c).unwrap());
        assert!(e.contains("image_to_board_px is not an invertible"), "{e}");
    }
}
