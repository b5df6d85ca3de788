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
//! points, so the chord speeds stay within the limits too.

use gamebot_interfaces::builtin_interfaces::Duration as RosDuration;
use gamebot_interfaces::msg::PhysicalAction;
use gamebot_interfaces::trajectory_msgs::{JointTrajectory, JointTrajectoryPoint};
use gamebot_kinematics::{Arm, SolverChoice};
use std::time::Duration;

/// Points per arm segment.
pub const SAMPLES: usize = 8;

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
}

impl ArmPlanner {
    /// A planner for `arm`; the carry height is the approach height plus
    /// 3 cm, so a carried piece (≤ 2 cm tall, held at half height) passes
    /// above stacks of up to four 1 cm pieces.
    pub fn new(arm: Arm) -> ArmPlanner {
        let carry = arm.config().approach_height_m + 0.03;
        ArmPlanner {
            arm,
            carry_height_m: carry,
        }
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

    fn check(&self, q: &[f64], g: Option<f64>, step: &'static str) -> Result<(), PlanError> {
        self.arm
            .pulses(q, g, &format!(" ({step})"))
            .map(|_| ())
            .map_err(|e| PlanError {
                step,
                reason: e.to_string(),
            })
    }

    /// A timed joint trajectory from `from` to `to` (arm joints).
    pub fn segment(&self, from: &[f64], to: &[f64]) -> JointTrajectory {
        let mut v = f64::INFINITY;
        let mut a = f64::INFINITY;
        for ((x, y), j) in from.iter().zip(to).zip(self.arm.joints()) {
            let d = (y - x).abs();
            if d > 1e-9 {
                v = v.min(j.servo.max_velocity / d);
                a = a.min(j.servo.max_acceleration / d);
            }
        }
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
            for k in 1..=SAMPLES {
                let t = total * k as f64 / SAMPLES as f64;
                let ms = ((t * 1000.0).ceil() as u64).max(last_ms + 1);
                last_ms = ms;
                let s = if k == SAMPLES { 1.0 } else { s_at(t) };
                let q = from.iter().zip(to).map(|(x, y)| x + s * (y - x)).collect();
                points.push(pt(q, ms as f64 / 1000.0));
            }
        }
        JointTrajectory {
            joint_names: names,
            points,
            ..Default::default()
        }
    }

    fn arm_step(
        &self,
        steps: &mut Vec<Step>,
        name: &'static str,
        from: &[f64],
        to: &[f64],
        holding: bool,
    ) {
        steps.push(Step {
            name,
            motion: Motion::Arm(self.segment(from, to)),
            end: to.to_vec(),
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
                let above_f = self.ik(p(f, cfg.approach_height_m), start, "approach")?;
                let at_f = self.ik(p(f, cfg.grasp_height_m), &above_f, "approach")?;
                let carry_f = self.ik(p(f, self.carry_height_m), &above_f, "lift")?;
                let carry_t = self.ik(p(t, self.carry_height_m), &carry_f, "carry")?;
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
                self.arm_step(&mut steps, "lift", &at_f, &carry_f, true);
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
                        "FLIP of {} at {}: turning a disc over needs the stock exchange, which this controller does not implement yet",
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
}
