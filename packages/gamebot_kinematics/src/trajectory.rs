//! Pick-and-place trajectories: physical actions to time-parameterised joint waypoints.
//!
//! A transfer from A to B is: above A → at A → close → above A → above B → at B → open →
//! above B. Consecutive actions chain from the last pose. Every segment is a straight
//! line in joint space (arm joints and gripper) that starts and ends at rest, timed with a
//! trapezoidal velocity profile shared by all joints, so all joints arrive together and
//! none exceeds its speed or acceleration limit. Because each segment is a straight line
//! between checked waypoints and limits are boxes, checking the waypoints (joint limits and
//! servo pulse ranges) checks the whole motion; that happens before a trajectory is returned.

use crate::arm::Arm;
use crate::error::{LimitError, TrajectoryError};
use crate::locations::ResolvedLocation;

/// A physical action of the referee.
#[derive(Clone, Copy, Debug)]
pub enum Action<'a> {
    /// Pick the piece at `from`, put it at `to`.
    Transfer {
        from: &'a ResolvedLocation,
        to: &'a ResolvedLocation,
    },
    /// Turn the piece at a location over (the arm's `flip:` manoeuvre).
    Flip { at: &'a ResolvedLocation },
    /// Go to the home pose.
    Home,
    /// Go to the park pose.
    Park,
}

/// A point the trajectory passes at rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Waypoint {
    /// Arm joint values followed by the gripper joint value.
    pub positions: Vec<f64>,
    /// Time from the start of the trajectory (s).
    pub time_s: f64,
    /// Time since the previous waypoint (s); 0 for the first.
    pub duration_s: f64,
    /// What this point is ("above a1", "close", ...).
    pub label: String,
}

/// Motion profile of one segment (between waypoints `i` and `i + 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Profile {
    /// Duration (s).
    t: f64,
    /// Peak path speed and acceleration (path parameter 0..1 per second, per second²).
    v: f64,
    a: f64,
}

impl Profile {
    /// Path parameter and its rate at time `t` into the segment.
    fn eval(&self, t: f64) -> (f64, f64) {
        if self.t <= 0.0 {
            return (1.0, 0.0);
        }
        if !self.a.is_finite() {
            // A hold: start and end are the same pose.
            return ((t / self.t).clamp(0.0, 1.0), 0.0);
        }
        let t = t.clamp(0.0, self.t);
        let ta = self.v / self.a;
        if t < ta {
            (0.5 * self.a * t * t, self.a * t)
        } else if t <= self.t - ta {
            (0.5 * self.a * ta * ta + self.v * (t - ta), self.v)
        } else {
            let r = self.t - t;
            (1.0 - 0.5 * self.a * r * r, self.a * r)
        }
    }
}

/// A timed joint trajectory.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Arm joint names, then the gripper joint name.
    pub joint_names: Vec<String>,
    /// Waypoints in time order; the first is the start pose at t = 0.
    pub waypoints: Vec<Waypoint>,
    profiles: Vec<Profile>,
}

impl Trajectory {
    /// Total duration (s).
    pub fn duration(&self) -> f64 {
        self.waypoints.last().map_or(0.0, |w| w.time_s)
    }

    /// Positions and velocities at time `t` (clamped to the trajectory).
    pub fn sample(&self, t: f64) -> (Vec<f64>, Vec<f64>) {
        let n = self.waypoints.len();
        let seg = self.waypoints[1..]
            .iter()
            .position(|w| t <= w.time_s)
            .unwrap_or(n.saturating_sub(2));
        if n < 2 {
            let p = self
                .waypoints
                .first()
                .map(|w| w.positions.clone())
                .unwrap_or_default();
            let z = vec![0.0; p.len()];
            return (p, z);
        }
        let a = &self.waypoints[seg];
        let b = &self.waypoints[seg + 1];
        let (s, ds) = self.profiles[seg].eval(t - a.time_s);
        let pos = a
            .positions
            .iter()
            .zip(&b.positions)
            .map(|(x, y)| x + s * (y - x))
            .collect();
        let vel = a
            .positions
            .iter()
            .zip(&b.positions)
            .map(|(x, y)| ds * (y - x))
            .collect();
        (pos, vel)
    }

