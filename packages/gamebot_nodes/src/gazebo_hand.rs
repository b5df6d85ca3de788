//! The `gazebo_hand` node: the simulated person's moves in Gazebo.
//!
//! It serves `/sim/human_move` (as `sim_world` does in the built-in
//! simulator, so the web UI's click path and `gamebot play`-style callers
//! work unchanged) for a Gazebo world written by `gamebot gazebo world`:
//!
//! - it follows `/game/state` for the position a move is made from (a
//!   request names its `ply`; one that arrives before that position waits
//!   for it on the state topic, at most [`POSITION_WAIT`], as in `sim_world`);
//! - it follows the world's pose info (`/world/<world>/pose/info`,
//!   `tf2_msgs/TFMessage` bridged from gz-sim's `gz.msgs.Pose_V`) for where
//!   every piece model is;
//! - it plans the turn with [`crate::gazebo_hand_core::plan`] and moves each
//!   model with Gazebo's set-pose service (`/world/<world>/set_pose`,
//!   `ros_gz_interfaces/srv/SetEntityPose`, bridged by ros_gz_bridge), in
//!   order;
//! - it answers only once the pose info shows every moved model where the
//!   plan put it (at most [`CONFIRM_WAIT`]), so an accepted move is one
//!   Gazebo itself reports done, not the service's word alone.
//!
//! A refusal (illegal move, no model where the rules say, the service
//! failing or missing, the poses never showing the result) answers
//! `accepted = false` with a message naming the piece, the location and the
//! service. A new game (another game number on `/game/state`) puts every
//! piece back where the world file has it. `cover_seconds` has no meaning
//! here (there is no hand to cover the board) and is ignored.
//!
//! It also is the board's turn-over station (`flip_station` of the board
//! file), which in Gazebo is not physics: a piece the arm let go (its
//! DetachableJoint detach topic, as the `arm_controller` publishes it)
//! resting within the intake's capture radius is moved to the exit turned
//! over, with the same set-pose service
//! ([`crate::gazebo_hand_core::station_turns`]).
//!
//! Parameters: `game_file`, `arm`, `board`, `camera` (the inputs of
//! `gamebot gazebo world`, which the layout is rebuilt from), `world` (the
//! Gazebo world's name), and the standard `use_sim_time` (declared; the node
//! keeps no time of its own: its waits are wall-clock bounds).

use crate::gazebo_hand_core::{plan, reached, station_turns, GazeboTable, PoseTable, Step};
use crate::referee_core::replay;
use crate::sim_world::{FollowsGameState, POSITION_WAIT};
use crate::NodeError;
use gamebot_gazebo::{TableWorld, WorldSpec};
use gamebot_interfaces::msg::GameState;
use gamebot_interfaces::ros_gz_interfaces::{Entity, SetEntityPose, SetEntityPoseRequest};
use gamebot_interfaces::srv::HumanMoveResponse;
use gamebot_interfaces::std_msgs::Empty;
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_ros::{graph, Bus, Qos, ServiceClient, Shutdown, Subscription, WaitSet};
use gamebot_rules::{Game, State};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest one set-pose call may take (wall time).
pub const SET_POSE_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest the node waits for the pose info to show a move done (wall).
pub const CONFIRM_WAIT: Duration = Duration::from_secs(3);

/// Parameters of the `gazebo_hand` executable.
#[derive(Clone, Debug)]
pub struct GazeboHandParams {
    pub game_file: String,
    /// What `gamebot gazebo world` was given: arm, board, camera.
    pub spec: WorldSpec,
    /// The Gazebo world's name (`/world/<world>/...`).
    pub world: String,
}

