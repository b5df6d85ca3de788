//! Closed-form IK for AL5D-type arms, and the legacy formula of the language reference
//! (`docs/language.md` §8.3).
//!
//! An arm fits the closed form when, read from its URDF at the zero pose: the first joint
//! is a yaw about the vertical; the next three are pitch joints with parallel horizontal
//! axes, all lying in one vertical plane through the yaw axis (no sideways offsets); an
//! optional fifth joint rolls about the tool's own axis. Then base yaw comes from atan2,
//! shoulder and elbow from the triangle of upper arm, forearm and wrist point, and the
//! wrist pitch makes the tool vertical. Link lengths and angle offsets are taken from the
//! URDF, so the solver is not tied to the AL5D's numbers.

use crate::arm::{JointInfo, LIMIT_EPS};
use crate::error::{Blocks, IkError, LimitBlock};
use k::nalgebra::{Vector2, Vector3};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

const GEOM_EPS: f64 = 1e-9;

/// Geometry of an arm that admits the closed-form solution.
#[derive(Clone, Debug)]
pub struct ClosedForm {
    /// Yaw axis: +1 when it points up, -1 when down.
    sigma0: f64,
    /// Yaw axis position in the horizontal plane.
    centre: Vector2<f64>,
    /// Heading (atan2) of the arm's plane at zero yaw.
    heading0: f64,
    /// Shoulder axis in plane coordinates (r, z).
    shoulder: Vector2<f64>,
    /// Upper arm and forearm lengths and their plane angles at the zero pose.
    l1: f64,
    phi1: f64,
    l2: f64,
    phi2: f64,
    /// Wrist axis to tool point, as a plane vector at the zero pose.
    l3: Vector2<f64>,
    /// Plane angle of the tool axis at the zero pose.
    psi0: f64,
    /// Pitch axes relative to the shoulder axis (+1 / -1).
    sigma: [f64; 3],
    /// Whether a fifth (roll) joint exists.
    has_roll: bool,
}

fn wrap(a: f64) -> f64 {
    let mut x = a % TAU;
    if x > PI {
        x -= TAU;
    } else if x <= -PI {
        x += TAU;
    }
    x
}

/// Puts an angle into the joint's limits by adding whole turns, if any fits.
fn fit(v: f64, j: &JointInfo) -> f64 {
    for c in [v, v - TAU, v + TAU] {
        if j.within(c) {
            return c;
        }
    }
    v
}

