//! Small fixed-size geometry: 3×3 homographies and 3-D vectors, without OpenCV
//! in the per-pixel path.

use serde::{Deserialize, Serialize};

/// A plane-to-plane projective map `p' ~ H·p` (row-major 3×3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Homography(pub [[f64; 3]; 3]);

impl Homography {
    /// The identity map.
    pub const IDENTITY: Homography =
        Homography([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);

    /// Maps a point; `None` when it goes to infinity.
    pub fn apply(&self, x: f64, y: f64) -> Option<(f64, f64)> {
        let m = &self.0;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        if w.abs() < 1e-12 {
            return None;
        }
        Some((
            (m[0][0] * x + m[0][1] * y + m[0][2]) / w,
            (m[1][0] * x + m[1][1] * y + m[1][2]) / w,
        ))
    }

    /// `self ∘ other`: first `other`, then `self`.
    pub fn after(&self, other: &Homography) -> Homography {
        let (a, b) = (&self.0, &other.0);
        let mut r = [[0.0; 3]; 3];
        for (i, row) in r.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        Homography(r)
    }

    /// The inverse map, `None` when singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
        if det.abs() < 1e-15 || !det.is_finite() {
            return None;
        }
        let c = |r0: usize, c0: usize, r1: usize, c1: usize| {
            m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
        };
        let adj = [
            [c(1, 1, 2, 2), -c(0, 1, 2, 2), c(0, 1, 1, 2)],
            [-c(1, 0, 2, 2), c(0, 0, 2, 2), -c(0, 0, 1, 2)],
            [c(1, 0, 2, 1), -c(0, 0, 2, 1), c(0, 0, 1, 1)],
        ];
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = adj[i][j] / det;
            }
        }
        Some(Homography(r))
    }

    /// Scales so that the bottom-right entry is 1 (when it is not ~0).
    pub fn normalized(&self) -> Homography {
        let s = self.0[2][2];
        if s.abs() < 1e-12 {
            return *self;
        }
        let mut r = self.0;
        for row in r.iter_mut() {
            for x in row.iter_mut() {
                *x /= s;
            }
        }
        Homography(r)
    }

    /// Whether every entry is finite.
    pub fn is_finite(&self) -> bool {
        self.0.iter().flatten().all(|x| x.is_finite())
    }
}

/// A 3-D vector in centimetres (arm base frame) or camera units.
pub type Vec3 = [f64; 3];

/// A 3×3 rotation matrix (row-major).
pub type Mat3 = [[f64; 3]; 3];

/// `m · v`.
pub fn mul_mv(m: &Mat3, v: &Vec3) -> Vec3 {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

/// `a · b`.
pub fn mul_mm(a: &Mat3, b: &Mat3) -> Mat3 {
    let mut r = [[0.0; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    r
}

/// Rotation about the x axis by `deg` degrees.
pub fn rot_x(deg: f64) -> Mat3 {
    let (s, c) = deg.to_radians().sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

/// Rotation about the y axis by `deg` degrees.
pub fn rot_y(deg: f64) -> Mat3 {
    let (s, c) = deg.to_radians().sin_cos();
    [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
}

/// Rotation about the z axis by `deg` degrees.
pub fn rot_z(deg: f64) -> Mat3 {
    let (s, c) = deg.to_radians().sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn inverse_round_trip(
            a in -2.0f64..2.0, b in -0.5f64..0.5, c in -50.0f64..50.0,
            d in -0.5f64..0.5, e in 0.5f64..2.0, f in -50.0f64..50.0,
            g in -1e-3f64..1e-3, h in -1e-3f64..1e-3,
            x in -300.0f64..300.0, y in -300.0f64..300.0,
        ) {
            let a = if a.abs() < 0.5 { a.signum() * 0.5 + a } else { a };
            let m = Homography([[a, b, c], [d, e, f], [g, h, 1.0]]);
            prop_assume!(m.apply(x, y).is_some());
            let inv = m.inverse().unwrap();
            let (u, v) = m.apply(x, y).unwrap();
            let (x2, y2) = inv.apply(u, v).unwrap();
            prop_assert!((x - x2).abs() < 1e-6 && (y - y2).abs() < 1e-6);
            let id = inv.after(&m).normalized();
            for i in 0..3 { for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                prop_assert!((id.0[i][j] - want).abs() < 1e-9);
            }}
        }
    }

    #[test]
    fn rotations_are_orthonormal() {
        let r = mul_mm(&rot_z(30.0), &mul_mm(&rot_x(10.0), &rot_y(-7.0)));
        let v = mul_mv(&r, &[1.0, 2.0, 3.0]);
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        assert!((n - 14f64.sqrt()).abs() < 1e-12);
    }
}
