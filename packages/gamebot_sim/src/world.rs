//! The world: pieces, the arm on its emulated servo controller, the hand,
//! faults, contacts and camera frames. See the crate docs for the model.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use gamebot_kinematics::{Arm, Board};
use gamebot_rules::model::{ElementId, LocationId, RobotSpec};
use gamebot_rules::{Game, State};
use gamebot_ssc32::emulator::Board as ServoBoard;
use gamebot_ssc32::{Clock, Command, Emulator, EmulatorConfig, MotionUpdate, Movement};
use gamebot_vision::calib::{BoardConfig, CameraCalibration};
use gamebot_vision::camera::CameraModel;
use gamebot_vision::render::{GroundTruth, RenderOptions, Renderer, Solid, TablePiece, TableScene};
use gamebot_vision::Mat;
use k::nalgebra::{Isometry3, Point3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::arm_model::{to_tool, ArmModel, ArmState};
use crate::faults::{FaultKind, FaultSpec};
use crate::hand::{hand_solids, HandAction, HandEvent, HandMove, HandTarget, KeyBuilder};
use crate::SimError;

/// How to build a world.
#[derive(Clone, Debug)]
pub struct WorldConfig {
    /// Arm name (`al5d`, `desk6`) or path of an arm YAML
    /// ([`gamebot_kinematics::Arm::load_named`]).
    pub arm: String,
    /// Board placement: a name under `config/boards/` or a path. It places
    /// the sheet (and so every `point=` location) in the arm's frame.
    pub board: String,
    /// Camera calibration file (for the detector and `camera_info`).
    pub camera: PathBuf,
    /// The simulated camera (pinhole; the calibration file was made with it).
    pub camera_model: CameraModel,
    /// Faults to inject.
    pub faults: FaultSpec,
    /// Seed of every random draw of the world (faults, the hand's errors, image noise).
    pub seed: u64,
    /// Real-time factor of the simulation clock (1 = real time, 20 = twenty
    /// times faster); `None` = a virtual clock that moves only when told
    /// (tests: [`World::step`] advances it, and so does a driver's polling).
    pub real_time_factor: Option<f64>,
    /// Camera frames per second of simulation time ([`World::render_if_due`]).
    pub render_rate_hz: f64,
    /// Path of a symlink to the emulated serial port. Without one the world
    /// makes one in the temporary directory, so a dropped line comes back at
    /// the same path.
    pub serial_link: Option<PathBuf>,
    /// Baud rate of the emulated SSC-32U.
    pub baud: u32,
    /// Height of every piece (m); the games give only their diameter.
    pub piece_height_m: f64,
    /// Simulation step (sim time) of the physics.
    pub tick: Duration,
    /// A piece lies on a location when its centre is this close (m) horizontally.
    pub occupancy_tolerance_m: f64,
    /// Image degradations of the camera frames.
    pub render: RenderOptions,
    /// Arm joint values of channels never commanded (the arm at rest before
    /// the first move); `None` = the arm YAML's `park` pose.
    pub rest_pose: Option<Vec<f64>>,
    /// Where the real sheet lies relative to the board file's nominal
    /// numbers; `None` = where the board file's `placement:` says (or
    /// exactly at the nominal numbers when it has none). Set it to lay the
    /// sheet somewhere the file does not say (a board-to-arm registration
    /// test): every `robot=` and `point=` location moves with the sheet, and
    /// the camera, calibrated on the sheet's markers, sees the table in the
    /// sheet's frame.
    pub sheet_placement: Option<gamebot_kinematics::Placement>,
}

/// The arm YAML has no baud rate: the SSC-32U's common fast rate.
pub const DEFAULT_BAUD: u32 = 115_200;

impl Default for WorldConfig {
    fn default() -> Self {
        WorldConfig {
            arm: "al5d".into(),
            board: "a4".into(),
            camera: PathBuf::from("config/camera/sim.yaml"),
            camera_model: CameraModel::default(),
            faults: FaultSpec::default(),
            seed: 1,
            real_time_factor: None,
            render_rate_hz: 10.0,
            serial_link: None,
            baud: DEFAULT_BAUD,
            piece_height_m: 0.01,
            tick: Duration::from_millis(5),
            occupancy_tolerance_m: 0.01,
            render: RenderOptions {
                lighting_seed: Some(7),
                ..RenderOptions::default()
            },
            rest_pose: None,
            sheet_placement: None,
        }
    }
}

/// A piece as the world has it.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceInfo {
    /// Element id in the game.
    pub element: ElementId,
    /// Element name.
    pub name: String,
    /// Element type name.
    pub element_type: String,
    /// Element state (its colour side).
    pub state: i32,
    /// Centre of the bottom face (m, `base_link`).
    pub position: [f64; 3],
    /// Radius and height (m).
    pub radius: f64,
    pub height: f64,
    /// In the gripper (or the person's hand).
    pub held: bool,
}

/// The elements lying on one game location.
#[derive(Clone, Debug, PartialEq)]
pub struct Occupant {
    pub location: LocationId,
    pub name: String,
    /// Element names, bottom first.
    pub elements: Vec<String>,
}

/// Something touched a piece it should not have.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact {
    /// Sim time (s).
    pub time: f64,
    /// What touched: `link:<link name>` of the arm, or the carried element's name.
    pub by: String,
    /// The element touched.
    pub element: String,
    /// Where (m, `base_link`): the touched piece's centre.
    pub position: [f64; 3],
}

/// A camera frame.
pub struct Frame {
    /// 640×480 BGR (the camera model's size).
    pub image: Mat,
    /// Sim time it shows.
    pub time: Duration,
    /// What a perfect detector would report.
    pub truth: GroundTruth,
}

/// The camera's intrinsics, for `sensor_msgs/CameraInfo` (no distortion).
#[derive(Clone, Debug, PartialEq)]
pub struct CameraInfo {
    pub width: u32,
    pub height: u32,
    pub distortion_model: &'static str,
    pub d: [f64; 5],
    pub k: [f64; 9],
    pub r: [f64; 9],
    pub p: [f64; 12],
}

#[derive(Clone, Debug)]
struct Piece {
    element: ElementId,
    name: String,
    element_type: String,
    state: i32,
    states: i32,
    /// Bottom centre (m).
    pos: Vector3<f64>,
    radius: f64,
    height: f64,
}

