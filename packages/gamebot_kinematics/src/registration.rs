//! Board-to-arm registration: where the sheet really lies.
//!
//! The board file gives the sheet's nominal position in the arm's base frame;
//! the real sheet is never exactly there. A person puts the tool tip on at
//! least three marked points of the sheet ([`Board::marks`]); [`fit`] finds the
//! rigid motion of the table plane (a turn about the vertical and a shift, plus
//! a height offset of the surface) that takes the nominal marks onto the
//! measured tool tips, by least squares (2-D Kabsch), with the residual of
//! every point. The result is a [`Placement`], saved in the board file
//! ([`write_placement`]) and applied by [`Board::to_arm_cm`] wherever a
//! location becomes an arm-frame position.
//!
//! Invariants: the fit is independent of the order of the points; a set that
//! does not fix a rigid motion (fewer than three points, points on a line,
//! two points in one place) is refused, never fitted; a fit outside the
//! ranges a board file accepts ([`Placement::check`]) is refused too, so a
//! saved placement always loads again.

use crate::placement::Board;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Largest shift of the sheet (mm, each axis) a placement may give.
pub const MAX_OFFSET_MM: f64 = 100.0;
/// Largest turn of the sheet (degrees) a placement may give.
pub const MAX_ROTATION_DEG: f64 = 30.0;
/// Largest height offset of the surface (mm) a placement may give.
pub const MAX_SURFACE_OFFSET_MM: f64 = 30.0;
/// Two points closer than this (mm) are one point.
pub const MIN_SEPARATION_MM: f64 = 5.0;
/// Points whose spread across their best line is below this (mm) are on a line.
pub const MIN_SPREAD_MM: f64 = 5.0;
/// A point farther than this (mm) from the fitted placement was not recorded
/// at its mark: the fit is refused.
pub const MAX_RESIDUAL_MM: f64 = 15.0;

/// How the real sheet lies relative to where the board file's `sheet`,
/// `grid`, `pixels` and the games' `robot=` coordinates put it: turned by
/// `rotation_deg` (counter-clockwise, seen from above) about the nominal
/// sheet centre, then shifted by `offset_mm`; the surface `surface_offset_mm`
/// higher. The `placement:` section of a board file.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Shift of the sheet along x and y of the arm's base frame (mm).
    pub offset_mm: [f64; 2],
    /// Counter-clockwise turn about the nominal sheet centre (degrees).
    pub rotation_deg: f64,
    /// Height of the real surface above the nominal one (mm).
    #[serde(default)]
    pub surface_offset_mm: f64,
}

impl Placement {
    /// The placement that changes nothing.
    pub const IDENTITY: Placement = Placement {
        offset_mm: [0.0, 0.0],
        rotation_deg: 0.0,
        surface_offset_mm: 0.0,
    };

    /// Where a nominal point (cm, base frame) really is, the sheet centre
    /// being `centre_cm`.
    pub fn apply_cm(&self, centre_cm: [f64; 2], p: [f64; 3]) -> [f64; 3] {
        let (s, c) = self.rotation_deg.to_radians().sin_cos();
        let (dx, dy) = (p[0] - centre_cm[0], p[1] - centre_cm[1]);
        [
            centre_cm[0] + c * dx - s * dy + self.offset_mm[0] / 10.0,
            centre_cm[1] + s * dx + c * dy + self.offset_mm[1] / 10.0,
            p[2] + self.surface_offset_mm / 10.0,
        ]
    }

    /// The nominal point (cm) of a real one: the inverse of [`Placement::apply_cm`].
    pub fn invert_cm(&self, centre_cm: [f64; 2], p: [f64; 3]) -> [f64; 3] {
        let (s, c) = self.rotation_deg.to_radians().sin_cos();
        let dx = p[0] - self.offset_mm[0] / 10.0 - centre_cm[0];
        let dy = p[1] - self.offset_mm[1] / 10.0 - centre_cm[1];
        [
            centre_cm[0] + c * dx + s * dy,
            centre_cm[1] - s * dx + c * dy,
            p[2] - self.surface_offset_mm / 10.0,
        ]
    }

    /// Whether this placement changes nothing.
    pub fn is_identity(&self) -> bool {
        *self == Placement::IDENTITY
    }

