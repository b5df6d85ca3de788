//! The pure part of `arm_controller`: a move's physical actions turned into
//! the steps of a pick-and-place (`approach`, `grip`, `lift`, `carry`,
//! `place`, `release`, `retreat`), each a joint trajectory for the arm or a
//! gripper position, planned and checked in full (IK on the URDF chain,
//! joint limits, servo pulse ranges) before anything moves.
//!
//! Arm segments are straight lines in joint space with a trapezoidal
//! profile shared by all joints (the slowest joint sets the pace, none
//! exceeds its `max_velocity` / `max_acceleration` from the arm YAML),
//! sampled into [`SAMPLES`] timed points; the SSC-32U moves linearly between
//! points, so the chord speeds stay within the limits too. The `lift` is
//! the exception: the tool goes straight up, through IK waypoints every
//! [`LINE_STEP_M`] on one profile ([`ArmPlanner::segment_through`]), so a
//! piece that slips as it is lifted falls back where it was taken.

use gamebot_interfaces::builtin_interfaces::Duration as RosDuration;
use gamebot_interfaces::msg::PhysicalAction;
use gamebot_interfaces::trajectory_msgs::{JointTrajectory, JointTrajectoryPoint};
use gamebot_kinematics::{Arm, SolverChoice};
use std::time::Duration;

/// Points per arm segment (at least one per piece of a path through waypoints).
pub const SAMPLES: usize = 8;

/// Spacing (m) of the IK waypoints of a straight tool line (the lift).
pub const LINE_STEP_M: f64 = 0.01;

/// What one step does.
#[derive(Debug, Clone, PartialEq)]
pub enum Motion {
    /// An arm trajectory (arm joints only).
    Arm(JointTrajectory),
    /// A gripper position (finger joint value).
    Gripper(f64),
}

/// One step of an action: its feedback name and motion.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// `approach`, `grip`, `lift`, `carry`, `place`, `release`, `retreat`, `park`.
    pub name: &'static str,
    /// The motion.
    pub motion: Motion,
    /// Arm joint values at the end of the step.
    pub end: Vec<f64>,
    /// Whether a piece is held at the end of the step.
    pub holding: bool,
}

/// Why an action cannot be carried out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{step}: {reason}")]
pub struct PlanError {
    /// The step that could not be planned.
    pub step: &'static str,
    /// Why.
    pub reason: String,
}

/// Plans pick-and-place steps for one arm.
pub struct ArmPlanner {
    arm: Arm,
    /// Height of the tool centre above the board while carrying (m).
    pub carry_height_m: f64,
    /// The joint that turns the fingers' closing axis about the tool axis
    /// without moving the tool point, if the arm has one.
    roll: Option<RollJoint>,
}

/// A joint that rolls the fingers about the tool axis.
#[derive(Clone, Copy, Debug)]
struct RollJoint {
    index: usize,
    /// +1 when turning the joint by +δ turns the closing axis by +δ about
    /// the vertical (base frame), -1 when by -δ.
    sign: f64,
}

/// Candidate closing-axis directions tried (over half a turn: the two
/// fingers are alike).
const AXIS_CANDIDATES: usize = 90;

/// A closing axis no worse than the best by this much (m of clearance) is
/// kept rather than rolling the wrist for nothing.
const KEEP_AXIS_SLACK_M: f64 = 0.001;

/// Direction (rad, about the vertical of the base frame) of the fingers'
/// closing axis, i.e. the tool's x axis projected on the table.
fn closing_angle(arm: &mut Arm, q: &[f64]) -> f64 {
    let r = arm.fk(q).rotation.to_rotation_matrix();
    r[(1, 0)].atan2(r[(0, 0)])
}

/// The angle in `(-π/2, π/2]` equal to `a` modulo π (the fingers are alike,
/// so axes π apart are the same axis).
fn axis_diff(a: f64) -> f64 {
    use std::f64::consts::PI;
    let r = a.rem_euclid(PI);
    if r > PI / 2.0 {
        r - PI
    } else {
        r
    }
}

