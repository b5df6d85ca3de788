//! Board calibration: the homography from camera image pixels to the table
//! plane, from ArUco markers at known board positions or from listed /
//! clicked points, saved to and loaded from `config/camera/*.yaml`.
//!
//! Two files are involved:
//! - a **board file** (`config/boards/*.yaml`) describing the physical board:
//!   its pixel mapping, the ArUco markers printed on it and reference points;
//! - a **camera file** (`config/camera/*.yaml`) written by calibration: the
//!   image → table homography and the derived image → board-pixel homography
//!   the detector uses to compare blobs with the game's `camera=` pixels.

use std::path::{Path, PathBuf};

use opencv::core::{Mat, Point2f, Ptr, Vector};
use opencv::prelude::*;
use serde::{Deserialize, Serialize};

use crate::board_model::BoardMapping;
pub use crate::camera_file::CameraCalibration;
use crate::error::{CvContext, Result, VisionError};
use crate::geom::{check_homography_points, Homography};

/// One ArUco marker printed on the board. Its image top faces table +y
/// (image up in the default camera), so its corners in ArUco order
/// (top-left, top-right, bottom-right, bottom-left) are at
/// (cx−s/2, cy+s/2), (cx+s/2, cy+s/2), (cx+s/2, cy−s/2), (cx−s/2, cy−s/2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MarkerSpec {
    pub id: i32,
    /// Centre on the table, cm.
    pub center_cm: [f64; 2],
    /// Side length of the black square (including the black border), cm.
    pub size_cm: f64,
}

impl MarkerSpec {
    /// Table coordinates of the four corners in ArUco order.
    pub fn corners_cm(&self) -> [[f64; 2]; 4] {
        let (x, y, h) = (self.center_cm[0], self.center_cm[1], self.size_cm / 2.0);
        [
            [x - h, y + h],
            [x + h, y + h],
            [x + h, y - h],
            [x - h, y - h],
        ]
    }
}

/// The ArUco section of a board file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArucoSpec {
    /// Predefined dictionary name, e.g. `DICT_4X4_50`.
    pub dictionary: String,
    pub markers: Vec<MarkerSpec>,
}

/// The printed sheet on the table (the `sheet:` section of a board file).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetSpec {
    /// Centre on the table, cm.
    pub centre_cm: [f64; 2],
    /// Extent along x, cm.
    pub width_cm: f64,
    /// Extent along y, cm.
    pub depth_cm: f64,
}

impl SheetSpec {
    /// Lower-left and upper-right corners (cm).
    pub fn bounds(&self) -> ([f64; 2], [f64; 2]) {
        let (hw, hd) = (self.width_cm / 2.0, self.depth_cm / 2.0);
        (
            [self.centre_cm[0] - hw, self.centre_cm[1] - hd],
            [self.centre_cm[0] + hw, self.centre_cm[1] + hd],
        )
    }
}

/// A named point on the table (cm) used for point calibration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RefPoint {
    pub name: String,
    pub cm: [f64; 2],
}

/// The keys of a board file (`config/boards/*.yaml`) the vision code reads;
/// the others (grid, columns, ...) belong to other parts of gamebot.
#[derive(Deserialize)]
struct BoardFile {
    #[serde(default)]
    name: String,
    sheet: Option<SheetSpec>,
    pixels: Option<BoardMapping>,
    aruco: Option<ArucoSpec>,
    calibration_points: Option<Vec<RefPoint>>,
}

/// A board as the camera sees it: pixel mapping, sheet, calibration targets.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardConfig {
    pub name: String,
    /// Board pixel ↔ table mapping (`camera=`/`point=` pixels).
    pub camera_mapping: BoardMapping,
    /// The sheet's extent on the table.
    pub sheet: SheetSpec,
    /// Markers for automatic calibration: the file's `aruco:` section, or
    /// [`default_markers`] when it has none.
    pub aruco: ArucoSpec,
    /// Whether `aruco` came from the file.
    pub aruco_from_file: bool,
    /// Reference points for calibration from clicked/listed image points, in
    /// the order the user gives them: the file's `calibration_points:`, or the
    /// sheet corners (top-left, top-right, bottom-right, bottom-left as seen
    /// from above with the arm at the bottom).
    pub calibration_points: Vec<RefPoint>,
}

