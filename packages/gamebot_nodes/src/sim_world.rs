//! The `sim_world` node: runs the simulated table ([`gamebot_sim::World`]) as
//! part of the graph.
//!
//! It owns the world: the emulated SSC-32U on its pty (the `ssc32_bridge`
//! opens the symlink `link` as its `port`), the pieces, the simulated person's
//! hand and the camera. It publishes what a real robot's surroundings would
//! give the other nodes — `/camera/image_raw` + `/camera/camera_info` (frames
//! rendered from the world as it really is), `/clock` (the simulation time),
//! `/sim/markers` (the pieces as they really lie, for RViz) — and serves
//! `/sim/human_move` (the person's hand makes a move; the referee must learn
//! it from the camera) and `/sim/fault` (fault injection). It follows
//! `/game/state` to know the position a person's move is made from and to
//! lay out a new game's pieces.
//!
//! The loop sleeps on one [`WaitSet`] (the two services, the game state, the
//! shutdown) until the next due time of a frame, a `/clock` tick or the
//! marker refresh; the world's physics is brought up to the clock's time on
//! every pass, in its own fixed ticks, so the physics never depends on how
//! often the loop wakes.

use crate::referee_core::replay;
use crate::NodeError;
use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::geometry_msgs::{Point, Pose, Quaternion, Vector3 as VecMsg};
use gamebot_interfaces::msg::GameState;
use gamebot_interfaces::rosgraph_msgs::Clock as ClockMsg;
use gamebot_interfaces::sensor_msgs::{CameraInfo as CameraInfoMsg, Image, RegionOfInterest};
use gamebot_interfaces::srv::{HumanMoveResponse, PutBoardRightResponse, SimFaultResponse};
use gamebot_interfaces::std_msgs::{ColorRGBA, Header};
use gamebot_interfaces::visualization_msgs::{Marker, MarkerArray};
use gamebot_ros::wait::earliest;
use gamebot_ros::{graph, Bus, Publisher, Shutdown, Subscription, WaitSet};
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};
use gamebot_sim::{FaultKind, FaultSpec, HandAction, HandTarget, PieceInfo, World, WorldConfig};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often `/clock` is published, in simulation time.
const CLOCK_PERIOD: Duration = Duration::from_millis(10);
/// How often `/sim/markers` is published, in simulation time.
const MARKER_PERIOD: Duration = Duration::from_millis(500);
/// The longest the loop sleeps without looking at the world (wall time).
const MAX_SLEEP: Duration = Duration::from_millis(50);
/// The longest a person's move waits for the position it is for (wall time).
pub const POSITION_WAIT: Duration = Duration::from_secs(2);

/// A node that keeps the referee's position from `/game/state` and serves
/// requests naming the ply they are for (`sim_world`, `gazebo_hand`).
pub trait FollowsGameState {
    /// Moves in the last position received.
    fn plies(&self) -> usize;

    /// Takes a position received on `/game/state`.
    fn on_game_state(&mut self, s: &GameState);

    /// A request may come before the position it is for (the caller saw
    /// `/game/state` first): waits for the position before ply `ply` (0:
    /// any), at most [`POSITION_WAIT`].
    fn wait_for_ply(&mut self, states: &Subscription<GameState>, ply: u32) -> Result<(), String> {
        let ply = ply as usize;
        let end = Instant::now() + POSITION_WAIT;
        while ply != 0 && self.plies() + 1 != ply && Instant::now() < end {
            if let Ok(s) = states.recv_timeout(end.saturating_duration_since(Instant::now())) {
                self.on_game_state(&s);
            }
        }
        if ply != 0 && self.plies() + 1 != ply {
            return Err(format!(
                "the move is for ply {ply}, the position received on /game/state is after {} moves",
                self.plies()
            ));
        }
        Ok(())
    }
}

/// What the world looks like now: for tests and summaries that must judge the
/// robot by the world, not by what the nodes say.
#[derive(Clone, Debug, Default)]
pub struct WorldSnapshot {
    /// Simulation time.
    pub time: Duration,
    /// Every piece as it lies (or is carried).
    pub pieces: Vec<PieceInfo>,
    /// Pieces touched by something that was not carrying them (arm link,
    /// another piece), as `by -> element` texts, oldest first.
    pub contacts: Vec<String>,
    /// Faults injected so far, by kind.
    pub faults: BTreeMap<FaultKind, u32>,
    /// The element the gripper holds.
    pub held: Option<String>,
    /// Whether the simulated person's hand is moving.
    pub hand_busy: bool,
    /// Camera frames published.
    pub frames: u64,
    /// Game number of the position the world was last laid out for.
    pub game_number: u32,
}

/// A shared view of the world, updated by the node on every pass.
#[derive(Clone, Debug, Default)]
pub struct WorldProbe(Arc<Mutex<WorldSnapshot>>);

impl WorldProbe {
    /// A probe that sees nothing until a node fills it.
    pub fn new() -> WorldProbe {
        WorldProbe::default()
    }