/// How far (m) the fingers stay from the nearest neighbour's centre when the
/// jaw, centred on `centre` with fingertips `half_opening` from it, closes
/// along `angle`: the smaller distance from a neighbour to either fingertip.
/// Neighbours are alike, so keeping their centres far keeps their edges far.
pub fn finger_clearance(
    centre: [f64; 2],
    neighbours: &[[f64; 2]],
    half_opening: f64,
    angle: f64,
) -> f64 {
    let (s, c) = angle.sin_cos();
    let tips = [
        [centre[0] + half_opening * c, centre[1] + half_opening * s],
        [centre[0] - half_opening * c, centre[1] - half_opening * s],
    ];
    neighbours
        .iter()
        .flat_map(|n| tips.iter().map(move |t| (n[0] - t[0]).hypot(n[1] - t[1])))
        .fold(f64::INFINITY, f64::min)
}

/// The closing axis (rad) that keeps the fingers farthest from the
/// neighbours, or `current` when it is within [`KEEP_AXIS_SLACK_M`] of that
/// (or there are no neighbours).
pub fn best_closing_angle(
    centre: [f64; 2],
    neighbours: &[[f64; 2]],
    half_opening: f64,
    current: f64,
) -> f64 {
    if neighbours.is_empty() {
        return current;
    }
    let keep = finger_clearance(centre, neighbours, half_opening, current);
    let (best, clearance) = (0..AXIS_CANDIDATES)
        .map(|k| {
            let a = std::f64::consts::PI * k as f64 / AXIS_CANDIDATES as f64;
            (a, finger_clearance(centre, neighbours, half_opening, a))
        })
        .fold((current, keep), |b, c| if c.1 > b.1 { c } else { b });
    if clearance - keep <= KEEP_AXIS_SLACK_M {
        current
    } else {
        best
    }
}

impl ArmPlanner {
    /// A planner for `arm`; the carry height is the approach height plus
    /// 3 cm, so a carried piece (≤ 2 cm tall, held at half height) passes
    /// above stacks of up to four 1 cm pieces.
    pub fn new(arm: Arm) -> ArmPlanner {
        let carry = arm.config().approach_height_m + 0.03;
        let mut arm = arm;
        let roll = find_roll_joint(&mut arm);
        ArmPlanner {
            arm,
            carry_height_m: carry,
            roll,
        }
    }

    /// `q` (the tool above or at `centre`) with the roll joint turned so the
    /// fingers close along the axis clearest of `neighbours`, the jaw opened
    /// to `half_opening`. Unchanged when the arm has no roll joint, nothing
    /// is near, or no turn within the joint's range does better.
    fn turn_fingers(
        &mut self,
        q: &[f64],
        centre: &gamebot_interfaces::geometry_msgs::Point,
        neighbours: &[[f64; 2]],
        half_opening: f64,
    ) -> Vec<f64> {
        let Some(roll) = self.roll else {
            return q.to_vec();
        };
        let c = [centre.x, centre.y];
        let near: Vec<[f64; 2]> = neighbours
            .iter()
            .copied()
            .filter(|n| (n[0] - c[0]).hypot(n[1] - c[1]) < 0.06)
            .collect();
        let now = closing_angle(&mut self.arm, q);
        let want = best_closing_angle(c, &near, half_opening, now);
        let delta = axis_diff(want - now);
        if delta.abs() < 1e-6 {
            return q.to_vec();
        }
        let j = &self.arm.joints()[roll.index];
        let from = q[roll.index];
        // The same axis half a turn either way; the nearest value the servo reaches.
        let best = [0.0, std::f64::consts::PI, -std::f64::consts::PI]
            .iter()
            .map(|k| from + roll.sign * (delta + k))
            .filter(|v| j.checked_pulse(*v, "").is_ok())
            .min_by(|a, b| (a - from).abs().total_cmp(&(b - from).abs()));
        let mut out = q.to_vec();
        if let Some(v) = best {
            out[roll.index] = v;
        }
        out
    }

    /// The arm.
    pub fn arm(&self) -> &Arm {
        &self.arm
    }

    /// The arm, mutably (for FK).
    pub fn arm_mut(&mut self) -> &mut Arm {
        &mut self.arm
    }

    /// Arm joint names.
    pub fn joint_names(&self) -> Vec<String> {
        self.arm.joints().iter().map(|j| j.name.clone()).collect()
    }

