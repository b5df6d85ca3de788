//! Board placements (`config/boards/*.yaml`): where the paper lies on the table and how
//! board-picture / camera pixels map onto it.

use crate::error::LoadError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The paper sheet.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// Centre on the table (cm).
    pub centre_cm: [f64; 2],
    /// Extent along x (cm).
    pub width_cm: f64,
    /// Extent along y (cm).
    pub depth_cm: f64,
}

/// The square playing grid.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Centre on the table (cm).
    pub centre_cm: [f64; 2],
    /// Side length (cm).
    pub size_cm: f64,
}

/// A column of supply / bin places.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Column {
    pub x_cm: f64,
    pub y_min_cm: f64,
    pub y_max_cm: f64,
}

/// The pixel-to-table mapping (the `pixels:` section).
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct PixelMapping {
    /// Image size.
    pub width_px: u32,
    pub height_px: u32,
    /// Scale, origin, rotation and flip (keys at the same level).
    #[serde(flatten)]
    pub plane: PlaneMapping,
    /// Height of the board surface (cm).
    #[serde(default)]
    pub surface_z_cm: f64,
    /// Keys none of the above takes: an error ([`Board::parse`] names them;
    /// serde cannot deny unknown keys next to a flattened struct).
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, serde_yaml::Value>,
}

fn yes() -> bool {
    true
}

/// How a pixel frame lies on the table plane: scale, the table point under
/// pixel (0, 0), rotation and flip. The one definition of the pixel ↔ table
/// mapping, used by board placements ([`PixelMapping::plane`]) and by the
/// vision crate (its `BoardMapping`). Unknown keys are ignored, so it can be
/// read from a whole `pixels:` section (see [`PixelMapping`]).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
pub struct PlaneMapping {
    /// Pixels per centimetre.
    pub scale_px_per_cm: f64,
    /// Table point (cm) under pixel (0, 0).
    pub origin_cm: [f64; 2],
    /// Counter-clockwise rotation of the image axes on the table (degrees).
    #[serde(default)]
    pub rotation_deg: f64,
    /// Whether pixel v grows towards table −y (image up = arm +y).
    #[serde(default = "yes")]
    pub y_flipped: bool,
}

impl Default for PlaneMapping {
    /// The project convention (`config/boards/a4.yaml`): 20 px/cm, pixel (0, 0)
    /// at (−16, 30) cm, y flipped.
    fn default() -> Self {
        PlaneMapping {
            scale_px_per_cm: 20.0,
            origin_cm: [-16.0, 30.0],
            rotation_deg: 0.0,
            y_flipped: true,
        }
    }
}

impl PlaneMapping {
    /// Table point (cm) under a pixel.
    pub fn to_table_cm(&self, u: f64, v: f64) -> [f64; 2] {
        let k = self.scale_px_per_cm;
        let dx = u / k;
        let dy = if self.y_flipped { -v } else { v } / k;
        let (s, c) = self.rotation_deg.to_radians().sin_cos();
        [
            self.origin_cm[0] + c * dx - s * dy,
            self.origin_cm[1] + s * dx + c * dy,
        ]
    }

    /// Pixel of a table point (cm): the inverse of [`PlaneMapping::to_table_cm`].
    pub fn to_pixel(&self, x: f64, y: f64) -> [f64; 2] {
        let m = self.cm_to_px_matrix();
        [
            m[0][0] * x + m[0][1] * y + m[0][2],
            m[1][0] * x + m[1][1] * y + m[1][2],
        ]
    }

    /// The 3×3 matrix taking homogeneous table cm to pixels.
    pub fn cm_to_px_matrix(&self) -> [[f64; 3]; 3] {
        let k = self.scale_px_per_cm;
        let (s, c) = self.rotation_deg.to_radians().sin_cos();
        let f = if self.y_flipped { -1.0 } else { 1.0 };
        let [ox, oy] = self.origin_cm;
        [
            [c * k, s * k, -(c * ox + s * oy) * k],
            [-f * s * k, f * c * k, f * (s * ox - c * oy) * k],
            [0.0, 0.0, 1.0],
        ]
    }
}

/// A board placement file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// Short name.
    pub name: String,
    /// The paper.
    pub sheet: Sheet,
    /// The playing grid (for drawing).
    #[serde(default)]
    pub grid: Option<Grid>,
    /// Supply columns (for drawing).
    #[serde(default)]
    pub columns: Vec<Column>,
    /// Pixel mapping.
    pub pixels: PixelMapping,
    /// Where the real sheet lies relative to the nominal one (written by
    /// board-to-arm registration, [`crate::registration`]); none = exactly
    /// where the numbers above say.
    #[serde(default)]
    pub placement: Option<crate::registration::Placement>,
    /// A turn-over station beside the sheet, for arms that cannot turn a
    /// piece over themselves (a reversi disc); none = no station.
    #[serde(default)]
    pub flip_station: Option<FlipStation>,
    #[serde(skip)]
    path: PathBuf,
}