impl ClosedForm {
    /// Checks the structure of the tool chain at the zero pose; `Err` says why it does not fit.
    pub(crate) fn detect(
        tool: &k::SerialChain<f64>,
        joints: &[JointInfo],
    ) -> Result<ClosedForm, String> {
        let n = joints.len();
        if !(n == 4 || n == 5) {
            return Err(format!(
                "{n} joints (the closed form needs yaw, three pitches and an optional roll)"
            ));
        }
        if joints
            .iter()
            .any(|j| j.kind == crate::arm::JointKind::Prismatic)
        {
            return Err("has a prismatic joint".into());
        }
        tool.set_joint_positions_unchecked(&vec![0.0; n]);
        let frames = tool.update_transforms();
        let tool_tf = tool.end_transform();
        let mut pos = Vec::new();
        let mut axes = Vec::new();
        for (node, tf) in tool.iter().zip(frames.iter()) {
            if let k::JointType::Rotational { axis } = &node.joint().joint_type {
                pos.push(tf.translation.vector);
                axes.push(tf.rotation * axis.into_inner());
            }
        }
        if pos.len() != n {
            return Err("could not read the joint frames".into());
        }
        let z = Vector3::z();
        let tool_p = tool_tf.translation.vector;
        let tool_a = tool_tf.rotation * z;
        if axes[0].cross(&z).norm() > GEOM_EPS {
            return Err("first joint is not a yaw about the vertical".into());
        }
        let sigma0 = axes[0].z.signum();
        let centre = Vector2::new(pos[0].x, pos[0].y);
        let a1 = axes[1];
        if a1.z.abs() > GEOM_EPS {
            return Err("second joint axis is not horizontal".into());
        }
        let mut sigma = [1.0; 3];
        for i in 1..4 {
            if axes[i].cross(&a1).norm() > GEOM_EPS {
                return Err(format!(
                    "joint {} is not parallel to the shoulder axis",
                    joints[i].name
                ));
            }
            sigma[i - 1] = axes[i].dot(&a1).signum();
        }
        // Plane basis: u0 horizontal in the arm's plane, lateral = shoulder axis.
        let u0 = z.cross(&a1).normalize();
        let plane = |p: &Vector3<f64>| -> (Vector2<f64>, f64) {
            let d = Vector3::new(p.x - centre.x, p.y - centre.y, 0.0);
            (Vector2::new(d.dot(&u0), p.z), d.dot(&a1))
        };
        let mut pts = Vec::new();
        for (what, p) in [
            ("shoulder", pos[1]),
            ("elbow", pos[2]),
            ("wrist", pos[3]),
            ("tool", tool_p),
        ] {
            let (pp, lat) = plane(&p);
            if lat.abs() > GEOM_EPS {
                return Err(format!(
                    "{what} is offset sideways from the arm's plane by {lat:.6} m"
                ));
            }
            pts.push(pp);
        }
        if tool_a.dot(&a1).abs() > GEOM_EPS {
            return Err("tool axis leaves the arm's plane".into());
        }
        let has_roll = n == 5;
        if has_roll {
            let a4 = axes[4];
            if a4.cross(&tool_a).norm() > GEOM_EPS || (tool_p - pos[4]).cross(&a4).norm() > GEOM_EPS
            {
                return Err("fifth joint does not roll about the tool axis".into());
            }
        }
        let v1 = pts[1] - pts[0];
        let v2 = pts[2] - pts[1];
        let l3 = pts[3] - pts[2];
        if v1.norm() < 1e-6 || v2.norm() < 1e-6 {
            return Err("zero-length upper arm or forearm".into());
        }
        Ok(ClosedForm {
            sigma0,
            centre,
            heading0: u0.y.atan2(u0.x),
            shoulder: pts[0],
            l1: v1.norm(),
            phi1: v1.y.atan2(v1.x),
            l2: v2.norm(),
            phi2: v2.y.atan2(v2.x),
            l3,
            psi0: tool_a.dot(&z).atan2(tool_a.dot(&u0)),
            sigma,
            has_roll,
        })
    }

    /// Solves for the tool at `target` (m, base frame) pointing straight down. Among the
    /// (up to four) solutions inside the limits, returns the one nearest to `seed`; the roll
    /// joint keeps its seed value.
    pub(crate) fn solve(
        &self,
        target: [f64; 3],
        seed: &[f64],
        joints: &[JointInfo],
    ) -> Result<Vec<f64>, IkError> {
        let h = Vector2::new(target[0] - self.centre.x, target[1] - self.centre.y);
        let hn = h.norm();
        // Headings to try: towards the target, and away from it reaching over the top.
        let heading = if hn < 1e-12 {
            // On the yaw axis every heading works: keep the seed's.
            self.heading0 + self.sigma0 * seed[0]
        } else {
            h.y.atan2(h.x)
        };
        let sum = -FRAC_PI_2 - self.psi0; // required σ·q sum of the pitch joints
        let (s, c) = sum.sin_cos();
        let l3 = Vector2::new(c * self.l3.x - s * self.l3.y, s * self.l3.x + c * self.l3.y);
        let mut best: Option<(f64, Vec<f64>)> = None;
        let mut least_bad: Option<(f64, Vec<f64>)> = None;
        let mut reach_gap = f64::INFINITY;
        for (flip, r) in [(0.0, hn), (PI, -hn)] {
            let q0 = fit(
                wrap(self.sigma0 * (heading + flip - self.heading0)),
                &joints[0],
            );
            let t = Vector2::new(r, target[2]);
            let w = t - l3;
            let d = w - self.shoulder;
            let dn = d.norm();
            let (l1, l2) = (self.l1, self.l2);
            if dn > l1 + l2 || dn < (l1 - l2).abs() {
                let gap = if dn > l1 + l2 {
                    dn - (l1 + l2)
                } else {
                    (l1 - l2).abs() - dn
                };
                reach_gap = reach_gap.min(gap);
                continue;
            }
            reach_gap = 0.0;
            let base = d.y.atan2(d.x);
            let k = ((dn * dn + l1 * l1 - l2 * l2) / (2.0 * dn * l1))
                .clamp(-1.0, 1.0)
                .acos();
            for sgn in [1.0, -1.0] {
                let th1 = base + sgn * k;
                let e = self.shoulder + Vector2::new(l1 * th1.cos(), l1 * th1.sin());
                let th2 = (w.y - e.y).atan2(w.x - e.x);
                let [s1, s2, s3] = self.sigma;
                let q1 = fit(wrap(s1 * (th1 - self.phi1)), &joints[1]);
                let q2 = fit(wrap(s2 * (th2 - self.phi2 - s1 * q1)), &joints[2]);
                let q3 = fit(wrap(s3 * (sum - s1 * q1 - s2 * q2)), &joints[3]);
                let mut q = vec![q0, q1, q2, q3];
                if self.has_roll {
                    q.push(seed[4].clamp(joints[4].lower, joints[4].upper));
                }
                let violation: f64 = q
                    .iter()
                    .zip(joints)
                    .map(|(v, j)| (j.lower - v).max(0.0) + (v - j.upper).max(0.0))
                    .sum();
                if violation <= LIMIT_EPS {
                    let dist: f64 = q.iter().zip(seed).map(|(a, b)| (a - b) * (a - b)).sum();
                    if !matches!(&best, Some((bd, _)) if *bd <= dist) {
                        best = Some((dist, q));
                    }
                } else if !matches!(&least_bad, Some((bv, _)) if *bv <= violation) {
                    least_bad = Some((violation, q));
                }
            }
        }
        if let Some((_, mut q)) = best {
            for (v, j) in q.iter_mut().zip(joints) {
                *v = v.clamp(j.lower, j.upper);
            }
            return Ok(q);
        }
        let blocks = match least_bad {
            Some((_, q)) => q
                .iter()
                .zip(joints)
                .filter(|(v, j)| !j.within(**v))
                .map(|(v, j)| LimitBlock {
                    joint: j.name.clone(),
                    needed: *v,
                    lower: j.lower,
                    upper: j.upper,
                })
                .collect(),
            None => Vec::new(),
        };
        Err(IkError::Unreachable {
            target,
            distance_m: if reach_gap.is_finite() {
                reach_gap
            } else {
                0.0
            },
            blocks: Blocks(blocks),
        })
    }
}