#[derive(Clone, Debug)]
struct Held {
    piece: usize,
    /// Centre of the piece (mid-height) in the tool frame.
    offset: Vector3<f64>,
    /// Tool height at the grasp; a slip happens 2 cm above it.
    grasp_z: f64,
    slip: bool,
}

static LINK_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The simulated table.
pub struct World {
    config: WorldConfig,
    clock: Clock,
    emulator: Emulator,
    motion: Receiver<MotionUpdate>,
    pending: VecDeque<MotionUpdate>,
    servo: ServoBoard,
    model: ArmModel,
    arm: ArmState,
    rest_pose: Vec<f64>,
    rest_gripper: f64,
    half_gap: f64,
    board: Board,
    board_cfg: BoardConfig,
    calibration: CameraCalibration,
    renderer: Renderer,
    surface_z: f64,
    location_names: Vec<String>,
    /// Surface point of every game location (m), if it has a position.
    locations: Vec<Option<Vector3<f64>>>,
    pieces: Vec<Piece>,
    held: Option<Held>,
    hand: Option<HandMove>,
    hand_entry: Vector3<f64>,
    rng: ChaCha8Rng,
    faults: BTreeMap<FaultKind, u32>,
    serial_up_at: Option<Duration>,
    stall_end_at: Option<Duration>,
    contacts: Vec<Contact>,
    touching: HashSet<(String, usize)>,
    time: Duration,
    last_frame: Option<Duration>,
    frames: u64,
    _temp_link_dir: Option<TempDir>,
}

impl World {
    /// Builds the world of `game` in `state`, starts the emulated SSC-32U
    /// and puts the arm at rest in its park pose.
    pub fn new(game: &Game, state: &State, config: WorldConfig) -> Result<World, SimError> {
        let clock = match config.real_time_factor {
            None => Clock::virtual_clock(),
            Some(rtf) => Clock::scaled(rtf)?,
        };
        if !(config.render_rate_hz.is_finite() && config.render_rate_hz > 0.0) {
            return Err(SimError::Config(format!(
                "render rate {} Hz must be positive",
                config.render_rate_hz
            )));
        }
        if !(config.piece_height_m > 0.0 && config.piece_height_m < 0.2) {
            return Err(SimError::Config(format!(
                "piece height {} m is out of range (0, 0.2)",
                config.piece_height_m
            )));
        }
        if config.tick.is_zero() {
            return Err(SimError::Config("the physics tick must be positive".into()));
        }
        let arm = Arm::load_named(&config.arm)?;
        let mut model = ArmModel::new(arm)?;
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let mut faults = BTreeMap::new();
        if config.faults.servo_offset_deg > 0.0 {
            let max = config.faults.servo_offset_deg.to_radians();
            let offsets: Vec<f64> = model
                .revolute()
                .iter()
                .map(|&r| if r { rng.gen_range(-max..=max) } else { 0.0 })
                .collect();
            tracing::info!(?offsets, "sim fault: servo calibration offsets (rad)");
            model.set_offsets(offsets);
            faults.insert(
                FaultKind::ServoOffset,
                model.revolute().iter().filter(|r| **r).count() as u32,
            );
        }
        let board_path = gamebot_kinematics::find_board_config(&config.board);
        let mut board = Board::load(&board_path)?;
        if let Some(p) = config.sheet_placement {
            p.check()
                .map_err(|e| SimError::Config(format!("sheet placement: {e}")))?;
            board.placement = Some(p);
        }
        let board_cfg = BoardConfig::load(&board_path)?;
        let cam_path = gamebot_kinematics::find_project_file(&config.camera);
        let calibration = CameraCalibration::load(&cam_path)?;
        let renderer = Renderer::from_game(game, &board_cfg, config.camera_model)?;

        let (link, temp_link_dir) = match &config.serial_link {
            Some(l) => (l.clone(), None),
            None => {
                let n = LINK_COUNTER.fetch_add(1, Ordering::SeqCst);
                let dir =
                    std::env::temp_dir().join(format!("gamebot-sim-{}-{n}", std::process::id()));
                std::fs::create_dir_all(&dir).map_err(|e| {
                    SimError::Config(format!("cannot create {}: {e}", dir.display()))
                })?;
                (dir.join("ssc32"), Some(TempDir(dir)))
            }
        };
        let emulator = Emulator::start(EmulatorConfig {
            baud: config.baud,
            clock: clock.clone(),
            link: Some(link),
            seed: config.seed,
            ..EmulatorConfig::default()
        })?;
        let motion = emulator.subscribe_motion();
        let rest_pose = match &config.rest_pose {
            None => model.arm.park().to_vec(),
            Some(q) => {
                model.arm.check_limits(q, " (rest_pose)").map_err(|e| {
                    SimError::Config(format!("rest pose of arm {}: {e}", model.arm.name()))
                })?;
                q.clone()
            }
        };
        let rest_gripper = model.arm.config().gripper.open;
        let arm_state = model.state(&rest_pose, rest_gripper);
        let surface_z = board.pixels.surface_z_cm / 100.0;
        let mut w = World {
            clock,
            emulator,
            motion,
            pending: VecDeque::new(),
            servo: ServoBoard::new(),
            arm: arm_state,
            rest_pose,
            rest_gripper,
            half_gap: f64::INFINITY,
            model,
            board,
            board_cfg,
            calibration,
            renderer,
            surface_z,
            location_names: Vec::new(),
            locations: Vec::new(),
            pieces: Vec::new(),
            held: None,
            hand: None,
            hand_entry: Vector3::zeros(),
            rng,
            faults,
            serial_up_at: None,
            stall_end_at: None,
            contacts: Vec::new(),
            touching: HashSet::new(),
            time: Duration::ZERO,
            last_frame: None,
            frames: 0,
            _temp_link_dir: temp_link_dir,
            config,
        };
        w.half_gap = w.finger_half_gap();
        w.load(game, state)?;
        Ok(w)
    }

    /// A new game: pieces rebuilt from `state`, contacts and hand cleared.
    /// The arm, the serial line, the clock and the fault counters carry on.
    pub fn reset(&mut self, game: &Game, state: &State) -> Result<(), SimError> {
        self.renderer = Renderer::from_game(game, &self.board_cfg, self.config.camera_model)?;
        self.load(game, state)
    }