/// The project's A4 sheet: landscape, centred on the playing grid at (0, 18) cm.
fn default_sheet() -> SheetSpec {
    SheetSpec {
        centre_cm: [0.0, 18.0],
        width_cm: 29.7,
        depth_cm: 21.0,
    }
}

/// The default marker layout: four 1.6 cm markers (DICT_4X4_50, ids 0–3)
/// printed in the gaps between the 20 cm playing grid (|x| ≤ 10 cm) and the
/// supply columns (|x| ≥ 12.5 cm), near the sheet's corners.
pub fn default_markers() -> ArucoSpec {
    let m = |id, x, y| MarkerSpec {
        id,
        center_cm: [x, y],
        size_cm: 1.6,
    };
    ArucoSpec {
        dictionary: "DICT_4X4_50".into(),
        markers: vec![
            m(0, -11.25, 27.25),
            m(1, 11.25, 27.25),
            m(2, 11.25, 8.75),
            m(3, -11.25, 8.75),
        ],
    }
}

fn sheet_corners(sheet: &SheetSpec) -> Vec<RefPoint> {
    let (lo, hi) = sheet.bounds();
    let p = |name: &str, x, y| RefPoint {
        name: name.into(),
        cm: [x, y],
    };
    vec![
        p("sheet top-left", lo[0], hi[1]),
        p("sheet top-right", hi[0], hi[1]),
        p("sheet bottom-right", hi[0], lo[1]),
        p("sheet bottom-left", lo[0], lo[1]),
    ]
}

impl Default for BoardConfig {
    /// The A4 board of the project conventions.
    fn default() -> Self {
        let sheet = default_sheet();
        BoardConfig {
            name: "a4".into(),
            camera_mapping: BoardMapping::default(),
            sheet,
            aruco: default_markers(),
            aruco_from_file: false,
            calibration_points: sheet_corners(&sheet),
        }
    }
}

impl BoardConfig {
    /// Reads a board file.
    pub fn load(path: impl AsRef<Path>) -> Result<BoardConfig> {
        let path = path.as_ref();
        let text = gamebot_input::read_text(path)?;
        Self::parse(path, &text)
    }

    /// Parses a board file's text (`path` is used in messages).
    pub fn parse(path: &Path, text: &str) -> Result<BoardConfig> {
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
        let f: BoardFile = serde_yaml::from_str(text).map_err(|e| err(e.to_string()))?;
        let mapping = f.pixels.unwrap_or_default();
        let finite = mapping.scale_px_per_cm.is_finite()
            && mapping.origin_cm.iter().all(|v| v.is_finite())
            && mapping.rotation_deg.is_finite();
        if !finite || mapping.scale_px_per_cm <= 0.0 {
            return Err(err(
                "pixels.scale_px_per_cm must be positive and finite".into()
            ));
        }
        let sheet = f.sheet.unwrap_or_else(default_sheet);
        if !(sheet.width_cm > 0.0 && sheet.depth_cm > 0.0) {
            return Err(err("sheet width_cm and depth_cm must be positive".into()));
        }
        if let Some(a) = &f.aruco {
            if dictionary_id(&a.dictionary).is_none() {
                return Err(err(format!("unknown ArUco dictionary `{}`", a.dictionary)));
            }
            if let Some(m) = a
                .markers
                .iter()
                .find(|m| m.size_cm.is_nan() || m.size_cm <= 0.0)
            {
                return Err(err(format!("marker {} has a non-positive size", m.id)));
            }
        }
        Ok(BoardConfig {
            name: f.name,
            camera_mapping: mapping,
            sheet,
            aruco_from_file: f.aruco.is_some(),
            aruco: f.aruco.unwrap_or_else(default_markers),
            calibration_points: f
                .calibration_points
                .unwrap_or_else(|| sheet_corners(&sheet)),
        })
    }
}