    /// The world as last seen.
    pub fn snapshot(&self) -> WorldSnapshot {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn set(&self, s: WorldSnapshot) {
        if let Ok(mut g) = self.0.lock() {
            *g = s;
        }
    }
}

/// Parameters of the `sim_world` executable (also the fields of
/// [`WorldConfig`] they set).
#[derive(Clone, Debug)]
pub struct SimWorldParams {
    pub game_file: String,
    pub world: WorldConfig,
}

impl SimWorldParams {
    /// Declares and reads the parameters.
    pub fn declare<B: Bus>(bus: &B) -> Result<SimWorldParams, NodeError> {
        let p = bus.parameters();
        let d = WorldConfig::default();
        let game_file =
            p.declare_string("game_file", "games/tictactoe.game", "rule file of the game")?;
        let arm = p.declare_string(
            "arm",
            &d.arm,
            "arm: a name under config/arms/ or a YAML path",
        )?;
        let board = p.declare_string(
            "board",
            &d.board,
            "board placement: a name under config/boards/ or a YAML path",
        )?;
        let camera = p.declare_string(
            "camera",
            &d.camera.to_string_lossy(),
            "camera calibration file of the simulated camera",
        )?;
        let link = p.declare_string(
            "link",
            "",
            "symlink to the emulated SSC-32U's pty (ssc32_bridge's port); empty = a temporary one",
        )?;
        let speed = p.declare_double(
            "speed",
            1.0,
            0.01,
            1000.0,
            "real-time factor of the simulation clock (1 = real time)",
        )?;
        let faults = p.declare_parsed(
            "faults",
            "",
            "faults to inject, e.g. slip=0.05,place_sigma_mm=2 (see gamebot sim --help)",
            |t: &str| {
                if t.trim().is_empty() {
                    Ok(FaultSpec::none())
                } else {
                    t.parse::<FaultSpec>()
                }
            },
        )?;
        let seed = p.declare_int("seed", 1, 0, i64::MAX, "seed of every random draw")? as u64;
        let render_rate_hz = p.declare_double(
            "render_rate_hz",
            d.render_rate_hz,
            0.1,
            120.0,
            "camera frames per second of simulation time",
        )?;
        Ok(SimWorldParams {
            game_file,
            world: WorldConfig {
                arm,
                board,
                camera: PathBuf::from(camera),
                faults,
                seed,
                real_time_factor: Some(speed),
                render_rate_hz,
                serial_link: (!link.is_empty()).then(|| PathBuf::from(link)),
                ..d
            },
        })
    }
}

/// Loads the game and builds the world in its initial position.
pub fn build_world(game_file: &str, config: WorldConfig) -> Result<(Arc<Game>, World), NodeError> {
    let game = Game::load(game_file)
        .map_err(|e| NodeError::Config(format!("sim_world: cannot load {game_file}: {e}")))?;
    let state = game.initial_state();
    let world = World::new(&game, &state, config)
        .map_err(|e| NodeError::Config(format!("sim_world: {e}")))?;
    Ok((Arc::new(game), world))
}

/// Runs the node with its parameters until `shutdown`.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let params = SimWorldParams::declare(bus)?;
    // The time source itself: everything it publishes is stamped with
    // simulation time whatever `use_sim_time` says.
    crate::node_clock::declare_use_sim_time(bus)?;
    let (game, world) = build_world(&params.game_file, params.world)?;
    tracing::info!(
        serial = %world.serial_path().display(),
        "sim_world: emulated SSC-32U ready (ssc32_bridge port)"
    );
    run_with(
        bus,
        shutdown,
        world,
        game,
        &params.game_file,
        WorldProbe::new(),
    )
}

/// The hand actions of one person's turn given as move text (several rule
/// moves separated by spaces), from `state`; returns them with the position
/// after the turn.
pub fn hand_actions(
    game: &Game,
    state: &State,
    text: &str,
    place: impl Fn(u16) -> Option<[f64; 3]>,
    off_board: [f64; 2],
) -> Result<(Vec<HandAction>, State), String> {
    let has_position = |name: &str| {
        game.locations
            .iter()
            .position(|l| l.name == name)
            .is_some_and(|i| place(i as u16).is_some())
    };
    let mut cur = state.clone();
    let mut out = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Err("no move given".into());
    }
    for w in words {
        let mv = game.find_move(&cur, w).map_err(|e| e.to_string())?;
        // A person takes the top piece of a stack (an equivalent move).
        let mv = crate::stack_order::prefer_top_of_stack(game, &cur, &mv, &place);
        let mut next = cur.clone();
        game.apply(&mut next, &mv).map_err(|e| e.to_string())?;
        let acts = physical_actions(game, &cur, &next).map_err(|e| e.to_string())?;
        for a in acts {
            match a {
                PhysicalAction::Transfer { element, from, to } => {
                    let element = game.elements[element as usize].name.clone();
                    let from = game.locations[from as usize].name.clone();
                    let to = game.locations[to as usize].name.clone();
                    if !has_position(&from) {
                        return Err(format!(
                            "{element} comes from {from}, which has no place on the table"
                        ));
                    }
                    let to = if has_position(&to) {
                        HandTarget::Location(to)
                    } else {
                        HandTarget::Table(off_board)
                    };
                    out.push(HandAction::Transfer { element, from, to });
                }
                PhysicalAction::Flip { element, .. } => out.push(HandAction::Flip {
                    element: game.elements[element as usize].name.clone(),
                }),
            }
        }
        cur = next;
    }
    Ok((out, cur))
}

struct Node {
    world: World,
    game: Arc<Game>,
    game_file: String,
    /// The position the person's moves are made from (the referee's).
    state: State,
    /// How many moves led to `state`.
    plies: usize,
    game_number: u32,
    camera_down_until: Option<Duration>,
    next_clock: Duration,
    next_markers: Duration,
    frames: u64,
    image: Publisher<Image>,
    info: Publisher<CameraInfoMsg>,
    clock: Publisher<ClockMsg>,
    markers: Publisher<MarkerArray>,
    probe: WorldProbe,
}