    fn ik(&mut self, p: [f64; 3], seed: &[f64], step: &'static str) -> Result<Vec<f64>, PlanError> {
        let s = self
            .arm
            .solve(p, seed, SolverChoice::Auto)
            .map_err(|e| PlanError {
                step,
                reason: format!("no pose for ({:.3}, {:.3}, {:.3}) m: {e}", p[0], p[1], p[2]),
            })?;
        self.check(&s.q, None, step)?;
        Ok(s.q)
    }

    /// Joint waypoints that move the tool point along the straight line from
    /// where `from` puts it to `to` (m): `from`, then an IK solution every
    /// [`LINE_STEP_M`] or less, each seeded by the one before and checked.
    fn line(
        &mut self,
        from: &[f64],
        to: [f64; 3],
        step: &'static str,
    ) -> Result<Vec<Vec<f64>>, PlanError> {
        let (tip, _) = self.arm.tool_point_axis(from);
        let d = [to[0] - tip.x, to[1] - tip.y, to[2] - tip.z];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let n = ((len / LINE_STEP_M).ceil() as usize).max(1);
        let mut out = vec![from.to_vec()];
        for k in 1..=n {
            let f = k as f64 / n as f64;
            let p = [tip.x + f * d[0], tip.y + f * d[1], tip.z + f * d[2]];
            let q = self.ik(p, &out[k - 1], step)?;
            out.push(q);
        }
        Ok(out)
    }

    fn check(&self, q: &[f64], g: Option<f64>, step: &'static str) -> Result<(), PlanError> {
        self.arm
            .pulses(q, g, &format!(" ({step})"))
            .map(|_| ())
            .map_err(|e| PlanError {
                step,
                reason: e.to_string(),
            })
    }

    /// A timed joint trajectory from `from` to `to` (arm joints): a
    /// straight line in joint space.
    pub fn segment(&self, from: &[f64], to: &[f64]) -> JointTrajectory {
        self.segment_through(&[from.to_vec(), to.to_vec()])
    }

    /// A timed joint trajectory through `waypoints` (at least two; arm
    /// joints), piecewise linear in joint space with one trapezoidal profile
    /// over the whole path: the path parameter runs through each piece in an
    /// equal share of it, so no joint exceeds its limits on the steepest
    /// piece. Two waypoints are [`ArmPlanner::segment`].
    pub fn segment_through(&self, waypoints: &[Vec<f64>]) -> JointTrajectory {
        let (from, to) = (&waypoints[0], &waypoints[waypoints.len() - 1]);
        let pieces = (waypoints.len() - 1).max(1) as f64;
        let mut v = f64::INFINITY;
        let mut a = f64::INFINITY;
        for w in waypoints.windows(2) {
            for ((x, y), j) in w[0].iter().zip(&w[1]).zip(self.arm.joints()) {
                let d = (y - x).abs() * pieces;
                if d > 1e-9 {
                    v = v.min(j.servo.max_velocity / d);
                    a = a.min(j.servo.max_acceleration / d);
                }
            }
        }
        let at = |s: f64| -> Vec<f64> {
            let x = (s * pieces).clamp(0.0, pieces);
            let i = (x.floor() as usize).min(waypoints.len() - 2);
            let f = x - i as f64;
            waypoints[i]
                .iter()
                .zip(&waypoints[i + 1])
                .map(|(p, q)| p + f * (q - p))
                .collect()
        };
        let names = self.joint_names();
        let pt = |q: Vec<f64>, t: f64| JointTrajectoryPoint {
            positions: q,
            time_from_start: RosDuration::from_std(Duration::from_secs_f64(t)),
            ..Default::default()
        };
        let mut points = vec![pt(from.to_vec(), 0.0)];
        if v.is_finite() {
            // Path parameter s in 0..1: trapezoid (or triangle) with peak v, accel a.
            let (ta, total) = if v * v / a >= 1.0 {
                let ta = (1.0 / a).sqrt();
                (ta, 2.0 * ta)
            } else {
                (v / a, 1.0 / v + v / a)
            };
            let vp = a * ta;
            let s_at = |t: f64| {
                if t < ta {
                    0.5 * a * t * t
                } else if t <= total - ta {
                    0.5 * a * ta * ta + vp * (t - ta)
                } else {
                    let r = total - t;
                    1.0 - 0.5 * a * r * r
                }
            };
            // Whole milliseconds, rounded up, so no chord is faster than planned.
            let mut last_ms = 0u64;
            // At least one sample per piece, so the chords follow the path.
            let samples = SAMPLES.max(waypoints.len() - 1);
            for k in 1..=samples {
                let t = total * k as f64 / samples as f64;
                let ms = ((t * 1000.0).ceil() as u64).max(last_ms + 1);
                last_ms = ms;
                let q = if k == samples {
                    to.clone()
                } else {
                    at(s_at(t))
                };
                points.push(pt(q, ms as f64 / 1000.0));
            }
        }
        JointTrajectory {
            joint_names: names,
            points,
            ..Default::default()
        }
    }

