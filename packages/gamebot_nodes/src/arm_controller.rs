//! The `arm_controller` node: serves `/arm/execute` (`ExecuteMove`) by
//! turning each physical action into pick-and-place steps
//! ([`crate::arm_core`]) sent to the driver as `FollowJointTrajectory` and
//! `GripperCommand` goals (`ssc32_bridge`, or the stock ros2_control
//! controllers), with feedback per step and action index. Cancel cancels the
//! driver goal under way, puts a held piece down where the arm is and parks.
//! A step the driver fails is tried again after short pauses; when it still
//! fails, a held piece is put down, the arm parks out of the camera's view,
//! and the goal aborts naming the step and the reason. A step that fails
//! because the driver's serial line went away (its reason, or its status on
//! `/diagnostics`, says so) does not use up those tries: the controller waits
//! for the driver's status to say the line is back (at most [`LINE_WAIT`] of
//! wall time each time, at most [`MAX_LINE_WAITS`] times per action) and
//! goes on from where the arm stopped.
//!
//! Gazebo mode (parameter `gazebo_grip`): grasping small pieces by friction
//! is unreliable in Gazebo, so the controller also attaches the gripped piece
//! to the gripper through gz-sim's DetachableJoint system of the piece's
//! model — an `std_msgs/Empty` on its attach topic when the gripper has
//! closed on it, on its detach topic when it opened
//! ([`gamebot_gazebo::grip_topics`], bridged by the world's bridge file).
//! The model attached is the one the world's pose info
//! ([`graph::GZ_POSE_INFO`]) shows where the action picks (the highest
//! within [`GAZEBO_PICK_RADIUS_M`]): pieces of one type trade names when the
//! referee infers an equivalent move, so it need not be the model named
//! after the rules' element (that one without pose info).
//! DetachableJoint attaches every piece when the world starts, so before
//! each goal every piece of the game (`game_file`) not held is detached
//! (detaching a free piece does nothing).
//!
//! Also: `/robot_description` (the URDF, latched), `/tf` from `/joint_states`
//! (every link's transform from `base_link`; parameter `publish_tf`, default
//! true), and the manual-control services `/arm/move_tool`,
//! `/arm/set_gripper`, `/arm/go_to_pose` (`home` / `park`).

use crate::arm_core::{ArmPlanner, Motion, Step};
use crate::bridge_core;
use crate::NodeError;
use gamebot_interfaces::action::{ExecuteMove, ExecuteMoveFeedback, ExecuteMoveResult};
use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::control_msgs::{
    FollowJointTrajectory, FollowJointTrajectoryGoal, GripperCommand, GripperCommandAction,
    GripperCommandGoal,
};
use gamebot_interfaces::diagnostic_msgs::{DiagnosticArray, DiagnosticStatus};
use gamebot_interfaces::geometry_msgs::{
    Quaternion, Transform, TransformStamped, Vector3 as VecMsg,
};
use gamebot_interfaces::msg::PhysicalAction;
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_interfaces::srv::{GoToPoseResponse, MoveToolResponse, SetGripperResponse};
use gamebot_interfaces::std_msgs::{Empty, Header, String as StringMsg};
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_interfaces::RosAction;
use gamebot_kinematics::{Arm, SolverChoice};
use gamebot_ros::action::{GoalOutcome, GoalStatus};
use gamebot_ros::wait::{Source, TryRecvError, WaitKey};
use gamebot_ros::ClientGoal;
use gamebot_ros::{
    graph, ActionClient, ActiveGoal, Bus, Publisher, Qos, Shutdown, Subscription, WaitSet,
};
use gamebot_ssc32::Clock;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long to wait for the driver to accept a goal.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs the node with parameters `arm` (default `al5d`) and `publish_tf`
/// (default true) until `shutdown`.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let p = bus.parameters();
    let arm_name = p.declare_string(
        "arm",
        "al5d",
        "arm configuration: a name under config/arms/ or a YAML path",
    )?;
    let publish_tf = p.declare_bool(
        "publish_tf",
        true,
        "publish /tf from /joint_states (false when robot_state_publisher does it)",
    )?;
    let gazebo_grip = p.declare_bool(
        "gazebo_grip",
        false,
        "Gazebo: attach/detach the gripped piece through DetachableJoint topics",
    )?;
    let game_file = p.declare_string(
        "game_file",
        "",
        "with gazebo_grip: the game whose pieces are detached before each goal",
    )?;
    let clock = crate::node_clock::node_clock(bus, Clock::real(), shutdown)?;
    let arm = crate::ssc32_bridge::load_arm(&arm_name)?;
    let gazebo_grip = if gazebo_grip {
        if game_file.is_empty() {
            return Err(NodeError::Config(
                "arm_controller: gazebo_grip needs the parameter game_file".into(),
            ));
        }
        let game = gamebot_rules::Game::load(&game_file).map_err(|e| {
            NodeError::Config(format!("arm_controller: game_file {game_file}: {e}"))
        })?;
        Some(game.elements.iter().map(|e| e.name.clone()).collect())
    } else {
        None
    };
    let options = ControllerOptions {
        publish_tf,
        gazebo_grip,
    };
    serve(bus, shutdown, arm, options, clock)
}

