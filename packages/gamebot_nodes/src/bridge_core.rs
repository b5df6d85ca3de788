//! The pure part of `ssc32_bridge`: turning a `FollowJointTrajectory` or
//! `GripperCommand` goal into timed SSC-32U group moves (after checking joint
//! names, limits, servo pulse ranges and speeds against the arm
//! configuration), and the servo motion model that `/joint_states` is
//! computed from.
//!
//! The SSC-32U moves every channel of a timed group move linearly from its
//! current pulse to the target over the move time, so the model is exact
//! linear interpolation per channel; the node checks it against `QP`
//! read-backs (10 µs resolution) and re-seeds it when they disagree.

use gamebot_interfaces::control_msgs::FollowJointTrajectoryResult as FjtResult;
use gamebot_interfaces::trajectory_msgs::JointTrajectory;
use gamebot_kinematics::{Arm, JointInfo};
use gamebot_ssc32::{Channel, GroupMove, MoveTime, Pulse, ServoTarget};
use std::time::Duration;

/// A start point at `time_from_start = 0` may differ from the current
/// position by this much (rad or m) and is then skipped; more is refused.
pub const START_TOLERANCE: f64 = 0.03;
/// A segment may exceed a joint's `max_velocity` by this factor (rounding of
/// times to whole milliseconds).
pub const SPEED_MARGIN: f64 = 1.05;

/// The name of the bridge's status in `/diagnostics` (level `ERROR` while
/// the serial line is down, `OK` or `WARN` while it is up).
pub const DIAGNOSTIC_NAME: &str = "ssc32_bridge: SSC-32U";
/// How a goal the bridge ends because the serial line went away begins.
pub const LINE_LOST: &str = "serial line lost";
/// How a goal refused while the serial line is down begins.
pub const NOT_CONNECTED: &str = "not connected to the SSC-32U";

/// Whether a driver's reason for ending or refusing a goal says that its
/// serial line is down (a line the bridge reopens on its own), rather than
/// something wrong with the goal or the arm.
pub fn is_line_fault(reason: &str) -> bool {
    reason.contains(LINE_LOST) || reason.contains(NOT_CONNECTED)
}

/// Why a goal is refused: a standard `error_code` and the reason.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{reason}")]
pub struct GoalRefusal {
    /// `FollowJointTrajectory_Result` error code.
    pub code: i32,
    /// What is wrong, naming the joint, point and value.
    pub reason: String,
}

fn invalid_goal(reason: String) -> GoalRefusal {
    GoalRefusal {
        code: FjtResult::INVALID_GOAL,
        reason,
    }
}

/// The servo joints of an arm (arm joints, then the gripper), in the order
/// the bridge reports them on `/joint_states`.
#[derive(Debug, Clone)]
pub struct ServoJoints {
    joints: Vec<JointInfo>,
}

impl ServoJoints {
    /// The arm's joints followed by its gripper joint.
    pub fn of(arm: &Arm) -> ServoJoints {
        let mut joints = arm.joints().to_vec();
        joints.push(arm.gripper().clone());
        ServoJoints { joints }
    }

    /// Joint names, gripper last.
    pub fn names(&self) -> Vec<String> {
        self.joints.iter().map(|j| j.name.clone()).collect()
    }

    /// The joints.
    pub fn joints(&self) -> &[JointInfo] {
        &self.joints
    }

    /// Index of the gripper joint.
    pub fn gripper_index(&self) -> usize {
        self.joints.len() - 1
    }