    /// Checks the numbers: finite and within the ranges above; the error names the key.
    pub fn check(&self) -> Result<(), PlacementRangeError> {
        let keys = [
            ("offset_mm[0]", self.offset_mm[0], MAX_OFFSET_MM),
            ("offset_mm[1]", self.offset_mm[1], MAX_OFFSET_MM),
            ("rotation_deg", self.rotation_deg, MAX_ROTATION_DEG),
            (
                "surface_offset_mm",
                self.surface_offset_mm,
                MAX_SURFACE_OFFSET_MM,
            ),
        ];
        for (key, value, max) in keys {
            if !value.is_finite() || value.abs() > max {
                return Err(PlacementRangeError { key, value, max });
            }
        }
        Ok(())
    }
}

/// A placement number that is not finite or out of its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("placement.{key} = {value} is out of range (finite, at most {max} in size)")]
pub struct PlacementRangeError {
    /// The key, e.g. `rotation_deg`.
    pub key: &'static str,
    pub value: f64,
    pub max: f64,
}

/// A point of the sheet a person puts the tool tip on.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// What it is, e.g. `the grid's far-left corner`.
    pub name: String,
    /// Nominal position (cm, base frame; z = the board surface).
    pub nominal_cm: [f64; 3],
}

impl Board {
    /// The points a person jogs the tool tip onto: the four corners of the
    /// playing grid when the board has one (far-left, far-right, near-right,
    /// near-left; "far" is away from the arm), else the sheet's corners
    /// 2 cm in from each edge.
    pub fn marks(&self) -> Vec<Mark> {
        let z = self.pixels.surface_z_cm;
        let (name, c, hx, hy) = match &self.grid {
            Some(g) => ("grid", g.centre_cm, g.size_cm / 2.0, g.size_cm / 2.0),
            None => (
                "sheet (2 cm in)",
                self.sheet.centre_cm,
                (self.sheet.width_cm / 2.0 - 2.0).max(0.0),
                (self.sheet.depth_cm / 2.0 - 2.0).max(0.0),
            ),
        };
        [
            ("far-left", -hx, hy),
            ("far-right", hx, hy),
            ("near-right", hx, -hy),
            ("near-left", -hx, -hy),
        ]
        .into_iter()
        .map(|(corner, dx, dy)| Mark {
            name: format!("the {name}'s {corner} corner"),
            nominal_cm: [c[0] + dx, c[1] + dy, z],
        })
        .collect()
    }

    /// The nominal sheet centre (cm), the pivot of the placement's turn.
    pub fn sheet_centre_cm(&self) -> [f64; 2] {
        self.sheet.centre_cm
    }

    /// Where a point given in the board's nominal frame (cm: `robot=`
    /// coordinates, a `point=` pixel mapped by [`Board::pixel_to_table_cm`],
    /// a mark) really is in the arm's base frame: through the board's
    /// `placement:`, unchanged when it has none.
    pub fn to_arm_cm(&self, p: [f64; 3]) -> [f64; 3] {
        match &self.placement {
            Some(pl) => pl.apply_cm(self.sheet.centre_cm, p),
            None => p,
        }
    }
}

/// One recorded point: the mark's nominal position and where the tool tip was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointPair {
    /// Nominal position (mm, base frame).
    pub nominal_mm: [f64; 3],
    /// Measured tool tip (mm, base frame).
    pub measured_mm: [f64; 3],
}

/// A fitted placement with how well it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub placement: Placement,
    /// Per point: distance (mm) between the placed nominal point and the measured one.
    pub residuals_mm: Vec<f64>,
    /// Root mean square of the residuals (mm).
    pub rms_mm: f64,
}

impl Fit {
    /// The largest residual (mm).
    pub fn max_mm(&self) -> f64 {
        self.residuals_mm.iter().copied().fold(0.0, f64::max)
    }
}

/// Why a set of points gives no placement.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("{given} point(s) recorded: at least 3 are needed to fix the sheet's placement")]
    TooFewPoints { given: usize },
    #[error("point {index} has a coordinate that is not a finite number")]
    NonFinite { index: usize },
    #[error("points {a} and {b} are {distance_mm:.1} mm apart ({which}): record distinct marks (at least {MIN_SEPARATION_MM} mm apart)")]
    Coincident {
        a: usize,
        b: usize,
        /// `nominal` (the same mark twice) or `measured` (the tool did not move).
        which: &'static str,
        distance_mm: f64,
    },
    #[error("the points lie on a line (spread {spread_mm:.1} mm across it, at least {MIN_SPREAD_MM} mm needed): record a mark off that line")]
    Collinear { spread_mm: f64 },
    #[error("the fitted placement is implausible: {0}; check that each point was recorded at the mark it was asked for")]
    OutOfRange(#[source] PlacementRangeError),
    #[error("point {index} lies {residual_mm:.1} mm from where the fit puts its mark (at most {MAX_RESIDUAL_MM} mm): was it recorded at the mark it was asked for? undo it and record it again")]
    Inconsistent { index: usize, residual_mm: f64 },
}

