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

/// Why a set of point pairs cannot determine a homography, found by
/// conditioning (Hartley normalisation, then singular values), in any
/// orientation and at any scale.
#[derive(Clone, Debug, PartialEq)]
pub enum Degeneracy {
    /// Fewer than four pairs, or the two lists differ in length.
    Count { image: usize, table: usize },
    /// Two points of one set are at the same place (1-based numbers).
    Coincident {
        set: &'static str,
        a: usize,
        b: usize,
    },
    /// All points of one set lie on one line; `ratio` is the smaller over the
    /// larger singular value of their normalised spread.
    Collinear { set: &'static str, ratio: f64 },
    /// The pairs leave more than one homography possible (for example three
    /// of four points on a line): the second-smallest singular value of the
    /// normalised DLT system over the largest is `ratio`.
    Underdetermined { ratio: f64 },
    /// The only homography that fits is singular (three points on a line in
    /// one set but not in the other): the smallest over the largest singular
    /// value of the normalised estimate is `ratio`.
    Singular { ratio: f64 },
}

impl std::fmt::Display for Degeneracy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Degeneracy::Count { image, table } if image != table => {
                write!(f, "{image} image points but {table} table points")
            }
            Degeneracy::Count { image, .. } => {
                write!(f, "need at least 4 point pairs, got {image}")
            }
            Degeneracy::Coincident { set, a, b } => write!(
                f,
                "{set} points {a} and {b} are at the same place; no homography"
            ),
            Degeneracy::Collinear { set, ratio } => write!(
                f,
                "the {set} points lie on one line (spread ratio {ratio:.1e}); no homography"
            ),
            Degeneracy::Singular { ratio } => write!(
                f,
                "the points fit no invertible homography (three on a line in one set but not in \
                 the other?): condition ratio {ratio:.1e}"
            ),
            Degeneracy::Underdetermined { ratio } => write!(
                f,
                "the points do not fix a homography (three of four on a line?): \
                 the system's condition ratio is {ratio:.1e}, below {CONDITION_MIN:.0e}"
            ),
        }
    }
}

/// Smallest accepted ratio of singular values (spread of one point set, and
/// second-smallest over largest of the normalised DLT system). Well-spread
/// calibration points give 0.05 or more; degenerate sets give ~1e-16.
pub const CONDITION_MIN: f64 = 1e-4;