/// How the controller runs (beyond the arm).
#[derive(Clone, Debug, Default)]
pub struct ControllerOptions {
    /// Publish `/tf` from `/joint_states`.
    pub publish_tf: bool,
    /// Gazebo mode: the elements whose pieces carry a DetachableJoint
    /// (see the module docs); `None` off.
    pub gazebo_grip: Option<Vec<String>>,
}

/// Gazebo mode: the attach/detach publishers of the pieces.
struct GazeboGrip {
    /// By piece model name.
    topics: BTreeMap<String, (Publisher<Empty>, Publisher<Empty>)>,
    /// Element name -> its model's name.
    model_of: BTreeMap<String, String>,
    /// The world's pose info: where each piece model lies.
    poses: Subscription<TFMessage>,
    /// Last reported position of each piece model (m, world = `base_link`
    /// in a world written by `gamebot gazebo world`).
    positions: BTreeMap<String, [f64; 3]>,
    /// The model attached to the gripper.
    held: Option<String>,
}

/// How far (m, in x/y) from the point an action picks at a piece model may
/// lie and still be the one the closing gripper takes.
pub const GAZEBO_PICK_RADIUS_M: f64 = 0.015;

impl GazeboGrip {
    fn new<B: Bus>(bus: &B, elements: &[String]) -> Result<GazeboGrip, NodeError> {
        let mut topics = BTreeMap::new();
        let mut model_of = BTreeMap::new();
        for e in elements {
            let model = gamebot_gazebo::piece_model(e);
            let (a, d) = gamebot_gazebo::grip_topics(&model);
            topics.insert(
                model.clone(),
                (
                    bus.publisher::<Empty>(&a, Qos::reliable(10))?,
                    bus.publisher::<Empty>(&d, Qos::reliable(10))?,
                ),
            );
            model_of.insert(e.clone(), model);
        }
        Ok(GazeboGrip {
            topics,
            model_of,
            poses: bus.subscription_on(&graph::GZ_POSE_INFO)?,
            positions: BTreeMap::new(),
            held: None,
        })
    }

    fn send(&self, model: &str, attach: bool) {
        let Some((a, d)) = self.topics.get(model) else {
            tracing::warn!("gazebo grip: {model} is not a piece model of the game");
            return;
        };
        if let Err(e) = if attach { a } else { d }.publish(&Empty::default()) {
            tracing::warn!("gazebo grip of {model}: {e}");
        }
    }