    fn load(&mut self, game: &Game, state: &State) -> Result<(), SimError> {
        let grasp = self.model.arm.config().grasp_height_m;
        let mut locations = Vec::with_capacity(game.locations.len());
        for loc in &game.locations {
            // Cartesian and `point=` positions move with the sheet; legacy
            // angles are arm poses, used as given.
            let on_sheet = |c: [f64; 3]| {
                let c = self.board.to_arm_cm(c);
                Vector3::new(c[0], c[1], c[2]) / 100.0
            };
            let p = match loc.robot {
                Some(RobotSpec::Cartesian(c)) => Some(on_sheet(c)),
                Some(RobotSpec::Angles(a)) => {
                    let q = self.model.arm.legacy_pose(&a[5..]).ok_or_else(|| {
                        SimError::Config(format!(
                            "location {} gives legacy angles, but arm {} has no legacy_angles mapping",
                            loc.name,
                            self.model.arm.name()
                        ))
                    })?;
                    let (tip, _) = self.model.arm.tool_point_axis(&q);
                    Some(Vector3::new(tip.x, tip.y, tip.z - grasp))
                }
                None => loc
                    .point
                    .map(|px| on_sheet(self.board.pixel_to_table_cm(px.x as f64, px.y as f64))),
            };
            locations.push(p);
        }
        let h = self.config.piece_height_m;
        let mut pieces: Vec<Piece> = Vec::new();
        for (e, el) in game.elements.iter().enumerate() {
            let e = e as ElementId;
            let l = state.location_of(e);
            let Some(base) = locations.get(l as usize).copied().flatten() else {
                // A piece on a place without a position is bookkeeping, not a body.
                continue;
            };
            if !gamebot_rules::on_table(game, l) {
                // Nor is one on a place the camera does not watch (a turn
                // counter's spot): the arm never moves it (`physical_actions`).
                continue;
            }
            let et = &game.element_types[el.element_type];
            let st = state.element_state(e);
            let class = self.renderer.board().class_for(&et.name, st);
            let radius = self.renderer.piece_radius_cm(class, l) / 100.0;
            // Stacks: each piece on top of those already there.
            let top = pieces
                .iter()
                .filter(|p| (p.pos.xy() - base.xy()).norm() < 0.5 * (p.radius + radius))
                .map(|p| p.pos.z + p.height)
                .fold(base.z, f64::max);
            pieces.push(Piece {
                element: e,
                name: el.name.clone(),
                element_type: et.name.clone(),
                state: st,
                states: et.states.max(1),
                pos: Vector3::new(base.x, base.y, top),
                radius,
                height: h,
            });
        }
        // The person comes from the far side of the sheet, to the right.
        let (lo, hi) = self.board_cfg.sheet.bounds();
        self.hand_entry = Vector3::new(0.6 * hi[0] / 100.0, hi[1] / 100.0 + 0.3, 0.12);
        let _ = lo;
        self.location_names = game.locations.iter().map(|l| l.name.clone()).collect();
        self.locations = locations;
        self.pieces = pieces;
        self.held = None;
        self.hand = None;
        self.contacts.clear();
        self.touching.clear();
        Ok(())
    }

    /// The simulation clock (share it with the driver and the nodes).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Sim time the world has been brought up to.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// The path the bridge opens: the emulated SSC-32U's symlink.
    pub fn serial_path(&self) -> &Path {
        self.emulator.path()
    }

    /// The baud rate of the emulated board.
    pub fn baud(&self) -> u32 {
        self.config.baud
    }

    /// The emulator (for extra faults such as garbage or slow answers).
    pub fn emulator(&self) -> &Emulator {
        &self.emulator
    }

    /// The arm model (URDF, joints, limits, pulse mapping).
    pub fn arm(&self) -> &Arm {
        &self.model.arm
    }

    /// The world's configuration.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Advances a virtual clock by `dt` (a scaled or real clock sleeps `dt`
    /// of sim time) and brings the world up to the clock's time.
    pub fn step(&mut self, dt: Duration) -> Result<(), SimError> {
        self.clock.sleep(dt);
        self.update()
    }

    /// Brings the world up to the clock's current time, in physics ticks:
    /// servo outputs (exactly as the emulator's motion model has them), the
    /// arm's pose, grasping and releasing, the carried piece, contacts, the
    /// hand, and fault injection and recovery.
    pub fn update(&mut self) -> Result<(), SimError> {
        let now = self.clock.now();
        while let Ok(u) = self.motion.try_recv() {
            self.pending.push_back(u);
        }
        while self.time < now {
            let t = (self.time + self.config.tick).min(now);
            while self.pending.front().is_some_and(|u| u.time <= t) {
                let Some(u) = self.pending.pop_front() else {
                    break;
                };
                let is_move = matches!(u.command, Some(Command::Move(_)));
                self.servo = u.board;
                if is_move {
                    self.on_move(u.time)?;
                }
            }
            self.time = t;
            self.tick(t)?;
            // Nothing can change until the next servo command: the servos have
            // arrived, no hand moves, nothing is carried or falling, and the
            // fingers are still (one tick above saw the last change). Jump to
            // the next command or the clock, so an idle world costs no ticks.
            if self.is_still(t) {
                let next = self.pending.front().map_or(now, |u| u.time.min(now));
                if next > self.time {
                    self.time = next;
                }
            }
        }
        self.recover(now)?;
        Ok(())
    }

    /// Whether the world cannot change before the next servo command.
    fn is_still(&self, t: Duration) -> bool {
        self.hand.is_none()
            && self.held.is_none()
            && self.servo.movement_at(t) == Movement::Done
            && self.stall_end_at.is_none()
            && self.serial_up_at.is_none()
    }

    /// Fault draws made for every group move the controller receives.
    fn on_move(&mut self, t: Duration) -> Result<(), SimError> {
        let f = &self.config.faults;
        let (drop_p, stall_p) = (f.serial_drop, f.stall);
        if drop_p > 0.0 && self.serial_up_at.is_none() && self.rng.gen_bool(drop_p) {
            let down = Duration::from_secs_f64(self.config.faults.serial_down_s);
            self.drop_serial(down);
            tracing::info!(?t, "sim fault: serial line dropped");
        }
        if stall_p > 0.0 && self.stall_end_at.is_none() && self.rng.gen_bool(stall_p) {
            let d = Duration::from_secs_f64(self.config.faults.stall_s);
            self.stall(d);
        }
        Ok(())
    }