/// Runs the node on `world` (built for `game`) until `shutdown`; `probe` is
/// kept up to date with the world's truth.
pub fn run_with<B: Bus>(
    bus: &B,
    shutdown: &Shutdown,
    world: World,
    game: Arc<Game>,
    game_file: &str,
    probe: WorldProbe,
) -> Result<(), NodeError> {
    let human = bus.service_server_on(&graph::SIM_HUMAN_MOVE)?;
    let fault = bus.service_server_on(&graph::SIM_FAULT)?;
    let help = bus.service_server_on(&graph::SIM_PUT_BOARD_RIGHT)?;
    let states = bus.subscription_on(&graph::GAME_STATE)?;
    let state = game.initial_state();
    let mut n = Node {
        world,
        game,
        game_file: game_file.to_string(),
        state,
        plies: 0,
        game_number: 0,
        camera_down_until: None,
        next_clock: Duration::ZERO,
        next_markers: Duration::ZERO,
        frames: 0,
        image: bus.publisher_on(&graph::CAMERA_IMAGE)?,
        info: bus.publisher_on(&graph::CAMERA_INFO)?,
        clock: bus.publisher_on(&graph::CLOCK)?,
        markers: bus.publisher_on(&graph::SIM_MARKERS)?,
        probe,
    };
    let mut ws = WaitSet::new();
    ws.add(&human);
    ws.add(&fault);
    ws.add(&help);
    ws.add(&states);
    ws.add(shutdown);
    while !shutdown.is_requested() {
        for s in states.drain() {
            n.on_game_state(&s);
        }
        while let Ok(req) = human.try_recv() {
            let text = req.request.r#move.clone();
            let r = n
                .wait_for_ply(&states, req.request.ply)
                .and_then(|()| n.human_move(&text, req.request.cover_seconds));
            let _ = req.respond(match r {
                Ok(()) => HumanMoveResponse {
                    accepted: true,
                    message: String::new(),
                },
                Err(m) => {
                    tracing::warn!("sim_world: human move {text:?} refused: {m}");
                    HumanMoveResponse {
                        accepted: false,
                        message: m,
                    }
                }
            });
        }
        while let Ok(req) = help.try_recv() {
            let text = req.request.r#move.clone();
            let r = n
                .wait_for_ply(&states, req.request.ply)
                .and_then(|()| n.put_board_right(&text));
            let _ = req.respond(match r {
                Ok(actions) => {
                    tracing::info!("sim_world: the hand put the board right ({actions} actions)");
                    PutBoardRightResponse {
                        accepted: true,
                        message: format!("the hand moved or turned {actions} piece(s)"),
                        actions: actions as u32,
                    }
                }
                Err(m) => {
                    tracing::warn!("sim_world: cannot put the board right: {m}");
                    PutBoardRightResponse {
                        accepted: false,
                        message: m,
                        actions: 0,
                    }
                }
            });
        }
        while let Ok(req) = fault.try_recv() {
            let r = n.inject(&req.request);
            let _ = req.respond(SimFaultResponse {
                success: r.is_ok(),
                message: r.err().unwrap_or_default(),
            });
        }
        if let Err(e) = n.world.update() {
            tracing::error!("sim_world: {e}");
        }
        n.publish();
        // Sleep until the next thing is due (sim deadlines in wall time).
        let now = n.world.time();
        let due = [
            n.next_clock,
            n.next_markers,
            n.world.next_frame_due().unwrap_or(now),
        ]
        .into_iter()
        .min()
        .unwrap_or(now);
        let rtf = n.world.clock().real_time_factor().unwrap_or(1.0);
        let wall = Duration::from_secs_f64((due.saturating_sub(now)).as_secs_f64() / rtf);
        let deadline = earliest([
            Some(Instant::now() + wall.min(MAX_SLEEP)),
            Some(Instant::now() + Duration::from_millis(1)).filter(|_| wall.is_zero()),
        ]);
        ws.wait_until(deadline);
    }
    Ok(())
}

fn stamp(t: Duration) -> Time {
    Time::from_nanos(t.as_nanos().min(i64::MAX as u128) as i64)
}

impl FollowsGameState for Node {
    fn plies(&self) -> usize {
        self.plies
    }

    fn on_game_state(&mut self, s: &GameState) {
        if !s.game_file.is_empty() && s.game_file != self.game_file {
            match Game::load(&s.game_file) {
                Ok(g) => {
                    self.game = Arc::new(g);
                    self.game_file = s.game_file.clone();
                    self.game_number = u32::MAX;
                }
                Err(e) => {
                    tracing::error!(
                        "sim_world: cannot load the referee's game {}: {e}",
                        s.game_file
                    );
                    return;
                }
            }
        }
        match replay(&self.game, &s.move_history) {
            Ok(state) => {
                self.state = state;
                self.plies = s.move_history.len();
            }
            Err(e) => {
                tracing::error!("sim_world: cannot replay the referee's moves: {e}");
                return;
            }
        }
        if s.game_number != self.game_number {
            // A new game: lay out its pieces (a person would reset the board).
            if self.game_number != 0 || !s.move_history.is_empty() {
                if let Err(e) = self.world.reset(&self.game, &self.state) {
                    tracing::error!("sim_world: cannot lay out game {}: {e}", s.game_number);
                }
            }
            self.game_number = s.game_number;
        }
    }
}

impl Node {
    fn header(&self, frame: &str) -> Header {
        Header {
            stamp: stamp(self.world.time()),
            frame_id: frame.into(),
        }
    }

    /// The simulated person answers a call for help: the hand makes the
    /// world show the position after `text` (empty: the position itself).
    /// Returns the number of hand actions.
    fn put_board_right(&mut self, text: &str) -> Result<usize, String> {
        if self.world.hand_busy() {
            return Err("the hand is still making the previous move".into());
        }
        let target = if text.trim().is_empty() {
            self.state.clone()
        } else {
            let w = &self.world;
            let g = &self.game;
            let place = |l: u16| w.location_position_by_name(&g.locations[l as usize].name);
            hand_actions(g, &self.state, text, place, w.off_board_spot())?.1
        };
        let actions = put_right_actions(&self.game, &self.world, &target)?;
        if !actions.is_empty() {
            self.world.human_move(&actions).map_err(|e| e.to_string())?;
        }
        Ok(actions.len())
    }