    /// Channels, in joint order.
    pub fn channels(&self) -> Vec<Channel> {
        self.joints
            .iter()
            .filter_map(|j| Channel::new(u32::from(j.servo.channel)).ok())
            .collect()
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    fn target(&self, i: usize, value: f64, context: &str) -> Result<ServoTarget, GoalRefusal> {
        let j = &self.joints[i];
        let us = j
            .checked_pulse(value, context)
            .map_err(|e| invalid_goal(e.to_string()))?;
        let channel = Channel::new(u32::from(j.servo.channel))
            .map_err(|e| invalid_goal(format!("joint {}: {e}", j.name)))?;
        let pulse = Pulse::new(us.round() as u32)
            .map_err(|e| invalid_goal(format!("joint {}{context}: {e}", j.name)))?;
        Ok(ServoTarget {
            channel,
            pulse,
            speed: None,
        })
    }

    /// Checks a joint trajectory and turns it into group moves, one per point
    /// (time = time since the previous point). `current` holds the position
    /// of every servo joint now. Joints the trajectory does not name stay
    /// where they are.
    pub fn trajectory_moves(
        &self,
        traj: &JointTrajectory,
        current: &[f64],
    ) -> Result<Vec<GroupMove>, GoalRefusal> {
        if traj.joint_names.is_empty() {
            return Err(invalid_goal("the trajectory names no joints".into()));
        }
        let mut idx = Vec::with_capacity(traj.joint_names.len());
        for name in &traj.joint_names {
            let Some(i) = self.index(name) else {
                return Err(GoalRefusal {
                    code: FjtResult::INVALID_JOINTS,
                    reason: format!(
                        "unknown joint {name:?}: this arm has {}",
                        self.names().join(", ")
                    ),
                });
            };
            if idx.contains(&i) {
                return Err(GoalRefusal {
                    code: FjtResult::INVALID_JOINTS,
                    reason: format!("joint {name:?} is named twice"),
                });
            }
            idx.push(i);
        }
        if traj.points.is_empty() {
            return Err(invalid_goal("the trajectory has no points".into()));
        }
        let mut moves = Vec::new();
        let mut prev_t = Duration::ZERO;
        let mut prev: Vec<f64> = current.to_vec();
        for (k, p) in traj.points.iter().enumerate() {
            if p.positions.len() != idx.len() {
                return Err(invalid_goal(format!(
                    "point {k}: {} positions for {} joints",
                    p.positions.len(),
                    idx.len()
                )));
            }
            if p.time_from_start.sec < 0 {
                return Err(invalid_goal(format!("point {k}: negative time_from_start")));
            }
            let t = p.time_from_start.to_std();
            if k > 0 && t <= prev_t {
                return Err(invalid_goal(format!(
                    "point {k}: time_from_start {t:?} does not increase (previous {prev_t:?})"
                )));
            }
            let context = format!(" at trajectory point {k}");
            let mut targets = Vec::with_capacity(idx.len());
            for (&i, &v) in idx.iter().zip(&p.positions) {
                targets.push(self.target(i, v, &context)?);
            }
            let dt = (t - prev_t).as_secs_f64();
            let mut max_step: f64 = 0.0;
            for (&i, &v) in idx.iter().zip(&p.positions) {
                let d = (v - prev[i]).abs();
                max_step = max_step.max(d);
                let j = &self.joints[i];
                if dt > 0.0 && d / dt > j.servo.max_velocity * SPEED_MARGIN {
                    return Err(invalid_goal(format!(
                        "joint {}{context}: {:.3} per s is above its max_velocity {}",
                        j.name,
                        d / dt,
                        j.servo.max_velocity
                    )));
                }
            }
            if dt == 0.0 {
                // A start point: it must be where the arm already is.
                if max_step > START_TOLERANCE {
                    return Err(invalid_goal(format!(
                        "point {k} at time 0 is {max_step:.3} away from the current position"
                    )));
                }
                prev_t = t;
                continue;
            }
            let ms = (t - prev_t).as_millis();
            let time = MoveTime::new(u32::try_from(ms).unwrap_or(u32::MAX)).map_err(|_| {
                invalid_goal(format!(
                    "point {k}: a segment of {ms} ms is longer than the SSC-32U's 65535 ms"
                ))
            })?;
            moves.push(
                GroupMove::new(targets, Some(time))
                    .map_err(|e| invalid_goal(format!("point {k}: {e}")))?,
            );
            for (&i, &v) in idx.iter().zip(&p.positions) {
                prev[i] = v;
            }
            prev_t = t;
        }
        Ok(moves)
    }

    /// A gripper goal as one timed move at the gripper's speed limit.
    pub fn gripper_move(&self, position: f64, current: f64) -> Result<GroupMove, GoalRefusal> {
        let g = self.gripper_index();
        let target = self.target(g, position, " (gripper command)")?;
        let j = &self.joints[g];
        let secs = (position - current).abs() / j.servo.max_velocity.max(1e-9);
        let ms = (secs * 1000.0).ceil().max(1.0) as u32;
        let time = MoveTime::new(ms.min(65535))
            .map_err(|e| invalid_goal(format!("gripper command: {e}")))?;
        GroupMove::new(vec![target], Some(time))
            .map_err(|e| invalid_goal(format!("gripper command: {e}")))
    }
}

/// Linear motion of one channel.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Segment {
    from_us: f64,
    to_us: f64,
    start: Duration,
    duration: Duration,
}