/// The legacy AL5D constants of §8.3 (cm).
pub mod legacy {
    /// Shoulder pivot height above the base plate.
    pub const H: f64 = 5.0;
    /// Upper arm.
    pub const U: f64 = 14.605;
    /// Forearm.
    pub const F: f64 = 18.7325;
    /// Wrist pitch axis to gripper tip.
    pub const W: f64 = 8.5725;
}

/// The legacy formula failed: the target is out of reach or on the base axis.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unreachable position ({x}, {y}, {z}) cm")]
pub struct LegacyUnreachable {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// One pose of the legacy formula (degrees): base, shoulder, elbow, wrist pitch, wrist rotate.
fn legacy_pose(x: f64, y: f64, z: f64) -> [f64; 5] {
    use legacy::*;
    let q = (x * x + y * y).sqrt();
    let mut base = (x.abs() / q).asin().to_degrees();
    if x < 0.0 {
        base = -base;
    }
    let h = z + W - H;
    let b = (q * q + h * h).sqrt();
    let alpha = ((b * b + U * U - F * F) / (2.0 * b * U))
        .acos()
        .to_degrees();
    let beta = ((U * U + F * F - b * b) / (2.0 * U * F))
        .acos()
        .to_degrees();
    let gamma = 180.0 - alpha - beta;
    let alpha_p = (h / b).asin().to_degrees();
    let gamma_p = (q / b).asin().to_degrees();
    [
        base,
        -(90.0 - (alpha + alpha_p)),
        -(90.0 - beta),
        -(180.0 - (gamma + gamma_p)),
        85.0,
    ]
}

/// The reference implementation's conversion of `robot=x,y,z` (cm) to ten angles (degrees):
/// five for the pose one wrist length above the target, five at the target. Reproduced
/// exactly, quirks included (base from asin, `y` assumed positive), for legacy game files.
pub fn legacy_al5d_angles(x: f64, y: f64, z: f64) -> Result<[f64; 10], LegacyUnreachable> {
    let above = legacy_pose(x, y, z + legacy::W);
    let at = legacy_pose(x, y, z);
    let mut out = [0.0; 10];
    out[..5].copy_from_slice(&above);
    out[5..].copy_from_slice(&at);
    if out.iter().all(|v| v.is_finite()) {
        Ok(out)
    } else {
        Err(LegacyUnreachable { x, y, z })
    }
}
