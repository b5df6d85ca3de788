//! Inverse kinematics to a position with the gripper pointing straight down.
//!
//! The numeric solver is a Levenberg–Marquardt iteration over `k`'s forward kinematics and
//! Jacobian. The residual is the position error and the tool-axis error (the rotation that
//! takes the tool's z axis onto the downward vertical, weighted by `axis_weight_m`). The
//! rotation about the tool axis is left free: where the arm can control it (the AL5D's
//! wrist roll) the damping keeps it at the seed, so consecutive solutions stay continuous.
//! Joint limits are enforced by projection with an active set; after the seeded attempt,
//! deterministic random restarts are tried.

use crate::arm::Arm;
use crate::error::{Blocks, IkError, LimitBlock};
use k::nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;

/// Which solver produced a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// The geometric closed form (AL5D-type arms).
    ClosedForm,
    /// Levenberg–Marquardt on the URDF chain.
    Numeric,
}

impl SolverKind {
    /// Short name used in CLI output and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            SolverKind::ClosedForm => "closed-form",
            SolverKind::Numeric => "numeric",
        }
    }
}

/// Which solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    /// Closed form where the arm fits it, numeric otherwise.
    Auto,
    /// Only the closed form (error if the arm does not fit it).
    ClosedForm,
    /// Only the numeric solver.
    Numeric,
}

/// A solved pose.
#[derive(Clone, Debug, PartialEq)]
pub struct IkSolution {
    /// Arm joint values, base to tool.
    pub q: Vec<f64>,
    /// Which solver found it.
    pub solver: SolverKind,
    /// Distance between the tool point and the target (m), by forward kinematics.
    pub position_error_m: f64,
    /// Angle between the tool axis and the downward vertical (rad).
    pub axis_error_rad: f64,
    /// Numeric attempts used (1 = the seeded one succeeded; 0 for the closed form).
    pub attempts: u32,
}

struct Attempt {
    q: Vec<f64>,
    pos_err: f64,
    axis_err: f64,
    cost: f64,
}

/// Position error vector, axis error vector (axis-angle taking the tool axis to straight
/// down), and the tool axis.
fn residual(
    arm: &mut Arm,
    target: &Vector3<f64>,
    q: &[f64],
) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>) {
    let (p, a) = arm.tool_point_axis(q);
    let down = -Vector3::z();
    let c = a.cross(&down);
    let s = c.norm();
    let angle = s.atan2(a.dot(&down));
    let eo = if s > 1e-12 {
        c * (angle / s)
    } else if angle > 1.0 {
        // Pointing straight up: any horizontal axis turns it down.
        Vector3::x() * PI
    } else {
        Vector3::zeros()
    };
    (target - p, eo, a)
}

/// A revolute angle moved by whole turns towards the joint's range (the limit-free solver
/// does not care about turns).
fn wrap_into(v: f64, j: &crate::arm::JointInfo) -> f64 {
    if j.kind == crate::arm::JointKind::Prismatic || !v.is_finite() {
        return v;
    }
    let mid = if j.lower.is_finite() && j.upper.is_finite() {
        0.5 * (j.lower + j.upper)
    } else {
        0.0
    };
    mid + (v - mid + PI).rem_euclid(2.0 * PI) - PI
}

fn target_seed(target: &[f64; 3], seed: &[f64]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for v in target.iter().chain(seed) {
        h = (h ^ v.to_bits())
            .wrapping_mul(0x0100_0000_01b3)
            .rotate_left(17);
    }
    h
}

impl Arm {
    fn check_target(&self, target: [f64; 3], seed: &[f64]) -> Result<(), IkError> {
        if !target.iter().all(|v| v.is_finite()) {
            return Err(IkError::NonFinite { target });
        }
        if seed.len() != self.joints.len() {
            return Err(IkError::SeedLength {
                got: seed.len(),
                expected: self.joints.len(),
            });
        }
        Ok(())
    }