    /// The model the gripper closing at `at` takes: the highest piece model
    /// the pose info shows within [`GAZEBO_PICK_RADIUS_M`] of it — pieces of
    /// one type trade names (the referee infers equivalent moves), so the
    /// model lying there need not be the one named after the rules'
    /// element — else (no pose info, nothing there) the element's own.
    fn model_at(&mut self, element: &str, at: Option<[f64; 3]>) -> Option<String> {
        for m in self.poses.drain() {
            for t in &m.transforms {
                if self.topics.contains_key(&t.child_frame_id) {
                    let v = &t.transform.translation;
                    self.positions
                        .insert(t.child_frame_id.clone(), [v.x, v.y, v.z]);
                }
            }
        }
        let there = at.and_then(|at| {
            self.positions
                .iter()
                .filter(|(_, p)| (p[0] - at[0]).hypot(p[1] - at[1]) <= GAZEBO_PICK_RADIUS_M)
                .max_by(|a, b| a.1[2].total_cmp(&b.1[2]))
                .map(|(m, _)| m.clone())
        });
        there.or_else(|| self.model_of.get(element).cloned())
    }

    /// The gripper closed on `element`'s piece, picked at `at`.
    fn attach(&mut self, element: &str, at: Option<[f64; 3]>) {
        let Some(model) = self.model_at(element, at) else {
            tracing::warn!("gazebo grip: {element} is not an element of the game");
            return;
        };
        if self.model_of.get(element) != Some(&model) {
            tracing::info!("gazebo grip: {element}'s piece is {model} (the model lying there)");
        }
        self.send(&model, true);
        self.held = Some(model);
    }

    /// The gripper opened.
    fn release(&mut self) {
        if let Some(m) = self.held.take() {
            self.send(&m, false);
        }
    }

    /// Every piece but the held one detached.
    fn detach_free(&self) {
        for m in self.topics.keys() {
            if self.held.as_deref() != Some(m.as_str()) {
                self.send(m, false);
            }
        }
    }
}

struct Io {
    states: Subscription<JointState>,
    tf: Option<Publisher<TFMessage>>,
    fjt: ActionClient<FollowJointTrajectory>,
    grip: ActionClient<GripperCommandAction>,
    /// Latest arm joint values and gripper value.
    q: Vec<f64>,
    gripper: f64,
    holding: bool,
    /// The node's clock (retry pauses).
    clock: Clock,
    /// `/diagnostics`, for the driver's serial line.
    diagnostics: Subscription<DiagnosticArray>,
    /// The driver's serial line as its last status said.
    line: Line,
    /// Gazebo mode's piece attachment.
    gazebo: Option<GazeboGrip>,
    /// The element of the action under way (what a closing gripper takes).
    element: Option<String>,
    /// Where the action under way picks its piece (m, `base_link`).
    pick_at: Option<[f64; 3]>,
}

/// The driver's serial line, as its `/diagnostics` status last said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// No status seen (a driver that publishes none, such as the stock
    /// ros2_control controllers).
    Unknown,
    Up,
    Down,
}

/// Why a step sequence stopped.
enum Stopped {
    Canceled,
    /// The step at this index (of the steps run) failed, with the reason.
    Failed(usize, &'static str, String),
}

/// Runs the arm controller for `arm` on the system clock until `shutdown`.
pub fn run_with<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    arm: Arm,
    publish_tf: bool,
) -> Result<(), NodeError> {
    let options = ControllerOptions {
        publish_tf,
        gazebo_grip: None,
    };
    serve(bus, shutdown, arm, options, Clock::real())
}

/// [`run_with`] with every option (Gazebo mode).
pub fn run_with_options<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    arm: Arm,
    options: ControllerOptions,
) -> Result<(), NodeError> {
    serve(bus, shutdown, arm, options, Clock::real())
}