    /// Samples every `dt` seconds, end point included: `(t, positions, velocities)`.
    pub fn sample_every(&self, dt: f64) -> Vec<(f64, Vec<f64>, Vec<f64>)> {
        let total = self.duration();
        let steps = if dt > 0.0 {
            (total / dt).ceil() as usize
        } else {
            0
        };
        (0..=steps)
            .map(|i| {
                let t = (i as f64 * dt).min(total);
                let (p, v) = self.sample(t);
                (t, p, v)
            })
            .collect()
    }
}

struct Builder<'a> {
    arm: &'a Arm,
    limits: Vec<(f64, f64)>,
    waypoints: Vec<Waypoint>,
    profiles: Vec<Profile>,
}

impl Builder<'_> {
    fn current(&self) -> &[f64] {
        &self.waypoints.last().expect("start waypoint").positions
    }

    /// Appends a rest-to-rest segment to `target` (arm + gripper values).
    fn go(&mut self, target: Vec<f64>, label: impl Into<String>) {
        let from = self.current();
        let mut v = f64::INFINITY;
        let mut a = f64::INFINITY;
        for ((x, y), (vmax, amax)) in from.iter().zip(&target).zip(&self.limits) {
            let d = (y - x).abs();
            if d > 1e-12 {
                v = v.min(vmax / d);
                a = a.min(amax / d);
            }
        }
        let profile = if v.is_infinite() {
            Profile {
                t: 0.0,
                v: 1.0,
                a: 1.0,
            }
        } else if v * v / a >= 1.0 {
            // Triangle: the peak speed is never reached.
            let ta = (1.0 / a).sqrt();
            Profile {
                t: 2.0 * ta,
                v: a * ta,
                a,
            }
        } else {
            Profile {
                t: 1.0 / v + v / a,
                v,
                a,
            }
        };
        let last = self.waypoints.last().expect("start waypoint").time_s;
        self.push(target, profile, last, label.into());
    }

    /// Holds the current pose for `secs`.
    fn hold(&mut self, secs: f64, label: &str) {
        if secs <= 0.0 {
            return;
        }
        let p = self.current().to_vec();
        let last = self.waypoints.last().expect("start waypoint").time_s;
        self.push(
            p,
            Profile {
                t: secs,
                v: 1.0 / secs,
                a: f64::INFINITY,
            },
            last,
            label.into(),
        );
    }

    fn push(&mut self, positions: Vec<f64>, profile: Profile, last: f64, label: String) {
        self.waypoints.push(Waypoint {
            positions,
            time_s: last + profile.t,
            duration_s: profile.t,
            label,
        });
        self.profiles.push(profile);
    }

    fn arm_pose(&mut self, q: &[f64], label: String) {
        let g = *self.current().last().expect("gripper value");
        let mut p = q.to_vec();
        p.push(g);
        self.go(p, label);
    }

    fn gripper(&mut self, value: f64, label: &str) {
        let mut p = self.current().to_vec();
        *p.last_mut().expect("gripper value") = value;
        self.go(p, label);
        self.hold(self.arm.config.gripper.settle_s, &format!("{label} settle"));
    }

    fn open_if_needed(&mut self) {
        let open = self.arm.config.gripper.open;
        if (self.current().last().copied().unwrap_or(open) - open).abs() > 1e-12 {
            self.gripper(open, "open");
        }
    }
}