    /// Solves for the tool point at `target` (m, base frame) with the tool axis pointing
    /// straight down, starting from `seed` (normally the current pose).
    pub fn solve(
        &mut self,
        target: [f64; 3],
        seed: &[f64],
        choice: SolverChoice,
    ) -> Result<IkSolution, IkError> {
        match choice {
            SolverChoice::Numeric => self.solve_numeric(target, seed),
            SolverChoice::ClosedForm => self.solve_closed_form(target, seed),
            SolverChoice::Auto => {
                if self.closed_form.is_err() {
                    return self.solve_numeric(target, seed);
                }
                match self.solve_closed_form(target, seed) {
                    Ok(s) => Ok(s),
                    // The numeric solver's error says how far away the target is and
                    // which limit blocks it; the closed form cannot measure distances
                    // around joint limits.
                    Err(IkError::Unreachable { .. }) => self.solve_numeric(target, seed),
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// The closed-form solution without the forward-kinematics check (for benchmarks).
    pub fn solve_closed_form_unverified(
        &self,
        target: [f64; 3],
        seed: &[f64],
    ) -> Result<Vec<f64>, IkError> {
        self.check_target(target, seed)?;
        let cf = self
            .closed_form
            .as_ref()
            .map_err(|reason| IkError::NoClosedForm {
                arm: self.name.clone(),
                reason: reason.clone(),
            })?;
        cf.solve(target, seed, &self.joints)
    }

    /// The closed-form solution, with its residual measured by forward kinematics.
    pub fn solve_closed_form(
        &mut self,
        target: [f64; 3],
        seed: &[f64],
    ) -> Result<IkSolution, IkError> {
        let q = self.solve_closed_form_unverified(target, seed)?;
        let t = Vector3::from(target);
        let (ep, eo, _) = residual(self, &t, &q);
        Ok(IkSolution {
            q,
            solver: SolverKind::ClosedForm,
            position_error_m: ep.norm(),
            axis_error_rad: eo.norm(),
            attempts: 0,
        })
    }

    /// The numeric solver: Levenberg–Marquardt from `seed`, then random restarts.
    pub fn solve_numeric(&mut self, target: [f64; 3], seed: &[f64]) -> Result<IkSolution, IkError> {
        let restarts = self.config.ik.restarts;
        self.numeric(target, seed, restarts, true)
    }

    /// The numeric solver with a given number of restarts; `diagnose` adds the
    /// limit-free run that finds which joint limit blocks an unreachable target.
    pub(crate) fn numeric(
        &mut self,
        target: [f64; 3],
        seed: &[f64],
        restarts: u32,
        diagnose: bool,
    ) -> Result<IkSolution, IkError> {
        self.check_target(target, seed)?;
        let t = Vector3::from(target);
        let tol = self.config.ik.tolerance_m;
        let axis_tol = self.config.ik.axis_tolerance_deg.to_radians();
        let ok = |a: &Attempt| a.pos_err < tol && a.axis_err < axis_tol;
        let w = self.config.ik.axis_weight_m;
        let mut start = seed.to_vec();
        self.clamp(&mut start);
        let mut rng = ChaCha8Rng::seed_from_u64(target_seed(&target, seed));
        let mut best: Option<Attempt> = None;
        // Starts queued from failed attempts: a joint pinned at a limit is often on the wrong
        // branch (a wrist flipped the other way); half a turn back into its range tends to
        // land in the right basin. Random poses fill the rest.
        let mut queued: Vec<Vec<f64>> = Vec::new();
        let mut flips = 0;
        for attempt in 0..=restarts {
            if attempt > 0 {
                start = if queued.is_empty() {
                    self.random_pose(&mut rng)
                } else {
                    queued.remove(0)
                };
            }
            let a = self.lm(&t, start.clone(), true, w);
            if !ok(&a) && attempt < 3 {
                for (i, j) in self.joints.iter().enumerate() {
                    let pinned = a.q[i] <= j.lower + 1e-9 || a.q[i] >= j.upper - 1e-9;
                    if pinned && j.kind != crate::arm::JointKind::Prismatic {
                        let v = if a.q[i] > 0.0 {
                            a.q[i] - PI
                        } else {
                            a.q[i] + PI
                        };
                        if j.within(v) && flips < 6 {
                            flips += 1;
                            let mut q = a.q.clone();
                            q[i] = v;
                            queued.push(q);
                        }
                    }
                }
            }
            if ok(&a) {
                return Ok(IkSolution {
                    q: a.q,
                    solver: SolverKind::Numeric,
                    position_error_m: a.pos_err,
                    axis_error_rad: a.axis_err,
                    attempts: attempt + 1,
                });
            }
            if !matches!(&best, Some(b) if b.cost <= a.cost) {
                best = Some(a);
            }
        }
        let mut best = best.expect("at least one attempt");
        if diagnose {
            // The weighted optimum may trade a tilted tool for reach; with the axis weighted
            // heavily its position error is the distance to the vertical-tool workspace.
            let stiff = self.lm(&t, best.q.clone(), true, w * 1000.0);
            if stiff.axis_err <= axis_tol {
                best = stiff;
            }
        }
        // Would the target be reachable without limits? Then the limits block it.
        let mut blocks = Vec::new();
        let starts = if diagnose {
            vec![best.q.clone(), seed.to_vec()]
        } else {
            Vec::new()
        };
        for start in starts {
            let free = self.lm(&t, start, false, w);
            if ok(&free) {
                blocks = free
                    .q
                    .iter()
                    .zip(&self.joints)
                    .map(|(v, j)| (wrap_into(*v, j), j))
                    .filter(|(v, j)| !j.within(*v))
                    .map(|(v, j)| LimitBlock {
                        joint: j.name.clone(),
                        needed: v,
                        lower: j.lower,
                        upper: j.upper,
                    })
                    .collect();
                break;
            }
        }
        Err(IkError::Unreachable {
            target,
            distance_m: best.pos_err,
            blocks: Blocks(blocks),
        })
    }

    /// A uniformly random pose inside the limits (unlimited joints: one turn).
    pub(crate) fn random_pose(&self, rng: &mut impl Rng) -> Vec<f64> {
        self.joints
            .iter()
            .map(|j| {
                let lo = if j.lower.is_finite() { j.lower } else { -PI };
                let hi = if j.upper.is_finite() { j.upper } else { PI };
                rng.gen_range(lo..=hi)
            })
            .collect()
    }

    /// One Levenberg–Marquardt run. With `limits`, steps are projected into the joint box
    /// and joints pressed against a bound drop out of the step (active set).
    fn lm(&mut self, target: &Vector3<f64>, mut q: Vec<f64>, limits: bool, w: f64) -> Attempt {
        let n = q.len();
        let tol = self.config.ik.tolerance_m;
        let axis_tol = self.config.ik.axis_tolerance_deg.to_radians();
        let bounds: Vec<(f64, f64)> = self.joints.iter().map(|j| (j.lower, j.upper)).collect();
        let eval = |arm: &mut Arm, q: &[f64]| {
            let (ep, eo, a) = residual(arm, target, q);
            let cost = ep.norm_squared() + w * w * eo.norm_squared();
            (ep, eo, a, cost)
        };
        let (mut ep, mut eo, mut a, mut cost) = eval(self, &q);
        let mut lambda = 1e-3;
        for _ in 0..self.config.ik.max_iterations {
            // Stop well inside the tolerance: the last quadratic steps are cheap and make
            // the answer insensitive to rounding downstream.
            if ep.norm() < tol * 1e-2 && eo.norm() < axis_tol * 1e-2 {
                break;
            }
            // The Jacobian is evaluated at the pose `eval` last set, which is `q`.
            self.tool.set_joint_positions_unchecked(&q);
            let jac = k::jacobian(&self.tool);
            let proj = Matrix3::identity() - a * a.transpose();
            let mut m = DMatrix::<f64>::zeros(6, n);
            let jw = proj * jac.rows(3, 3);
            for c in 0..n {
                for r in 0..3 {
                    m[(r, c)] = jac[(r, c)];
                    m[(r + 3, c)] = w * jw[(r, c)];
                }
            }
            let mut r = DVector::<f64>::zeros(6);
            for i in 0..3 {
                r[i] = ep[i];
                r[i + 3] = w * eo[i];
            }
            let g = m.transpose() * &r;
            let h = m.transpose() * &m;
            // Active set: joints at a bound whose descent direction points outwards.
            let free: Vec<bool> = (0..n)
                .map(|i| {
                    if !limits {
                        return true;
                    }
                    let (lo, hi) = bounds[i];
                    !((q[i] <= lo + 1e-12 && g[i] < 0.0) || (q[i] >= hi - 1e-12 && g[i] > 0.0))
                })
                .collect();
            let mut improved = false;
            while lambda < 1e10 {
                let mut a_mat = h.clone();
                for i in 0..n {
                    a_mat[(i, i)] += lambda * (h[(i, i)] + 1e-6);
                    if !free[i] {
                        for j in 0..n {
                            a_mat[(i, j)] = 0.0;
                            a_mat[(j, i)] = 0.0;
                        }
                        a_mat[(i, i)] = 1.0;
                    }
                }
                let mut rhs = g.clone();
                for i in 0..n {
                    if !free[i] {
                        rhs[i] = 0.0;
                    }
                }
                let Some(chol) = a_mat.cholesky() else {
                    lambda *= 4.0;
                    continue;
                };
                let delta = chol.solve(&rhs);
                let mut qn: Vec<f64> = q.iter().zip(delta.iter()).map(|(a, d)| a + d).collect();
                if limits {
                    for (v, (lo, hi)) in qn.iter_mut().zip(&bounds) {
                        *v = v.clamp(*lo, *hi);
                    }
                }
                let (ep2, eo2, a2, cost2) = eval(self, &qn);
                if cost2 < cost {
                    q = qn;
                    (ep, eo, a, cost) = (ep2, eo2, a2, cost2);
                    lambda = (lambda / 3.0).max(1e-9);
                    improved = true;
                    break;
                }
                lambda *= 4.0;
            }
            if !improved {
                break;
            }
        }
        Attempt {
            q,
            pos_err: ep.norm(),
            axis_err: eo.norm(),
            cost,
        }
    }
}