impl Segment {
    fn at(&self, t: Duration) -> (f64, f64) {
        if self.duration.is_zero() || t >= self.start + self.duration {
            return (self.to_us, 0.0);
        }
        if t <= self.start {
            return (self.from_us, 0.0);
        }
        let d = self.duration.as_secs_f64();
        let s = (t - self.start).as_secs_f64() / d;
        (
            self.from_us + s * (self.to_us - self.from_us),
            (self.to_us - self.from_us) / d,
        )
    }
}

/// What the servos are doing, per joint, on the driver's clock.
#[derive(Debug, Clone)]
pub struct MotionModel {
    joints: ServoJoints,
    segments: Vec<Option<Segment>>,
}

impl MotionModel {
    /// A model with every position unknown.
    pub fn new(joints: ServoJoints) -> MotionModel {
        let n = joints.joints.len();
        MotionModel {
            joints,
            segments: vec![None; n],
        }
    }

    /// Whether every joint's position is known.
    pub fn is_known(&self) -> bool {
        self.segments.iter().all(Option::is_some)
    }

    /// Sets the pulse of channel `ch` (a read-back, or an unknown `None`).
    pub fn seed(&mut self, ch: u8, pulse_us: Option<f64>, now: Duration) {
        if let Some(i) = self
            .joints
            .joints
            .iter()
            .position(|j| j.servo.channel == ch)
        {
            self.segments[i] = pulse_us.map(|p| Segment {
                from_us: p,
                to_us: p,
                start: now,
                duration: Duration::ZERO,
            });
        }
    }

    /// Records a group move started at `now` taking `duration`.
    pub fn start(&mut self, m: &GroupMove, now: Duration, duration: Duration) {
        for t in m.targets() {
            let Some(i) = self
                .joints
                .joints
                .iter()
                .position(|j| j.servo.channel == t.channel.get())
            else {
                continue;
            };
            let to = f64::from(t.pulse.micros());
            // A channel never driven jumps to its first pulse, as on the board.
            let from = self.segments[i].map_or(to, |s| s.at(now).0);
            self.segments[i] = Some(Segment {
                from_us: from,
                to_us: to,
                start: now,
                duration,
            });
        }
    }

    /// Pulse (µs) of every joint at `t`; None where unknown.
    pub fn pulses_at(&self, t: Duration) -> Vec<Option<f64>> {
        self.segments.iter().map(|s| s.map(|s| s.at(t).0)).collect()
    }

    /// Joint positions and velocities at `t` (URDF units); unknown joints
    /// report `fallback`.
    pub fn state_at(&self, t: Duration, fallback: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut pos = Vec::with_capacity(self.segments.len());
        let mut vel = Vec::with_capacity(self.segments.len());
        for (i, (s, j)) in self.segments.iter().zip(&self.joints.joints).enumerate() {
            match s {
                Some(s) => {
                    let (us, dus) = s.at(t);
                    pos.push(j.value_from_pulse(us));
                    let per_unit = f64::from(j.servo.direction) * j.servo.us_per_unit();
                    vel.push(dus / per_unit);
                }
                None => {
                    pos.push(fallback.get(i).copied().unwrap_or(0.0));
                    vel.push(0.0);
                }
            }
        }
        (pos, vel)
    }

