//! Plays given moves physically on a [`SimRobot`] and judges them by the
//! world: `gamebot sim execute` and the physical game tests.
//!
//! For each move the rule engine's physical actions (transfers, flips) are
//! sent to the real `arm_controller` as one `ExecuteMove` goal with the
//! locations' table positions; the joint positions at the moments the
//! gripper closed and opened come from `/joint_states`. After the arm is
//! done the world — not any node — is compared with the rule engine: every
//! piece within `tolerance_mm` of its location (z within 2 mm), nothing
//! touched but the carried piece.

use crate::sim_robot::SimRobot;
use crate::NodeError;
use gamebot_interfaces::action::ExecuteMoveGoal;
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::PhysicalAction as ActionMsg;
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_ros::action::{GoalEvent, GoalStatus};
use gamebot_ros::{graph, Bus, NodeOptions, Subscription};
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One physical action as carried out.
#[derive(Clone, Debug, Default)]
pub struct ActionReport {
    /// `transfer`, `flip` or `park`.
    pub kind: &'static str,
    pub element: String,
    pub from: String,
    pub to: String,
    pub from_position: [f64; 3],
    pub to_position: [f64; 3],
    /// Joint positions when the gripper closed on the piece.
    pub grasp_joints: BTreeMap<String, f64>,
    /// Joint positions when the gripper opened.
    pub release_joints: BTreeMap<String, f64>,
    pub ok: bool,
    pub error: String,
}

/// One move as carried out.
#[derive(Clone, Debug, Default)]
pub struct MoveReport {
    /// The move in `element:from->to` text.
    pub text: String,
    pub actions: Vec<ActionReport>,
    /// Simulated seconds the arm took.
    pub arm_seconds: f64,
    /// Largest distance (mm) of a moved piece from its target.
    pub max_error_mm: f64,
    /// Where the world disagrees with the rule engine after the move.
    pub problems: Vec<String>,
}

/// The whole run.
#[derive(Clone, Debug, Default)]
pub struct ExecuteReport {
    pub game: String,
    pub arm: String,
    pub moves: Vec<MoveReport>,
    /// The world's final piece positions (m).
    pub pieces: BTreeMap<String, [f64; 3]>,
}

impl ExecuteReport {
    /// Whether every action succeeded and the world matched the rules after every move.
    pub fn ok(&self) -> bool {
        self.moves
            .iter()
            .all(|m| m.problems.is_empty() && m.actions.iter().all(|a| a.ok))
    }
}

/// How closely the world must match.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Horizontal distance of a piece from its location (mm).
    pub xy_mm: f64,
    /// Height difference from the location's surface or stack (mm).
    pub z_mm: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            xy_mm: 5.0,
            z_mm: 2.0,
        }
    }
}

/// Longest wait for one move's goal (wall time).
const MOVE_TIMEOUT: Duration = Duration::from_secs(600);