    /// Drops the serial line now; it comes back at the same path after `down`
    /// of sim time (during [`World::update`]).
    pub fn drop_serial(&mut self, down: Duration) {
        if self.serial_up_at.is_some() {
            return;
        }
        self.emulator.disconnect();
        self.serial_up_at = Some(self.clock.now() + down);
        *self.faults.entry(FaultKind::SerialDrop).or_default() += 1;
    }

    /// Stalls the servos now for `d` of sim time.
    pub fn stall(&mut self, d: Duration) {
        if self.stall_end_at.is_some() {
            return;
        }
        self.emulator.set_stall(true);
        self.stall_end_at = Some(self.clock.now() + d);
        *self.faults.entry(FaultKind::Stall).or_default() += 1;
        tracing::info!(?d, "sim fault: servos stalled");
    }

    /// Whether the serial line is up.
    pub fn serial_connected(&self) -> bool {
        self.emulator.is_connected()
    }

    fn recover(&mut self, now: Duration) -> Result<(), SimError> {
        if self.serial_up_at.is_some_and(|t| now >= t) {
            self.emulator.reconnect()?;
            self.serial_up_at = None;
        }
        if self.stall_end_at.is_some_and(|t| now >= t) {
            self.emulator.set_stall(false);
            self.stall_end_at = None;
        }
        Ok(())
    }

    /// Half the distance between the fingers' inner faces (m).
    fn finger_half_gap(&mut self) -> f64 {
        let tool_inv = self.arm.tool.inverse();
        let (q, g) = (self.arm.joints.clone(), self.arm.gripper);
        let mut half = f64::INFINITY;
        for pv in self.model.placed(&q, g) {
            if !pv.visual.finger {
                continue;
            }
            for p in &pv.visual.hull {
                let t = tool_inv * (pv.pose * p);
                half = half.min(t.x.abs());
            }
        }
        half
    }

    fn tick(&mut self, t: Duration) -> Result<(), SimError> {
        let pulses = self.servo.pulses_at(t);
        let (fallback, fallback_g) = (self.rest_pose.clone(), self.rest_gripper);
        let (q, g) = self
            .model
            .joints_from_pulses(&pulses, &fallback, fallback_g);
        self.arm = self.model.state(&q, g);
        let prev = self.half_gap;
        self.half_gap = self.finger_half_gap();
        let secs = t.as_secs_f64();
        if let Some(h) = self.held.clone() {
            let r = self.pieces[h.piece].radius;
            if self.half_gap > r + 0.0005 {
                self.release(h.piece, true);
                self.held = None;
            } else if h.slip && self.arm.tool.translation.vector.z > h.grasp_z + 0.02 {
                tracing::info!(element = %self.pieces[h.piece].name, "sim fault: piece slipped");
                *self.faults.entry(FaultKind::Slip).or_default() += 1;
                self.release(h.piece, false);
                self.held = None;
            } else {
                self.carry(&h);
            }
        } else if self.half_gap < prev {
            self.try_grasp(secs);
        }
        self.check_contacts(secs);
        self.hand_tick(secs);
        Ok(())
    }

    /// Closing fingers grasp the piece whose centre lies between them and
    /// whose height overlaps the fingertips, once they touch it.
    fn try_grasp(&mut self, secs: f64) {
        let tool = self.arm.tool;
        let (flo, fhi) = self.model.finger_z;
        let mut best: Option<(usize, f64)> = None;
        for (i, p) in self.pieces.iter().enumerate() {
            if self.hand.as_ref().is_some_and(|h| h.holding == Some(i)) {
                continue;
            }
            let centre = p.pos + Vector3::new(0.0, 0.0, p.height / 2.0);
            let c = to_tool(&tool, centre);
            // The piece's extent along the tool axis (vertical tool: its height).
            let axis = tool.rotation * Vector3::z();
            let half_extent = (axis.z.abs() * p.height / 2.0) + (1.0 - axis.z.abs()) * p.radius;
            let overlap = (fhi.min(c.z + half_extent)) - (flo.max(c.z - half_extent));
            let between = c.x.abs() < self.half_gap.max(p.radius) && c.y.abs() < 0.7 * p.radius;
            if between
                && overlap > 0.002_f64.min(0.3 * p.height)
                && self.half_gap <= p.radius
                && best.is_none_or(|(_, o)| overlap > o + 1e-6)
            {
                best = Some((i, overlap));
            }
        }
        if let Some((i, _)) = best {
            let p = &self.pieces[i];
            let centre = p.pos + Vector3::new(0.0, 0.0, p.height / 2.0);
            let mut offset = to_tool(&tool, centre);
            offset.x = 0.0; // the closing fingers centre it
            let slip = self.config.faults.slip > 0.0 && self.rng.gen_bool(self.config.faults.slip);
            tracing::debug!(element = %p.name, time = secs, "grasped");
            self.held = Some(Held {
                piece: i,
                offset,
                grasp_z: tool.translation.vector.z,
                slip,
            });
            let h = self.held.clone();
            if let Some(h) = h {
                self.carry(&h);
            }
            self.settle(Some(i));
        }
    }

    fn carry(&mut self, h: &Held) {
        let c = self.arm.tool * Point3::from(h.offset);
        let p = &mut self.pieces[h.piece];
        p.pos = Vector3::new(c.x, c.y, c.z - p.height / 2.0);
    }