    /// Compares read-back pulses (per joint, in joint order) with the model
    /// over `[asked, answered]`, the clock times of the query and of its
    /// answer: the board sampled its pulses somewhere in between, so a joint
    /// moving meanwhile may read anywhere between the model's values at the
    /// two ends. Returns the largest difference in µs from that range and
    /// re-seeds joints that differ by more than `tolerance_us` (from the read
    /// value at `answered`).
    pub fn check(
        &mut self,
        readback: &[Option<f64>],
        asked: Duration,
        answered: Duration,
        tolerance_us: f64,
    ) -> f64 {
        let answered = answered.max(asked);
        let mut worst: f64 = 0.0;
        let chans: Vec<u8> = self.joints.joints.iter().map(|j| j.servo.channel).collect();
        for (i, rb) in readback.iter().enumerate() {
            let Some(rb) = *rb else { continue };
            let seg = self.segments.get(i).copied().flatten();
            let diff = seg.map_or(f64::INFINITY, |s| {
                let (a, b) = (s.at(asked).0, s.at(answered).0);
                // A segment is linear in time, so its values over the
                // interval lie between those at its ends.
                (a.min(b) - rb).max(rb - a.max(b)).max(0.0)
            });
            if diff.is_finite() {
                worst = worst.max(diff);
            }
            if diff > tolerance_us {
                // Keep the rest of a move under way: from the read-back to the
                // same target, ending when the move was to end.
                match seg {
                    Some(s) if s.start + s.duration > answered => {
                        self.segments[i] = Some(Segment {
                            from_us: rb,
                            to_us: s.to_us,
                            start: answered,
                            duration: s.start + s.duration - answered,
                        });
                    }
                    _ => self.seed(chans[i], Some(rb), answered),
                }
            }
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_interfaces::builtin_interfaces::Duration as RosDuration;
    use gamebot_interfaces::trajectory_msgs::JointTrajectoryPoint;

    fn joints() -> (Arm, ServoJoints) {
        let arm = Arm::load_named("al5d").unwrap();
        let j = ServoJoints::of(&arm);
        (arm, j)
    }

    fn point(p: &[f64], ms: u64) -> JointTrajectoryPoint {
        JointTrajectoryPoint {
            positions: p.to_vec(),
            time_from_start: RosDuration::from_std(Duration::from_millis(ms)),
            ..Default::default()
        }
    }

    fn current(arm: &Arm) -> Vec<f64> {
        let mut c = arm.home().to_vec();
        c.push(arm.config().gripper.open);
        c
    }

    #[test]
    fn a_trajectory_becomes_timed_group_moves() {
        let (arm, j) = joints();
        let names: Vec<String> = arm.joints().iter().map(|j| j.name.clone()).collect();
        let cur = current(&arm);
        let mut a = arm.home().to_vec();
        a[0] = 0.3;
        let traj = JointTrajectory {
            joint_names: names,
            points: vec![point(arm.home(), 0), point(&a, 500)],
            ..Default::default()
        };
        let moves = j.trajectory_moves(&traj, &cur).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].time().unwrap().millis(), 500);
        let base = moves[0].targets()[0];
        assert_eq!(base.channel.get(), 0);
        // base_yaw: 1500 - 636.6 * 0.3
        assert_eq!(base.pulse.micros(), 1309);
    }

    #[test]
    fn bad_goals_are_refused_with_the_reason() {
        let (arm, j) = joints();
        let cur = current(&arm);
        let unknown = JointTrajectory {
            joint_names: vec!["elbow_yaw".into()],
            points: vec![point(&[0.0], 100)],
            ..Default::default()
        };
        let e = j.trajectory_moves(&unknown, &cur).unwrap_err();
        assert_eq!(e.code, FjtResult::INVALID_JOINTS);
        assert!(e.reason.contains("elbow_yaw"), "{e}");
        let far = JointTrajectory {
            joint_names: vec!["shoulder_pitch".into()],
            points: vec![point(&[3.0], 10_000)],
            ..Default::default()
        };
        let e = j.trajectory_moves(&far, &cur).unwrap_err();
        assert_eq!(e.code, FjtResult::INVALID_GOAL);
        assert!(
            e.reason.contains("shoulder_pitch") && e.reason.contains("outside"),
            "{e}"
        );
        let fast = JointTrajectory {
            joint_names: vec!["base_yaw".into()],
            points: vec![point(&[1.0], 100)],
            ..Default::default()
        };
        let e = j.trajectory_moves(&fast, &cur).unwrap_err();
        assert!(e.reason.contains("max_velocity"), "{e}");
        let backwards = JointTrajectory {
            joint_names: vec!["base_yaw".into()],
            points: vec![point(&[0.1], 500), point(&[0.2], 400)],
            ..Default::default()
        };
        let e = j.trajectory_moves(&backwards, &cur).unwrap_err();
        assert!(e.reason.contains("does not increase"), "{e}");
        let jump = JointTrajectory {
            joint_names: vec!["base_yaw".into()],
            points: vec![point(&[0.5], 0)],
            ..Default::default()
        };
        assert!(j.trajectory_moves(&jump, &cur).is_err());
        assert!(j
            .trajectory_moves(&JointTrajectory::default(), &cur)
            .is_err());
        // A gripper value beyond its range.
        let e = j.gripper_move(0.05, 0.016).unwrap_err();
        assert!(e.reason.contains("gripper_finger"), "{e}");
    }