fn serve<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    arm: Arm,
    options: ControllerOptions,
    clock: Clock,
) -> Result<(), NodeError> {
    let description: Publisher<StringMsg> = bus.publisher_on(&graph::ROBOT_DESCRIPTION)?;
    description.publish(&StringMsg {
        data: arm.urdf_text().to_string(),
    })?;
    let server = bus.action_server_on(&graph::EXECUTE_MOVE)?;
    let move_tool = bus.service_server_on(&graph::ARM_MOVE_TOOL)?;
    let set_gripper = bus.service_server_on(&graph::ARM_SET_GRIPPER)?;
    let go_to_pose = bus.service_server_on(&graph::ARM_GO_TO_POSE)?;
    let mut io = Io {
        states: bus.subscription_on(&graph::JOINT_STATES)?,
        tf: if options.publish_tf {
            Some(bus.publisher_on(&graph::TF)?)
        } else {
            None
        },
        fjt: bus.action_client_on(&graph::FOLLOW_JOINT_TRAJECTORY)?,
        grip: bus.action_client_on(&graph::GRIPPER_COMMAND)?,
        q: arm.home().to_vec(),
        gripper: arm.config().gripper.open,
        holding: false,
        clock,
        diagnostics: bus.subscription_on(&graph::DIAGNOSTICS)?,
        line: Line::Unknown,
        gazebo: match &options.gazebo_grip {
            Some(elements) => Some(GazeboGrip::new(bus, elements)?),
            None => None,
        },
        element: None,
        pick_at: None,
    };
    let mut planner = ArmPlanner::new(arm);
    tracing::info!(
        arm = planner.arm().name(),
        "arm_controller ready on {}",
        server.name()
    );
    let mut ws = WaitSet::new();
    ws.add(&server);
    ws.add(&io.states);
    ws.add(&move_tool);
    ws.add(&set_gripper);
    ws.add(&go_to_pose);
    ws.add(shutdown);
    while !shutdown.is_requested() {
        io.update(&mut planner);
        match server.try_recv() {
            Ok(incoming) => {
                let goal = incoming.goal.clone();
                match incoming.accept() {
                    Ok(active) => {
                        execute(&mut planner, &mut io, active, &goal.actions, shutdown);
                        io.element = None;
                        io.pick_at = None;
                    }
                    Err(e) => tracing::warn!("could not accept an ExecuteMove goal: {e}"),
                }
                continue;
            }
            Err(TryRecvError::Closed) => break,
            Err(TryRecvError::Empty) => {}
        }
        if let Ok(req) = move_tool.try_recv() {
            let target = [
                req.request.point.x,
                req.request.point.y,
                req.request.point.z,
            ];
            let r = manual_move_tool(&mut planner, &mut io, target, shutdown);
            let names = planner.joint_names();
            let _ = req.respond(match r {
                Ok(q) => MoveToolResponse {
                    success: true,
                    message: String::new(),
                    joint_names: names,
                    joint_positions: q,
                },
                Err(m) => MoveToolResponse {
                    success: false,
                    message: m,
                    ..Default::default()
                },
            });
            continue;
        }
        if let Ok(req) = set_gripper.try_recv() {
            let cfg = &planner.arm().config().gripper;
            let v = if req.request.open {
                cfg.open
            } else {
                cfg.closed
            };
            let step = Step {
                name: if req.request.open { "release" } else { "grip" },
                motion: Motion::Gripper(v),
                end: io.q.clone(),
                holding: !req.request.open,
            };
            let r = run_steps(&mut io, &[step], None, shutdown, |_| {});
            let _ = req.respond(SetGripperResponse {
                success: r.is_ok(),
                message: r.err().map(describe).unwrap_or_default(),
            });
            continue;
        }
        if let Ok(req) = go_to_pose.try_recv() {
            let target = match req.request.pose.as_str() {
                "home" => Ok(planner.arm().home().to_vec()),
                "park" => Ok(planner.arm().park().to_vec()),
                other => Err(format!("unknown pose {other:?}: use home or park")),
            };
            let r = target.and_then(|t| {
                let step = Step {
                    name: "park",
                    motion: Motion::Arm(planner.segment(&io.q, &t)),
                    end: t,
                    holding: io.holding,
                };
                run_steps(&mut io, &[step], None, shutdown, |_| {}).map_err(describe)
            });
            let _ = req.respond(GoToPoseResponse {
                success: r.is_ok(),
                message: r.err().unwrap_or_default(),
            });
            continue;
        }
        ws.wait_until(None);
    }
    Ok(())
}

fn describe(s: Stopped) -> String {
    match s {
        Stopped::Canceled => "canceled".into(),
        Stopped::Failed(_, step, reason) => format!("{step}: {reason}"),
    }
}

