//! The bus side of the web node: one thread asleep on a [`WaitSet`] of the
//! graph's topics and the shutdown request. It keeps the latest of
//! everything a page needs on connect (the snapshot) and broadcasts each
//! update to the connected pages. Commands from pages are carried out by
//! [`execute`] through the graph's services.

use crate::camera::to_jpeg;
use crate::layout::BoardLayout;
use crate::protocol::{
    move_route, Command, EventView, MoveRoute, ProgressView, Reply, SquareView, StateView, Xyz,
};
use gamebot_interfaces::msg::{GameEvent, GameState, PlanProgress};
use gamebot_interfaces::sensor_msgs::{Image, JointState};
use gamebot_interfaces::srv::{
    GoToPose, GoToPoseRequest, HumanMove, HumanMoveRequest, MoveTool, MoveToolRequest, NewGame,
    NewGameRequest, SetGripper, SetGripperRequest, SubmitMove, SubmitMoveRequest,
};
use gamebot_interfaces::std_msgs::String as StringMsg;
use gamebot_ros::wait::{earliest, TryRecvError};
use gamebot_ros::{graph, Bus, BusError, ServiceClient, Shutdown, Subscription, WaitSet};
use serde_json::json;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// How many recent events a newly connected page gets.
const EVENTS_KEPT: usize = 50;
/// Joint states go to the pages at most this often.
const JOINTS_PERIOD: Duration = Duration::from_millis(50);
/// Timeout of the referee's services.
const REFEREE_TIMEOUT: Duration = Duration::from_secs(5);
/// Timeout of the arm's manual services (the arm moves before answering).
const ARM_TIMEOUT: Duration = Duration::from_secs(30);

/// One frame to the pages.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Arc<str>),
    /// Camera frame: channel byte (0 raw, 1 annotated) + JPEG.
    Binary(Arc<Vec<u8>>),
}

/// The latest of everything, for pages that connect now.
#[derive(Default)]
pub struct Snapshot {
    pub layout: Option<Arc<str>>,
    layout_file: String,
    pub state_msg: Option<GameState>,
    pub state: Option<Arc<str>>,
    pub robot: Option<Arc<str>>,
    pub joints: Option<Arc<str>>,
    pub events: VecDeque<Arc<str>>,
    /// The planner's latest `/planner/progress` report of this game.
    pub thinking: Option<Arc<str>>,
    pub arm: Option<Arc<str>>,
    /// The simulated hand is making the person's move after this many moves
    /// of this game (the page shows `checking` until the referee has seen it).
    hand_pending: Option<(u32, usize)>,
}

/// What the HTTP side and the bus thread share.
pub struct Shared {
    pub snapshot: Mutex<Snapshot>,
    pub tx: broadcast::Sender<Outgoing>,
    /// Pages that want camera frames, per channel (raw, annotated).
    pub camera_wanted: [AtomicUsize; 2],
    pub camera_fps: f64,
    /// The board-to-arm registration wizard.
    pub wizard: Mutex<crate::registration::Wizard>,
    /// The board file the wizard registers (a name under config/boards/ or a path).
    pub board_file: String,
}

