//! The `ssc32_bridge` node: owns the SSC-32U serial port and serves the two
//! standard actions of a ros2_control arm, so that the stock
//! `joint_trajectory_controller` and gripper controller could take its place:
//!
//! - `control_msgs/action/FollowJointTrajectory` on
//!   `/joint_trajectory_controller/follow_joint_trajectory`: each point is a
//!   timed group move; completion is polled with `Q` on the driver clock;
//!   goals with unknown joints, values outside the limits, pulses outside
//!   the servo ranges or speeds above the YAML limits end at once with the
//!   standard error code and the reason (accepted, then aborted with the
//!   result, so the client gets the reason; a plain DDS reject carries none);
//!   cancel sends `STOP` to the moving channels and ends the goal at once.
//! - `control_msgs/action/GripperCommand` on `/gripper_controller/gripper_cmd`.
//! - `/joint_states` from the motion model (linear interpolation of each
//!   group move, as the board does), checked against `QP` read-backs;
//!   `/diagnostics`: port, firmware, state, last fault.
//!
//! One goal runs at a time (the board holds one group move); a goal that
//! arrives while another runs ends at once with `INVALID_GOAL`, "busy".
//! A serial fault aborts the running goal naming the port, is published on
//! `/diagnostics`, and the port is reopened with back-off (0.1 s doubling to
//! 2 s); the next goal is served once the line is back. The node never exits
//! on a fault.
//!
//! Time: everything about motion is on the driver's [`Clock`]. On a real clock
//! the loop sleeps on its [`WaitSet`] until the next deadline (joint-state tick,
//! `Q` poll, reconnect) or an input; on a virtual clock it advances the clock
//! to the next deadline while a goal runs (so simulated motion takes no wall
//! time) and lets it follow wall time while idle.

use crate::bridge_core::{
    GoalRefusal, MotionModel, ServoJoints, DIAGNOSTIC_NAME, LINE_LOST, NOT_CONNECTED,
};
use crate::NodeError;
use gamebot_interfaces::control_msgs::{
    FollowJointTrajectory, FollowJointTrajectoryFeedback, FollowJointTrajectoryResult as FjtResult,
    GripperCommandAction, GripperCommandResult,
};
use gamebot_interfaces::diagnostic_msgs::{DiagnosticArray, DiagnosticStatus, KeyValue};
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_interfaces::std_msgs::Header;
use gamebot_interfaces::trajectory_msgs::JointTrajectoryPoint;
use gamebot_kinematics::Arm;
use gamebot_ros::wait::TryRecvError;
use gamebot_ros::{graph, ActionServer, ActiveGoal, Bus, Publisher, Shutdown, WaitSet};
use gamebot_ssc32::{Channel, Clock, Driver, DriverConfig, DriverError, GroupMove, Movement};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How the bridge runs.
#[derive(Debug, Clone)]
pub struct BridgeConfig {
    /// Serial device (`/dev/ttyUSB0`, or the emulator's pty / link).
    pub port: String,
    /// Baud rate.
    pub baud: u32,
    /// Time source shared with the board (real, or the simulation's).
    pub clock: Clock,
    /// `/joint_states` period (clock time).
    pub joint_state_period: Duration,
    /// `Q` poll period while a move runs (clock time).
    pub poll_period: Duration,
    /// `QP` read-back period (clock time).
    pub readback_period: Duration,
    /// Model and read-back may differ by this much (µs) before the model is re-seeded.
    pub readback_tolerance_us: f64,
    /// How long (wall time) an answer of the board may take before the line
    /// counts as lost: 500 ms for a real port; longer for the emulator in the
    /// same process, whose thread a loaded machine may not run for a while
    /// (a silent line there is a test machine's load, not a fault).
    pub read_timeout: Duration,
}

impl BridgeConfig {
    /// Defaults for a port: 9600 baud, real clock, 20 Hz joint states (50 ms),
    /// `Q` every 20 ms, `QP` every 250 ms.
    pub fn new(port: impl Into<String>) -> BridgeConfig {
        BridgeConfig {
            port: port.into(),
            baud: 9600,
            clock: Clock::real(),
            joint_state_period: Duration::from_millis(50),
            poll_period: Duration::from_millis(20),
            readback_period: Duration::from_millis(250),
            readback_tolerance_us: 30.0,
            read_timeout: Duration::from_millis(500),
        }
    }
}