impl Io {
    /// Reads the driver statuses that came in; the serial line as the last
    /// one said.
    fn line(&mut self) -> Line {
        for array in self.diagnostics.drain() {
            for status in array
                .status
                .iter()
                .filter(|s| s.name == bridge_core::DIAGNOSTIC_NAME)
            {
                self.line = if status.level == DiagnosticStatus::ERROR {
                    Line::Down
                } else {
                    Line::Up
                };
            }
        }
        self.line
    }

    /// Takes the joint states that came in; publishes TF for the newest.
    fn update(&mut self, planner: &mut ArmPlanner) {
        if let Some(js) = self.states.drain().pop() {
            self.take_state(planner, js);
        }
    }

    /// Waits (at most [`SEND_TIMEOUT`]) for a joint state published after
    /// this call and takes it: where the arm is after a failed step. A
    /// state already queued may predate the driver's re-reading of the
    /// servos (a line that came back) and would put a re-planned step's
    /// start where the arm no longer is.
    fn fresh_update(&mut self, planner: &mut ArmPlanner) {
        self.states.drain();
        match self.states.recv_timeout(SEND_TIMEOUT) {
            Ok(js) => self.take_state(planner, js),
            Err(_) => {
                tracing::warn!("no joint state within {SEND_TIMEOUT:?}; planning from the last one")
            }
        }
    }

    fn take_state(&mut self, planner: &mut ArmPlanner, js: JointState) {
        let arm = planner.arm();
        for (i, j) in arm.joints().iter().enumerate() {
            if let Some(k) = js.name.iter().position(|n| *n == j.name) {
                if let Some(v) = js.position.get(k) {
                    self.q[i] = *v;
                }
            }
        }
        let gname = arm.gripper().name.clone();
        if let Some(k) = js.name.iter().position(|n| *n == gname) {
            if let Some(v) = js.position.get(k) {
                self.gripper = *v;
            }
        }
        if let Some(tf) = &self.tf {
            // Stamped as the joint states were, as robot_state_publisher does
            // (sim time under `use_sim_time`).
            let stamp = js.header.stamp.clone();
            let _ = tf.publish(&tf_message(planner.arm_mut(), &self.q, self.gripper, stamp));
        }
    }
}

/// Every link's transform from the base link, for arm joints `q` and the
/// gripper, stamped `stamp`.
pub fn tf_message(arm: &mut Arm, q: &[f64], gripper: f64, stamp: Time) -> TFMessage {
    let base = arm.config().base_link.clone();
    let stamp = Header {
        stamp,
        frame_id: base.clone(),
    };
    let transforms = arm
        .link_transforms(q, gripper)
        .into_iter()
        .filter(|(name, _)| *name != base)
        .map(|(name, iso)| {
            let t = iso.translation.vector;
            let r = iso.rotation;
            TransformStamped {
                header: stamp.clone(),
                child_frame_id: name,
                transform: Transform {
                    translation: VecMsg {
                        x: t.x,
                        y: t.y,
                        z: t.z,
                    },
                    rotation: Quaternion {
                        x: r.i,
                        y: r.j,
                        z: r.k,
                        w: r.w,
                    },
                },
            }
        })
        .collect();
    TFMessage { transforms }
}

fn manual_move_tool(
    planner: &mut ArmPlanner,
    io: &mut Io,
    target: [f64; 3],
    shutdown: &Shutdown,
) -> Result<Vec<f64>, String> {
    let sol = planner
        .arm_mut()
        .solve(target, &io.q.clone(), SolverChoice::Auto)
        .map_err(|e| e.to_string())?;
    planner
        .arm()
        .check_limits(&sol.q, " (move_tool)")
        .map_err(|e| e.to_string())?;
    let step = Step {
        name: "carry",
        motion: Motion::Arm(planner.segment(&io.q, &sol.q)),
        end: sol.q.clone(),
        holding: io.holding,
    };
    run_steps(io, &[step], None, shutdown, |_| {}).map_err(describe)?;
    Ok(sol.q)
}