    fn human_move(&mut self, text: &str, cover_seconds: f32) -> Result<(), String> {
        if self.world.hand_busy() {
            return Err("the hand is still making the previous move".into());
        }
        let w = &self.world;
        let g = &self.game;
        let place = |l: u16| w.location_position_by_name(&g.locations[l as usize].name);
        let (mut actions, _) = hand_actions(
            &self.game,
            &self.state,
            text,
            place,
            self.world.off_board_spot(),
        )?;
        resolve_hand_pieces(&self.world, &self.game, &self.state, &mut actions);
        if cover_seconds > 0.0 {
            let c = self.world.board_centre();
            actions.push(HandAction::Cover {
                at: [c[0], c[1]],
                seconds: cover_seconds as f64,
            });
        }
        self.world.human_move(&actions).map_err(|e| e.to_string())?;
        Ok(())
    }

    fn inject(&mut self, r: &gamebot_interfaces::srv::SimFaultRequest) -> Result<(), String> {
        let ok = |v: f32| v.is_finite() && (0.0..=3600.0).contains(&v);
        if !ok(r.serial_drop_s) || !ok(r.camera_dropout_s) {
            return Err("durations must be between 0 and 3600 s".into());
        }
        if !r.spec.trim().is_empty() {
            let spec: FaultSpec = r
                .spec
                .parse()
                .map_err(|e: gamebot_sim::FaultError| e.to_string())?;
            self.world.set_faults(spec);
        }
        if r.serial_drop_s > 0.0 {
            self.world
                .drop_serial(Duration::from_secs_f32(r.serial_drop_s));
        }
        if r.camera_dropout_s > 0.0 {
            let until = self.world.time() + Duration::from_secs_f32(r.camera_dropout_s);
            self.camera_down_until = Some(until);
            self.world.count_fault(FaultKind::CameraDropout);
            tracing::info!("sim fault: camera dropout for {} s", r.camera_dropout_s);
        }
        Ok(())
    }

    fn publish(&mut self) {
        let now = self.world.time();
        if now >= self.next_clock {
            let _ = self.clock.publish(&ClockMsg { clock: stamp(now) });
            self.next_clock = now + CLOCK_PERIOD;
        }
        if self.camera_down_until.is_some_and(|t| now >= t) {
            self.camera_down_until = None;
        }
        if self.camera_down_until.is_none() {
            match self.world.render_if_due() {
                Ok(Some(frame)) => match self.world.roll_camera_dropout() {
                    Some(dark) => {
                        tracing::info!("sim fault: camera dropout for {:.1} s", dark.as_secs_f64());
                        self.camera_down_until = Some(now + dark);
                    }
                    None => self.publish_frame(&frame.image, frame.time),
                },
                Ok(None) => {}
                Err(e) => tracing::error!("sim_world: rendering failed: {e}"),
            }
        }
        if now >= self.next_markers {
            let _ = self.markers.publish(&self.piece_markers());
            self.next_markers = now + MARKER_PERIOD;
        }
        self.probe.set(WorldSnapshot {
            time: now,
            pieces: self.world.pieces(),
            contacts: self
                .world
                .contacts()
                .iter()
                .map(|c| format!("{} -> {}", c.by, c.element))
                .collect(),
            faults: self.world.fault_counts().clone(),
            held: self.world.held().map(str::to_string),
            hand_busy: self.world.hand_busy(),
            frames: self.frames,
            game_number: self.game_number,
        });
    }

    fn publish_frame(&mut self, image: &gamebot_vision::Mat, time: Duration) {
        let bytes = match gamebot_vision::source::bgr_bytes(image) {
            Ok(b) => b,
            Err(e) => {
                tracing::error!("sim_world: cannot read a rendered frame: {e}");
                return;
            }
        };
        let (w, h) = gamebot_vision::source::frame_size(image);
        let header = Header {
            stamp: stamp(time),
            frame_id: "camera_optical_frame".into(),
        };
        let _ = self.image.publish(&Image {
            header: header.clone(),
            height: h as u32,
            width: w as u32,
            encoding: "bgr8".into(),
            is_bigendian: 0,
            step: 3 * w as u32,
            data: bytes,
        });
        let ci = self.world.camera_info();
        let _ = self.info.publish(&CameraInfoMsg {
            header,
            height: ci.height,
            width: ci.width,
            distortion_model: ci.distortion_model.into(),
            d: ci.d.to_vec(),
            k: ci.k,
            r: ci.r,
            p: ci.p,
            binning_x: 0,
            binning_y: 0,
            roi: RegionOfInterest::default(),
        });
        self.frames += 1;
    }

    /// Every piece as a cylinder where it really is (metres, `base_link`).
    fn piece_markers(&self) -> MarkerArray {
        let header = self.header("base_link");
        let markers = self
            .world
            .pieces()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let shade = 0.25 + 0.5 * ((p.state.max(1) - 1) % 2) as f32;
                Marker {
                    header: header.clone(),
                    ns: "sim_pieces".into(),
                    id: i as i32,
                    r#type: Marker::CYLINDER,
                    action: Marker::ADD,
                    pose: Pose {
                        position: Point {
                            x: p.position[0],
                            y: p.position[1],
                            z: p.position[2] + p.height / 2.0,
                        },
                        orientation: Quaternion {
                            w: 1.0,
                            ..Default::default()
                        },
                    },
                    scale: VecMsg {
                        x: 2.0 * p.radius,
                        y: 2.0 * p.radius,
                        z: p.height,
                    },
                    color: ColorRGBA {
                        r: shade,
                        g: shade,
                        b: if p.held { 1.0 } else { shade },
                        a: 1.0,
                    },
                    text: p.name.clone(),
                    ..Default::default()
                }
            })
            .collect();
        MarkerArray { markers }
    }
}

