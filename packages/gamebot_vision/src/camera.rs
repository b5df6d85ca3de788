//! A pinhole camera above the table: intrinsics and pose in the arm base frame.
//! The default reproduces the project convention exactly on the table plane:
//! `u = 320 + 20·x`, `v = 480 − 20·(y − 6)` (x, y in cm).

use serde::{Deserialize, Serialize};

use crate::geom::{mul_mm, mul_mv, rot_x, rot_y, rot_z, Homography, Mat3, Vec3};

/// Pinhole intrinsics and pose. Rotation angles perturb the straight-down view:
/// the camera is first turned by `yaw_deg` about the table normal, then tilted
/// by `pitch_deg` about the table x axis and `roll_deg` about the table y axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraModel {
    /// Image size in pixels.
    pub width: i32,
    pub height: i32,
    /// Focal lengths and principal point in pixels.
    pub fx: f64,
    pub fy: f64,
    pub cx: f64,
    pub cy: f64,
    /// Optical centre in cm (arm base frame).
    pub position: Vec3,
    pub yaw_deg: f64,
    pub pitch_deg: f64,
    pub roll_deg: f64,
}

impl Default for CameraModel {
    /// 640×480, 50 cm above (0, 18) cm, f = 1000 px: 20 px/cm on the table.
    fn default() -> Self {
        CameraModel {
            width: 640,
            height: 480,
            fx: 1000.0,
            fy: 1000.0,
            cx: 320.0,
            cy: 240.0,
            position: [0.0, 18.0, 50.0],
            yaw_deg: 0.0,
            pitch_deg: 0.0,
            roll_deg: 0.0,
        }
    }
}

/// World → camera rotation of a camera looking straight down with image x = world x
/// and image down = world −y (a proper rotation: diag(1, −1, −1)).
const LOOK_DOWN: Mat3 = [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]];

impl CameraModel {
    /// The same camera moved sideways (x, y) so that the image centre looks at
    /// table point (x, y) cm; the height and orientation are kept.
    pub fn aimed_at(mut self, x: f64, y: f64) -> CameraModel {
        // Translating the camera in the table plane translates its view of the
        // table by the same amount, so one correction is exact.
        if let Some((px, py)) = self
            .plane_homography(0.0)
            .inverse()
            .and_then(|h| h.apply(self.cx, self.cy))
        {
            self.position[0] += x - px;
            self.position[1] += y - py;
        }
        self
    }

    /// World → camera rotation matrix.
    pub fn rotation(&self) -> Mat3 {
        // The camera's own orientation in the world is Rz·Rx·Ry; world→camera is its
        // transpose, followed by the fixed look-down axes.
        let cam_in_world = mul_mm(
            &rot_z(self.yaw_deg),
            &mul_mm(&rot_x(self.pitch_deg), &rot_y(self.roll_deg)),
        );
        let t = transpose(&cam_in_world);
        mul_mm(&LOOK_DOWN, &t)
    }

    /// Camera-frame coordinates of a world point.
    pub fn to_camera(&self, p: Vec3) -> Vec3 {
        let d = [
            p[0] - self.position[0],
            p[1] - self.position[1],
            p[2] - self.position[2],
        ];
        mul_mv(&self.rotation(), &d)
    }

    /// Pixel of a world point (cm), `None` when it is behind the camera.
    pub fn project(&self, p: Vec3) -> Option<(f64, f64)> {
        self.project_with(&self.rotation(), p)
    }

    /// [`Self::project`] with a precomputed [`Self::rotation`] (hot loops).
    pub fn project_with(&self, r: &Mat3, p: Vec3) -> Option<(f64, f64)> {
        let d = [
            p[0] - self.position[0],
            p[1] - self.position[1],
            p[2] - self.position[2],
        ];
        let c = mul_mv(r, &d);
        if c[2] <= 1e-6 {
            return None;
        }
        Some((
            self.fx * c[0] / c[2] + self.cx,
            self.fy * c[1] / c[2] + self.cy,
        ))
    }