impl GazeboHandParams {
    /// Declares and reads the parameters (and the standard `use_sim_time`).
    pub fn declare<B: Bus>(bus: &B) -> Result<GazeboHandParams, NodeError> {
        let p = bus.parameters();
        let d = WorldSpec::default();
        let game_file = p.declare_string(
            "game_file",
            "games/tictactoe.game",
            "rule file of the game (the one the Gazebo world was written for)",
        )?;
        let arm = p.declare_string(
            "arm",
            &d.arm,
            "arm given to `gamebot gazebo world` (legacy-angle locations are placed by it)",
        )?;
        let board = p.declare_string(
            "board",
            &d.board,
            "board placement given to `gamebot gazebo world`: a name under config/boards/ or a YAML path",
        )?;
        let camera = p.declare_string(
            "camera",
            &d.camera.to_string_lossy(),
            "camera calibration file given to `gamebot gazebo world`",
        )?;
        let world = p.declare_string(
            "world",
            gamebot_gazebo::WORLD_NAME,
            "name of the Gazebo world (its topics and services are /world/<world>/...)",
        )?;
        if world.is_empty() || !world.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(NodeError::Config(format!(
                "gazebo_hand: world name `{world}` must be letters, digits and _"
            )));
        }
        crate::node_clock::declare_use_sim_time(bus)?;
        Ok(GazeboHandParams {
            game_file,
            spec: WorldSpec {
                arm,
                board,
                camera: PathBuf::from(camera),
            },
            world,
        })
    }
}

/// Loads the game and rebuilds the Gazebo world's layout.
pub fn load_table(game_file: &str, spec: &WorldSpec) -> Result<GazeboTable, NodeError> {
    let game = Game::load(game_file)
        .map_err(|e| NodeError::Config(format!("gazebo_hand: cannot load {game_file}: {e}")))?;
    let world = TableWorld::build(&game, spec)
        .map_err(|e| NodeError::Config(format!("gazebo_hand: world of {game_file}: {e}")))?;
    GazeboTable::new(Arc::new(game), &world)
        .map_err(|e| NodeError::Config(format!("gazebo_hand: {e}")))
}

/// Runs the node with its parameters until `shutdown`.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let params = GazeboHandParams::declare(bus)?;
    let table = load_table(&params.game_file, &params.spec)?;
    run_with(bus, shutdown, table, &params.game_file, &params.world)
}

struct Node {
    table: GazeboTable,
    game_file: String,
    world: String,
    poses: PoseTable,
    pose_topic: String,
    set_pose: ServiceClient<SetEntityPose>,
    set_pose_name: String,
    /// The position the person's moves are made from (the referee's).
    state: State,
    plies: usize,
    game_number: Option<u32>,
    /// Why moves cannot be made now (the referee plays another game).
    unusable: Option<String>,
    /// A malformed pose-info message was reported (once until a good one).
    warned: bool,
    /// Each piece model's DetachableJoint attach and detach topics (what the
    /// `arm_controller` publishes in Gazebo mode).
    grips: Vec<(String, Subscription<Empty>, Subscription<Empty>)>,
    /// The models attached to the gripper, by those topics.
    attached: BTreeSet<String>,
}