fn point(p: [f64; 3]) -> Point {
    Point {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

fn joints_of(js: &JointState) -> BTreeMap<String, f64> {
    js.name
        .iter()
        .cloned()
        .zip(js.position.iter().copied())
        .collect()
}

/// The `ExecuteMove` action that carries `element` from location `from`
/// (table position `from_position`) to `to` (`to_position`), as
/// [`execute_moves`] sends it; also for tools that move pieces outside the
/// rules (`gamebot bench arm`).
pub fn transfer_action(
    game: &Game,
    element: u16,
    from: u16,
    to: u16,
    from_position: [f64; 3],
    to_position: [f64; 3],
) -> ActionMsg {
    ActionMsg {
        kind: ActionMsg::TRANSFER,
        element: game.elements[element as usize].name.clone(),
        element_type: game.element_type_of(element).name.clone(),
        from_location: game.locations[from as usize].name.clone(),
        to_location: game.locations[to as usize].name.clone(),
        from_state: 0,
        to_state: 0,
        from_position: point(from_position),
        to_position: point(to_position),
        neighbours: Vec::new(),
    }
}

/// Plays `moves` (rule-engine move texts, from the initial position) with the
/// arm. Stops at the first move the rules refuse (an error); a move whose
/// goal fails is reported (`ok: false`) and the run stops there.
pub fn execute_moves(
    robot: &SimRobot,
    moves: &[String],
    tol: Tolerance,
) -> Result<ExecuteReport, NodeError> {
    let game = robot.game().clone();
    let client = robot.bus().node(NodeOptions::new("sim_execute"))?;
    let exec = client.action_client_on(&graph::EXECUTE_MOVE)?;
    let states: Subscription<JointState> = client.subscription_on(&graph::JOINT_STATES)?;
    if !exec.wait_for_server(Duration::from_secs(30)) {
        return Err(NodeError::Config(
            "sim execute: the arm controller did not come up".into(),
        ));
    }
    let mut report = ExecuteReport {
        game: game.name.clone(),
        arm: robot.arm_name().to_string(),
        ..Default::default()
    };
    let place = |l: u16| robot.places()[l as usize].1;
    let mut state: State = game.initial_state();
    let mut latest: Option<JointState> = None;
    let mut contacts_seen = robot.probe().snapshot().contacts.len();
    for text in moves {
        // Named as the rule engine would; an earlier move may have taken an
        // equivalent piece of a supply stack in place of the one named.
        let mv = match game.find_move(&state, text) {
            Ok(m) => m,
            Err(e) => crate::stack_order::equivalent_move(&game, &state, text)
                .ok_or_else(|| NodeError::Config(format!("move {text}: {e}")))?,
        };
        // A piece is taken from the top of its stack (an equivalent move).
        let mv = crate::stack_order::prefer_top_of_stack(&game, &state, &mv, place);
        let mut next = state.clone();
        game.apply(&mut next, &mv)
            .map_err(|e| NodeError::Config(format!("move {text}: {e}")))?;
        let acts = physical_actions(&game, &state, &next)
            .map_err(|e| NodeError::Config(format!("move {text}: {e}")))?;
        let mut mr = MoveReport {
            text: game.move_text(&mv),
            ..Default::default()
        };
        let near = gamebot_rules::neighbours(
            &game,
            &state,
            &acts,
            place,
            crate::referee_core::NEIGHBOUR_RADIUS_CM / 100.0,
        );
        let mut msgs = Vec::new();
        for (a, near) in acts.iter().zip(near) {
            let (kind, e, from, to, fs, ts) = match *a {
                PhysicalAction::Transfer { element, from, to } => {
                    (ActionMsg::TRANSFER, element, from, to, 0, 0)
                }
                PhysicalAction::Flip {
                    element,
                    at,
                    from_state,
                    to_state,
                } => (ActionMsg::FLIP, element, at, at, from_state, to_state),
            };
            let (fname, tname) = (
                game.locations[from as usize].name.clone(),
                game.locations[to as usize].name.clone(),
            );
            let (Some(fp), Some(tp)) = (place(from), place(to)) else {
                return Err(NodeError::Config(format!(
                    "move {text}: {fname} or {tname} has no place on the table"
                )));
            };
            let mut msg = transfer_action(&game, e, from, to, fp, tp);
            msg.kind = kind;
            msg.from_state = fs;
            msg.to_state = ts;
            msg.neighbours = near.into_iter().map(point).collect();
            msgs.push(msg);
        }
        // A FLIP goes through the board's turn-over station, as the referee sends it.
        let goal = ExecuteMoveGoal {
            actions: crate::flip_station::through_station(msgs, robot.flip_station()),
            ..Default::default()
        };
        let xyz = |p: &Point| [p.x, p.y, p.z];
        for msg in &goal.actions {
            mr.actions.push(ActionReport {
                kind: if msg.kind == ActionMsg::FLIP {
                    "flip"
                } else {
                    "transfer"
                },
                element: msg.element.clone(),
                from: msg.from_location.clone(),
                to: msg.to_location.clone(),
                from_position: xyz(&msg.from_position),
                to_position: xyz(&msg.to_position),
                ..Default::default()
            });
        }
        let t0 = robot.probe().snapshot().time;
        let mut g = exec.send_goal(goal, Duration::from_secs(30))?;
        let deadline = Instant::now() + MOVE_TIMEOUT;
        let mut step = (0usize, String::new());
        let outcome = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let ev = match g.next_event(left) {
                Ok(ev) => ev,
                Err(_) => break None,
            };
            if let Some(js) = states.drain().pop() {
                latest = Some(js);
            }
            match ev {
                GoalEvent::Feedback(f) => {
                    let now = (f.action_index as usize, f.step.clone());
                    if now != step {
                        // The step before has ended: the gripper closed / opened.
                        if let (Some(js), Some(ar)) = (&latest, mr.actions.get_mut(step.0)) {
                            match step.1.as_str() {
                                "grip" => ar.grasp_joints = joints_of(js),
                                "release" => ar.release_joints = joints_of(js),
                                _ => {}
                            }
                        }
                        step = now;
                    }
                }
                GoalEvent::Done(d) => break d.ok(),
            }
        };
        if let (Some(js), Some(ar)) = (&latest, mr.actions.get_mut(step.0)) {
            if step.1 == "release" {
                ar.release_joints = joints_of(js);
            }
        }
        let snap = settle(robot);
        mr.arm_seconds = snap.time.saturating_sub(t0).as_secs_f64();
        let done = match &outcome {
            Some(o) if o.status == GoalStatus::Succeeded => mr.actions.len(),
            Some(o) => o.result.actions_done as usize,
            None => 0,
        };
        for (i, ar) in mr.actions.iter_mut().enumerate() {
            ar.ok = i < done;
            if !ar.ok {
                ar.error = match &outcome {
                    Some(o) if i == done => o.result.message.clone(),
                    Some(_) => "not attempted: an earlier action failed".into(),
                    None => "no answer from the arm controller".into(),
                };
            }
        }
        // Judge by the world.
        let pieces: BTreeMap<&str, &gamebot_sim::PieceInfo> =
            snap.pieces.iter().map(|p| (p.name.as_str(), p)).collect();
        let moved: Vec<&str> = mr.actions.iter().map(|a| a.element.as_str()).collect();
        for (e, el) in game.elements.iter().enumerate() {
            let Some(p) = pieces.get(el.name.as_str()) else {
                continue;
            };
            let l = next.location_of(e as u16);
            let lname = &game.locations[l as usize].name;
            let Some(at) = place(l) else {
                mr.problems.push(format!(
                    "{} lies on the table, the rules have it on {lname}",
                    el.name
                ));
                continue;
            };
            let d = 1000.0 * (p.position[0] - at[0]).hypot(p.position[1] - at[1]);
            if moved.contains(&el.name.as_str()) {
                mr.max_error_mm = mr.max_error_mm.max(d);
            }
            if d > tol.xy_mm {
                mr.problems
                    .push(format!("{} lies {d:.1} mm from {lname}", el.name));
            }
            // On the location's surface (its `robot=` height, e.g. a stack
            // level), or on top of the pieces below it.
            let below = snap
                .pieces
                .iter()
                .filter(|q| {
                    q.name != p.name
                        && (q.position[0] - p.position[0]).hypot(q.position[1] - p.position[1])
                            < 0.5 * (q.radius + p.radius)
                        && q.position[2] < p.position[2]
                })
                .map(|q| q.position[2] + q.height)
                .fold(at[2], f64::max);
            let dz = 1000.0 * (p.position[2] - below).abs();
            if dz > tol.z_mm {
                mr.problems.push(format!(
                    "{} lies {dz:.1} mm off the height of {lname}",
                    el.name
                ));
            }
            // Bookkeeping states (a counter kept in a piece) have no look.
            let want = next.element_state(e as u16);
            if want != p.state
                && gamebot_rules::visible_state_change(&game, e as u16, p.state, want)
            {
                mr.problems.push(format!(
                    "{} shows state {}, the rules say {want}",
                    el.name, p.state
                ));
            }
        }
        mr.problems.extend(
            snap.contacts
                .iter()
                .skip(contacts_seen)
                .map(|c| format!("contact: {c}")),
        );
        contacts_seen = snap.contacts.len();
        let failed = mr.actions.iter().any(|a| !a.ok);
        report.moves.push(mr);
        if failed {
            break;
        }
        state = next;
    }
    report.pieces = settle(robot)
        .pieces
        .into_iter()
        .map(|p| (p.name, p.position))
        .collect();
    Ok(report)
}

/// The world once it has caught up with the clock as it is now (the end of
/// the goal) and holds nothing (gives up after 30 s wall time).
pub fn settle(robot: &SimRobot) -> crate::sim_world::WorldSnapshot {
    let target = robot.clock().now();
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        let s = robot.probe().snapshot();
        if (s.time >= target && s.held.is_none()) || Instant::now() >= end {
            return s;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