/// Names in the person's hand actions the pieces the world really has
/// (see the comment inside); `state` is the position the actions start from.
fn resolve_hand_pieces(world: &World, game: &Game, state: &State, actions: &mut [HandAction]) {
    // The rules track which element is where, the hand takes what lies
    // there: pieces of one type that the camera cannot tell apart may have
    // traded names (the referee inferred an equivalent move). What lies
    // where is followed through the turn's own transfers (a twist parks a
    // piece on a buffer and takes it on from there; a stand-in taken once
    // is not there to be taken again). A piece turned over is found the
    // same way: where the rules have it (after this turn's transfers: the
    // piece the hand put there).
    let mut table = PlannedTable::new(world, game);
    let mut taken: BTreeMap<String, String> = BTreeMap::new();
    for a in actions.iter_mut() {
        match a {
            HandAction::Transfer { element, from, to } => {
                let named = element.clone();
                if let Some(top) = table.take(from) {
                    *element = top;
                } else if let Some((l, top)) = table.take_stand_in(element, from) {
                    *from = l;
                    *element = top;
                }
                taken.insert(named, element.clone());
                table.put(to, element);
            }
            HandAction::Flip { element } => {
                if let Some(piece) = taken.get(element.as_str()) {
                    *element = piece.clone();
                } else if let Some(e) = game.elements.iter().position(|x| x.name == *element) {
                    let l = state.location_of(e as u16);
                    if let Some(top) = table.top(&game.locations[l as usize].name) {
                        *element = top;
                    }
                }
            }
            HandAction::Cover { .. } => {}
        }
    }
}

/// The hand actions that make the world show `target`: what the simulated
/// person does when the referee asks for help. Compared per relevant located
/// place (locations at one spot as one): the pieces the position wants there
/// (type, and state where the camera tells states apart:
/// [`crate::sim_game::shows_state`]) against the stack lying there (the
/// world's [`World::pieces_at`], 15 mm). A stack keeps its bottom pieces as
/// long as the position wants them; a lone piece of the right type with the
/// wrong side up is turned over; a kept piece on top lying more than
/// [`RESEAT_MM`] off the place's centre is put down again on it; everything
/// else is taken off, top first, to a free supply spot of its type (an
/// irrelevant location that held that type at the start), else beside the
/// sheet; then every missing piece comes from a piece lying more than
/// [`RESEAT_MM`] off a supply spot's centre (one that slipped out of the
/// gripper falls back there), else from the top of the nearest supply stack
/// of its type (the pieces just taken off included), turned over if needed;
/// the off-centre pieces left are put straight on their spots. A piece lying on no location (farther than 15 mm from every one)
/// is out of the hand's reach and left where it is. An error when no piece
/// of a wanted type is left to put.
pub fn put_right_actions(
    game: &Game,
    world: &World,
    target: &State,
) -> Result<Vec<HandAction>, String> {
    let pieces = world.pieces();
    let info = |name: &str| pieces.iter().find(|p| p.name == name);
    let seen = |ty: &str, s: i32| {
        if crate::sim_game::shows_state(game, ty) {
            s
        } else {
            0
        }
    };
    let key_of =
        |name: &str| info(name).map(|p| (p.element_type.clone(), seen(&p.element_type, p.state)));
    // Places with a body on the table: not a bookkeeping spot the camera
    // does not watch (alquerque's flag), whose pieces the world does not have.
    let located = |name: &str| {
        game.location_by_name(name)
            .filter(|&l| gamebot_rules::on_table(game, l))
            .and_then(|_| world.location_position_by_name(name))
    };
    let mut table = PlannedTable::new(world, game);
    // Relevant places, one per spot: (a location there, the pieces wanted).
    let mut places: Vec<(String, Vec<(String, i32)>)> = Vec::new();
    let mut spot_index: BTreeMap<String, usize> = BTreeMap::new();
    for (l, loc) in game.locations.iter().enumerate() {
        if !game.is_relevant(l as u16) || located(&loc.name).is_none() {
            continue;
        }
        let key = table.key(&loc.name);
        let i = *spot_index.entry(key).or_insert_with(|| {
            places.push((loc.name.clone(), Vec::new()));
            places.len() - 1
        });
        for e in 0..game.elements.len() as u16 {
            if target.location_of(e) == l as u16 {
                let ty = game.element_type_of(e).name.clone();
                let s = seen(&ty, target.element_state(e));
                places[i].1.push((ty, s));
            }
        }
    }
    let mut actions = Vec::new();
    let mut loose: Vec<(String, String)> = Vec::new();
    let mut needs: Vec<(String, String, i32)> = Vec::new();
    for (name, want) in &places {
        let here = table.stack(name).clone();
        let mut rest = want.clone();
        let mut keep = 0;
        for p in &here {
            match key_of(p).and_then(|k| rest.iter().position(|w| *w == k)) {
                Some(i) => {
                    rest.remove(i);
                    keep += 1;
                }
                None => break,
            }
        }
        if here.len() == 1 && keep == 0 && want.len() == 1 {
            if let Some(p) = info(&here[0]).filter(|p| p.element_type == want[0].0) {
                actions.push(HandAction::Flip {
                    element: p.name.clone(),
                });
                continue;
            }
        }
        if keep == here.len() && keep > 0 {
            let top = &here[keep - 1];
            let at = located(name).unwrap_or_default();
            if let Some(p) = info(top) {
                let off_mm = 1000.0 * (p.position[0] - at[0]).hypot(p.position[1] - at[1]);
                if off_mm > RESEAT_MM {
                    actions.push(HandAction::Transfer {
                        element: top.clone(),
                        from: name.clone(),
                        to: HandTarget::Location(name.clone()),
                    });
                }
            }
        }
        for p in here[keep..].iter().rev() {
            loose.push((p.clone(), name.clone()));
        }
        for (ty, s) in rest {
            needs.push((name.clone(), ty, s));
        }
    }
    // Free supply spots per type: irrelevant located locations that held a
    // piece of the type at the start, as many places per spot as such
    // locations there.
    let initial = game.initial_state();
    let mut supply: Vec<(String, String)> = Vec::new();
    for (l, loc) in game.locations.iter().enumerate() {
        if game.is_relevant(l as u16) || located(&loc.name).is_none() {
            continue;
        }
        for e in 0..game.elements.len() as u16 {
            if initial.location_of(e) == l as u16 {
                supply.push((loc.name.clone(), game.element_type_of(e).name.clone()));
                break;
            }
        }
    }
    for (k, (piece, from)) in loose.iter().cloned().enumerate() {
        let _ = table.take(&from);
        // Straight to a place that wants its kind (a piece moved to the
        // wrong square, where there is no supply of its kind: alquerque's
        // men all start on the board), once nothing lies there to go first.
        let key = key_of(&piece);
        let need = needs.iter().position(|(to, t, st)| {
            key.as_ref().is_some_and(|(kt, ks)| kt == t && ks == st)
                && !loose[k + 1..]
                    .iter()
                    .any(|(_, f)| table.key(f) == table.key(to))
        });
        if let Some(i) = need {
            let (to, _, _) = needs.remove(i);
            let to = HandTarget::Location(to);
            table.put(&to, &piece);
            actions.push(HandAction::Transfer {
                element: piece,
                from,
                to,
            });
            continue;
        }
        let ty = info(&piece)
            .map(|p| p.element_type.clone())
            .unwrap_or_default();
        let free = supply.iter().filter(|(_, t)| *t == ty).find(|(l, _)| {
            let key = table.key(l);
            let room = supply
                .iter()
                .filter(|(m, t)| *t == ty && table.key(m) == key)
                .count();
            table.stack(l).len() < room
        });
        let to = match free {
            Some((l, _)) => HandTarget::Location(l.clone()),
            None => HandTarget::Table(world.off_board_spot()),
        };
        table.put(&to, &piece);
        actions.push(HandAction::Transfer {
            element: piece,
            from,
            to,
        });
    }
    // Pieces lying off the centre of a supply spot (a piece that slipped
    // out of the gripper falls back there): used first, or put straight.
    let mut strays: Vec<(String, String)> = Vec::new();
    for (l, _) in &supply {
        let key = table.key(l);
        if strays.iter().any(|(_, m)| table.key(m) == key) {
            continue;
        }
        let (Some(top), Some(at)) = (table.top(l), located(l)) else {
            continue;
        };
        if let Some(p) = info(&top) {
            if 1000.0 * (p.position[0] - at[0]).hypot(p.position[1] - at[1]) > RESEAT_MM {
                strays.push((top, l.clone()));
            }
        }
    }
    for (to, ty, s) in needs {
        let stray = strays
            .iter()
            .position(|(p, _)| info(p).is_some_and(|p| p.element_type == ty));
        let taken = match stray {
            Some(i) => {
                let (piece, l) = strays.remove(i);
                let _ = table.take(&l);
                Some((l, piece))
            }
            None => table.take_of_type(&ty, &to),
        };
        let Some((from, piece)) = taken else {
            return Err(format!("no {ty} left on a supply to put on {to}"));
        };
        let to = HandTarget::Location(to);
        table.put(&to, &piece);
        let flip = key_of(&piece).is_some_and(|(_, st)| st != s);
        actions.push(HandAction::Transfer {
            element: piece.clone(),
            from,
            to,
        });
        if flip {
            actions.push(HandAction::Flip { element: piece });
        }
    }
    for (piece, l) in strays {
        actions.push(HandAction::Transfer {
            element: piece,
            from: l.clone(),
            to: HandTarget::Location(l),
        });
    }
    Ok(actions)
}