/// Fits the placement taking `pairs`' nominal points (sheet centre
/// `centre_mm`, the turn's pivot) onto the measured ones. Point numbers in
/// errors are 1-based, as a person counts them.
pub fn fit(pairs: &[PointPair], centre_mm: [f64; 2]) -> Result<Fit, FitError> {
    let n = pairs.len();
    if n < 3 {
        return Err(FitError::TooFewPoints { given: n });
    }
    if let Some(i) = pairs.iter().position(|p| {
        !p.nominal_mm
            .iter()
            .chain(&p.measured_mm)
            .all(|v| v.is_finite())
    }) {
        return Err(FitError::NonFinite { index: i + 1 });
    }
    let d2 = |a: [f64; 3], b: [f64; 3]| (a[0] - b[0]).hypot(a[1] - b[1]);
    for i in 0..n {
        for j in i + 1..n {
            for (which, a, b) in [
                ("nominal", pairs[i].nominal_mm, pairs[j].nominal_mm),
                ("measured", pairs[i].measured_mm, pairs[j].measured_mm),
            ] {
                let d = d2(a, b);
                if d < MIN_SEPARATION_MM {
                    return Err(FitError::Coincident {
                        a: i + 1,
                        b: j + 1,
                        which,
                        distance_mm: d,
                    });
                }
            }
        }
    }
    let nf = n as f64;
    let mean = |f: &dyn Fn(&PointPair) -> [f64; 3]| {
        let s = pairs
            .iter()
            .map(f)
            .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
        [s[0] / nf, s[1] / nf, s[2] / nf]
    };
    let an = mean(&|p| p.nominal_mm);
    let bm = mean(&|p| p.measured_mm);
    // Spread of the nominal points across their best line: the smaller
    // eigenvalue of their 2×2 covariance.
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    let (mut h_cos, mut h_sin) = (0.0, 0.0);
    for p in pairs {
        let (ax, ay) = (p.nominal_mm[0] - an[0], p.nominal_mm[1] - an[1]);
        let (bx, by) = (p.measured_mm[0] - bm[0], p.measured_mm[1] - bm[1]);
        sxx += ax * ax;
        syy += ay * ay;
        sxy += ax * ay;
        h_cos += ax * bx + ay * by;
        h_sin += ax * by - ay * bx;
    }
    let half_trace = 0.5 * (sxx + syy);
    let det = sxx * syy - sxy * sxy;
    let lambda_min = half_trace - (half_trace * half_trace - det).max(0.0).sqrt();
    let spread_mm = (lambda_min.max(0.0) / nf).sqrt();
    if spread_mm < MIN_SPREAD_MM {
        return Err(FitError::Collinear { spread_mm });
    }
    // 2-D Kabsch: the turn maximising Σ bᵢ·R aᵢ, then the shift of the means.
    let theta = h_sin.atan2(h_cos);
    let (s, c) = theta.sin_cos();
    let rot = |x: f64, y: f64| [c * x - s * y, s * x + c * y];
    // b = R (a − centre) + centre + t  ⇒  t = b̄ − centre − R (ā − centre).
    let ra = rot(an[0] - centre_mm[0], an[1] - centre_mm[1]);
    let placement = Placement {
        offset_mm: [bm[0] - centre_mm[0] - ra[0], bm[1] - centre_mm[1] - ra[1]],
        rotation_deg: theta.to_degrees(),
        surface_offset_mm: bm[2] - an[2],
    };
    placement.check().map_err(FitError::OutOfRange)?;
    let centre_cm = [centre_mm[0] / 10.0, centre_mm[1] / 10.0];
    let residuals_mm: Vec<f64> = pairs
        .iter()
        .map(|p| {
            let a = p.nominal_mm.map(|v| v / 10.0);
            let q = placement.apply_cm(centre_cm, a).map(|v| v * 10.0);
            let d = [
                q[0] - p.measured_mm[0],
                q[1] - p.measured_mm[1],
                q[2] - p.measured_mm[2],
            ];
            (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
        })
        .collect();
    if let Some((i, r)) = residuals_mm
        .iter()
        .enumerate()
        // The worst point, the first of equals.
        .reduce(|a, b| if b.1 > a.1 { b } else { a })
        .filter(|(_, r)| **r > MAX_RESIDUAL_MM)
    {
        return Err(FitError::Inconsistent {
            index: i + 1,
            residual_mm: *r,
        });
    }
    let rms_mm = (residuals_mm.iter().map(|r| r * r).sum::<f64>() / nf).sqrt();
    Ok(Fit {
        placement,
        residuals_mm,
        rms_mm,
    })
}

/// A registration in progress: the board's marks, asked for in order, and
/// the tool tips recorded for them so far. Pure bookkeeping (the CLI and the
/// web wizard drive the arm around it).
#[derive(Clone, Debug)]
pub struct Session {
    marks: Vec<Mark>,
    centre_mm: [f64; 2],
    /// Measured tool tips (mm), one per mark, in the marks' order.
    recorded: Vec<[f64; 3]>,
}

impl Session {
    /// A session for `board`'s marks ([`Board::marks`]).
    pub fn new(board: &Board) -> Session {
        let c = board.sheet_centre_cm();
        Session {
            marks: board.marks(),
            centre_mm: [c[0] * 10.0, c[1] * 10.0],
            recorded: Vec::new(),
        }
    }

    /// Every mark, in the order they are asked for.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The mark to record next (0-based index), if any is left.
    pub fn next_mark(&self) -> Option<(usize, &Mark)> {
        let i = self.recorded.len();
        self.marks.get(i).map(|m| (i, m))
    }

    /// The measured tool tips so far (mm), one per mark in order.
    pub fn recorded(&self) -> &[[f64; 3]] {
        &self.recorded
    }

    /// Records the tool tip (mm) for the next mark; returns its index, or
    /// `None` when every mark is recorded already.
    pub fn record(&mut self, measured_mm: [f64; 3]) -> Option<usize> {
        if self.recorded.len() >= self.marks.len() {
            return None;
        }
        self.recorded.push(measured_mm);
        Some(self.recorded.len() - 1)
    }

    /// Forgets the last recorded point; returns its mark's index.
    pub fn undo(&mut self) -> Option<usize> {
        self.recorded.pop().map(|_| self.recorded.len())
    }

    /// The recorded points with their marks' nominal positions (mm).
    pub fn pairs(&self) -> Vec<PointPair> {
        self.marks
            .iter()
            .zip(&self.recorded)
            .map(|(m, r)| PointPair {
                nominal_mm: m.nominal_cm.map(|v| v * 10.0),
                measured_mm: *r,
            })
            .collect()
    }

    /// The placement fitted to the points so far.
    pub fn fit(&self) -> Result<Fit, FitError> {
        fit(&self.pairs(), self.centre_mm)
    }
}

/// Saving a placement into a board file failed.
#[derive(Debug, thiserror::Error)]
pub enum WritePlacementError {
    #[error("{path}: cannot read the board file: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: crate::error::LoadError,
    },
    #[error("{path}: cannot write the board file: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: the board file would not load with the new placement: {source}")]
    Invalid {
        path: PathBuf,
        #[source]
        source: crate::error::LoadError,
    },
}