    /// The trajectory that finishes arm step `step` from pose `q` (a step
    /// tried again after it failed part way): the rest of a `lift` straight
    /// up as planned, any other step a joint-space line to its end.
    pub fn resume(&mut self, q: &[f64], step: &Step) -> JointTrajectory {
        if step.name == "lift" {
            let (end, _) = self.arm.tool_point_axis(&step.end);
            if let Ok(mut path) = self.line(q, [end.x, end.y, end.z], "lift") {
                // The planned end, so the next step starts where it was planned from.
                let last = path.len() - 1;
                path[last] = step.end.clone();
                return self.segment_through(&path);
            }
        }
        self.segment(q, &step.end)
    }

    fn arm_step(
        &self,
        steps: &mut Vec<Step>,
        name: &'static str,
        from: &[f64],
        to: &[f64],
        holding: bool,
    ) {
        self.path_step(steps, name, &[from.to_vec(), to.to_vec()], holding);
    }

    /// An arm step through `waypoints` ([`ArmPlanner::segment_through`]),
    /// ending at the last.
    fn path_step(
        &self,
        steps: &mut Vec<Step>,
        name: &'static str,
        waypoints: &[Vec<f64>],
        holding: bool,
    ) {
        steps.push(Step {
            name,
            motion: Motion::Arm(self.segment_through(waypoints)),
            end: waypoints[waypoints.len() - 1].clone(),
            holding,
        });
    }

    /// The steps of one physical action, starting from arm pose `start`
    /// with the gripper at `gripper`. Everything is checked before returning.
    pub fn plan(
        &mut self,
        action: &PhysicalAction,
        start: &[f64],
        gripper: f64,
    ) -> Result<Vec<Step>, PlanError> {
        self.check(start, None, "start")
            .map_err(|e| PlanError { step: "start", ..e })?;
        let cfg = self.arm.config().clone();
        let (open, closed) = (cfg.gripper.open, cfg.gripper.closed);
        let mut steps = Vec::new();
        match action.kind {
            PhysicalAction::PARK => {
                let park = self.arm.park().to_vec();
                self.check(&park, None, "park")?;
                self.arm_step(&mut steps, "park", start, &park, false);
            }
            PhysicalAction::TRANSFER => {
                let p = |pt: &gamebot_interfaces::geometry_msgs::Point, h: f64| {
                    [pt.x, pt.y, pt.z + h]
                };
                let (f, t) = (&action.from_position, &action.to_position);
                let near: Vec<[f64; 2]> = action.neighbours.iter().map(|n| [n.x, n.y]).collect();
                let above_f = self.ik(p(f, cfg.approach_height_m), start, "approach")?;
                // The fingers descend open around the piece and let go at the
                // release opening: each end's roll keeps them clear of the neighbours.
                let above_f = self.turn_fingers(&above_f, f, &near, open);
                let at_f = self.ik(p(f, cfg.grasp_height_m), &above_f, "approach")?;
                // Straight up: a piece that slips as it is lifted falls back
                // where it was taken, not a few mm along a joint-space arc
                // (each regrasp of a slipped piece walked it that far again).
                let lift = self.line(&at_f, p(f, self.carry_height_m), "lift")?;
                let carry_f = lift[lift.len() - 1].clone();
                let carry_t = self.ik(p(t, self.carry_height_m), &carry_f, "carry")?;
                let carry_t =
                    self.turn_fingers(&carry_t, t, &near, cfg.gripper.release_opening());
                let at_t = self.ik(p(t, cfg.grasp_height_m), &carry_t, "place")?;
                let above_t = self.ik(p(t, cfg.approach_height_m), &at_t, "retreat")?;
                self.check(start, Some(open), "release")?;
                self.check(start, Some(closed), "grip")?;
                if (gripper - open).abs() > 1e-4 {
                    steps.push(Step {
                        name: "approach",
                        motion: Motion::Gripper(open),
                        end: start.to_vec(),
                        holding: false,
                    });
                }
                self.arm_step(&mut steps, "approach", start, &above_f, false);
                self.arm_step(&mut steps, "approach", &above_f, &at_f, false);
                steps.push(Step {
                    name: "grip",
                    motion: Motion::Gripper(closed),
                    end: at_f.clone(),
                    holding: true,
                });
                self.path_step(&mut steps, "lift", &lift, true);
                self.arm_step(&mut steps, "carry", &carry_f, &carry_t, true);
                self.arm_step(&mut steps, "place", &carry_t, &at_t, true);
                steps.push(Step {
                    name: "release",
                    motion: Motion::Gripper(cfg.gripper.release_opening()),
                    end: at_t.clone(),
                    holding: false,
                });
                self.arm_step(&mut steps, "retreat", &at_t, &above_t, false);
            }
            PhysicalAction::FLIP => {
                return Err(PlanError {
                    step: "approach",
                    reason: format!(
                        "FLIP of {} at {}: the gripper cannot turn a piece over; give the board file a flip_station (a turn-over station) so the referee sends the flip as two transfers through it",
                        action.element, action.from_location
                    ),
                })
            }
            k => {
                return Err(PlanError {
                    step: "approach",
                    reason: format!("unknown physical action kind {k}"),
                })
            }
        }
        Ok(steps)
    }