/// Runs the node on `table` (the layout of the world `world`, written for
/// `game_file`) until `shutdown`.
pub fn run_with<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    table: GazeboTable,
    game_file: &str,
    world: &str,
) -> Result<(), NodeError> {
    let human = bus.service_server_on(&graph::SIM_HUMAN_MOVE)?;
    let states = bus.subscription_on(&graph::GAME_STATE)?;
    let pose_topic = gamebot_gazebo::pose_info_topic(world);
    let set_pose_name = gamebot_gazebo::set_pose_service(world);
    let poses: Subscription<TFMessage> = bus.subscription(&pose_topic, graph::GZ_POSE_INFO.qos)?;
    let state = table.game().initial_state();
    let mut grips = Vec::new();
    for model in table.pieces().keys() {
        let (a, d) = gamebot_gazebo::grip_topics(model);
        grips.push((
            model.clone(),
            bus.subscription::<Empty>(&a, Qos::reliable(10))?,
            bus.subscription::<Empty>(&d, Qos::reliable(10))?,
        ));
    }
    let mut n = Node {
        grips,
        attached: BTreeSet::new(),
        set_pose: bus.service_client(&set_pose_name)?,
        table,
        game_file: game_file.to_string(),
        world: world.to_string(),
        poses: PoseTable::new(),
        pose_topic,
        set_pose_name,
        state,
        plies: 0,
        game_number: None,
        unusable: None,
        warned: false,
    };
    tracing::info!(
        "gazebo_hand: world `{}`, {} piece models; poses from {}, moves through {}",
        n.world,
        n.table.pieces().len(),
        n.pose_topic,
        n.set_pose_name
    );
    let mut ws = WaitSet::new();
    ws.add(&human);
    ws.add(&states);
    ws.add(&poses);
    ws.add(shutdown);
    while !shutdown.is_requested() {
        for s in states.drain() {
            n.on_game_state(&s);
        }
        for m in poses.drain() {
            n.on_poses(&m);
        }
        n.turn_at_station();
        while let Ok(req) = human.try_recv() {
            let text = req.request.r#move.clone();
            let waited = n.wait_for_ply(&states, req.request.ply);
            for m in poses.drain() {
                n.on_poses(&m);
            }
            let r = waited.and_then(|()| n.human_move(&text, &poses));
            let _ = req.respond(match r {
                Ok(done) => HumanMoveResponse {
                    accepted: true,
                    message: done,
                },
                Err(m) => {
                    tracing::warn!("gazebo_hand: human move {text:?} refused: {m}");
                    HumanMoveResponse {
                        accepted: false,
                        message: m,
                    }
                }
            });
        }
        ws.wait_until(None);
    }
    Ok(())
}

fn same_file(a: &str, b: &str) -> bool {
    a == b
        || match (Path::new(a).canonicalize(), Path::new(b).canonicalize()) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
}

impl FollowsGameState for Node {
    fn plies(&self) -> usize {
        self.plies
    }

    fn on_game_state(&mut self, s: &GameState) {
        if !s.game_file.is_empty() && !same_file(&s.game_file, &self.game_file) {
            let why = format!(
                "the Gazebo world was written for {}, the referee plays {}",
                self.game_file, s.game_file
            );
            if self.unusable.as_deref() != Some(why.as_str()) {
                tracing::error!("gazebo_hand: {why}");
            }
            self.unusable = Some(why);
            return;
        }
        self.unusable = None;
        match replay(self.table.game(), &s.move_history) {
            Ok(state) => {
                self.state = state;
                self.plies = s.move_history.len();
            }
            Err(e) => {
                tracing::error!("gazebo_hand: cannot replay the referee's moves: {e}");
                return;
            }
        }
        if self.game_number.is_some_and(|g| g != s.game_number) {
            // A new game: a person would set the board up again.
            let layout = self.table.initial_layout();
            match self.carry_out(&layout) {
                Ok(()) => tracing::info!(
                    "gazebo_hand: game {}: {} pieces back at their places",
                    s.game_number,
                    layout.len()
                ),
                Err(e) => {
                    tracing::error!("gazebo_hand: cannot lay out game {}: {e}", s.game_number)
                }
            }
        }
        self.game_number = Some(s.game_number);
    }
}

impl Node {
    fn on_poses(&mut self, m: &TFMessage) {
        match self.poses.update(&self.table, m) {
            Ok(_) => self.warned = false,
            Err(e) => {
                if !self.warned {
                    tracing::warn!("gazebo_hand: {}: {e}", self.pose_topic);
                    self.warned = true;
                }
            }
        }
    }