/// A piece the position wants where it lies, but farther than this from the
/// place's centre, is put down again: more than the hand's own placement
/// error (4 mm in each axis, 5.7 mm diagonally), less than the closed loop's
/// [`crate::sim_game::ON_LOCATION_MM`] and far less than the 15 mm the hand
/// reaches.
pub const RESEAT_MM: f64 = 6.5;

/// The pieces on the table as a person's move goes on: which pieces lie on
/// each spot (bottom first) after the move's transfers so far, read from the
/// world the first time a spot is looked at. Locations at one spot (the
/// levels of a stack) share it.
struct PlannedTable<'w> {
    world: &'w World,
    game: &'w Game,
    /// Spot key (the first location at that spot) -> pieces, bottom first.
    spots: BTreeMap<String, Vec<String>>,
    /// Pieces this move has taken from where the world has them.
    moved: std::collections::BTreeSet<String>,
}

impl<'w> PlannedTable<'w> {
    /// Locations closer than this share a spot (m).
    const SAME_SPOT_M: f64 = 0.001;

    fn new(world: &'w World, game: &'w Game) -> Self {
        PlannedTable {
            world,
            game,
            spots: BTreeMap::new(),
            moved: Default::default(),
        }
    }

    /// The first location (in the game's order) at `location`'s spot.
    fn key(&self, location: &str) -> String {
        let Some(at) = self.world.location_position_by_name(location) else {
            return location.to_string();
        };
        self.game
            .locations
            .iter()
            .find(|l| {
                self.world
                    .location_position_by_name(&l.name)
                    .is_some_and(|p| (p[0] - at[0]).hypot(p[1] - at[1]) < Self::SAME_SPOT_M)
            })
            .map_or_else(|| location.to_string(), |l| l.name.clone())
    }