/// Runs the node with its parameters `port` (default `/dev/ttyUSB0`), `baud`
/// (9600) and `arm` (`al5d`, a name under `config/arms/` or a YAML path) on the
/// system clock, or on `/clock` with `use_sim_time`, until `shutdown`.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let p = bus.parameters();
    let port = p.declare_string("port", "/dev/ttyUSB0", "serial device of the SSC-32U")?;
    let baud = p.declare_int(
        "baud",
        9600,
        300,
        1_000_000,
        "baud rate (the board's BAUD setting)",
    )?;
    let arm_name = p.declare_string(
        "arm",
        "al5d",
        "arm configuration: a name under config/arms/ or a YAML path",
    )?;
    let clock = crate::node_clock::node_clock(bus, Clock::real(), shutdown)?;
    let arm = load_arm(&arm_name)?;
    let mut config = BridgeConfig::new(port);
    config.baud = baud as u32;
    config.clock = clock;
    run_with(bus, shutdown, &arm, config)
}

/// Loads an arm by name (`config/arms/<name>.yaml`) or YAML path.
pub fn load_arm(name: &str) -> Result<Arm, NodeError> {
    let r = if name.ends_with(".yaml") || name.contains('/') {
        Arm::load(name)
    } else {
        Arm::load_named(name)
    };
    r.map_err(|e| NodeError::Config(format!("arm {name}: {e}")))
}

enum Goal {
    Trajectory(ActiveGoal<FollowJointTrajectory>),
    Gripper(ActiveGoal<GripperCommandAction>, f64),
}

impl Goal {
    fn cancel_requested(&self) -> bool {
        match self {
            Goal::Trajectory(g) => g.is_cancel_requested(),
            Goal::Gripper(g, _) => g.is_cancel_requested(),
        }
    }
}

struct Running {
    goal: Goal,
    moves: VecDeque<GroupMove>,
    channels: Vec<Channel>,
    /// Start, planned duration and deadline of the move under way.
    move_start: Duration,
    expected: Duration,
    next_poll: Duration,
}

enum End {
    Succeeded,
    Canceled,
    Failed(i32, String),
}

struct Bridge<'a> {
    config: BridgeConfig,
    joints: ServoJoints,
    fallback: Vec<f64>,
    driver: Option<Driver>,
    model: MotionModel,
    running: Option<Running>,
    backoff: Duration,
    next_connect: Instant,
    last_fault: String,
    state: &'static str,
    js: Publisher<JointState>,
    diag: Publisher<DiagnosticArray>,
    next_js: Duration,
    next_readback: Duration,
    next_diag: Instant,
    names: Vec<String>,
    _arm: &'a Arm,
}