/// A turn-over station: a chute fixed to the table beside the sheet. A
/// piece let go over its intake slides down and comes out at its exit the
/// other side up. It is a table fixture, so a registered sheet placement
/// does not move it. Positions are cm in the arm's base frame, z = the
/// surface the piece rests on.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FlipStation {
    /// Where the arm lets a piece go to have it turned over.
    pub intake_cm: [f64; 3],
    /// Where the turned piece comes to rest: a cradle, into which a piece
    /// let go over it slides back.
    pub exit_cm: [f64; 3],
    /// How far from the intake's centre a piece may be let go and still
    /// fall in, and from the exit's and still slide back into it (cm).
    #[serde(default = "FlipStation::default_capture")]
    pub capture_radius_cm: f64,
}

impl FlipStation {
    fn default_capture() -> f64 {
        1.5
    }

    /// The intake in metres.
    pub fn intake_m(&self) -> [f64; 3] {
        self.intake_cm.map(|v| v / 100.0)
    }

    /// The exit in metres.
    pub fn exit_m(&self) -> [f64; 3] {
        self.exit_cm.map(|v| v / 100.0)
    }
}

impl Board {
    /// Loads and checks a board YAML.
    pub fn load(path: impl AsRef<Path>) -> Result<Board, LoadError> {
        let path = path.as_ref();
        let text = crate::arm::read(path)?;
        Board::parse(path, &text)
    }

    /// Loads `config/boards/<name>.yaml` (see [`crate::find_board_config`]).
    pub fn load_named(name: &str) -> Result<Board, LoadError> {
        let path = crate::find_board_config(name);
        if !path.is_file() {
            return Err(crate::arm::not_found("board", "boards", name));
        }
        Board::load(path)
    }