    fn stack(&mut self, location: &str) -> &mut Vec<String> {
        let key = self.key(location);
        let (world, moved) = (self.world, &self.moved);
        self.spots.entry(key).or_insert_with(|| {
            world
                .pieces_at(location)
                .into_iter()
                .filter(|p| !moved.contains(p))
                .collect()
        })
    }

    /// The piece on top at `location` now.
    fn top(&mut self, location: &str) -> Option<String> {
        self.stack(location).last().cloned()
    }

    /// Takes the piece on top at `location`.
    fn take(&mut self, location: &str) -> Option<String> {
        let piece = self.stack(location).pop()?;
        self.moved.insert(piece.clone());
        Some(piece)
    }

    /// Puts `piece` on `to` (a piece put on the table off the locations
    /// leaves the table's spots).
    fn put(&mut self, to: &HandTarget, piece: &str) {
        if let HandTarget::Location(l) = to {
            self.stack(l).push(piece.to_string());
        }
    }

    /// Takes a piece of `element`'s type from the top of an irrelevant
    /// location (a supply the camera does not tell apart), the one nearest
    /// to `from`, with its location: what a person takes when the rules'
    /// piece is not where they track it.
    fn take_stand_in(&mut self, element: &str, from: &str) -> Option<(String, String)> {
        let g = self.game;
        let e = g.elements.iter().position(|x| x.name == element)? as u16;
        self.take_of_type(&g.element_type_of(e).name, from)
    }