    /// Steps that put a held piece down where the arm is (straight down to
    /// grasp height), open, and park; or just park when nothing is held.
    pub fn put_down_and_park(
        &mut self,
        current: &[f64],
        holding: bool,
    ) -> Result<Vec<Step>, PlanError> {
        let mut steps = Vec::new();
        let mut q = current.to_vec();
        if holding {
            let cfg = self.arm.config().clone();
            let (tip, _) = self.arm.tool_point_axis(current);
            let down = self.ik([tip.x, tip.y, cfg.grasp_height_m], current, "place")?;
            self.arm_step(&mut steps, "place", current, &down, true);
            steps.push(Step {
                name: "release",
                motion: Motion::Gripper(cfg.gripper.release_opening()),
                end: down.clone(),
                holding: false,
            });
            let up = self.ik([tip.x, tip.y, cfg.approach_height_m], &down, "retreat")?;
            self.arm_step(&mut steps, "retreat", &down, &up, false);
            q = up;
        }
        let park = self.arm.park().to_vec();
        self.arm_step(&mut steps, "park", &q, &park, false);
        Ok(steps)
    }
}

/// The joint nearest the tool that turns the tool's x axis about the tool
/// axis without moving the tool point (checked at the home pose), and which
/// way it turns it.
fn find_roll_joint(arm: &mut Arm) -> Option<RollJoint> {
    let home = arm.home().to_vec();
    let (p0, _) = arm.tool_point_axis(&home);
    let a0 = closing_angle(arm, &home);
    (0..arm.dof()).rev().find_map(|index| {
        let mut q = home.clone();
        q[index] += 0.2;
        let (p, _) = arm.tool_point_axis(&q);
        let turn = axis_diff(closing_angle(arm, &q) - a0);
        ((p - p0).norm() < 5e-4 && turn.abs() > 0.1).then_some(RollJoint {
            index,
            sign: turn.signum(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_interfaces::geometry_msgs::Point;

    fn transfer(from: [f64; 2], to: [f64; 2]) -> PhysicalAction {
        PhysicalAction {
            kind: PhysicalAction::TRANSFER,
            element: "x1".into(),
            from_location: "a".into(),
            to_location: "b".into(),
            from_position: Point {
                x: from[0],
                y: from[1],
                z: 0.0,
            },
            to_position: Point {
                x: to[0],
                y: to[1],
                z: 0.0,
            },
            ..Default::default()
        }
    }

    #[test]
    fn a_transfer_has_the_named_steps_and_ends_above_the_target() {
        let mut p = ArmPlanner::new(Arm::load_named("al5d").unwrap());
        let home = p.arm().home().to_vec();
        let open = p.arm().config().gripper.open;
        let steps = p
            .plan(&transfer([-0.135, 0.2], [0.05, 0.22]), &home, open)
            .unwrap();
        let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["approach", "approach", "grip", "lift", "carry", "place", "release", "retreat"]
        );
        // The release pose puts the tool at grasp height over the target.
        let place = &steps[5].end;
        let (tip, axis) = p.arm_mut().tool_point_axis(place);
        assert!(
            (tip.x - 0.05).abs() < 2e-3 && (tip.y - 0.22).abs() < 2e-3,
            "{tip}"
        );
        assert!(axis.z < -0.99);
        // Carry height above the board at both ends of the carry.
        let Motion::Arm(carry) = &steps[4].motion else {
            panic!()
        };
        for q in [&carry.points[0].positions, &steps[4].end] {
            let (tip, _) = p.arm_mut().tool_point_axis(q);
            assert!((tip.z - p.carry_height_m).abs() < 2e-3);
        }
        // Every chord of every segment respects the joint speed limits.
        for s in &steps {
            if let Motion::Arm(t) = &s.motion {
                for w in t.points.windows(2) {
                    let dt = w[1].time_from_start.to_std().as_secs_f64()
                        - w[0].time_from_start.to_std().as_secs_f64();
                    for (i, j) in p.arm().joints().iter().enumerate() {
                        let v = (w[1].positions[i] - w[0].positions[i]).abs() / dt;
                        assert!(v <= j.servo.max_velocity * 1.0001, "{} at {v}", j.name);
                    }
                }
            }
        }
    }

    /// The largest horizontal distance (m) of the tool point from the
    /// vertical through `x`, at every point of `t` and halfway along every
    /// chord (the SSC-32U moves linearly in joint space between points).
    fn off_vertical(p: &mut ArmPlanner, t: &JointTrajectory, x: [f64; 2]) -> f64 {
        let mut worst: f64 = 0.0;
        for w in t.points.windows(2) {
            let mid: Vec<f64> = w[0]
                .positions
                .iter()
                .zip(&w[1].positions)
                .map(|(a, b)| (a + b) / 2.0)
                .collect();
            for q in [&w[0].positions, &mid, &w[1].positions] {
                let (tip, _) = p.arm_mut().tool_point_axis(q);
                worst = worst.max((tip.x - x[0]).hypot(tip.y - x[1]));
            }
        }
        worst
    }

    #[test]
    fn the_lift_goes_straight_up_so_a_slipping_piece_falls_back_where_it_was() {
        let mut p = ArmPlanner::new(Arm::load_named("al5d").unwrap());
        let home = p.arm().home().to_vec();
        let open = p.arm().config().gripper.open;
        // A supply spot at the sheet's left edge, one at its far side, one near the base.
        for from in [[-0.135, 0.09], [0.135, 0.27], [0.0, 0.10]] {
            let steps = p.plan(&transfer(from, [0.0, 0.18]), &home, open).unwrap();
            let lift = &steps[3];
            assert_eq!(lift.name, "lift");
            let Motion::Arm(t) = &lift.motion else {
                panic!()
            };
            let (start, _) = p.arm_mut().tool_point_axis(&t.points[0].positions);
            let off = off_vertical(&mut p, t, [start.x, start.y]);
            assert!(off < 5e-4, "lift from {from:?} strays {:.2} mm", off * 1e3);
            let (end, _) = p.arm_mut().tool_point_axis(&lift.end);
            assert!((end.z - p.carry_height_m).abs() < 2e-3, "{end}");
            // A joint-space line between the same ends strays millimetres.
            let line = p.segment(&t.points[0].positions, &lift.end);
            let arc = off_vertical(&mut p, &line, [start.x, start.y]);
            assert!(arc > 2e-3, "{from:?}: {:.2} mm", arc * 1e3);
            // A lift tried again from part way up goes on straight up.
            let part = t.points[2].positions.clone();
            let rest = p.resume(&part, lift);
            assert_eq!(rest.points.last().unwrap().positions, lift.end);
            let off = off_vertical(&mut p, &rest, [start.x, start.y]);
            assert!(
                off < 5e-4,
                "resumed lift from {from:?} strays {:.2} mm",
                off * 1e3
            );
        }
    }

    #[test]
    fn an_unreachable_target_fails_naming_the_step_before_anything_moves() {
        let mut p = ArmPlanner::new(Arm::load_named("al5d").unwrap());
        let home = p.arm().home().to_vec();
        let e = p
            .plan(&transfer([0.0, 0.2], [0.0, 0.9]), &home, 0.016)
            .unwrap_err();
        assert_eq!(e.step, "carry");
        let park = PhysicalAction {
            kind: PhysicalAction::PARK,
            ..Default::default()
        };
        let s = p.plan(&park, &home, 0.016).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].end, p.arm().park());
    }

    fn near_pi(a: f64, b: f64) -> bool {
        axis_diff(a - b).abs() < 0.05
    }

    #[test]
    fn the_closing_axis_turns_across_a_row_and_diagonally_in_a_grid() {
        use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
        // A supply row along x, 22.5 mm pitch: close across it.
        let row = [[-0.0225, 0.0], [0.0225, 0.0], [0.045, 0.0]];
        let a = best_closing_angle([0.0, 0.0], &row, 0.014, 0.0);
        assert!(near_pi(a, FRAC_PI_2), "{a}");
        assert!(
            finger_clearance([0.0, 0.0], &row, 0.014, a)
                > finger_clearance([0.0, 0.0], &row, 0.014, 0.0) + 0.015
        );
        // A full 26 mm grid: one of the diagonals.
        let mut grid = vec![];
        for i in -1i32..=1 {
            for j in -1i32..=1 {
                if (i, j) != (0, 0) {
                    grid.push([0.026 * i as f64, 0.026 * j as f64]);
                }
            }
        }
        let a = best_closing_angle([0.0, 0.0], &grid, 0.014, 0.0);
        assert!(near_pi(a, FRAC_PI_4) || near_pi(a, -FRAC_PI_4), "{a}");
        // Nothing near, or the current axis already as good: no turn.
        assert_eq!(best_closing_angle([0.0, 0.0], &[], 0.014, 0.3), 0.3);
        let a = best_closing_angle([0.0, 0.0], &row, 0.014, FRAC_PI_2 + 0.01);
        assert_eq!(a, FRAC_PI_2 + 0.01);
    }

    #[test]
    fn the_wrist_rolls_the_fingers_clear_of_the_neighbours_at_both_ends() {
        for arm in ["al5d", "desk6"] {
            let mut p = ArmPlanner::new(Arm::load_named(arm).unwrap());
            assert!(p.roll.is_some(), "{arm}: no roll joint found");
            let home = p.arm().home().to_vec();
            let open = p.arm().config().gripper.open;
            let (f, t) = ([-0.10, 0.20], [0.05, 0.22]);
            let mut a = transfer(f, t);
            // A row along the line to the base at the pick, along x at the place.
            let radial = [f[0] / 0.2236, f[1] / 0.2236];
            for k in [-1.0, 1.0] {
                let d = 0.0225 * k;
                a.neighbours.push(Point {
                    x: f[0] + d * radial[0],
                    y: f[1] + d * radial[1],
                    z: 0.0,
                });
                a.neighbours.push(Point {
                    x: t[0] + d,
                    y: t[1],
                    z: 0.0,
                });
            }
            let steps = p.plan(&a, &home, open).unwrap();
            let grip = steps.iter().find(|s| s.name == "grip").unwrap().end.clone();
            let release = steps
                .iter()
                .find(|s| s.name == "release")
                .unwrap()
                .end
                .clone();
            let across_f = radial[1].atan2(radial[0]) + std::f64::consts::FRAC_PI_2;
            let g = closing_angle(p.arm_mut(), &grip);
            assert!(
                near_pi(g, across_f),
                "{arm}: grip axis {g}, want {across_f}"
            );
            let r = closing_angle(p.arm_mut(), &release);
            assert!(
                near_pi(r, std::f64::consts::FRAC_PI_2),
                "{arm}: release axis {r}"
            );
            // Turning the wrist did not move the tool off the pick or the place.
            for (q, at) in [(&grip, f), (&release, t)] {
                let (tip, axis) = p.arm_mut().tool_point_axis(q);
                assert!((tip.x - at[0]).hypot(tip.y - at[1]) < 2e-3, "{arm}: {tip}");
                assert!(axis.z < -0.99);
            }
        }
    }
}