/// Hartley normalisation: centroid at the origin, mean distance √2. `None`
/// when all points coincide.
fn normalise(points: &[(f64, f64)]) -> Option<Vec<(f64, f64)>> {
    let n = points.len() as f64;
    let (cx, cy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let mean = points
        .iter()
        .map(|&(x, y)| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    let scale_ok = mean.is_finite() && mean > 1e-12 * (cx.abs() + cy.abs()).max(1e-300);
    if !scale_ok {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / mean;
    Some(
        points
            .iter()
            .map(|&(x, y)| ((x - cx) * s, (y - cy) * s))
            .collect(),
    )
}

/// Checks that image ↔ table point pairs determine one homography: at least
/// four pairs, no two points of a set at one place, neither set on one line
/// (any orientation), and a well-conditioned normalised DLT system (its
/// second-smallest singular value not ~0, which also catches three of four
/// points on a line). Only finite coordinates are expected.
pub fn check_homography_points(
    image: &[(f64, f64)],
    table: &[(f64, f64)],
) -> Result<(), Degeneracy> {
    if image.len() != table.len() || image.len() < 4 {
        return Err(Degeneracy::Count {
            image: image.len(),
            table: table.len(),
        });
    }
    let mut normalised = Vec::new();
    for (set, pts) in [("image", image), ("table", table)] {
        let coincident = |a: usize, b: usize| Degeneracy::Coincident {
            set,
            a: a + 1,
            b: b + 1,
        };
        let Some(p) = normalise(pts) else {
            return Err(coincident(0, 1));
        };
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                if (p[i].0 - p[j].0).hypot(p[i].1 - p[j].1) < 1e-6 {
                    return Err(coincident(i, j));
                }
            }
        }
        // Singular values of the centred spread: the square roots of the
        // eigenvalues of its 2×2 scatter matrix.
        let (sxx, sxy, syy) = p.iter().fold((0.0, 0.0, 0.0), |(a, b, c), &(x, y)| {
            (a + x * x, b + x * y, c + y * y)
        });
        let half_trace = (sxx + syy) / 2.0;
        let disc = (((sxx - syy) / 2.0).powi(2) + sxy * sxy).sqrt();
        let (big, small) = (half_trace + disc, (half_trace - disc).max(0.0));
        let ratio = (small / big).sqrt();
        if ratio.is_nan() || ratio < CONDITION_MIN {
            return Err(Degeneracy::Collinear { set, ratio });
        }
        normalised.push(p);
    }
    // The DLT system A·h = 0 (two rows per pair); the singular values of A
    // are the square roots of the eigenvalues of AᵀA.
    let mut ata = nalgebra::SMatrix::<f64, 9, 9>::zeros();
    for (&(u, v), &(x, y)) in normalised[0].iter().zip(&normalised[1]) {
        let rows = [
            [u, v, 1.0, 0.0, 0.0, 0.0, -x * u, -x * v, -x],
            [0.0, 0.0, 0.0, u, v, 1.0, -y * u, -y * v, -y],
        ];
        for r in rows {
            let r = nalgebra::SVector::<f64, 9>::from(r);
            ata += r * r.transpose();
        }
    }
    let eigen = ata.symmetric_eigen();
    let mut order: Vec<usize> = (0..9).collect();
    order.sort_by(|&a, &b| eigen.eigenvalues[b].total_cmp(&eigen.eigenvalues[a]));
    let sigma = |i: usize| eigen.eigenvalues[order[i]].max(0.0).sqrt();
    let ratio = sigma(7) / sigma(0);
    if ratio.is_nan() || ratio < CONDITION_MIN {
        return Err(Degeneracy::Underdetermined { ratio });
    }
    // The least-squares homography (the null vector) must be invertible: with
    // three of four points on a line in one set only, the only map is singular.
    let h = eigen.eigenvectors.column(order[8]);
    let m = nalgebra::Matrix3::from_iterator(h.iter().copied()).transpose();
    let sv = m.svd(false, false).singular_values;
    let ratio = sv.min() / sv.max();
    if ratio.is_nan() || ratio < CONDITION_MIN {
        return Err(Degeneracy::Singular { ratio });
    }
    Ok(())
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

    /// An exact view: image = A · table.
    fn view(table: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let a = Homography([
            [19.0, 1.5, 330.0],
            [0.8, -20.5, 605.0],
            [0.001, -0.0007, 1.0],
        ]);
        table.iter().map(|&(x, y)| a.apply(x, y).unwrap()).collect()
    }

    #[test]
    fn well_spread_points_are_accepted() {
        let table = [(-14.0, 28.0), (14.0, 28.0), (14.0, 8.0), (-14.0, 8.0)];
        check_homography_points(&view(&table), &table).unwrap();
        // Far from the origin and tiny: normalisation makes scale irrelevant.
        let tiny: Vec<(f64, f64)> = table
            .iter()
            .map(|&(x, y)| (1e4 + x * 1e-3, -5e3 + y * 1e-3))
            .collect();
        check_homography_points(&tiny, &table).unwrap();
    }

    #[test]
    fn collinear_points_are_refused_in_any_orientation() {
        for deg in [0.0f64, 30.0, 45.0, 90.0, 137.0] {
            let (s, c) = deg.to_radians().sin_cos();
            let line: Vec<(f64, f64)> = (0..5)
                .map(|i| (100.0 + 10.0 * i as f64 * c, 50.0 + 10.0 * i as f64 * s))
                .collect();
            let table = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.5, 0.3)];
            let e = check_homography_points(&line, &table).unwrap_err();
            assert!(
                matches!(e, Degeneracy::Collinear { set: "image", .. }),
                "{deg}°: {e}"
            );
            assert!(
                e.to_string().contains("image points lie on one line"),
                "{e}"
            );
            let e = check_homography_points(&table, &line).unwrap_err();
            assert!(
                matches!(e, Degeneracy::Collinear { set: "table", .. }),
                "{e}"
            );
        }
    }

    #[test]
    fn three_of_four_on_a_line_is_refused() {
        let table = [(0.0, 0.0), (10.0, 10.0), (20.0, 20.0), (0.0, 20.0)];
        let e = check_homography_points(&view(&table), &table).unwrap_err();
        assert!(matches!(e, Degeneracy::Underdetermined { .. }), "{e}");
        assert!(e.to_string().contains("do not fix a homography"), "{e}");
    }

    #[test]
    fn three_on_a_line_in_one_set_only_is_refused() {
        let image = [(0.0, 0.0), (100.0, 100.0), (200.0, 200.0), (0.0, 300.0)];
        let table = [(-14.0, 28.0), (14.0, 28.0), (14.0, 8.0), (-14.0, 8.0)];
        let e = check_homography_points(&image, &table).unwrap_err();
        assert!(matches!(e, Degeneracy::Singular { .. }), "{e}");
        assert!(e.to_string().contains("no invertible homography"), "{e}");
    }

    #[test]
    fn coincident_points_are_named() {
        let table = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        let mut img = view(&table);
        img[3] = img[1];
        let e = check_homography_points(&img, &table).unwrap_err();
        assert_eq!(
            e,
            Degeneracy::Coincident {
                set: "image",
                a: 2,
                b: 4
            }
        );
        let same = [(5.0, 5.0); 4];
        let e = check_homography_points(&same, &table).unwrap_err();
        assert!(e.to_string().contains("at the same place"), "{e}");
        let e = check_homography_points(&img[..3], &table[..3]).unwrap_err();
        assert!(e.to_string().contains("at least 4"), "{e}");
    }

    #[test]
    fn rotations_are_orthonormal() {
        let r = mul_mm(&rot_z(30.0), &mul_mm(&rot_x(10.0), &rot_y(-7.0)));
        let v = mul_mv(&r, &[1.0, 2.0, 3.0]);
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        assert!((n - 14f64.sqrt()).abs() < 1e-12);
    }
}