impl Arm {
    /// Plans the joint trajectory for a list of actions, starting at rest at arm pose
    /// `start` with the gripper at `gripper`. Every waypoint is checked against the joint
    /// limits and the servo ranges before the trajectory is returned.
    pub fn plan(
        &mut self,
        start: &[f64],
        gripper: f64,
        actions: &[Action<'_>],
    ) -> Result<Trajectory, TrajectoryError> {
        self.pulses(start, Some(gripper), " (start pose)")?;
        let mut limits: Vec<(f64, f64)> = self
            .joints
            .iter()
            .map(|j| (j.servo.max_velocity, j.servo.max_acceleration))
            .collect();
        limits.push((
            self.gripper.servo.max_velocity,
            self.gripper.servo.max_acceleration,
        ));
        let mut first = start.to_vec();
        first.push(gripper);
        // Flip needs IK for the lifted pose; solve those first (they borrow the arm mutably).
        let mut lifted = Vec::new();
        for act in actions {
            if let Action::Flip { at } = act {
                lifted.push(self.flip_lift(at)?);
            }
        }
        let mut lifted = lifted.into_iter();
        let (open, closed) = (self.config.gripper.open, self.config.gripper.closed);
        let mut b = Builder {
            arm: self,
            limits,
            waypoints: vec![Waypoint {
                positions: first,
                time_s: 0.0,
                duration_s: 0.0,
                label: "start".into(),
            }],
            profiles: Vec::new(),
        };
        for act in actions {
            match *act {
                Action::Transfer { from, to } => {
                    b.open_if_needed();
                    b.arm_pose(&from.above, format!("above {}", from.name));
                    b.arm_pose(&from.at, format!("at {}", from.name));
                    b.gripper(closed, "close");
                    b.arm_pose(&from.above, format!("above {}", from.name));
                    b.arm_pose(&to.above, format!("above {}", to.name));
                    b.arm_pose(&to.at, format!("at {}", to.name));
                    b.gripper(open, "open");
                    b.arm_pose(&to.above, format!("above {}", to.name));
                }
                Action::Flip { at } => {
                    let (j, from_v, to_v, _) = b.arm.flip.expect("checked by flip_lift");
                    let with = |q: &[f64], v: f64| {
                        let mut q = q.to_vec();
                        q[j] = v;
                        q
                    };
                    let lift = lifted.next().expect("one lifted pose per flip");
                    b.open_if_needed();
                    b.arm_pose(&with(&at.above, from_v), format!("above {}", at.name));
                    b.arm_pose(&with(&at.at, from_v), format!("at {}", at.name));
                    b.gripper(closed, "close");
                    b.arm_pose(&with(&lift, from_v), format!("lift {}", at.name));
                    b.arm_pose(&with(&lift, to_v), format!("turn {}", at.name));
                    b.arm_pose(&with(&at.at, to_v), format!("at {}", at.name));
                    b.gripper(open, "open");
                    b.arm_pose(&with(&at.above, to_v), format!("above {}", at.name));
                }
                Action::Home => {
                    let q = b.arm.home.clone();
                    b.arm_pose(&q, "home".into());
                }
                Action::Park => {
                    let q = b.arm.park.clone();
                    b.arm_pose(&q, "park".into());
                }
            }
        }
        let (waypoints, profiles) = (b.waypoints, b.profiles);
        let n = self.joints.len();
        for (i, w) in waypoints.iter().enumerate() {
            let ctx = format!(" at waypoint {i} ({})", w.label);
            self.pulses(&w.positions[..n], Some(w.positions[n]), &ctx)?;
        }
        let mut joint_names: Vec<String> = self.joints.iter().map(|j| j.name.clone()).collect();
        joint_names.push(self.gripper.name.clone());
        Ok(Trajectory {
            joint_names,
            waypoints,
            profiles,
        })
    }

    /// The pose `lift_m` above the approach pose of a location, for turning a piece over.
    fn flip_lift(&mut self, at: &ResolvedLocation) -> Result<Vec<f64>, TrajectoryError> {
        let (_, _, _, lift) = self.flip.ok_or_else(|| TrajectoryError::NoFlip {
            arm: self.name.clone(),
        })?;
        let (p, _) = self.tool_point_axis(&at.above);
        let target = [p.x, p.y, p.z + lift];
        let seed = at.above.clone();
        self.solve(target, &seed, crate::ik::SolverChoice::Auto)
            .map(|s| s.q)
            .map_err(|source| TrajectoryError::Flip {
                name: at.name.clone(),
                source,
            })
    }

    /// Checks that a trajectory (for this arm) stays inside joint limits and servo ranges
    /// at every waypoint.
    pub fn check_trajectory(&self, traj: &Trajectory) -> Result<(), LimitError> {
        let n = self.joints.len();
        for (i, w) in traj.waypoints.iter().enumerate() {
            if w.positions.len() != n + 1 {
                return Err(LimitError::Length {
                    expected: n + 1,
                    got: w.positions.len(),
                    context: format!(" at waypoint {i}"),
                });
            }
            self.pulses(
                &w.positions[..n],
                Some(w.positions[n]),
                &format!(" at waypoint {i} ({})", w.label),
            )?;
        }
        Ok(())
    }
}