    /// Takes the top piece of type `ty` from the irrelevant location nearest
    /// to `near`, with that location.
    fn take_of_type(&mut self, ty: &str, near: &str) -> Option<(String, String)> {
        let g = self.game;
        let at = self.world.location_position_by_name(near)?;
        let pieces = self.world.pieces();
        let mut best: Option<(f64, String)> = None;
        for (l, loc) in g.locations.iter().enumerate() {
            if g.is_relevant(l as u16) {
                continue;
            }
            let Some(p) = self.world.location_position_by_name(&loc.name) else {
                continue;
            };
            let Some(top) = self.top(&loc.name) else {
                continue;
            };
            let same_type = pieces.iter().any(|q| q.name == top && q.element_type == ty);
            let d = (p[0] - at[0]).hypot(p[1] - at[1]);
            if same_type && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                best = Some((d, loc.name.clone()));
            }
        }
        let (_, l) = best?;
        let top = self.take(&l)?;
        Some((l, top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pentago() -> (Game, World) {
        let file = format!("{}/../../games/pentago.game", env!("CARGO_MANIFEST_DIR"));
        let game = Game::load(&file).unwrap();
        let world = World::new(&game, &game.initial_state(), WorldConfig::default()).unwrap();
        (game, world)
    }

    fn world_at(file: &str, moves: &[&str]) -> (Game, World, State) {
        let file = format!("{}/../../games/{file}", env!("CARGO_MANIFEST_DIR"));
        let game = Game::load(&file).unwrap();
        let state = replay(
            &game,
            &moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        )
        .unwrap();
        let world = World::new(&game, &state, WorldConfig::default()).unwrap();
        (game, world, state)
    }

    /// What differs between the world and `target` (the closed loop's witness).
    fn differences(game: &Game, world: &World, target: &State) -> Vec<String> {
        let places: BTreeMap<String, [f64; 3]> = game
            .locations
            .iter()
            .filter_map(|l| {
                world
                    .location_position_by_name(&l.name)
                    .map(|p| (l.name.clone(), p))
            })
            .collect();
        let snap = WorldSnapshot {
            pieces: world.pieces(),
            ..Default::default()
        };
        crate::sim_game::world_differences(
            game,
            target,
            &snap,
            &places,
            crate::sim_game::ON_LOCATION_MM,
        )
    }

    /// Plays the hand's actions in the world until the hand is back.
    fn run_hand(world: &mut World, actions: &[HandAction]) {
        world.human_move(actions).unwrap();
        let period = world.frame_period();
        let mut steps = 0;
        while world.hand_busy() {
            world.step(period).unwrap();
            steps += 1;
            assert!(steps < 100_000, "the hand never finished");
        }
        for _ in 0..10 {
            world.step(period).unwrap();
        }
    }

    /// The referee asks for help after its arm's move did not happen (the
    /// piece slipped back onto its supply), or happened on the wrong square:
    /// the person's hand makes the world show the position the referee
    /// waits for, and only by moving pieces it can reach.
    #[test]
    fn the_person_puts_the_board_right() {
        let (game, mut world, before) = world_at("tictactoe.game", &[]);
        let legal = game.legal_moves(&before).unwrap();
        let texts: Vec<String> = legal.iter().map(|m| game.move_text(m)).collect();
        let first = texts.iter().find(|t| t.ends_with("cell(1,1)")).unwrap();
        let other = texts.iter().find(|t| t.ends_with("cell(2,2)")).unwrap();
        let target = replay(&game, std::slice::from_ref(first)).unwrap();
        // Nothing happened: one cross from a supply onto cell(1,1).
        let actions = put_right_actions(&game, &world, &target).unwrap();
        assert_eq!(actions.len(), 1, "{actions:?}");
        assert!(
            matches!(&actions[0], HandAction::Transfer { to: HandTarget::Location(l), .. } if l == "cell(1,1)")
        );
        assert!(!differences(&game, &world, &target).is_empty());
        run_hand(&mut world, &actions);
        assert_eq!(differences(&game, &world, &target), Vec::<String>::new());
        // Now the position wants cell(2,2) instead: the cross on cell(1,1)
        // goes straight there.
        let target = replay(&game, std::slice::from_ref(other)).unwrap();
        assert!(!differences(&game, &world, &target).is_empty());
        let actions = put_right_actions(&game, &world, &target).unwrap();
        assert!(
            matches!(&actions[..], [HandAction::Transfer { from, to: HandTarget::Location(to), .. }]
                if from == "cell(1,1)" && to == "cell(2,2)"),
            "{actions:?}"
        );
        run_hand(&mut world, &actions);
        assert_eq!(differences(&game, &world, &target), Vec::<String>::new());
        // Right already: nothing to do.
        assert!(put_right_actions(&game, &world, &target)
            .unwrap()
            .is_empty());
        let _ = before;
    }

    /// Alquerque keeps its turn state in pieces on spots the camera does not
    /// watch (the flag, the clock): the world has no body for them and the
    /// hand leaves them alone (a soak with faults once asked for help and the
    /// person refused: "no flag left on a supply to put on flagspot").
    #[test]
    fn the_person_leaves_bookkeeping_pieces_alone() {
        let (game, mut world, before) = world_at("alquerque.game", &[]);
        assert!(put_right_actions(&game, &world, &before)
            .unwrap()
            .is_empty());
        let legal = game.legal_moves(&before).unwrap();
        let text = game.move_text(&legal[0]);
        let target = replay(&game, std::slice::from_ref(&text)).unwrap();
        let actions = put_right_actions(&game, &world, &target).unwrap();
        assert_eq!(actions.len(), 1, "{text}: {actions:?}");
        run_hand(&mut world, &actions);
        assert_eq!(
            differences(&game, &world, &target),
            Vec::<String>::new(),
            "{text}"
        );
    }

    /// Reversi: the discs a move outflanks are turned over where they lie,
    /// the new disc comes from a pool the right side up.
    #[test]
    fn the_person_turns_discs_over() {
        let (game, mut world, before) = world_at("reversi6.game", &[]);
        let legal = game.legal_moves(&before).unwrap();
        let text = game.move_text(&legal[0]);
        let target = replay(&game, std::slice::from_ref(&text)).unwrap();
        let actions = put_right_actions(&game, &world, &target).unwrap();
        assert!(
            actions.iter().any(|a| matches!(a, HandAction::Flip { .. })),
            "{text}: {actions:?}"
        );
        run_hand(&mut world, &actions);
        assert_eq!(
            differences(&game, &world, &target),
            Vec::<String>::new(),
            "{text}"
        );
    }

    /// Two levels of a supply column are one spot: the hand takes the top
    /// marble whichever level the rules name, and a spot taken empty stays
    /// empty for the rest of the move.
    #[test]
    fn the_levels_of_a_stack_are_one_spot() {
        let (game, world) = pentago();
        let mut table = PlannedTable::new(&world, &game);
        let top = world.top_piece_at("sr(1)").unwrap();
        assert_eq!(table.take("sr(1)").as_deref(), Some(top.as_str()));
        let under = table.take("sr(10)").unwrap();
        assert_ne!(under, top);
        assert_eq!(table.take("sr(1)"), None);
        assert_eq!(table.take("sr(10)"), None);
    }

    /// Reversi: corrections carried the disc the rules have on a pool spot
    /// (and every disc lying there) elsewhere; the person's move takes a disc
    /// from the nearest pool spot that has one (a soak once refused the
    /// person's move every 0.5 s for good: "d(34) is not on pool(30)").
    #[test]
    fn a_pool_disc_carried_away_is_stood_in_for() {
        let (game, mut world, before) = world_at("reversi6.game", &[]);
        let legal = game.legal_moves(&before).unwrap();
        let text = game.move_text(&legal[0]);
        let place = |l: u16| world.location_position_by_name(&game.locations[l as usize].name);
        let (actions, after) =
            hand_actions(&game, &before, &text, place, world.off_board_spot()).unwrap();
        let Some(HandAction::Transfer { from, .. }) = actions.first() else {
            panic!("{text}: {actions:?}")
        };
        // Empty the move's pool spot: everything there goes off the board.
        let off = world.off_board_spot();
        let away: Vec<HandAction> = world
            .pieces_at(from)
            .into_iter()
            .rev()
            .enumerate()
            .map(|(i, element)| HandAction::Transfer {
                element,
                from: from.clone(),
                to: HandTarget::Table([off[0] + 0.03 * i as f64, off[1]]),
            })
            .collect();
        assert!(!away.is_empty());
        run_hand(&mut world, &away);
        assert!(world.pieces_at(from).is_empty());
        let mut resolved = actions.clone();
        resolve_hand_pieces(&world, &game, &before, &mut resolved);
        run_hand(&mut world, &resolved);
        let d = differences(&game, &world, &after);
        assert!(
            d.iter().all(|x| !x.contains("b(")),
            "{text}: the board differs: {d:?}"
        );
    }

    /// A piece parked on a buffer is taken on from there; a stand-in taken
    /// once is not offered again (the same move once took one supply marble
    /// twice and the hand refused every twist).
    #[test]
    fn transfers_follow_the_moves_own_earlier_transfers() {
        let (game, world) = pentago();
        let mut table = PlannedTable::new(&world, &game);
        let a = table.take("sr(2)").unwrap();
        table.put(&HandTarget::Location("tmp".into()), &a);
        assert_eq!(table.top("tmp").as_deref(), Some(a.as_str()));
        // The rules' marble is not on c(1,1) in this world: stand-ins.
        let (l1, s1) = table.take_stand_in("r(1)", "c(1,1)").unwrap();
        let (l2, s2) = table.take_stand_in("r(1)", "c(1,1)").unwrap();
        assert_ne!(s1, s2);
        assert!(!game.is_relevant(game.location_by_name(&l1).unwrap()));
        assert!(!game.is_relevant(game.location_by_name(&l2).unwrap()));
        for s in [&s1, &s2] {
            assert!(s.starts_with("r("), "{s} is not a red marble");
        }
        assert_eq!(table.take("tmp").as_deref(), Some(a.as_str()));
        assert_eq!(table.take("tmp"), None);
    }
}