const BACKOFF_MIN: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// Runs the bridge for `arm` with `config` (any clock) until `shutdown`.
pub fn run_with<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    arm: &Arm,
    config: BridgeConfig,
) -> Result<(), NodeError> {
    let fjt: ActionServer<FollowJointTrajectory> =
        bus.action_server_on(&graph::FOLLOW_JOINT_TRAJECTORY)?;
    let grip: ActionServer<GripperCommandAction> = bus.action_server_on(&graph::GRIPPER_COMMAND)?;
    let joints = ServoJoints::of(arm);
    let mut fallback = arm.home().to_vec();
    fallback.push(arm.config().gripper.open);
    let now = config.clock.now();
    let mut b = Bridge {
        names: joints.names(),
        model: MotionModel::new(joints.clone()),
        joints,
        fallback,
        driver: None,
        running: None,
        backoff: BACKOFF_MIN,
        next_connect: Instant::now(),
        last_fault: String::new(),
        state: "connecting",
        js: bus.publisher_on(&graph::JOINT_STATES)?,
        diag: bus.publisher_on(&graph::DIAGNOSTICS)?,
        next_js: now,
        next_readback: now,
        next_diag: Instant::now(),
        config,
        _arm: arm,
    };
    tracing::info!(port = %b.config.port, arm = arm.name(), "ssc32_bridge serving {} and {}",
        fjt.name(), grip.name());
    let mut ws = WaitSet::new();
    ws.add(&fjt);
    ws.add(&grip);
    ws.add(shutdown);
    let mut cancel_key = None;
    loop {
        if shutdown.is_requested() {
            if b.running.is_some() {
                b.stop_running();
                b.finish(End::Failed(
                    FjtResult::INVALID_GOAL,
                    "the bridge is shutting down".into(),
                ));
            }
            break;
        }
        if b.driver.is_none() && Instant::now() >= b.next_connect {
            b.connect();
        }
        loop {
            match fjt.try_recv() {
                Ok(incoming) => {
                    let goal = incoming.goal.clone();
                    match incoming.accept() {
                        Ok(active) => b.start_trajectory(active, &goal.trajectory),
                        Err(e) => tracing::warn!("could not accept a trajectory goal: {e}"),
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            }
        }
        loop {
            match grip.try_recv() {
                Ok(incoming) => {
                    let position = incoming.goal.command.position;
                    match incoming.accept() {
                        Ok(active) => b.start_gripper(active, position),
                        Err(e) => tracing::warn!("could not accept a gripper goal: {e}"),
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            }
        }
        b.step_goal();
        // The running goal's cancel request wakes the loop.
        match (&b.running, cancel_key) {
            (Some(r), None) => {
                let src = match &r.goal {
                    Goal::Trajectory(g) => g.cancel_source(),
                    Goal::Gripper(g, _) => g.cancel_source(),
                };
                cancel_key = Some(ws.add_source(src));
            }
            (None, Some(k)) => {
                ws.remove(k);
                cancel_key = None;
            }
            _ => {}
        }
        let now = b.config.clock.now();
        if now >= b.next_js {
            b.publish_joint_states(now);
            b.next_js = now + b.config.joint_state_period;
        }
        if Instant::now() >= b.next_diag {
            b.publish_diagnostics();
        }
        // Sleep until the next deadline or input.
        let mut next = b.next_js;
        if let Some(r) = &b.running {
            next = next.min(r.next_poll);
        }
        let clock_wait = next.saturating_sub(b.config.clock.now());
        let mut wall_deadline = b.next_diag;
        if b.driver.is_none() {
            wall_deadline = wall_deadline.min(b.next_connect);
        }
        if b.config.clock.is_virtual() && b.running.is_some() {
            // Inputs are taken at the top of the loop either way.
            ws.wait_timeout(Duration::ZERO);
            b.config.clock.advance(clock_wait);
        } else if b.config.clock.is_virtual() {
            let start = Instant::now();
            let until = wall_deadline.min(start + clock_wait);
            ws.wait_until(Some(until));
            b.config.clock.advance(start.elapsed().min(clock_wait));
        } else {
            // Real, scaled (`rtf` times faster than the wall) or `/clock`.
            ws.wait_until(Some(wall_deadline.min(b.config.clock.wall_deadline(next))));
        }
    }
    Ok(())
}

impl Bridge<'_> {
    fn connect(&mut self) {
        let mut dc = DriverConfig::new(self.config.port.clone())
            .baud(self.config.baud)
            .clock(self.config.clock.clone());
        dc.poll_interval = self.config.poll_period;
        dc.read_timeout = self.config.read_timeout;
        match Driver::open(dc) {
            Ok(mut d) => {
                self.backoff = BACKOFF_MIN;
                let chans = self.joints.channels();
                match d.read_pulses(&chans) {
                    Ok(p) => {
                        let now = self.config.clock.now();
                        for (c, p) in chans.iter().zip(p) {
                            self.model
                                .seed(c.get(), p.map(|p| f64::from(p.micros())), now);
                        }
                        self.driver = Some(d);
                        self.state = "ready";
                        tracing::info!(port = %self.config.port, "ssc32_bridge connected");
                    }
                    Err(e) => self.fault(e),
                }
            }
            Err(e) => self.fault(e),
        }
        self.publish_diagnostics();
    }

    fn fault(&mut self, e: DriverError) {
        let msg = e.to_string();
        if msg != self.last_fault {
            tracing::warn!("{msg}");
        }
        self.last_fault = msg;
        self.driver = None;
        self.state = "disconnected";
        self.next_connect = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(BACKOFF_MAX);
        // The status first, then the goal's end: a client that looks at
        // `/diagnostics` when its goal fails finds the line already down.
        self.publish_diagnostics();
        if self.running.is_some() {
            let reason = format!("{LINE_LOST}: {}", self.last_fault);
            self.finish(End::Failed(FjtResult::PATH_TOLERANCE_VIOLATED, reason));
        }
    }

    fn current(&self) -> Vec<f64> {
        self.model
            .state_at(self.config.clock.now(), &self.fallback)
            .0
    }

    fn refuse_if_busy(&self) -> Option<GoalRefusal> {
        if self.running.is_some() {
            return Some(GoalRefusal {
                code: FjtResult::INVALID_GOAL,
                reason: "busy: another goal is executing".into(),
            });
        }
        if self.driver.is_none() {
            return Some(GoalRefusal {
                code: FjtResult::INVALID_GOAL,
                reason: format!(
                    "{NOT_CONNECTED} on {}: {}",
                    self.config.port, self.last_fault
                ),
            });
        }
        None
    }

    fn start_trajectory(
        &mut self,
        active: ActiveGoal<FollowJointTrajectory>,
        traj: &gamebot_interfaces::trajectory_msgs::JointTrajectory,
    ) {
        let planned = match self.refuse_if_busy() {
            Some(r) => Err(r),
            None => self.joints.trajectory_moves(traj, &self.current()),
        };
        match planned {
            Ok(moves) => self.begin(Goal::Trajectory(active), moves.into()),
            Err(r) => {
                tracing::warn!("trajectory goal refused: {}", r.reason);
                let _ = active.abort(FjtResult {
                    error_code: r.code,
                    error_string: r.reason,
                });
            }
        }
    }

    fn start_gripper(&mut self, active: ActiveGoal<GripperCommandAction>, position: f64) {
        let g = self.joints.gripper_index();
        let planned = match self.refuse_if_busy() {
            Some(r) => Err(r),
            None => self.joints.gripper_move(position, self.current()[g]),
        };
        match planned {
            Ok(m) => self.begin(Goal::Gripper(active, position), VecDeque::from([m])),
            Err(r) => {
                tracing::warn!("gripper goal refused: {}", r.reason);
                let _ = active.abort(GripperCommandResult {
                    position: self.current()[g],
                    ..Default::default()
                });
            }
        }
    }

    fn begin(&mut self, goal: Goal, moves: VecDeque<GroupMove>) {
        let now = self.config.clock.now();
        self.running = Some(Running {
            goal,
            moves,
            channels: Vec::new(),
            move_start: now,
            expected: Duration::ZERO,
            next_poll: now,
        });
        self.state = "moving";
        self.next_move();
    }

    /// Sends the next group move, or finishes the goal when none is left.
    fn next_move(&mut self) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        let Some(m) = r.moves.pop_front() else {
            self.finish(End::Succeeded);
            return;
        };
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        match d.start_move(&m) {
            Ok(expected) => {
                let now = self.config.clock.now();
                self.model.start(&m, now, expected);
                r.channels = m.targets().iter().map(|t| t.channel).collect();
                r.move_start = now;
                r.expected = expected;
                r.next_poll = now + expected;
            }
            Err(e) => self.fault(e),
        }
    }

    /// Cancel, `Q` poll and timeout handling of the running goal.
    fn step_goal(&mut self) {
        let Some(r) = self.running.as_ref() else {
            return;
        };
        if r.goal.cancel_requested() {
            self.stop_running();
            self.finish(End::Canceled);
            return;
        }
        let now = self.config.clock.now();
        if now < r.next_poll {
            return;
        }
        let (expected, start) = (r.expected, r.move_start);
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        let deadline = d.config().deadline(expected);
        match d.movement() {
            Ok(Movement::Done) => self.next_move(),
            Ok(Movement::Moving) => {
                if now - start >= deadline {
                    self.stop_running();
                    self.finish(End::Failed(
                        FjtResult::GOAL_TOLERANCE_VIOLATED,
                        format!(
                            "move on {} not complete after {:?} (planned {expected:?}): servo stalled or overloaded? STOP sent",
                            self.config.port,
                            now - start
                        ),
                    ));
                } else if let Some(r) = self.running.as_mut() {
                    r.next_poll = now + self.config.poll_period;
                }
            }
            Err(e) => self.fault(e),
        }
    }

    /// `STOP` to the moving channels; the model takes the read-back positions.
    fn stop_running(&mut self) {
        let chans = match &self.running {
            Some(r) => r.channels.clone(),
            None => return,
        };
        let Some(d) = self.driver.as_mut() else {
            return;
        };
        let res = d.stop(&chans).and_then(|_| d.read_pulses(&chans));
        match res {
            Ok(p) => {
                let now = self.config.clock.now();
                for (c, p) in chans.iter().zip(p) {
                    self.model
                        .seed(c.get(), p.map(|p| f64::from(p.micros())), now);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                self.driver = None;
                self.last_fault = msg;
                self.state = "disconnected";
                self.next_connect = Instant::now() + self.backoff;
            }
        }
    }

    fn finish(&mut self, end: End) {
        let Some(r) = self.running.take() else {
            return;
        };
        if self.driver.is_some() {
            self.state = "ready";
        }
        let now = self.config.clock.now();
        let (pos, _) = self.model.state_at(now, &self.fallback);
        match r.goal {
            Goal::Trajectory(g) => {
                let (code, text) = match &end {
                    End::Succeeded => (FjtResult::SUCCESSFUL, String::new()),
                    End::Canceled => (FjtResult::SUCCESSFUL, "canceled: STOP sent".into()),
                    End::Failed(c, t) => (*c, t.clone()),
                };
                let result = FjtResult {
                    error_code: code,
                    error_string: text,
                };
                let _ = match end {
                    End::Succeeded => g.succeed(result),
                    End::Canceled => g.canceled(result),
                    End::Failed(..) => {
                        tracing::warn!("trajectory aborted: {}", result.error_string);
                        g.abort(result)
                    }
                };
            }
            Goal::Gripper(g, target) => {
                let gi = self.joints.gripper_index();
                let result = GripperCommandResult {
                    position: pos[gi],
                    effort: 0.0,
                    stalled: matches!(end, End::Failed(FjtResult::GOAL_TOLERANCE_VIOLATED, _)),
                    reached_goal: matches!(end, End::Succeeded) && (pos[gi] - target).abs() < 1e-3,
                };
                let _ = match end {
                    End::Succeeded => g.succeed(result),
                    End::Canceled => g.canceled(result),
                    End::Failed(_, t) => {
                        tracing::warn!("gripper goal aborted: {t}");
                        g.abort(result)
                    }
                };
            }
        }
        self.publish_diagnostics();
    }

    fn publish_joint_states(&mut self, now: Duration) {
        if self.driver.is_some() && now >= self.next_readback {
            self.next_readback = now + self.config.readback_period;
            let chans = self.joints.channels();
            if let Some(d) = self.driver.as_mut() {
                match d.read_pulses(&chans) {
                    Ok(p) => {
                        let rb: Vec<Option<f64>> =
                            p.iter().map(|p| p.map(|p| f64::from(p.micros()))).collect();
                        // The board answered some time after `now`: at a
                        // high real-time factor even a short wait on the
                        // line is a long stretch of a move.
                        let answered = self.config.clock.now();
                        let worst =
                            self.model
                                .check(&rb, now, answered, self.config.readback_tolerance_us);
                        if worst > self.config.readback_tolerance_us {
                            tracing::warn!(
                                worst_us = worst,
                                "QP read-back differs from the motion model; model re-seeded"
                            );
                        }
                    }
                    Err(e) => self.fault(e),
                }
            }
        }
        let (position, velocity) = self.model.state_at(now, &self.fallback);
        let msg = JointState {
            header: Header {
                stamp: crate::node_clock::stamp(&self.config.clock),
                frame_id: String::new(),
            },
            name: self.names.clone(),
            position: position.clone(),
            velocity: velocity.clone(),
            effort: vec![],
        };
        let _ = self.js.publish(&msg);
        if let Some(Running {
            goal: Goal::Trajectory(g),
            ..
        }) = &self.running
        {
            let point = JointTrajectoryPoint {
                positions: position,
                velocities: velocity,
                ..Default::default()
            };
            let _ = g.publish_feedback(FollowJointTrajectoryFeedback {
                header: Header::now(""),
                joint_names: self.names.clone(),
                desired: point.clone(),
                actual: point,
                ..Default::default()
            });
        }
    }

    fn publish_diagnostics(&mut self) {
        self.next_diag = Instant::now() + Duration::from_secs(1);
        let level = match (self.driver.is_some(), self.last_fault.is_empty()) {
            (true, true) => DiagnosticStatus::OK,
            (true, false) => DiagnosticStatus::WARN,
            (false, _) => DiagnosticStatus::ERROR,
        };
        let kv = |k: &str, v: String| KeyValue {
            key: k.into(),
            value: v,
        };
        let firmware = self
            .driver
            .as_ref()
            .map(|d| d.firmware().to_string())
            .unwrap_or_default();
        let msg = DiagnosticArray {
            header: Header::now(""),
            status: vec![DiagnosticStatus {
                level,
                name: DIAGNOSTIC_NAME.into(),
                message: self.state.into(),
                hardware_id: self.config.port.clone(),
                values: vec![
                    kv("port", self.config.port.clone()),
                    kv("baud", self.config.baud.to_string()),
                    kv("firmware", firmware),
                    kv("state", self.state.into()),
                    kv("last_fault", self.last_fault.clone()),
                ],
            }],
        };
        let _ = self.diag.publish(&msg);
    }
}