    /// Parses board YAML text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Board, LoadError> {
        let mut b: Board = crate::arm::parse_yaml(path, text)?;
        b.path = path.to_path_buf();
        if let Some(key) = b.pixels.unknown.keys().next() {
            return Err(LoadError::Config {
                path: path.to_path_buf(),
                message: format!("unknown key `{key}` in pixels"),
            });
        }
        let p = &b.pixels.plane;
        let finite = [
            p.scale_px_per_cm,
            p.origin_cm[0],
            p.origin_cm[1],
            p.rotation_deg,
            b.pixels.surface_z_cm,
        ]
        .iter()
        .chain(&b.sheet.centre_cm)
        .all(|v| v.is_finite());
        if !finite || p.scale_px_per_cm <= 0.0 || b.sheet.width_cm <= 0.0 || b.sheet.depth_cm <= 0.0
        {
            return Err(LoadError::Config {
                path: path.to_path_buf(),
                message: "board sizes and scale must be positive and finite".into(),
            });
        }
        if let Some(p) = &b.placement {
            p.check().map_err(|e| LoadError::Config {
                path: path.to_path_buf(),
                message: e.to_string(),
            })?;
        }
        if let Some(f) = &b.flip_station {
            let finite = f.intake_cm.iter().chain(&f.exit_cm).all(|v| v.is_finite());
            let flat = |p: &[f64; 3]| p[0].hypot(p[1]) <= 200.0 && p[2].abs() <= 50.0;
            if !finite || !flat(&f.intake_cm) || !flat(&f.exit_cm) {
                return Err(LoadError::Config {
                    path: path.to_path_buf(),
                    message: "flip_station: intake_cm and exit_cm must be finite points within 2 m of the arm".into(),
                });
            }
            let (i, e) = (f.intake_cm, f.exit_cm);
            if !(f.capture_radius_cm > 0.0 && f.capture_radius_cm <= 5.0)
                || (i[0] - e[0]).hypot(i[1] - e[1]) <= 2.0 * f.capture_radius_cm
            {
                return Err(LoadError::Config {
                    path: path.to_path_buf(),
                    message: format!(
                        "flip_station: capture_radius_cm {} must be in (0, 5] and the exit outside twice it from the intake",
                        f.capture_radius_cm
                    ),
                });
            }
        }
        Ok(b)
    }

    /// The file this placement was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Table point (cm, with the board surface height) under a pixel.
    pub fn pixel_to_table_cm(&self, u: f64, v: f64) -> [f64; 3] {
        let [x, y] = self.pixels.plane.to_table_cm(u, v);
        [x, y, self.pixels.surface_z_cm]
    }

    /// Pixel of a table point (cm): the inverse of [`Board::pixel_to_table_cm`].
    pub fn table_cm_to_pixel(&self, x: f64, y: f64) -> [f64; 2] {
        self.pixels.plane.to_pixel(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a4_matches_the_shared_camera_convention() {
        let b = Board::load_named("a4").unwrap();
        // u = 320 + 20 x, v = 480 - 20 (y - 6)
        for &(x, y) in &[
            (0.0, 18.0),
            (-13.5, 9.0),
            (13.5, 27.0),
            (-16.0, 30.0),
            (16.0, 6.0),
        ] {
            let u = 320.0 + 20.0 * x;
            let v = 480.0 - 20.0 * (y - 6.0);
            let t = b.pixel_to_table_cm(u, v);
            assert!(
                (t[0] - x).abs() < 1e-9 && (t[1] - y).abs() < 1e-9,
                "{x},{y} -> {t:?}"
            );
            assert_eq!(t[2], 0.0);
            let px = b.table_cm_to_pixel(x, y);
            assert!((px[0] - u).abs() < 1e-9 && (px[1] - v).abs() < 1e-9);
        }
    }

    #[test]
    fn rotated_mapping_round_trips() {
        let text = "name: t\nsheet: {centre_cm: [0, 18], width_cm: 29.7, depth_cm: 21}\npixels: {width_px: 640, height_px: 480, scale_px_per_cm: 12.5, origin_cm: [-3, 31], rotation_deg: 17, y_flipped: false}\n";
        let b = Board::parse(Path::new("t.yaml"), text).unwrap();
        for &(u, v) in &[(0.0, 0.0), (100.0, 37.0), (639.0, 479.0)] {
            let t = b.pixel_to_table_cm(u, v);
            let p = b.table_cm_to_pixel(t[0], t[1]);
            assert!((p[0] - u).abs() < 1e-9 && (p[1] - v).abs() < 1e-9);
        }
        // 12.5 px per cm: 125 px along u is 10 cm on the table.
        let a = b.pixel_to_table_cm(0.0, 0.0);
        let c = b.pixel_to_table_cm(125.0, 0.0);
        assert!(((a[0] - c[0]).hypot(a[1] - c[1]) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn bad_board_files_name_the_problem() {
        let e = Board::parse(Path::new("b.yaml"), "name: x\nsheet: {centre_cm: [0, 0], width_cm: 1, depth_cm: 1}\npixels: {width_px: 1, height_px: 1, scale_px_per_cm: 0, origin_cm: [0, 0]}\n")
            .unwrap_err();
        assert!(
            e.to_string().contains("b.yaml") && e.to_string().contains("scale"),
            "{e}"
        );
        let e = Board::parse(Path::new("b.yaml"), "name: x\nsheet: {centre_cm: [0, 0], width_cm: 1, depth_cm: 1}\npixels: {width_px: 1, height_px: 1, scale_px_per_cm: 2, origin_cm: [0, 0], y_flip: false}\n")
            .unwrap_err();
        assert!(
            e.to_string().contains("b.yaml") && e.to_string().contains("`y_flip`"),
            "{e}"
        );
        let base = "name: x\nsheet: {centre_cm: [0, 0], width_cm: 1, depth_cm: 1}\npixels: {width_px: 1, height_px: 1, scale_px_per_cm: 2, origin_cm: [0, 0]}\n";
        for (section, key) in [
            (
                "placement: {offset_mm: [1, 2], rotation_deg: 45}",
                "placement.rotation_deg",
            ),
            (
                "placement: {offset_mm: [1, .nan], rotation_deg: 0}",
                "placement.offset_mm[1]",
            ),
            (
                "placement: {offset_mm: [1, 2], rotation_deg: 0, surface_offset_mm: -31}",
                "placement.surface_offset_mm",
            ),
            (
                "placement: {offset_mm: [1, 2], rotation_deg: 0, shift: 1}",
                "unknown field `shift`",
            ),
        ] {
            let e = Board::parse(Path::new("b.yaml"), &format!("{base}{section}\n")).unwrap_err();
            assert!(
                e.to_string().contains("b.yaml") && e.to_string().contains(key),
                "{e}"
            );
        }
        let ok = Board::parse(
            Path::new("b.yaml"),
            &format!("{base}placement: {{offset_mm: [1, 2], rotation_deg: -3}}\n"),
        )
        .unwrap();
        assert_eq!(ok.placement.unwrap().rotation_deg, -3.0);
        let e =
            Board::parse(Path::new("b.yaml"), "name: x\nsheet: {centre_cm: [0, 0]}\n").unwrap_err();
        assert!(matches!(e, LoadError::Yaml { .. }), "{e}");
        assert!(e.to_string().starts_with("b.yaml:2:"), "{e}");
    }
}