    /// Top of whatever lies under the point (m): the table or the highest piece
    /// whose top face holds the centre.
    fn support(&self, xy: [f64; 2], except: usize) -> f64 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(j, q)| {
                *j != except
                    && !self.is_held(*j)
                    && (q.pos.x - xy[0]).hypot(q.pos.y - xy[1]) < q.radius
            })
            .map(|(_, q)| q.pos.z + q.height)
            .fold(self.surface_z, f64::max)
    }

    fn is_held(&self, i: usize) -> bool {
        self.held.as_ref().is_some_and(|h| h.piece == i)
            || self.hand.as_ref().is_some_and(|h| h.holding == Some(i))
    }

    /// Lets every resting piece fall onto what is under it (lowest first).
    fn settle(&mut self, skip: Option<usize>) {
        let mut order: Vec<usize> = (0..self.pieces.len()).collect();
        order.sort_by(|&a, &b| self.pieces[a].pos.z.total_cmp(&self.pieces[b].pos.z));
        for i in order {
            if Some(i) == skip || self.is_held(i) {
                continue;
            }
            let p = &self.pieces[i];
            let xy = [p.pos.x, p.pos.y];
            let below = self
                .pieces
                .iter()
                .enumerate()
                .filter(|(j, q)| {
                    *j != i
                        && Some(*j) != skip
                        && !self.is_held(*j)
                        && q.pos.z < p.pos.z - 1e-6
                        && (q.pos.x - xy[0]).hypot(q.pos.y - xy[1]) < q.radius
                })
                .map(|(_, q)| q.pos.z + q.height)
                .fold(self.surface_z, f64::max);
            self.pieces[i].pos.z = below;
        }
    }

    /// The gripper opened (`placed`) or the piece slipped: it falls straight
    /// down onto whatever is below, with the placement and nudge faults.
    fn release(&mut self, i: usize, placed: bool) {
        let mut xy = [self.pieces[i].pos.x, self.pieces[i].pos.y];
        let f = self.config.faults.clone();
        if placed && f.place_sigma_mm > 0.0 {
            let s = f.place_sigma_mm / 1000.0;
            xy[0] += s * self.gauss();
            xy[1] += s * self.gauss();
            *self.faults.entry(FaultKind::PlaceError).or_default() += 1;
        }
        // Let go over the turn-over station's intake, the chute turns the
        // piece over and it comes to rest in the cradle at its exit; let go
        // over the exit (a piece that slipped from the gripper as it was
        // lifted out, or was put back), it slides back into the cradle, not
        // turned.
        if let Some(f) = self.board.flip_station {
            let within =
                |at: [f64; 3]| (xy[0] - at[0]).hypot(xy[1] - at[1]) <= f.capture_radius_cm / 100.0;
            let turned = within(f.intake_m());
            if turned || within(f.exit_m()) {
                let p = &mut self.pieces[i];
                if turned && p.states == 2 {
                    p.state = p.state % p.states + 1;
                }
                if turned {
                    tracing::debug!(element = %p.name, state = p.state, "through the turn-over station");
                } else {
                    tracing::debug!(element = %p.name, "back into the turn-over station's exit");
                }
                let exit = f.exit_m();
                let z = self.support([exit[0], exit[1]], i).max(exit[2]);
                self.pieces[i].pos = Vector3::new(exit[0], exit[1], z);
                self.settle(None);
                return;
            }
        }
        let z = self.support(xy, i);
        self.pieces[i].pos = Vector3::new(xy[0], xy[1], z);
        tracing::debug!(element = %self.pieces[i].name, ?xy, z, "released");
        if placed && f.nudge > 0.0 && self.rng.gen_bool(f.nudge) {
            let me = self.pieces[i].pos;
            let near = self
                .pieces
                .iter()
                .enumerate()
                .filter(|(j, q)| {
                    *j != i && !self.is_held(*j) && (q.pos.xy() - me.xy()).norm() < 0.06
                })
                .min_by(|a, b| {
                    (a.1.pos.xy() - me.xy())
                        .norm()
                        .total_cmp(&(b.1.pos.xy() - me.xy()).norm())
                })
                .map(|(j, _)| j);
            if let Some(j) = near {
                let d = self.rng.gen_range(0.002..0.005);
                let dir = self.pieces[j].pos.xy() - me.xy();
                let dir = if dir.norm() > 1e-9 {
                    dir.normalize()
                } else {
                    k::nalgebra::Vector2::new(1.0, 0.0)
                };
                self.pieces[j].pos.x += dir.x * d;
                self.pieces[j].pos.y += dir.y * d;
                *self.faults.entry(FaultKind::Nudge).or_default() += 1;
                tracing::info!(element = %self.pieces[j].name, mm = d * 1000.0, "sim fault: neighbour nudged");
            }
        }
        self.settle(None);
        // A piece put down partly over another one overlaps it.
        let secs = self.time.as_secs_f64();
        self.piece_overlaps(i, secs);
    }

    fn gauss(&mut self) -> f64 {
        // Box–Muller.
        let u1: f64 = self.rng.gen_range(f64::EPSILON..1.0);
        let u2: f64 = self.rng.gen_range(0.0..1.0);
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Records overlaps of piece `i` (carried or just put down) with every other piece.
    fn piece_overlaps(&mut self, i: usize, secs: f64) {
        let a = self.pieces[i].clone();
        for (j, b) in self.pieces.clone().iter().enumerate() {
            if j == i || self.hand.as_ref().is_some_and(|h| h.holding == Some(j)) {
                continue;
            }
            let horiz = (a.pos.xy() - b.pos.xy()).norm();
            let zo = (a.pos.z + a.height).min(b.pos.z + b.height) - a.pos.z.max(b.pos.z);
            let key = (a.name.clone(), j);
            if horiz < a.radius + b.radius - 0.0005 && zo > 0.0005 {
                if self.touching.insert(key) {
                    self.contacts.push(Contact {
                        time: secs,
                        by: a.name.clone(),
                        element: b.name.clone(),
                        position: [b.pos.x, b.pos.y, b.pos.z],
                    });
                }
            } else {
                self.touching.remove(&key);
            }
        }
    }

    fn check_contacts(&mut self, secs: f64) {
        let held = self.held.as_ref().map(|h| h.piece);
        let (q, g) = (self.arm.joints.clone(), self.arm.gripper);
        let pieces = self.pieces.clone();
        let hand_piece = self.hand.as_ref().and_then(|h| h.holding);
        let mut events = Vec::new();
        let mut still = HashSet::new();
        for pv in self.model.placed(&q, g) {
            let centre = pv.pose.translation.vector;
            for (j, p) in pieces.iter().enumerate() {
                if Some(j) == held || Some(j) == hand_piece {
                    continue;
                }
                let pc = p.pos + Vector3::new(0.0, 0.0, p.height / 2.0);
                if (centre - pc).norm() > pv.visual.bound + p.radius + p.height {
                    continue;
                }
                let inside = pv.visual.samples.iter().any(|s| {
                    let w = pv.pose * s;
                    (w.x - p.pos.x).hypot(w.y - p.pos.y) < p.radius - 0.0003
                        && w.z > p.pos.z + 0.0003
                        && w.z < p.pos.z + p.height - 0.0003
                });
                if inside {
                    let key = (format!("link:{}", pv.visual.link), j);
                    still.insert(key.clone());
                    events.push((key, [p.pos.x, p.pos.y, p.pos.z]));
                }
            }
        }
        let names: Vec<String> = pieces.iter().map(|p| p.name.clone()).collect();
        self.touching
            .retain(|k| !k.0.starts_with("link:") || still.contains(k));
        for (key, pos) in events {
            if self.touching.insert(key.clone()) {
                self.contacts.push(Contact {
                    time: secs,
                    by: key.0.clone(),
                    element: names[key.1].clone(),
                    position: pos,
                });
            }
        }
        if let Some(h) = held {
            self.piece_overlaps(h, secs);
        }
    }

    // ---- the person's hand ----

    /// A person moves pieces: each action reaches in from the far side of the
    /// table, lifts, carries and puts the piece down a few mm off (seeded),
    /// or turns it over, or covers a spot for a while. The move runs in sim
    /// time as the world is updated; returns how long it takes. Fails if a
    /// hand move is still running, or an element or location is unknown, or
    /// an element is not where the action says.
    pub fn human_move(&mut self, actions: &[HandAction]) -> Result<Duration, SimError> {
        if self.hand.is_some() {
            return Err(SimError::HandBusy);
        }
        let mut b = KeyBuilder::new(self.hand_entry);
        let (fast, slow) = (0.5, 0.15);
        let up = |p: Vector3<f64>, dz: f64| p + Vector3::new(0.0, 0.0, dz);
        // Where each piece will be, and which side up, as the plan goes on.
        let mut pos: Vec<Vector3<f64>> = self.pieces.iter().map(|p| p.pos).collect();
        let mut side: Vec<i32> = self.pieces.iter().map(|p| p.state).collect();
        // A piece put down and then turned over is turned while it is carried,
        // as a person puts a disc down the right side up.
        let mut turn_in_hand: Vec<usize> = Vec::new();
        for (k, a) in actions.iter().enumerate() {
            if let HandAction::Transfer { element, .. } = a {
                let later_flip = actions[k + 1..]
                    .iter()
                    .position(|b| matches!(b, HandAction::Flip { element: f } if f == element));
                let moved_again = |upto: usize| {
                    actions[k + 1..k + 1 + upto].iter().any(
                        |b| matches!(b, HandAction::Transfer { element: t, .. } if t == element),
                    )
                };
                if let Some(j) = later_flip.filter(|&j| !moved_again(j)) {
                    turn_in_hand.push(k + 1 + j);
                }
            }
        }
        for (k, a) in actions.iter().enumerate() {
            match a {
                HandAction::Transfer { element, from, to } => {
                    let i = self.piece_index(element)?;
                    let l = self.location_index(from)?;
                    let at =
                        self.locations[l].ok_or_else(|| SimError::UnknownLocation(from.clone()))?;
                    let d = (pos[i].xy() - at.xy()).norm();
                    if d > self.config.occupancy_tolerance_m.max(0.015) {
                        return Err(SimError::NotThere {
                            element: element.clone(),
                            location: from.clone(),
                            distance_mm: d * 1000.0,
                        });
                    }
                    let target = match to {
                        HandTarget::Location(n) => {
                            let l = self.location_index(n)?;
                            self.locations[l].ok_or_else(|| SimError::UnknownLocation(n.clone()))?
                        }
                        HandTarget::Table(xy) => Vector3::new(xy[0], xy[1], self.surface_z),
                    };
                    let err = 0.002;
                    let (ex, ey) = (
                        (err * self.gauss()).clamp(-0.004, 0.004),
                        (err * self.gauss()).clamp(-0.004, 0.004),
                    );
                    let h = self.pieces[i].height;
                    let grab = pos[i] + Vector3::new(0.0, 0.0, h);
                    b.go(up(grab, 0.06), fast, 0.3, HandEvent::None);
                    b.go(grab, slow, 0.2, HandEvent::Grab(i));
                    let lifted = if turn_in_hand.iter().any(|&f| {
                        f > k && matches!(&actions[f], HandAction::Flip { element: e } if e == element)
                    }) {
                        let p = &self.pieces[i];
                        side[i] = side[i] % p.states + 1;
                        HandEvent::Flip(i, side[i])
                    } else {
                        HandEvent::None
                    };
                    b.go(up(grab, 0.05), slow, 0.2, lifted);
                    let drop_xy = Vector3::new(target.x + ex, target.y + ey, 0.0);
                    let top = self
                        .pieces
                        .iter()
                        .enumerate()
                        .filter(|(j, q)| *j != i && (pos[*j].xy() - drop_xy.xy()).norm() < q.radius)
                        .map(|(j, q)| pos[j].z + q.height)
                        .fold(target.z, f64::max);
                    let put = Vector3::new(drop_xy.x, drop_xy.y, top + h);
                    b.go(up(put, 0.05), fast, 0.3, HandEvent::None);
                    b.go(put, slow, 0.2, HandEvent::Release(i, [put.x, put.y, top]));
                    b.go(up(put, 0.06), slow, 0.2, HandEvent::None);
                    pos[i] = Vector3::new(put.x, put.y, top);
                }
                HandAction::Flip { element } => {
                    let i = self.piece_index(element)?;
                    if turn_in_hand.contains(&k) {
                        continue; // turned while it was carried
                    }
                    let p = &self.pieces[i];
                    side[i] = side[i] % p.states + 1;
                    let next = side[i];
                    let grab = pos[i] + Vector3::new(0.0, 0.0, p.height);
                    b.go(up(grab, 0.06), fast, 0.3, HandEvent::None);
                    b.go(grab, slow, 0.2, HandEvent::Grab(i));
                    b.go(up(grab, 0.03), slow, 0.2, HandEvent::Flip(i, next));
                    b.go(
                        grab,
                        slow,
                        0.2,
                        HandEvent::Release(i, [pos[i].x, pos[i].y, pos[i].z]),
                    );
                    b.go(up(grab, 0.06), slow, 0.2, HandEvent::None);
                }
                HandAction::Cover { at, seconds } => {
                    if !(seconds.is_finite() && *seconds >= 0.0 && *seconds <= 600.0) {
                        return Err(SimError::Config(format!(
                            "hand cover time {seconds} s out of range [0, 600]"
                        )));
                    }
                    let p = Vector3::new(at[0], at[1], self.surface_z + 0.03);
                    b.go(p, fast, 0.3, HandEvent::None);
                    b.wait(*seconds);
                }
            }
        }
        let entry = self.hand_entry;
        b.go(entry, fast, 0.3, HandEvent::None);
        let mv = HandMove {
            start: self.time.as_secs_f64(),
            keys: b.keys,
            next: 1,
            holding: None,
        };
        let d = Duration::from_secs_f64(mv.duration());
        self.hand = Some(mv);
        Ok(d)
    }

    /// Whether a hand move is running.
    pub fn hand_busy(&self) -> bool {
        self.hand.is_some()
    }

    fn hand_tick(&mut self, secs: f64) {
        let Some(mut h) = self.hand.take() else {
            return;
        };
        let rel = secs - h.start;
        while h.next < h.keys.len() && h.keys[h.next].t <= rel {
            match h.keys[h.next].event.clone() {
                HandEvent::None => {}
                HandEvent::Grab(i) => h.holding = Some(i),
                HandEvent::Flip(i, s) => self.pieces[i].state = s,
                HandEvent::Release(i, p) => {
                    h.holding = None;
                    self.pieces[i].pos = Vector3::new(p[0], p[1], p[2]);
                }
            }
            h.next += 1;
        }
        if let Some(i) = h.holding {
            let palm = h.position(rel);
            let p = &mut self.pieces[i];
            p.pos = Vector3::new(palm.x, palm.y, palm.z - p.height);
        }
        if h.next < h.keys.len() {
            self.hand = Some(h);
        } else {
            self.settle(None);
        }
    }

    fn piece_index(&self, name: &str) -> Result<usize, SimError> {
        self.pieces
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| SimError::UnknownElement(name.into()))
    }

    fn location_index(&self, name: &str) -> Result<usize, SimError> {
        self.location_names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| SimError::UnknownLocation(name.into()))
    }

    // ---- queries ----

    /// Every piece: element, type, state, position, size, held.
    pub fn pieces(&self) -> Vec<PieceInfo> {
        self.pieces
            .iter()
            .enumerate()
            .map(|(i, p)| PieceInfo {
                element: p.element,
                name: p.name.clone(),
                element_type: p.element_type.clone(),
                state: p.state,
                position: [p.pos.x, p.pos.y, p.pos.z],
                radius: p.radius,
                height: p.height,
                held: self.is_held(i),
            })
            .collect()
    }

    /// Surface point (m) of a game location, if it has one.
    pub fn location_position(&self, l: LocationId) -> Option<[f64; 3]> {
        self.locations
            .get(l as usize)
            .copied()
            .flatten()
            .map(|p| [p.x, p.y, p.z])
    }

    /// For each game location with a position, the pieces (not held) whose
    /// centre lies within the occupancy tolerance of it, bottom first.
    pub fn occupancy(&self) -> Vec<Occupant> {
        let tol = self.config.occupancy_tolerance_m;
        let mut out = Vec::new();
        for (l, p) in self.locations.iter().enumerate() {
            let Some(p) = p else { continue };
            let mut here: Vec<(f64, String)> = self
                .pieces
                .iter()
                .enumerate()
                .filter(|(i, q)| !self.is_held(*i) && (q.pos.xy() - p.xy()).norm() <= tol)
                .map(|(_, q)| (q.pos.z, q.name.clone()))
                .collect();
            here.sort_by(|a, b| a.0.total_cmp(&b.0));
            out.push(Occupant {
                location: l as LocationId,
                name: self.location_names[l].clone(),
                elements: here.into_iter().map(|(_, n)| n).collect(),
            });
        }
        out
    }

    /// Differences between the world and a rule-engine state: every piece
    /// must lie (not held) within the tolerance of its location and have its
    /// state. Empty when they agree.
    pub fn mismatches(&self, game: &Game, state: &State) -> Vec<String> {
        let tol = self.config.occupancy_tolerance_m;
        let mut out = Vec::new();
        for (i, p) in self.pieces.iter().enumerate() {
            let l = state.location_of(p.element);
            let lname = &game.locations[l as usize].name;
            match self.locations.get(l as usize).copied().flatten() {
                Some(at) => {
                    let d = (p.pos.xy() - at.xy()).norm();
                    if self.is_held(i) {
                        out.push(format!("{} is held, the rules have it on {lname}", p.name));
                    } else if d > tol {
                        out.push(format!(
                            "{} lies {:.1} mm from {lname} where the rules have it",
                            p.name,
                            d * 1000.0
                        ));
                    }
                }
                None => out.push(format!(
                    "{} is on the table, the rules have it on {lname} (no position)",
                    p.name
                )),
            }
            if state.element_state(p.element) != p.state {
                out.push(format!(
                    "{} shows state {}, the rules say {}",
                    p.name,
                    p.state,
                    state.element_state(p.element)
                ));
            }
        }
        out
    }

    /// The arm's joint values, gripper value and tool pose now.
    pub fn arm_state(&self) -> &ArmState {
        &self.arm
    }

    /// The tool position (m) now.
    pub fn tool_position(&self) -> [f64; 3] {
        let v = self.arm.tool.translation.vector;
        [v.x, v.y, v.z]
    }

    /// The tool frame in `base_link`.
    pub fn tool_pose(&self) -> Isometry3<f64> {
        self.arm.tool
    }

    /// The element in the gripper, if any.
    pub fn held(&self) -> Option<&str> {
        self.held
            .as_ref()
            .map(|h| self.pieces[h.piece].name.as_str())
    }

    /// Every contact so far (the gripper or the carried piece touching a
    /// piece other than the carried one; a piece put down overlapping another).
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// Forgets the recorded contacts.
    pub fn clear_contacts(&mut self) {
        self.contacts.clear();
    }

    /// Faults injected so far, by kind.
    pub fn fault_counts(&self) -> &BTreeMap<FaultKind, u32> {
        &self.faults
    }

    // ---- camera ----

    /// The calibration of the simulated camera (as loaded from `camera`).
    pub fn camera_calibration(&self) -> &CameraCalibration {
        &self.calibration
    }

    /// Intrinsics of the simulated camera.
    pub fn camera_info(&self) -> CameraInfo {
        let c = &self.config.camera_model;
        CameraInfo {
            width: c.width as u32,
            height: c.height as u32,
            distortion_model: "plumb_bob",
            d: [0.0; 5],
            k: [c.fx, 0.0, c.cx, 0.0, c.fy, c.cy, 0.0, 0.0, 1.0],
            r: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            p: [
                c.fx, 0.0, c.cx, 0.0, 0.0, c.fy, c.cy, 0.0, 0.0, 0.0, 1.0, 0.0,
            ],
        }
    }

    /// Sim time at which the next frame is due ([`World::render_if_due`]);
    /// `None` before the first frame (due at once).
    pub fn next_frame_due(&self) -> Option<Duration> {
        self.last_frame.map(|t| t + self.frame_period())
    }

    /// Surface point (m, `base_link`) of the location called `name`, if it
    /// has a place on the table.
    pub fn location_position_by_name(&self, name: &str) -> Option<[f64; 3]> {
        let i = self.location_names.iter().position(|n| n == name)?;
        self.locations[i].map(|p| [p.x, p.y, p.z])
    }

    /// The piece lying on top at location `name` (within the occupancy
    /// tolerance), whatever its element name: what a hand or gripper would
    /// take from there.
    pub fn top_piece_at(&self, name: &str) -> Option<String> {
        self.pieces_at(name).pop()
    }

    /// The pieces lying at location `name` (within the occupancy tolerance,
    /// not held), bottom first; empty for a location with no place.
    /// Locations at one spot of the table (the levels of a stack) share it.
    pub fn pieces_at(&self, name: &str) -> Vec<String> {
        let Some(at) = self.location_position_by_name(name) else {
            return Vec::new();
        };
        let tol = self.config.occupancy_tolerance_m.max(0.015);
        let mut here: Vec<&Piece> = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(i, p)| !self.is_held(*i) && (p.pos.x - at[0]).hypot(p.pos.y - at[1]) <= tol)
            .map(|(_, p)| p)
            .collect();
        here.sort_by(|a, b| a.pos.z.total_cmp(&b.pos.z));
        here.into_iter().map(|p| p.name.clone()).collect()
    }

    /// The board placement the world was laid out from (with the sheet's
    /// placement in effect: the board file's, or `sheet_placement`).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Centre of the board sheet on the table (m).
    pub fn board_centre(&self) -> [f64; 2] {
        let (lo, hi) = self.board_cfg.sheet.bounds();
        [(lo[0] + hi[0]) / 200.0, (lo[1] + hi[1]) / 200.0]
    }

    /// A spot on the table beside the sheet, out of the camera's board area,
    /// where a person puts pieces taken off the board that have no place.
    pub fn off_board_spot(&self) -> [f64; 2] {
        let (_, hi) = self.board_cfg.sheet.bounds();
        [hi[0] / 100.0 + 0.08, hi[1] / 100.0]
    }

    /// Replaces the fault probabilities from now on (servo offsets are drawn
    /// only when the world is built and stay).
    pub fn set_faults(&mut self, faults: FaultSpec) {
        let offsets = self.config.faults.servo_offset_deg;
        self.config.faults = faults;
        self.config.faults.servo_offset_deg = offsets;
    }

    /// Counts a fault injected from outside the world (e.g. a camera dropout).
    pub fn count_fault(&mut self, kind: FaultKind) {
        *self.faults.entry(kind).or_default() += 1;
    }

    /// Whether the camera goes dark now (`camera_dropout`, rolled once per
    /// frame by whoever publishes the frames): for how long, counted as a fault.
    pub fn roll_camera_dropout(&mut self) -> Option<Duration> {
        let f = &self.config.faults;
        if f.camera_dropout <= 0.0 || !self.rng.gen_bool(f.camera_dropout) {
            return None;
        }
        let d = Duration::from_secs_f64(f.camera_dropout_s);
        self.count_fault(FaultKind::CameraDropout);
        Some(d)
    }

    /// Sim time between frames.
    pub fn frame_period(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.config.render_rate_hz)
    }

    /// Renders a frame if one is due at the configured rate.
    pub fn render_if_due(&mut self) -> Result<Option<Frame>, SimError> {
        let due = self
            .last_frame
            .is_none_or(|t| self.time >= t + self.frame_period());
        if due {
            self.render().map(Some)
        } else {
            Ok(None)
        }
    }

    /// The camera frame of the world as it is now: pieces at their positions,
    /// the arm at its pose, the hand if present.
    pub fn render(&mut self) -> Result<Frame, SimError> {
        let scene = self.table_scene();
        let seed = self.config.seed ^ self.frames.wrapping_mul(0x9E37_79B9);
        let f = self
            .renderer
            .render_table(&scene, &self.config.render, seed)?;
        self.frames += 1;
        self.last_frame = Some(self.time);
        Ok(Frame {
            image: f.image,
            time: self.time,
            truth: f.truth,
        })
    }

    /// The scene the camera sees now (cm), for callers that render themselves.
    /// Positions are in the sheet's frame (the board file's nominal numbers),
    /// as a camera calibrated on the sheet's markers sees them: the same as
    /// the arm's frame unless the sheet has a placement.
    pub fn table_scene(&mut self) -> TableScene {
        let (placement, centre) = (self.board.placement, self.board.sheet_centre_cm());
        let to_sheet = move |p: [f64; 3]| match placement {
            Some(pl) => pl.invert_cm(centre, p),
            None => p,
        };
        let cm = |v: Vector3<f64>| to_sheet([v.x * 100.0, v.y * 100.0, v.z * 100.0]);
        let pieces = self
            .pieces
            .iter()
            .map(|p| {
                let [x, y, z] = cm(p.pos);
                TablePiece {
                    element_type: p.element_type.clone(),
                    state: p.state,
                    centre_cm: (x, y),
                    base_z_cm: z,
                    radius_cm: p.radius * 100.0,
                    height_cm: p.height * 100.0,
                }
            })
            .collect();
        let (q, g) = (self.arm.joints.clone(), self.arm.gripper);
        let mut solids: Vec<Solid> = self
            .model
            .placed(&q, g)
            .iter()
            .map(|pv| Solid {
                points: pv
                    .visual
                    .hull
                    .iter()
                    .map(|p| cm((pv.pose * p).coords))
                    .collect(),
                bgr: pv.visual.bgr,
            })
            .collect();
        if let Some(h) = &self.hand {
            let palm = h.position(self.time.as_secs_f64() - h.start);
            let skin = self.renderer.skin_bgr();
            for s in hand_solids(palm, self.hand_entry) {
                solids.push(Solid {
                    points: s.into_iter().map(cm).collect(),
                    bgr: skin,
                });
            }
        }
        TableScene { pieces, solids }
    }
}

/// The temporary directory holding the default serial link. Declared after
/// the emulator in [`World`], so it drops after the emulator removed the link.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir(&self.0) {
            tracing::debug!(dir = %self.0.display(), error = %e, "cannot remove the serial link directory");
        }
    }
}