impl Shared {
    pub fn new(camera_fps: f64) -> Shared {
        let (tx, _) = broadcast::channel(256);
        Shared {
            snapshot: Mutex::new(Snapshot::default()),
            tx,
            camera_wanted: [AtomicUsize::new(0), AtomicUsize::new(0)],
            camera_fps,
            wizard: Mutex::new(crate::registration::Wizard::default()),
            board_file: "a4".into(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Snapshot> {
        self.snapshot.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The frames a page gets on connect, in order.
    pub fn snapshot_frames(&self) -> Vec<Arc<str>> {
        let s = self.lock();
        let mut out: Vec<Arc<str>> = Vec::new();
        out.extend(s.layout.clone());
        out.extend(s.robot.clone());
        out.extend(s.state.clone());
        out.extend(s.joints.clone());
        out.extend(s.thinking.clone());
        out.extend(s.arm.clone());
        out.extend(s.events.iter().cloned());
        out
    }

    fn send_text(&self, v: serde_json::Value) -> Arc<str> {
        let t: Arc<str> = v.to_string().into();
        // No receivers is fine (no page open).
        let _ = self.tx.send(Outgoing::Text(t.clone()));
        t
    }

    fn on_state(&self, msg: GameState) {
        let layout = {
            let s = self.lock();
            (s.layout_file != msg.game_file).then(|| msg.game_file.clone())
        };
        if let Some(file) = layout {
            let v = match BoardLayout::load(&file) {
                Ok(mut l) => {
                    // The 3D view shows the locations where the arm finds them.
                    match crate::registration::load_board(&self.board_file) {
                        Ok(b) => l.place_on(&b),
                        Err(e) => tracing::warn!("web: 3D positions without a placement: {e}"),
                    }
                    json!({"type": "layout", "layout": l})
                }
                Err(e) => {
                    tracing::warn!("web: cannot load the board layout of {file}: {e}");
                    json!({"type": "layout", "layout": null, "error": format!("{file}: {e}")})
                }
            };
            let t = self.send_text(v);
            let mut s = self.lock();
            s.layout = Some(t);
            s.layout_file = file;
        }
        let mut s = self.lock();
        if s.state_msg.as_ref().map(|m| m.game_number) != Some(msg.game_number) {
            s.events.clear();
            s.thinking = None;
        }
        // The hand's move is done once the referee has taken a move (or
        // another game began, or it is no longer the person's turn).
        if s.hand_pending != Some((msg.game_number, msg.move_history.len()))
            || msg.phase != GameState::PHASE_WAITING_FOR_HUMAN
        {
            s.hand_pending = None;
        }
        let t = self.state_frame(&msg, s.hand_pending.is_some());
        s.state = Some(t);
        s.state_msg = Some(msg);
    }

    /// Broadcasts a state (under the snapshot lock, so frames stay in order).
    fn state_frame(&self, msg: &GameState, hand_moving: bool) -> Arc<str> {
        let mut view = StateView::of(msg);
        if hand_moving {
            view.phase = "checking";
        }
        self.send_text(json!({"type": "state", "state": view}))
    }

    /// The simulated hand accepted the person's move in `game_number` after
    /// `ply` moves: until the referee has seen it, the phase is `checking`.
    fn on_hand_move(&self, game_number: u32, ply: usize) {
        let mut s = self.lock();
        let Some(msg) = s.state_msg.clone() else {
            return;
        };
        if msg.game_number == game_number
            && msg.move_history.len() == ply
            && msg.phase == GameState::PHASE_WAITING_FOR_HUMAN
        {
            s.hand_pending = Some((game_number, ply));
            let t = self.state_frame(&msg, true);
            s.state = Some(t);
        }
    }

    fn on_progress(&self, p: &PlanProgress) {
        let mut s = self.lock();
        // Reports about another game file than the one played are stale.
        if s.state_msg
            .as_ref()
            .is_some_and(|m| m.game_file != p.game_file)
        {
            return;
        }
        let t = self.send_text(json!({"type": "progress", "progress": ProgressView::of(p)}));
        s.thinking = Some(t);
    }

    fn on_event(&self, e: &GameEvent) {
        let t = self.send_text(json!({"type": "event", "event": EventView::of(e)}));
        let arm = match e.kind {
            GameEvent::ARM_STARTED => Some(
                json!({"type": "arm", "moving": true, "move": e.r#move.text, "message": e.message}),
            ),
            GameEvent::ARM_DONE | GameEvent::ARM_FAILED => Some(
                json!({"type": "arm", "moving": false, "move": e.r#move.text, "message": e.message}),
            ),
            _ => None,
        };
        let arm = arm.map(|v| self.send_text(v));
        let mut s = self.lock();
        if s.events.len() == EVENTS_KEPT {
            s.events.pop_front();
        }
        s.events.push_back(t);
        if let Some(a) = arm {
            s.arm = Some(a);
        }
    }

    fn on_robot(&self, urdf: &str) {
        let t = self.send_text(json!({"type": "robot", "urdf": urdf}));
        self.lock().robot = Some(t);
    }

    fn on_joints(&self, js: &JointState) {
        let t = self.send_text(json!({"type": "joints", "name": js.name, "position": js.position}));
        self.lock().joints = Some(t);
    }

    fn on_frame(&self, channel: u8, img: &Image) {
        match to_jpeg(img, 70) {
            Ok(jpeg) => {
                let mut buf = Vec::with_capacity(jpeg.len() + 1);
                buf.push(channel);
                buf.extend_from_slice(&jpeg);
                let _ = self.tx.send(Outgoing::Binary(Arc::new(buf)));
            }
            Err(e) => tracing::warn!("web: camera frame on channel {channel}: {e}"),
        }
    }
}

/// The graph endpoints the page's commands go through.
pub struct Clients {
    submit: ServiceClient<SubmitMove>,
    new_game: ServiceClient<NewGame>,
    move_tool: ServiceClient<MoveTool>,
    set_gripper: ServiceClient<SetGripper>,
    go_to_pose: ServiceClient<GoToPose>,
    human_move: ServiceClient<HumanMove>,
}

impl Clients {
    /// Whether the simulated world's hand serves `/sim/human_move` (the page
    /// then offers the person's moves on the board as clicks).
    pub fn has_sim_hand(&self) -> bool {
        self.human_move.is_ready()
    }

    pub fn new<B: Bus>(bus: &B) -> Result<Clients, BusError> {
        Ok(Clients {
            submit: bus.service_client_on(&graph::SUBMIT_MOVE)?,
            new_game: bus.service_client_on(&graph::NEW_GAME)?,
            move_tool: bus.service_client_on(&graph::ARM_MOVE_TOOL)?,
            set_gripper: bus.service_client_on(&graph::ARM_SET_GRIPPER)?,
            go_to_pose: bus.service_client_on(&graph::ARM_GO_TO_POSE)?,
            human_move: bus.service_client_on(&graph::SIM_HUMAN_MOVE)?,
        })
    }
}

/// The topics the bus thread listens to.
pub struct Topics {
    state: Subscription<GameState>,
    events: Subscription<GameEvent>,
    joints: Subscription<JointState>,
    progress: Subscription<PlanProgress>,
    robot: Subscription<StringMsg>,
    camera: Subscription<Image>,
    annotated: Subscription<Image>,
}

impl Topics {
    pub fn new<B: Bus>(bus: &B) -> Result<Topics, BusError> {
        Ok(Topics {
            state: bus.subscription_on(&graph::GAME_STATE)?,
            events: bus.subscription_on(&graph::GAME_EVENTS)?,
            joints: bus.subscription_on(&graph::JOINT_STATES)?,
            progress: bus.subscription_on(&graph::PLAN_PROGRESS)?,
            robot: bus.subscription_on(&graph::ROBOT_DESCRIPTION)?,
            camera: bus.subscription_on(&graph::CAMERA_IMAGE)?,
            annotated: bus.subscription_on(&graph::DETECTOR_IMAGE_ANNOTATED)?,
        })
    }
}

/// Takes everything queued on `sub`; `false` once the transport closed.
fn drain<T: gamebot_ros::RosMessage>(sub: &Subscription<T>, mut f: impl FnMut(T)) -> bool {
    loop {
        match sub.try_recv() {
            Ok(m) => f(m),
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Closed) => return false,
        }
    }
}

/// The bus thread: runs until `shutdown` (or the transport closes).
pub fn pump(topics: Topics, shared: &Shared, shutdown: &Shutdown) {
    let mut ws = WaitSet::new();
    ws.add(&topics.state);
    ws.add(&topics.events);
    ws.add(&topics.joints);
    ws.add(&topics.progress);
    ws.add(&topics.robot);
    ws.add(&topics.camera);
    ws.add(&topics.annotated);
    ws.add(shutdown);
    let mut joints_sent = Instant::now() - JOINTS_PERIOD;
    let mut joints_pending: Option<JointState> = None;
    let frame_period = Duration::from_secs_f64(1.0 / shared.camera_fps.max(0.1));
    let mut frame_sent = [Instant::now() - frame_period; 2];
    let mut frame_pending: [Option<Image>; 2] = [None, None];
    while !shutdown.is_requested() {
        let mut open = true;
        open &= drain(&topics.state, |m| shared.on_state(m));
        open &= drain(&topics.events, |m| shared.on_event(&m));
        open &= drain(&topics.progress, |m| shared.on_progress(&m));
        open &= drain(&topics.robot, |m| shared.on_robot(&m.data));
        open &= drain(&topics.joints, |m| joints_pending = Some(m));
        for (ch, sub) in [&topics.camera, &topics.annotated].into_iter().enumerate() {
            // Latest frame only; frames nobody watches are dropped unencoded.
            let wanted = shared.camera_wanted[ch].load(Ordering::Relaxed) > 0;
            open &= drain(sub, |m| frame_pending[ch] = wanted.then_some(m));
        }
        if !open {
            tracing::info!("web: the transport closed; the bus side stops");
            break;
        }
        let now = Instant::now();
        if joints_pending.is_some() && now >= joints_sent + JOINTS_PERIOD {
            if let Some(js) = joints_pending.take() {
                shared.on_joints(&js);
            }
            joints_sent = now;
        }
        for (ch, (pending, sent)) in frame_pending
            .iter_mut()
            .zip(frame_sent.iter_mut())
            .enumerate()
        {
            if pending.is_some() && now >= *sent + frame_period {
                if let Some(img) = pending.take() {
                    shared.on_frame(ch as u8, &img);
                }
                *sent = now;
            }
        }
        let deadline = earliest([
            joints_pending.as_ref().map(|_| joints_sent + JOINTS_PERIOD),
            frame_pending[0]
                .as_ref()
                .map(|_| frame_sent[0] + frame_period),
            frame_pending[1]
                .as_ref()
                .map(|_| frame_sent[1] + frame_period),
        ]);
        ws.wait_until(deadline);
    }
}

/// How long a command waits for a service to appear (DDS discovery) before
/// telling the page that its node is not running.
const DISCOVERY_WAIT: Duration = Duration::from_secs(2);

/// `Err` naming the node when nobody serves `client`'s service.
fn ready<S: gamebot_ros::RosService>(client: &ServiceClient<S>, node: &str) -> Result<(), String> {
    if client.is_ready() || client.wait_for_service(DISCOVERY_WAIT) {
        Ok(())
    } else {
        Err(format!(
            "{node} is not running (nobody serves {})",
            client.name()
        ))
    }
}

/// Calls a service of `node`, failing fast when the node is not running.
fn call<S: gamebot_ros::RosService>(
    client: &ServiceClient<S>,
    node: &str,
    request: S::Request,
    timeout: Duration,
) -> Result<S::Response, String> {
    ready(client, node)?;
    client
        .call(request, timeout)
        .map_err(|e| service_error(node, e))
}

fn service_error(what: &str, e: BusError) -> String {
    match e {
        BusError::Timeout { .. } => format!("{what} did not answer (is the node running?)"),
        other => format!("{what}: {other}"),
    }
}

/// Carries out one (already checked) command; blocking, run off the async threads.
pub fn execute(clients: &Clients, shared: &Shared, cmd: Command) -> Reply {
    let id = cmd.id();
    match cmd {
        Command::Move { mv, .. } => {
            let state = shared.lock().state_msg.clone();
            let Some(state) = state else {
                return Reply::err(id, "no game yet: the referee has not published a state");
            };
            if state.phase == GameState::PHASE_GAME_OVER {
                return Reply::err(id, "the game is over; start a new game");
            }
            match move_route(&state) {
                MoveRoute::NotYours(kind) => Reply::err(
                    id,
                    format!(
                        "it is not your turn: player {} ({kind}) is to move",
                        state.current_player
                    ),
                ),
                MoveRoute::Referee => match call(
                    &clients.submit,
                    "the referee",
                    SubmitMoveRequest {
                        r#move: mv.clone(),
                        game_number: state.game_number,
                    },
                    REFEREE_TIMEOUT,
                ) {
                    Ok(r) if r.accepted => Reply::ok(id, format!("played {}", r.r#move.text)),
                    Ok(r) => Reply::err(id, format!("{mv} is not allowed: {}", r.reason)),
                    Err(e) => Reply::err(id, e),
                },
                MoveRoute::Camera => {
                    if !state.legal_moves.iter().any(|m| m == &mv) {
                        return Reply::err(
                            id,
                            format!("{mv} is not a legal move in this position"),
                        );
                    }
                    if clients.human_move.is_ready() {
                        match clients.human_move.call(
                            HumanMoveRequest {
                                r#move: mv.clone(),
                                cover_seconds: 0.0,
                                ply: state.move_history.len() as u32 + 1,
                            },
                            ARM_TIMEOUT,
                        ) {
                            Ok(r) if r.accepted => {
                                shared.on_hand_move(state.game_number, state.move_history.len());
                                Reply::ok(
                                    id,
                                    format!(
                                        "the simulated hand makes {mv}; the camera will confirm it"
                                    ),
                                )
                            }
                            Ok(r) => Reply::err(id, format!("{mv}: {}", r.message)),
                            Err(e) => Reply::err(id, service_error("the simulated world", e)),
                        }
                    } else {
                        let (el, rest) = mv.split_once(':').unwrap_or(("", &mv));
                        let (from, to) = rest.split_once("->").unwrap_or((rest, ""));
                        Reply::ok(
                            id,
                            format!(
                                "on the board: move {el} from {from} to {to}; the camera will see it"
                            ),
                        )
                    }
                }
            }
        }
        Command::NewGame {
            game_file,
            player_kinds,
            ..
        } => match call(
            &clients.new_game,
            "the referee",
            NewGameRequest {
                game_file,
                player_kinds,
            },
            REFEREE_TIMEOUT,
        ) {
            Ok(r) if r.success => Reply::ok(id, format!("game {} started", r.game_number)),
            Ok(r) => Reply::err(id, r.message),
            Err(e) => Reply::err(id, e),
        },
        Command::MoveTool { target, .. } => move_tool(clients, shared, id, target),
        Command::Jog { from, delta, .. } => move_tool(
            clients,
            shared,
            id,
            Xyz {
                x: from.x + delta.x,
                y: from.y + delta.y,
                z: from.z + delta.z,
            },
        ),
        Command::Register { step, .. } => register(clients, shared, id, step),
        Command::Gripper { open, .. } => {
            match call(
                &clients.set_gripper,
                "the arm controller",
                SetGripperRequest { open },
                ARM_TIMEOUT,
            ) {
                Ok(r) if r.success => Reply::ok(
                    id,
                    if open {
                        "gripper open"
                    } else {
                        "gripper closed"
                    },
                ),
                Ok(r) => Reply::err(id, r.message),
                Err(e) => Reply::err(id, e),
            }
        }
        Command::Pose { pose, .. } => {
            match call(
                &clients.go_to_pose,
                "the arm controller",
                GoToPoseRequest { pose: pose.clone() },
                ARM_TIMEOUT,
            ) {
                Ok(r) if r.success => {
                    wizard(shared).tool_moved(None);
                    Reply::ok(id, format!("arm at {pose}"))
                }
                Ok(r) => Reply::err(id, r.message),
                Err(e) => Reply::err(id, e),
            }
        }
        Command::Position { ply, .. } => {
            let state = shared.lock().state_msg.clone();
            let Some(state) = state else {
                return Reply::err(id, "no game yet");
            };
            match replay_board(&state, ply as usize) {
                Ok(board) => Reply {
                    data: Some(
                        json!({"ply": ply, "game_number": state.game_number, "board": board}),
                    ),
                    ..Reply::ok(id, format!("position after {ply} move(s)"))
                },
                Err(e) => Reply::err(id, e),
            }
        }
        Command::Camera { .. } => Reply::err(id, "camera commands are handled by the connection"),
    }
}

fn wizard(shared: &Shared) -> std::sync::MutexGuard<'_, crate::registration::Wizard> {
    shared.wizard.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sends the tool to `p`; the wizard learns where it is (or that it is not known).
fn send_tool(clients: &Clients, shared: &Shared, p: Xyz) -> Result<(), String> {
    let point = gamebot_interfaces::geometry_msgs::Point {
        x: p.x,
        y: p.y,
        z: p.z,
    };
    let r = match call(
        &clients.move_tool,
        "the arm controller",
        MoveToolRequest { point },
        ARM_TIMEOUT,
    ) {
        Ok(r) if r.success => Ok(()),
        Ok(r) => Err(r.message),
        Err(e) => Err(e),
    };
    wizard(shared).tool_moved(r.is_ok().then_some([p.x, p.y, p.z]));
    r
}

fn move_tool(clients: &Clients, shared: &Shared, id: Option<u64>, p: Xyz) -> Reply {
    match send_tool(clients, shared, p) {
        Ok(()) => Reply::ok(
            id,
            format!("tool at ({:.3}, {:.3}, {:.3}) m", p.x, p.y, p.z),
        ),
        Err(e) => Reply::err(id, e),
    }
}

/// A step of the registration wizard, then the moves it asks for.
fn register(
    clients: &Clients,
    shared: &Shared,
    id: Option<u64>,
    step: crate::registration::RegisterStep,
) -> Reply {
    let r = wizard(shared).step(step, &shared.board_file);
    match r {
        Ok(r) => {
            for p in &r.moves {
                let [x, y, z] = *p;
                if let Err(e) = send_tool(clients, shared, Xyz { x, y, z }) {
                    return Reply {
                        data: Some(r.data),
                        ..Reply::err(id, format!("{}; moving the tool on failed: {e}", r.message))
                    };
                }
            }
            Reply {
                data: Some(r.data),
                ..Reply::ok(id, r.message)
            }
        }
        Err(e) => Reply::err(id, e),
    }
}

/// The board after the first `ply` moves of `state`'s game, replayed by the
/// rule engine from the game file (for the move list's step-through).
pub fn replay_board(state: &GameState, ply: usize) -> Result<Vec<SquareView>, String> {
    if ply > state.move_history.len() {
        return Err(format!(
            "ply {ply}: the game has only {} move(s)",
            state.move_history.len()
        ));
    }
    let game = gamebot_rules::Game::load(&state.game_file)
        .map_err(|e| format!("{}: {e}", state.game_file))?;
    let mut st = game.initial_state();
    for (i, text) in state.move_history[..ply].iter().enumerate() {
        let mv = game
            .find_move(&st, text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        let mut next = st.clone();
        game.apply(&mut next, &mv)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        st = next;
    }
    Ok((0..game.locations.len() as u16)
        .filter_map(|l| {
            let e = st.content(l)?;
            Some(SquareView {
                location: game.locations[l as usize].name.clone(),
                element: game.elements[e as usize].name.clone(),
                element_type: game.element_type_of(e).name.clone(),
                element_state: st.element_state(e),
                owner: st.owner(e),
            })
        })
        .collect())
}