/// Carries out a move's actions, with feedback, cancel and abort.
fn execute(
    planner: &mut ArmPlanner,
    io: &mut Io,
    active: ActiveGoal<ExecuteMove>,
    actions: &[PhysicalAction],
    shutdown: &Shutdown,
) {
    let total = actions.len() as u32;
    let mut done = 0u32;
    if let Some(g) = &io.gazebo {
        g.detach_free();
    }
    for (i, action) in actions.iter().enumerate() {
        io.element = Some(action.element.clone());
        let p = &action.from_position;
        io.pick_at = Some([p.x, p.y, p.z]);
        io.update(planner);
        let steps = match planner.plan(action, &io.q.clone(), io.gripper) {
            Ok(s) => s,
            Err(e) => {
                let message = format!(
                    "action {i} ({} {} -> {}): {e}",
                    action.element, action.from_location, action.to_location
                );
                tracing::warn!("{message}");
                let _ = active.abort(ExecuteMoveResult {
                    success: false,
                    message,
                    actions_done: done,
                });
                return;
            }
        };
        let cancel = active.cancel_source();
        let feedback = |step: &str| {
            let _ = active.publish_feedback(ExecuteMoveFeedback {
                action_index: i as u32,
                actions_total: total,
                step: step.to_string(),
            });
        };
        match run_steps_retrying(planner, io, steps, cancel, shutdown, feedback) {
            Ok(()) => done += 1,
            Err(Stopped::Canceled) => {
                let message = match put_down_and_park(planner, io, shutdown) {
                    Parked::Done => "canceled: the arm put the piece down and parked".to_string(),
                    Parked::Failed(s) => format!("canceled; parking failed: {s}"),
                    Parked::Unplanned(e) => format!("canceled; cannot park: {e}"),
                };
                let _ = active.canceled(ExecuteMoveResult {
                    success: false,
                    message,
                    actions_done: done,
                });
                return;
            }
            Err(Stopped::Failed(_, step, reason)) => {
                // Leave the board to the camera: a held piece goes down where
                // the arm is (the referee's corrections put it right) and the
                // arm parks out of the view.
                let recovery = match put_down_and_park(planner, io, shutdown) {
                    Parked::Done => "the arm put down what it held and parked".to_string(),
                    Parked::Failed(s) => format!("parking failed too: {s}"),
                    Parked::Unplanned(e) => format!("cannot park: {e}"),
                };
                let message = format!("action {i}, step {step}: {reason}; {recovery}");
                tracing::warn!("{message}");
                let _ = active.abort(ExecuteMoveResult {
                    success: false,
                    message,
                    actions_done: done,
                });
                return;
            }
        }
    }
    let _ = active.succeed(ExecuteMoveResult {
        success: true,
        message: String::new(),
        actions_done: done,
    });
}

/// What [`put_down_and_park`] came to.
enum Parked {
    Done,
    /// The steps ran and one stopped (the reason).
    Failed(String),
    /// No steps could be planned from where the arm is (the reason).
    Unplanned(String),
}

/// Puts a held piece down straight below the tool (the arm's pose from the
/// latest `/joint_states`), opens, and parks; or just parks.
fn put_down_and_park(planner: &mut ArmPlanner, io: &mut Io, shutdown: &Shutdown) -> Parked {
    io.update(planner);
    match planner.put_down_and_park(&io.q.clone(), io.holding) {
        Ok(steps) => match run_steps(io, &steps, None, shutdown, |_| {}) {
            Ok(()) => Parked::Done,
            Err(s) => Parked::Failed(describe(s)),
        },
        Err(e) => Parked::Unplanned(e.to_string()),
    }
}

/// Pauses (clock time) before each new try of a step the driver failed.
const RETRY_PAUSES: [Duration; 3] = [
    Duration::from_millis(200),
    Duration::from_secs(1),
    Duration::from_secs(3),
];

/// How long (wall time: a device coming back and the driver's reconnect
/// back-off are wall-time events) to wait for a lost serial line.
pub const LINE_WAIT: Duration = Duration::from_secs(30);
/// How many times one action may wait for a lost serial line.
pub const MAX_LINE_WAITS: usize = 20;