    /// The turn-over station ([`station_turns`]): a piece the arm let go at
    /// the intake goes to the exit turned over. The attach/detach topics
    /// are read first, so a piece the gripper holds is left alone.
    fn turn_at_station(&mut self) {
        for (model, attach, detach) in &self.grips {
            // In order of arrival per topic; a detach after an attach wins
            // when both came since the last look (the gripper opened).
            if !attach.drain().is_empty() {
                self.attached.insert(model.clone());
            }
            if !detach.drain().is_empty() {
                self.attached.remove(model);
            }
        }
        if self.poses.is_empty() {
            return;
        }
        let steps = station_turns(&self.table, &self.poses, &self.attached);
        if steps.is_empty() {
            return;
        }
        match self.carry_out(&steps) {
            Ok(()) => {
                for s in &steps {
                    tracing::info!("gazebo_hand: {}", s.what);
                }
            }
            Err(e) => tracing::warn!("gazebo_hand: turn-over station: {e}"),
        }
    }

    /// The set-pose call of each step, in order; stops at the first failure.
    fn carry_out(&mut self, steps: &[Step]) -> Result<(), String> {
        for (i, st) in steps.iter().enumerate() {
            let req = SetEntityPoseRequest {
                entity: Entity {
                    id: 0,
                    name: st.model.clone(),
                    r#type: Entity::MODEL,
                },
                pose: st.pose.to_msg(),
            };
            let after = if i == 0 {
                String::new()
            } else {
                format!(" (after {i} of {} steps were done)", steps.len())
            };
            match self.set_pose.call(req, SET_POSE_TIMEOUT) {
                Ok(r) if r.success => self.poses.set(&st.model, st.pose),
                Ok(_) => {
                    return Err(format!(
                        "Gazebo's {} refused to move {} to {}{after}",
                        self.set_pose_name, st.model, st.location
                    ))
                }
                Err(e) => {
                    return Err(format!(
                        "moving {} to {} through {}: {e}{after}",
                        st.model, st.location, self.set_pose_name
                    ))
                }
            }
        }
        Ok(())
    }

    fn human_move(
        &mut self,
        text: &str,
        poses: &Subscription<TFMessage>,
    ) -> Result<String, String> {
        if let Some(why) = &self.unusable {
            return Err(why.clone());
        }
        // Just started: the first pose info may be on its way (bounded).
        let end = Instant::now() + POSITION_WAIT;
        while self.poses.is_empty() && Instant::now() < end {
            if let Ok(m) = poses.recv_timeout(end.saturating_duration_since(Instant::now())) {
                self.on_poses(&m);
            }
        }
        if self.poses.is_empty() {
            return Err(format!(
                "no piece pose received on {} yet (is ros_gz_bridge bridging it?)",
                self.pose_topic
            ));
        }
        let steps = plan(&self.table, &self.state, text, &self.poses)?;
        // What Gazebo reported before the moves: a confirmation must come
        // from a pose-info message received after them.
        let before = self.poses.clone();
        self.carry_out(&steps)?;
        // The final pose of each model moved.
        let mut targets: Vec<&Step> = Vec::new();
        for st in steps.iter().rev() {
            if !targets.iter().any(|t| t.model == st.model) {
                targets.push(st);
            }
        }
        let mut seen = before;
        let end = Instant::now() + CONFIRM_WAIT;
        let missing = |seen: &PoseTable| -> Option<&Step> {
            targets
                .iter()
                .copied()
                .find(|t| !seen.get(&t.model).is_some_and(|p| reached(&t.pose, p)))
        };
        while missing(&seen).is_some() {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            if let Ok(m) = poses.recv_timeout(left) {
                let _ = seen.update(&self.table, &m);
                self.on_poses(&m);
            }
        }
        if let Some(t) = missing(&seen) {
            let at = seen
                .get(&t.model)
                .map(|p| format!("{:?}", p.position))
                .unwrap_or_else(|| "nowhere".into());
            return Err(format!(
                "{} said yes, but {} did not show {} on {} within {} s (last seen at {at})",
                self.set_pose_name,
                self.pose_topic,
                t.model,
                t.location,
                CONFIRM_WAIT.as_secs()
            ));
        }
        Ok(steps
            .iter()
            .map(|s| s.what.as_str())
            .collect::<Vec<_>>()
            .join("; "))
    }
}