/// The first line of the section [`placement_section`] writes.
const SECTION_COMMENT: &str = "# Board-to-arm registration";

/// The `placement:` section's text (with a comment saying how it was made).
pub fn placement_section(p: &Placement, fit: Option<&Fit>) -> String {
    let mut s =
        format!("{SECTION_COMMENT} (gamebot calibrate board-to-arm): where the real sheet lies\n");
    match fit {
        Some(f) => s.push_str(&format!(
            "# relative to the nominal one; fitted from {} points, residual rms {:.2} mm, max {:.2} mm.\n",
            f.residuals_mm.len(),
            f.rms_mm,
            f.max_mm()
        )),
        None => s.push_str("# relative to the nominal one.\n"),
    }
    // Rounded as written, without a "-0.00" (-0 + 0 is +0).
    let r = |v: f64, k: f64| (v * k).round() / k + 0.0;
    s.push_str(&format!(
        "placement:\n  offset_mm: [{:.2}, {:.2}]   # shift along x, y\n  rotation_deg: {:.3}        # counter-clockwise, about the sheet centre\n  surface_offset_mm: {:.2}   # real surface above the nominal one\n",
        r(p.offset_mm[0], 100.0),
        r(p.offset_mm[1], 100.0),
        r(p.rotation_deg, 1000.0),
        r(p.surface_offset_mm, 100.0)
    ));
    s
}