/// Estimates the homography from ≥ 4 image points to table points (cm) and
/// packages it as a calibration. Uses all points (least squares); with more
/// than 4 points a RANSAC pass first rejects gross outliers.
pub fn calibrate_from_points(
    image_pts: &[(f64, f64)],
    table_cm: &[(f64, f64)],
    mapping: &BoardMapping,
    image_size: (i32, i32),
    method: &str,
) -> Result<CameraCalibration> {
    // Degenerate sets (too few, coincident, collinear in any orientation,
    // three of four on a line) are refused by conditioning before OpenCV
    // returns a meaningless estimate for them.
    check_homography_points(image_pts, table_cm)
        .map_err(|e| VisionError::Calibration(e.to_string()))?;
    let src: Vector<Point2f> = image_pts
        .iter()
        .map(|&(u, v)| Point2f::new(u as f32, v as f32))
        .collect();
    let dst: Vector<Point2f> = table_cm
        .iter()
        .map(|&(x, y)| Point2f::new(x as f32, y as f32))
        .collect();
    let mut mask = Mat::default();
    let method_flag = if image_pts.len() > 4 {
        opencv::calib3d::RANSAC
    } else {
        0
    };
    // RANSAC threshold is in table units (cm): 0.3 cm ≈ 6 px.
    let h = opencv::calib3d::find_homography(&src, &dst, &mut mask, method_flag, 0.3)
        .cv("estimating the homography")?;
    let h = mat_to_homography(&h).ok_or_else(|| {
        VisionError::Calibration(
            "the points are degenerate (three on a line, or repeated); no homography".into(),
        )
    })?;
    let inv = h
        .inverse()
        .ok_or_else(|| VisionError::Calibration("the estimated homography is singular".into()))?;
    let mut sq = 0.0;
    let mut max: f64 = 0.0;
    for (&(u, v), &(x, y)) in image_pts.iter().zip(table_cm) {
        let (pu, pv) = inv.apply(x, y).ok_or_else(|| {
            VisionError::Calibration(format!("table point ({x}, {y}) maps to infinity"))
        })?;
        let d = ((pu - u).powi(2) + (pv - v).powi(2)).sqrt();
        sq += d * d;
        max = max.max(d);
    }
    let to_px = Homography(mapping.cm_to_px_matrix());
    let c = CameraCalibration {
        image_width: image_size.0,
        image_height: image_size.1,
        method: method.into(),
        board: String::new(),
        image_to_table_cm: h,
        image_to_board_px: to_px.after(&h).normalized(),
        reprojection_rms_px: (sq / image_pts.len() as f64).sqrt(),
        reprojection_max_px: max,
        points: image_pts.len(),
    };
    // Never write a file that would not load again.
    c.validate(Path::new("")).map_err(|e| {
        VisionError::Calibration(format!("the estimated calibration is unusable: {e}"))
    })?;
    Ok(c)
}

/// Converts a 3×3 CV_64F matrix to a [`Homography`]; `None` when empty or not finite.
pub(crate) fn mat_to_homography(m: &Mat) -> Option<Homography> {
    if m.rows() != 3 || m.cols() != 3 {
        return None;
    }
    let mut h = [[0.0; 3]; 3];
    for (i, row) in h.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = *m.at_2d::<f64>(i as i32, j as i32).ok()?;
        }
    }
    let h = Homography(h).normalized();
    h.is_finite().then_some(h)
}

/// Resolves an ArUco dictionary name such as `DICT_4X4_50` to OpenCV's constant.
pub fn dictionary_id(name: &str) -> Option<i32> {
    let n = name.trim().to_ascii_uppercase();
    let n = n.strip_prefix("DICT_").unwrap_or(&n);
    if n == "ARUCO_ORIGINAL" {
        return Some(16);
    }
    let (bits, count) = n.split_once('_')?;
    let bits = match bits {
        "4X4" => 0,
        "5X5" => 1,
        "6X6" => 2,
        "7X7" => 3,
        _ => return None,
    };
    let count = match count {
        "50" => 0,
        "100" => 1,
        "250" => 2,
        "1000" => 3,
        _ => return None,
    };
    Some(bits * 4 + count)
}

/// Loads the predefined dictionary of an ArUco section.
pub(crate) fn dictionary(spec: &ArucoSpec) -> Result<Ptr<opencv::aruco::Dictionary>> {
    let id = dictionary_id(&spec.dictionary).ok_or_else(|| {
        VisionError::Calibration(format!(
            "unknown ArUco dictionary `{}` (use e.g. DICT_4X4_50)",
            spec.dictionary
        ))
    })?;
    opencv::aruco::get_predefined_dictionary_i32(id).cv("loading the ArUco dictionary")
}

/// A marker found in an image.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundMarker {
    pub id: i32,
    /// Corners in ArUco order, image pixels.
    pub corners: [(f64, f64); 4],
}