/// Runs the steps; a step the driver fails is tried again after each of
/// [`RETRY_PAUSES`] (a servo blocked for a moment), re-planned from where
/// the arm stopped, before the failure counts. A failure because the serial
/// line went away waits for the line instead ([`wait_for_line`]) and does
/// not count against the pauses.
fn run_steps_retrying(
    planner: &mut ArmPlanner,
    io: &mut Io,
    mut steps: Vec<Step>,
    cancel: Source,
    shutdown: &Shutdown,
    mut feedback: impl FnMut(&str),
) -> Result<(), Stopped> {
    let mut pauses = RETRY_PAUSES.iter();
    let mut line_waits = 0;
    loop {
        let (index, step, reason) =
            match run_steps(io, &steps, Some(cancel.clone()), shutdown, &mut feedback) {
                Err(Stopped::Failed(index, step, reason)) => (index, step, reason),
                other => return other,
            };
        let line_down = bridge_core::is_line_fault(&reason) || io.line() == Line::Down;
        if line_down && line_waits < MAX_LINE_WAITS {
            line_waits += 1;
            tracing::warn!("step {step} failed ({reason}); waiting for the serial line");
            if !wait_for_line(io, &cancel, shutdown)? {
                return Err(Stopped::Failed(
                    index,
                    step,
                    format!(
                        "{reason}; the serial line was not back within {} s",
                        LINE_WAIT.as_secs()
                    ),
                ));
            }
        } else if let Some(pause) = pauses.next() {
            tracing::warn!("step {step} failed ({reason}); trying it again in {pause:?}");
            pause_for(io, *pause, &cancel, shutdown)?;
        } else {
            return Err(Stopped::Failed(index, step, reason));
        }
        steps.drain(..index);
        io.fresh_update(planner);
        if let Some(first) = steps.first_mut() {
            if let Motion::Arm(_) = first.motion {
                first.motion = Motion::Arm(planner.resume(&io.q, first));
            }
        }
    }
}

/// Waits `pause` of clock time; cancel and shutdown end the wait.
fn pause_for(
    io: &Io,
    pause: Duration,
    cancel: &Source,
    shutdown: &Shutdown,
) -> Result<(), Stopped> {
    let mut ws = WaitSet::new();
    ws.add(shutdown);
    ws.add_source(cancel.clone());
    let until = io.clock.now() + pause;
    while io.clock.now() < until {
        if shutdown.is_requested() || cancel.is_ready() {
            return Err(Stopped::Canceled);
        }
        ws.wait_until(Some(io.clock.wall_deadline(until)));
    }
    Ok(())
}

/// Blocks on the driver's `/diagnostics` until its status says the serial
/// line is up again (`Ok(true)`), or [`LINE_WAIT`] of wall time passed
/// (`Ok(false)`); cancel and shutdown end the wait. A driver that publishes
/// no status gets one short pause instead (its reason said the line was
/// lost; nothing else will say it is back).
fn wait_for_line(io: &mut Io, cancel: &Source, shutdown: &Shutdown) -> Result<bool, Stopped> {
    if io.line() == Line::Unknown {
        pause_for(io, RETRY_PAUSES[1], cancel, shutdown)?;
        return Ok(true);
    }
    let mut ws = WaitSet::new();
    ws.add(shutdown);
    ws.add_source(cancel.clone());
    ws.add(&io.diagnostics);
    let until = Instant::now() + LINE_WAIT;
    loop {
        if shutdown.is_requested() || cancel.is_ready() {
            return Err(Stopped::Canceled);
        }
        if io.line() == Line::Up {
            return Ok(true);
        }
        if Instant::now() >= until {
            return Ok(false);
        }
        ws.wait_until(Some(until));
    }
}