    /// Checks that this camera can take a picture of the table rectangle
    /// `lo`..`hi` (cm): finite numbers, positive focal lengths, an image of
    /// 1 to 8192 pixels a side, and the rectangle's corners in front of the
    /// camera and not seen so edge-on that they land beyond ±100,000 pixels.
    /// The error describes the pose and what is wrong with it; renderers call
    /// this before drawing, so OpenCV never sees an impossible view.
    pub fn check_view(&self, lo: [f64; 2], hi: [f64; 2]) -> Result<(), String> {
        let pose = format!(
            "camera at ({}, {}, {}) cm, yaw {}°, pitch {}°, roll {}°",
            self.position[0],
            self.position[1],
            self.position[2],
            self.yaw_deg,
            self.pitch_deg,
            self.roll_deg
        );
        let numbers = [self.fx, self.fy, self.cx, self.cy]
            .iter()
            .chain(&self.position)
            .chain(&[self.yaw_deg, self.pitch_deg, self.roll_deg])
            .all(|v| v.is_finite() && v.abs() <= 1e6);
        if !numbers {
            return Err(format!(
                "{pose}: every number must be finite and within ±1e6"
            ));
        }
        if !(self.fx > 0.0 && self.fy > 0.0) {
            return Err(format!(
                "{pose}: focal lengths {} and {} px must be positive",
                self.fx, self.fy
            ));
        }
        if !(1..=8192).contains(&self.width) || !(1..=8192).contains(&self.height) {
            return Err(format!(
                "{pose}: image size {}x{} is not 1 to 8192 pixels a side",
                self.width, self.height
            ));
        }
        let r = self.rotation();
        for (x, y) in [
            (lo[0], lo[1]),
            (hi[0], lo[1]),
            (hi[0], hi[1]),
            (lo[0], hi[1]),
        ] {
            match self.project_with(&r, [x, y, 0.0]) {
                None => {
                    let why = if self.position[2] <= 0.0 {
                        "the camera is not above the table (z must be positive)"
                    } else {
                        "the camera faces away from it"
                    };
                    return Err(format!(
                        "{pose}: the board corner ({x}, {y}) cm is behind the camera; {why}"
                    ));
                }
                Some((u, v)) if u.abs() > 1e5 || v.abs() > 1e5 => {
                    return Err(format!(
                        "{pose}: the board is seen edge-on (corner ({x}, {y}) cm lands at pixel \
                         ({u:.0}, {v:.0})); tilt the camera less"
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The homography from the table plane at height `z` (cm) to image pixels.
    pub fn plane_homography(&self, z: f64) -> Homography {
        let r = self.rotation();
        let k = [
            [self.fx, 0.0, self.cx],
            [0.0, self.fy, self.cy],
            [0.0, 0.0, 1.0],
        ];
        // Xc = R·(x, y, z)ᵀ − R·C = x·r1 + y·r2 + (z·r3 − R·C).
        let rc = mul_mv(&r, &self.position);
        let mut m = [[0.0; 3]; 3];
        for i in 0..3 {
            m[i][0] = r[i][0];
            m[i][1] = r[i][1];
            m[i][2] = z * r[i][2] - rc[i];
        }
        Homography(mul_mm(&k, &m)).normalized()
    }
}

fn transpose(m: &Mat3) -> Mat3 {
    let mut t = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            t[i][j] = m[j][i];
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_camera_matches_convention() {
        let c = CameraModel::default();
        for (x, y) in [(0.0, 6.0), (-16.0, 30.0), (13.5, 9.0), (2.5, 18.0)] {
            let (u, v) = c.project([x, y, 0.0]).unwrap();
            assert!((u - (320.0 + 20.0 * x)).abs() < 1e-9, "{x},{y} -> {u}");
            assert!(
                (v - (480.0 - 20.0 * (y - 6.0))).abs() < 1e-9,
                "{x},{y} -> {v}"
            );
        }
    }

    #[test]
    fn aiming_centres_the_view() {
        let c = CameraModel {
            pitch_deg: 5.0,
            roll_deg: -3.0,
            yaw_deg: 10.0,
            ..CameraModel::default()
        }
        .aimed_at(0.0, 18.0);
        let (u, v) = c.project([0.0, 18.0, 0.0]).unwrap();
        assert!(
            (u - 320.0).abs() < 1e-6 && (v - 240.0).abs() < 1e-6,
            "{u},{v}"
        );
    }

    #[test]
    fn impossible_views_are_described() {
        let (lo, hi) = ([-15.0, 3.0], [15.0, 33.0]);
        CameraModel::default().check_view(lo, hi).unwrap();
        let below = CameraModel {
            position: [0.0, 18.0, -50.0],
            ..CameraModel::default()
        };
        let e = below.check_view(lo, hi).unwrap_err();
        assert!(
            e.starts_with("camera at (0, 18, -50) cm, yaw 0°, pitch 0°, roll 0°: the board corner")
                && e.contains("not above the table"),
            "{e}"
        );
        let away = CameraModel {
            pitch_deg: 180.0,
            ..CameraModel::default()
        };
        assert!(away.check_view(lo, hi).unwrap_err().contains("faces away"));
        let edge_on = CameraModel {
            pitch_deg: 89.99,
            ..CameraModel::default()
        };
        let e = edge_on.check_view(lo, hi).unwrap_err();
        assert!(e.contains("edge-on") || e.contains("behind"), "{e}");
        let nan = CameraModel {
            fx: f64::NAN,
            ..CameraModel::default()
        };
        assert!(nan.check_view(lo, hi).unwrap_err().contains("finite"));
    }

    #[test]
    fn plane_homography_agrees_with_projection() {
        let c = CameraModel {
            yaw_deg: 4.0,
            pitch_deg: -6.0,
            roll_deg: 3.0,
            position: [1.0, 15.0, 45.0],
            ..CameraModel::default()
        };
        for z in [0.0, 1.0] {
            let h = c.plane_homography(z);
            for (x, y) in [(0.0, 18.0), (-10.0, 9.0), (12.0, 27.0)] {
                let a = c.project([x, y, z]).unwrap();
                let b = h.apply(x, y).unwrap();
                assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
            }
        }
    }
}