/// Finds the ArUco markers of `spec`'s dictionary in a BGR or grey image.
pub fn find_markers(image: &Mat, spec: &ArucoSpec) -> Result<Vec<FoundMarker>> {
    let dict = dictionary(spec)?;
    let mut params =
        opencv::aruco::DetectorParameters::create().cv("creating ArUco detector parameters")?;
    params.set_corner_refinement_method(opencv::aruco::CORNER_REFINE_SUBPIX);
    // Small markers (≈ 30 px) under blur need more samples per bit than the default 4.
    params.set_perspective_remove_pixel_per_cell(8);
    let mut corners: Vector<Vector<Point2f>> = Vector::new();
    let mut ids: Vector<i32> = Vector::new();
    let mut rejected: Vector<Vector<Point2f>> = Vector::new();
    opencv::aruco::detect_markers(image, &dict, &mut corners, &mut ids, &params, &mut rejected)
        .cv("detecting ArUco markers")?;
    let mut out = Vec::new();
    for (id, c) in ids.iter().zip(corners.iter()) {
        if c.len() != 4 {
            continue;
        }
        let p = |i: usize| {
            let q = c.get(i).unwrap_or_default();
            (q.x as f64, q.y as f64)
        };
        out.push(FoundMarker {
            id,
            corners: [p(0), p(1), p(2), p(3)],
        });
    }
    out.sort_by_key(|m| m.id);
    Ok(out)
}

/// Calibrates from the ArUco markers of a board file visible in `image`.
/// At least three of the board's markers must be found.
pub fn calibrate_from_aruco(
    image: &Mat,
    board: &BoardConfig,
    board_path: Option<&Path>,
) -> Result<CameraCalibration> {
    let spec = &board.aruco;
    let found = find_markers(image, spec)?;
    let mut img_pts = Vec::new();
    let mut tab_pts = Vec::new();
    let mut used = Vec::new();
    for m in &found {
        let Some(ms) = spec.markers.iter().find(|s| s.id == m.id) else {
            continue;
        };
        if used.contains(&m.id) {
            // A duplicate id means a misdetection or a second printout; don't trust either.
            return Err(VisionError::Calibration(format!(
                "marker {} seen twice in the image",
                m.id
            )));
        }
        used.push(m.id);
        for (ip, tp) in m.corners.iter().zip(ms.corners_cm()) {
            img_pts.push(*ip);
            tab_pts.push((tp[0], tp[1]));
        }
    }
    if used.len() < 3 {
        return Err(VisionError::Calibration(format!(
            "found {} of the board's {} ArUco markers (ids {:?}, dictionary {}{}); need at least 3",
            used.len(),
            spec.markers.len(),
            used,
            spec.dictionary,
            if board.aruco_from_file {
                ""
            } else {
                ", default layout"
            }
        )));
    }
    let size = (image.cols(), image.rows());
    let mut c = calibrate_from_points(&img_pts, &tab_pts, &board.camera_mapping, size, "aruco")?;
    c.board = board_path
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    Ok(c)
}

/// Parses `"u,v u,v u,v u,v"` (clicked or listed image points).
pub fn parse_points(text: &str) -> Result<Vec<(f64, f64)>> {
    text.split_whitespace()
        .map(|p| {
            let (a, b) = p
                .split_once(',')
                .ok_or_else(|| VisionError::Calibration(format!("point `{p}` is not `u,v`")))?;
            let f = |s: &str| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| {
                        VisionError::Calibration(format!("point `{p}`: `{s}` is not a number"))
                    })
            };
            Ok((f(a)?, f(b)?))
        })
        .collect()
}