/// Sends the steps' goals one after another, waiting for each; a cancel
/// (from `cancel`) or shutdown cancels the driver goal under way.
fn run_steps(
    io: &mut Io,
    steps: &[Step],
    cancel: Option<Source>,
    shutdown: &Shutdown,
    mut feedback: impl FnMut(&str),
) -> Result<(), Stopped> {
    if !io.fjt.wait_for_server(SEND_TIMEOUT) || !io.grip.wait_for_server(SEND_TIMEOUT) {
        return Err(Stopped::Failed(
            0,
            steps.first().map_or("start", |s| s.name),
            "the driver's actions are not available (is ssc32_bridge running?)".into(),
        ));
    }
    let canceled = |c: &Option<Source>| c.as_ref().is_some_and(|c| c.is_ready());
    for (index, step) in steps.iter().enumerate() {
        if canceled(&cancel) || shutdown.is_requested() {
            return Err(Stopped::Canceled);
        }
        feedback(step.name);
        let mut ws = WaitSet::new();
        let mut stop_keys = vec![ws.add(shutdown)];
        if let Some(c) = &cancel {
            stop_keys.push(ws.add_source(c.clone()));
        }
        let failed = |e: String| Stopped::Failed(index, step.name, e);
        let outcome = match &step.motion {
            Motion::Arm(traj) => {
                let mut g = io
                    .fjt
                    .send_goal(
                        FollowJointTrajectoryGoal {
                            trajectory: traj.clone(),
                            ..Default::default()
                        },
                        SEND_TIMEOUT,
                    )
                    .map_err(|e| failed(e.to_string()))?;
                ws.add(&g);
                wait_goal(&mut ws, &mut stop_keys, &cancel, shutdown, &mut g)
                    .map_err(failed)?
                    .map(|o| (o.status, o.result.error_string))
            }
            Motion::Gripper(v) => {
                let mut g = io
                    .grip
                    .send_goal(
                        GripperCommandGoal {
                            command: GripperCommand {
                                position: *v,
                                max_effort: 0.0,
                            },
                        },
                        SEND_TIMEOUT,
                    )
                    .map_err(|e| failed(e.to_string()))?;
                ws.add(&g);
                wait_goal(&mut ws, &mut stop_keys, &cancel, shutdown, &mut g)
                    .map_err(failed)?
                    .map(|o| (o.status, String::new()))
            }
        };
        match outcome {
            Some((GoalStatus::Succeeded, _)) => {
                if let (Some(g), Motion::Gripper(_)) = (&mut io.gazebo, &step.motion) {
                    match (io.holding, step.holding, &io.element) {
                        (false, true, Some(e)) => g.attach(e, io.pick_at),
                        (true, false, _) => g.release(),
                        _ => {}
                    }
                }
                io.holding = step.holding;
                if let Motion::Gripper(v) = step.motion {
                    io.gripper = v;
                }
            }
            Some((GoalStatus::Canceled, _)) | None => return Err(Stopped::Canceled),
            Some((status, text)) => {
                return Err(failed(format!(
                    "the driver ended the goal {status:?}: {text}"
                )))
            }
        }
    }
    Ok(())
}

/// Waits for a driver goal's outcome. On cancel or shutdown, cancels it,
/// stops watching those two, and waits for its end (then `Ok(None)`), at
/// most [`SEND_TIMEOUT`]: a driver that is gone (shut down first) never
/// answers.
fn wait_goal<A: RosAction>(
    ws: &mut WaitSet,
    stop_keys: &mut Vec<WaitKey>,
    cancel: &Option<Source>,
    shutdown: &Shutdown,
    g: &mut ClientGoal<A>,
) -> Result<Option<GoalOutcome<A::Result>>, String> {
    let mut canceled: Option<Instant> = None;
    loop {
        if let Some(r) = g.try_result() {
            return match r {
                Ok(o) if canceled.is_none() => Ok(Some(o)),
                Ok(_) => Ok(None),
                Err(_) if canceled.is_some() => Ok(None),
                Err(e) => Err(format!("the driver goal was lost: {e}")),
            };
        }
        let stop = cancel.as_ref().is_some_and(|c| c.is_ready()) || shutdown.is_requested();
        if stop && canceled.is_none() {
            canceled = Some(Instant::now() + SEND_TIMEOUT);
            for k in stop_keys.drain(..) {
                ws.remove(k);
            }
            if let Err(e) = g.cancel(SEND_TIMEOUT) {
                tracing::warn!("could not cancel the driver goal: {e}");
            }
        }
        if canceled.is_some_and(|until| Instant::now() >= until) {
            tracing::warn!("the driver did not end a canceled goal; giving up on it");
            return Ok(None);
        }
        ws.wait_until(canceled);
    }
}