/// `text` with its `placement:` section (and the comment lines written
/// just above it by [`placement_section`]) replaced by `section`, or
/// `section` appended when there is none. Every other line is kept as it
/// is, comments included.
pub fn replace_placement_section(text: &str, section: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with(SECTION_COMMENT) {
            // Our own comment block: drop it with the section below it.
            let mut j = i;
            while j < lines.len() && lines[j].starts_with('#') {
                j += 1;
            }
            if j < lines.len() && lines[j].starts_with("placement:") {
                i = j;
                continue;
            }
        }
        if l.starts_with("placement:") {
            i += 1;
            // The section's body: indented lines (and blank lines between them).
            while i < lines.len()
                && (lines[i].starts_with(' ') || lines[i].starts_with('\t') || lines[i].is_empty())
            {
                if lines[i].is_empty()
                    && !lines[i + 1..]
                        .iter()
                        .find(|l| !l.is_empty())
                        .is_some_and(|l| l.starts_with(' ') || l.starts_with('\t'))
                {
                    break;
                }
                i += 1;
            }
            continue;
        }
        out.push(l);
        i += 1;
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    let mut s = out.join("\n");
    if !s.is_empty() {
        s.push('\n');
    }
    s.push_str(section);
    s
}

/// Writes the board file `from` with `placement` to `to` (the same path to
/// update it in place): only the `placement:` section changes (see
/// [`replace_placement_section`]); the new text is parsed before anything is
/// written, and goes through a temporary file in `to`'s directory renamed
/// over `to`, so a failed save leaves `to` as it was.
pub fn write_placement(
    from: &Path,
    to: &Path,
    placement: &Placement,
    fit: Option<&Fit>,
) -> Result<Board, WritePlacementError> {
    let text = crate::arm::read(from).map_err(|source| WritePlacementError::Read {
        path: from.to_path_buf(),
        source,
    })?;
    let new = replace_placement_section(&text, &placement_section(placement, fit));
    let board = Board::parse(to, &new).map_err(|source| WritePlacementError::Invalid {
        path: to.to_path_buf(),
        source,
    })?;
    let write_err = |source| WritePlacementError::Write {
        path: to.to_path_buf(),
        source,
    };
    let dir = to
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = to.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.as_deref().unwrap_or("board"),
        std::process::id()
    ));
    std::fs::write(&tmp, new.as_bytes()).map_err(write_err)?;
    if let Err(e) = std::fs::rename(&tmp, to) {
        let _ = std::fs::remove_file(&tmp);
        return Err(write_err(e));
    }
    tracing::info!(path = %to.display(), ?placement, "board placement saved");
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CENTRE_MM: [f64; 2] = [0.0, 180.0];

    fn pairs_for(truth: &Placement, nominal_mm: &[[f64; 3]], noise: &[[f64; 3]]) -> Vec<PointPair> {
        let c = [CENTRE_MM[0] / 10.0, CENTRE_MM[1] / 10.0];
        nominal_mm
            .iter()
            .zip(noise.iter().chain(std::iter::repeat(&[0.0; 3])))
            .map(|(a, e)| {
                let b = truth.apply_cm(c, a.map(|v| v / 10.0)).map(|v| v * 10.0);
                PointPair {
                    nominal_mm: *a,
                    measured_mm: [b[0] + e[0], b[1] + e[1], b[2] + e[2]],
                }
            })
            .collect()
    }

    const GRID: [[f64; 3]; 4] = [
        [-100.0, 280.0, 0.0],
        [100.0, 280.0, 0.0],
        [100.0, 80.0, 0.0],
        [-100.0, 80.0, 0.0],
    ];

    #[test]
    fn an_exact_placement_is_recovered_with_zero_residuals() {
        let truth = Placement {
            offset_mm: [7.0, -4.0],
            rotation_deg: 1.5,
            surface_offset_mm: 1.2,
        };
        let f = fit(&pairs_for(&truth, &GRID, &[]), CENTRE_MM).unwrap();
        assert!((f.placement.offset_mm[0] - 7.0).abs() < 1e-9, "{f:?}");
        assert!((f.placement.offset_mm[1] + 4.0).abs() < 1e-9, "{f:?}");
        assert!((f.placement.rotation_deg - 1.5).abs() < 1e-9, "{f:?}");
        assert!((f.placement.surface_offset_mm - 1.2).abs() < 1e-9, "{f:?}");
        assert!(f.rms_mm < 1e-9 && f.residuals_mm.len() == 4);
    }

    #[test]
    fn apply_and_invert_are_inverse() {
        let p = Placement {
            offset_mm: [-12.0, 3.5],
            rotation_deg: -4.0,
            surface_offset_mm: -2.0,
        };
        let c = [1.0, 18.0];
        let q = [-7.0, 25.0, 0.3];
        let r = p.invert_cm(c, p.apply_cm(c, q));
        assert!(
            q.iter().zip(&r).all(|(a, b)| (a - b).abs() < 1e-12),
            "{r:?}"
        );
        assert_eq!(Placement::IDENTITY.apply_cm(c, q), q);
    }

    #[test]
    fn degenerate_sets_are_refused_with_the_reason() {
        let t = Placement::IDENTITY;
        let two = pairs_for(&t, &GRID[..2], &[]);
        assert_eq!(
            fit(&two, CENTRE_MM).unwrap_err(),
            FitError::TooFewPoints { given: 2 }
        );
        let line = [[-100.0, 180.0, 0.0], [0.0, 181.0, 0.0], [100.0, 182.0, 0.0]];
        let e = fit(&pairs_for(&t, &line, &[]), CENTRE_MM).unwrap_err();
        assert!(
            matches!(e, FitError::Collinear { spread_mm } if spread_mm < 1.0),
            "{e}"
        );
        assert!(e.to_string().contains("on a line"), "{e}");
        let twice = [GRID[0], GRID[1], [GRID[0][0] + 1.0, GRID[0][1], 0.0]];
        let e = fit(&pairs_for(&t, &twice, &[]), CENTRE_MM).unwrap_err();
        assert!(
            matches!(
                e,
                FitError::Coincident {
                    a: 1,
                    b: 3,
                    which: "nominal",
                    ..
                }
            ),
            "{e}"
        );
        // The tool did not move between two marks.
        let mut stuck = pairs_for(&t, &GRID[..3], &[]);
        stuck[2].measured_mm = stuck[1].measured_mm;
        let e = fit(&stuck, CENTRE_MM).unwrap_err();
        assert!(
            matches!(
                e,
                FitError::Coincident {
                    a: 2,
                    b: 3,
                    which: "measured",
                    ..
                }
            ),
            "{e}"
        );
        let mut nan = pairs_for(&t, &GRID, &[]);
        nan[3].measured_mm[1] = f64::NAN;
        assert_eq!(
            fit(&nan, CENTRE_MM).unwrap_err(),
            FitError::NonFinite { index: 4 }
        );
        // Every mark recorded one corner on: a quarter turn, refused.
        let exact = pairs_for(&t, &GRID, &[]);
        let turned: Vec<PointPair> = (0..4)
            .map(|i| PointPair {
                nominal_mm: GRID[i],
                measured_mm: exact[(i + 1) % 4].measured_mm,
            })
            .collect();
        let e = fit(&turned, CENTRE_MM).unwrap_err();
        assert!(
            matches!(&e, FitError::OutOfRange(r) if r.key == "rotation_deg"),
            "{e}"
        );
        // Two marks swapped: no rigid placement fits, the worst point is named.
        let mut swapped = exact.clone();
        let m0 = swapped[0].measured_mm;
        swapped[0].measured_mm = swapped[2].measured_mm;
        swapped[2].measured_mm = m0;
        let e = fit(&swapped, CENTRE_MM).unwrap_err();
        assert!(matches!(e, FitError::Inconsistent { index: 1, .. }), "{e}");
        assert!(e.to_string().contains("point 1 lies 282.8 mm"), "{e}");
    }

    #[test]
    fn a_session_asks_for_the_marks_in_order_and_fits_from_three() {
        let b = Board::load_named("a4").unwrap();
        let mut s = Session::new(&b);
        assert_eq!(s.next_mark().unwrap().0, 0);
        let truth = Placement {
            offset_mm: [3.0, 2.0],
            rotation_deg: -0.5,
            surface_offset_mm: 0.0,
        };
        let at = |m: &Mark| truth.apply_cm([0.0, 18.0], m.nominal_cm).map(|v| v * 10.0);
        let marks = s.marks().to_vec();
        assert_eq!(s.record(at(&marks[0])), Some(0));
        assert_eq!(s.record(at(&marks[1])), Some(1));
        assert_eq!(s.fit().unwrap_err(), FitError::TooFewPoints { given: 2 });
        // A wrong point, taken back.
        assert_eq!(s.record([0.0, 0.0, 0.0]), Some(2));
        assert_eq!(s.undo(), Some(2));
        s.record(at(&marks[2]));
        s.record(at(&marks[3]));
        assert_eq!(s.record([1.0, 1.0, 0.0]), None, "only four marks");
        let f = s.fit().unwrap();
        assert!(
            (f.placement.rotation_deg + 0.5).abs() < 1e-9 && f.rms_mm < 1e-9,
            "{f:?}"
        );
    }

    #[test]
    fn marks_are_the_grid_corners_or_the_sheet_corners() {
        let b = Board::load_named("a4").unwrap();
        let m = b.marks();
        assert_eq!(m.len(), 4);
        assert_eq!(m[0].name, "the grid's far-left corner");
        assert_eq!(m[0].nominal_cm, [-10.0, 28.0, 0.0]);
        assert_eq!(m[2].nominal_cm, [10.0, 8.0, 0.0]);
        let text = "name: t\nsheet: {centre_cm: [0, 18], width_cm: 29.7, depth_cm: 21}\npixels: {width_px: 640, height_px: 480, scale_px_per_cm: 20, origin_cm: [-16, 30]}\n";
        let b = Board::parse(Path::new("t.yaml"), text).unwrap();
        let m = b.marks();
        assert_eq!(m[1].name, "the sheet (2 cm in)'s far-right corner");
        assert!((m[1].nominal_cm[0] - 12.85).abs() < 1e-9 && m[1].nominal_cm[1] == 26.5);
    }

    #[test]
    fn the_section_is_replaced_and_every_other_line_kept() {
        let text = "# head comment\nname: a4\n# sheet comment\nsheet: {centre_cm: [0.0, 18.0], width_cm: 29.7, depth_cm: 21.0}\npixels:\n  width_px: 640   # w\n  height_px: 480\n  scale_px_per_cm: 20.0\n  origin_cm: [-16.0, 30.0]\n";
        let p = Placement {
            offset_mm: [7.0, -4.0],
            rotation_deg: 1.5,
            surface_offset_mm: 0.0,
        };
        let once = replace_placement_section(text, &placement_section(&p, None));
        assert!(once.starts_with(text), "{once}");
        let tiny = Placement {
            surface_offset_mm: -0.001,
            ..p
        };
        assert!(placement_section(&tiny, None).contains("surface_offset_mm: 0.00 "));
        let b = Board::parse(Path::new("x.yaml"), &once).unwrap();
        assert_eq!(b.placement, Some(p));
        // Again, with another placement: one section, the rest unchanged.
        let q = Placement {
            rotation_deg: -2.0,
            ..p
        };
        let twice = replace_placement_section(&once, &placement_section(&q, None));
        assert!(twice.starts_with(text), "{twice}");
        assert_eq!(twice.matches("placement:").count(), 1, "{twice}");
        assert_eq!(twice.matches(SECTION_COMMENT).count(), 1, "{twice}");
        let b = Board::parse(Path::new("x.yaml"), &twice).unwrap();
        assert_eq!(b.placement, Some(q));
        // A hand-written section in the middle of the file is replaced where it was taken out.
        let mid = "name: a4\nplacement:\n  offset_mm: [1, 2]\n  rotation_deg: 0\n\nsheet: {centre_cm: [0.0, 18.0], width_cm: 29.7, depth_cm: 21.0}\npixels: {width_px: 1, height_px: 1, scale_px_per_cm: 2, origin_cm: [0, 0]}\n";
        let r = replace_placement_section(mid, &placement_section(&q, None));
        assert_eq!(r.matches("placement:").count(), 1, "{r}");
        assert!(r.starts_with("name: a4\n\nsheet:"), "{r}");
        assert_eq!(
            Board::parse(Path::new("x.yaml"), &r).unwrap().placement,
            Some(q)
        );
    }

    #[test]
    fn writing_keeps_the_file_loadable_and_reports_the_path() {
        let dir = std::env::temp_dir().join(format!("gamebot-reg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a4.yaml");
        let a4 = std::fs::read_to_string(crate::find_board_config("a4")).unwrap();
        std::fs::write(&path, &a4).unwrap();
        let p = Placement {
            offset_mm: [7.0, -4.0],
            rotation_deg: 1.5,
            surface_offset_mm: 0.0,
        };
        let b = write_placement(&path, &path, &p, None).unwrap();
        assert_eq!(b.placement, Some(p));
        let back = Board::load(&path).unwrap();
        assert_eq!(back.placement, Some(p));
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .starts_with(a4.trim_end()));
        let missing = dir.join("nope.yaml");
        let e = write_placement(&missing, &missing, &p, None).unwrap_err();
        assert!(
            matches!(e, WritePlacementError::Read { .. }) && e.to_string().contains("nope.yaml"),
            "{e}"
        );
        // A place that cannot be written (no such directory, even for root).
        let nowhere = dir.join("no-dir").join("a4.yaml");
        let e = write_placement(&path, &nowhere, &p, None).unwrap_err();
        assert!(
            matches!(e, WritePlacementError::Write { .. })
                && e.to_string().contains("no-dir/a4.yaml: cannot write"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn placement() -> impl Strategy<Value = Placement> {
        (-30.0..30.0f64, -30.0..30.0f64, -10.0..10.0f64, -3.0..3.0f64).prop_map(|(x, y, r, z)| {
            Placement {
                offset_mm: [x, y],
                rotation_deg: r,
                surface_offset_mm: z,
            }
        })
    }

    /// Spread (mm) of points across their best line, as `fit` measures it.
    fn spread_mm(v: &[[f64; 3]]) -> f64 {
        let n = v.len() as f64;
        let (mx, my) = (
            v.iter().map(|p| p[0]).sum::<f64>() / n,
            v.iter().map(|p| p[1]).sum::<f64>() / n,
        );
        let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
        for p in v {
            let (x, y) = (p[0] - mx, p[1] - my);
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
        }
        let h = 0.5 * (sxx + syy);
        let l = h - (h * h - (sxx * syy - sxy * sxy)).max(0.0).sqrt();
        (l.max(0.0) / n).sqrt()
    }

    fn sheet_points() -> impl Strategy<Value = Vec<[f64; 3]>> {
        // 3–8 marks on the sheet (a coarse grid, so never two in one place),
        // spread at least 30 mm across any line, as marks a person is given are.
        proptest::sample::subsequence(
            (0..24)
                .map(|k| {
                    [
                        -120.0 + 48.0 * (k % 6) as f64,
                        90.0 + 60.0 * (k / 6) as f64,
                        0.0,
                    ]
                })
                .collect::<Vec<_>>(),
            3..=8,
        )
        .prop_filter("spread across a line", |v| spread_mm(v) >= 30.0)
    }

    proptest! {
        #[test]
        fn a_rigid_placement_with_noise_is_recovered(
            truth in placement(),
            nominal in sheet_points(),
            noise in proptest::collection::vec(
                proptest::array::uniform3(-0.2..0.2f64), 8),
        ) {
            let f = fit(&pairs_for(&truth, &nominal, &noise), CENTRE_MM).unwrap();
            let p = f.placement;
            prop_assert!((p.offset_mm[0] - truth.offset_mm[0]).abs() < 1.0, "{p:?} vs {truth:?}");
            prop_assert!((p.offset_mm[1] - truth.offset_mm[1]).abs() < 1.0, "{p:?} vs {truth:?}");
            prop_assert!((p.rotation_deg - truth.rotation_deg).abs() < 0.3, "{p:?} vs {truth:?}");
            prop_assert!((p.surface_offset_mm - truth.surface_offset_mm).abs() < 0.3);
            // Noise of at most 0.2 mm per axis leaves residuals below a millimetre.
            prop_assert!(f.max_mm() < 1.1, "{f:?}");
        }

        #[test]
        fn the_fit_does_not_depend_on_the_order_of_the_points(
            truth in placement(),
            nominal in sheet_points(),
            noise in proptest::collection::vec(
                proptest::array::uniform3(-0.5..0.5f64), 8),
            seed in 0u64..1000,
        ) {
            let pairs = pairs_for(&truth, &nominal, &noise);
            let a = fit(&pairs, CENTRE_MM).unwrap();
            let mut shuffled: Vec<(usize, PointPair)> = pairs.iter().copied().enumerate().collect();
            let n = shuffled.len();
            for i in 0..n {
                let j = ((seed as usize).wrapping_mul(31).wrapping_add(i * 17)) % n;
                shuffled.swap(i, j);
            }
            let only: Vec<PointPair> = shuffled.iter().map(|(_, p)| *p).collect();
            let b = fit(&only, CENTRE_MM).unwrap();
            prop_assert!((a.placement.rotation_deg - b.placement.rotation_deg).abs() < 1e-9);
            for k in 0..2 {
                prop_assert!((a.placement.offset_mm[k] - b.placement.offset_mm[k]).abs() < 1e-9);
            }
            prop_assert!((a.rms_mm - b.rms_mm).abs() < 1e-9);
            for (pos, (orig, _)) in shuffled.iter().enumerate() {
                prop_assert!((b.residuals_mm[pos] - a.residuals_mm[*orig]).abs() < 1e-9);
            }
        }
    }
}