/// Default location of camera files.
pub fn default_camera_file() -> PathBuf {
    PathBuf::from("config/camera/default.yaml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_board_file_parses() {
        // The shared board file, when present, must agree with the convention.
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/boards/a4.yaml");
        if p.exists() {
            let b = BoardConfig::load(&p).unwrap();
            assert_eq!(b.camera_mapping, BoardMapping::default());
            assert_eq!(b.sheet, default_sheet());
        }
    }

    #[test]
    fn dictionary_names() {
        assert_eq!(dictionary_id("DICT_4X4_50"), Some(0));
        assert_eq!(dictionary_id("dict_6x6_250"), Some(10));
        assert_eq!(dictionary_id("DICT_ARUCO_ORIGINAL"), Some(16));
        assert_eq!(dictionary_id("DICT_9X9_50"), None);
    }

    #[test]
    fn points_calibration_recovers_exact_homography() {
        // A synthetic, slightly tilted view: image = A · table.
        let a = Homography([
            [19.0, 1.5, 330.0],
            [0.8, -20.5, 605.0],
            [0.001, -0.0007, 1.0],
        ]);
        let table = [
            (-14.0, 28.0),
            (14.0, 28.0),
            (14.0, 8.0),
            (-14.0, 8.0),
            (0.0, 18.0),
        ];
        let img: Vec<(f64, f64)> = table.iter().map(|&(x, y)| a.apply(x, y).unwrap()).collect();
        let c = calibrate_from_points(&img, &table, &BoardMapping::default(), (640, 480), "points")
            .unwrap();
        assert!(c.reprojection_max_px < 0.05, "{}", c.reprojection_max_px);
        let inv = a.inverse().unwrap();
        for &(u, v) in &[(100.0, 100.0), (500.0, 400.0)] {
            let p = c.image_to_table_cm.apply(u, v).unwrap();
            let q = inv.apply(u, v).unwrap();
            assert!((p.0 - q.0).abs() < 1e-3 && (p.1 - q.1).abs() < 1e-3);
        }
    }

    #[test]
    fn degenerate_points_are_rejected() {
        let calib = |img: &[(f64, f64)], tab: &[(f64, f64)]| {
            calibrate_from_points(img, tab, &BoardMapping::default(), (640, 480), "p")
                .unwrap_err()
                .to_string()
        };
        let sheet = [(-14.0, 28.0), (14.0, 28.0), (14.0, 8.0), (-14.0, 8.0)];
        // Collinear image points, horizontal or not (the diagonal gave
        // a homography with 6e17 entries and exit 0).
        for img in [
            [(0.0, 0.0), (10.0, 0.0), (20.0, 0.0), (30.0, 0.0)],
            [(0.0, 0.0), (10.0, 10.0), (20.0, 20.0), (30.0, 30.0)],
            [(100.0, 7.0), (100.0, 80.0), (100.0, 200.0), (100.0, 300.0)],
        ] {
            let e = calib(&img, &sheet);
            assert!(e.contains("image points lie on one line"), "{img:?}: {e}");
        }
        let e = calib(
            &[(0.0, 0.0), (600.0, 0.0), (0.0, 0.0), (0.0, 400.0)],
            &sheet,
        );
        assert!(
            e.contains("image points 1 and 3 are at the same place"),
            "{e}"
        );
        let e = calib(&[(0.0, 0.0), (600.0, 0.0), (600.0, 400.0)], &sheet[..3]);
        assert!(e.contains("need at least 4 point pairs, got 3"), "{e}");
    }

    #[test]
    fn parse_points_errors_name_the_point() {
        assert_eq!(
            parse_points("1,2 3.5,4").unwrap(),
            vec![(1.0, 2.0), (3.5, 4.0)]
        );
        let e = parse_points("1,2 3;4").unwrap_err().to_string();
        assert!(e.contains("3;4"), "{e}");
        let e = parse_points("1,x").unwrap_err().to_string();
        assert!(e.contains("`x`"), "{e}");
    }

    #[test]
    fn board_file_defaults_and_unknown_keys() {
        let b = BoardConfig::parse(
            Path::new("b.yaml"),
            "name: x\ngrid: {size_cm: 20}\npixels: {width_px: 640, scale_px_per_cm: 10, origin_cm: [0, 0], y_flipped: false}\n",
        )
        .unwrap();
        assert_eq!(b.camera_mapping.scale_px_per_cm, 10.0);
        assert!(!b.camera_mapping.y_flipped);
        assert!(!b.aruco_from_file);
        assert_eq!(b.aruco, default_markers());
        assert_eq!(b.calibration_points.len(), 4);
        let e = BoardConfig::parse(Path::new("b.yaml"), "pixels: 3").unwrap_err();
        assert!(e.to_string().starts_with("b.yaml:"), "{e}");
        let e = BoardConfig::parse(
            Path::new("b.yaml"),
            "aruco: {dictionary: DICT_3X3_9, markers: []}",
        )
        .unwrap_err();
        assert!(e.to_string().contains("DICT_3X3_9"), "{e}");
    }
}