    /// Every servo at 1500 µs, then the base (channel 0) moving to 1700 µs
    /// from 1 s to 2 s.
    fn base_moving(j: &ServoJoints) -> MotionModel {
        let mut m = MotionModel::new(j.clone());
        for jt in j.joints() {
            m.seed(jt.servo.channel, Some(1500.0), Duration::ZERO);
        }
        let mv = GroupMove::new(
            vec![ServoTarget {
                channel: Channel::new(0).unwrap(),
                pulse: Pulse::new(1700).unwrap(),
                speed: None,
            }],
            Some(MoveTime::new(1000).unwrap()),
        )
        .unwrap();
        m.start(&mv, Duration::from_secs(1), Duration::from_secs(1));
        m
    }

    #[test]
    fn the_model_interpolates_like_the_board_and_follows_readbacks() {
        let (arm, j) = joints();
        assert!(!MotionModel::new(j.clone()).is_known());
        let mut m = base_moving(&j);
        assert!(m.is_known());
        let p = m.pulses_at(Duration::from_millis(1500));
        assert!((p[0].unwrap() - 1600.0).abs() < 1e-9);
        let (pos, vel) = m.state_at(Duration::from_millis(1500), arm.home());
        assert!((pos[0] - arm.joints()[0].value_from_pulse(1600.0)).abs() < 1e-12);
        assert!(vel[0] < 0.0, "a larger base pulse turns right: {vel:?}");
        // A read-back far from the model re-seeds it.
        let mut rb = vec![None; j.joints().len()];
        rb[0] = Some(1650.0);
        let worst = m.check(
            &rb,
            Duration::from_millis(1500),
            Duration::from_millis(1500),
            20.0,
        );
        assert!((worst - 50.0).abs() < 1e-9);
        assert_eq!(m.pulses_at(Duration::from_millis(1500))[0], Some(1650.0));
        // ...keeping the rest of the move: it still ends at the target on time.
        assert_eq!(m.pulses_at(Duration::from_secs(2))[0], Some(1700.0));
        // At rest, a read-back that differs becomes the position.
        rb[0] = Some(1760.0);
        m.check(&rb, Duration::from_secs(3), Duration::from_secs(3), 20.0);
        assert_eq!(m.pulses_at(Duration::from_secs(5))[0], Some(1760.0));
    }

    /// A read-back answered a while after it was asked for may show any pulse
    /// the move passed through meanwhile (a fast clock makes a short wait on
    /// the line a long stretch of the move); outside that range it re-seeds.
    #[test]
    fn a_read_back_is_compared_over_the_time_the_query_took() {
        let (_, j) = joints();
        // 1500 -> 1700 µs from 1 s to 2 s: 1540 at 1.2 s, 1600 at 1.5 s.
        let mut m = base_moving(&j);
        let (asked, answered) = (Duration::from_millis(1200), Duration::from_millis(1500));
        let mut rb = vec![None; j.joints().len()];
        rb[0] = Some(1590.0);
        assert_eq!(m.check(&rb, asked, answered, 20.0), 0.0);
        assert_eq!(m.pulses_at(Duration::from_millis(1500))[0], Some(1600.0));
        // Compared at the asking time alone it would be 50 µs off.
        assert!(m.clone().check(&rb, asked, asked, 20.0) > 49.0);
        // Beyond the range on either side: the distance to its nearer end.
        rb[0] = Some(1630.0);
        assert!((m.clone().check(&rb, asked, answered, 20.0) - 30.0).abs() < 1e-9);
        rb[0] = Some(1510.0);
        let worst = m.check(&rb, asked, answered, 20.0);
        assert!((worst - 30.0).abs() < 1e-9);
        // Re-seeded from the read value at the answer's time, same end.
        assert_eq!(m.pulses_at(answered)[0], Some(1510.0));
        assert_eq!(m.pulses_at(Duration::from_secs(2))[0], Some(1700.0));
    }
}
