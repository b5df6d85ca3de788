//! The referee node: runs the turn loop over any bus.
//!
//! The loop sleeps on one [`WaitSet`] holding the two service servers, the
//! goal in flight to the planner (while there is one) and the shutdown
//! request; the only deadlines are the planner-silence check, the retry
//! while no planner is up, and the automatic restart after a game. Idle
//! means asleep.

use crate::move_inference::{visible_board, InferenceConfig};
use crate::move_parts::{Expectation, MovePart};
use crate::referee_core::{ActionInfo, Played, PlayerKind, RefereeCore};
use crate::referee_eyes::{check, Correction, PersonVerdict, PersonWatch, SeenBoard};
use crate::NodeError;
use gamebot_interfaces::action::{ExecuteMove, ExecuteMoveGoal, PlanMove, PlanMoveGoal};
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::{
    BoardObservation, GameEvent, GameState, LocationState, PhysicalAction as ActionMsg,
};
use gamebot_interfaces::srv::{NewGameResponse, SubmitMoveResponse};
use gamebot_ros::wait::{earliest, TryRecvError, WaitKey};
use gamebot_ros::{
    graph, ActionClient, Bus, ClientGoal, GoalEvent, GoalStatus, Publisher, Shutdown, WaitSet,
};
use gamebot_rules::PhysicalAction;
use gamebot_rules::{Move, State};
use gamebot_ssc32::Clock;
use gamebot_vision::board_model::VisionBoard;
use std::time::{Duration, Instant};

/// Parameters of the referee.
#[derive(Clone, Debug)]
pub struct RefereeParams {
    pub game_file: String,
    /// One per player: `human` or `ai:<strategy>`.
    pub player_kinds: Vec<String>,
    /// Budget passed to the planner (0 = the strategy's own).
    pub time_budget_ms: u32,
    pub seed: u64,
    /// Start the next game automatically this long after one ends (negative = never).
    pub restart_after_s: f64,
    /// The computer's moves are made by the arm (`/arm/execute`).
    pub arm: bool,
    /// A camera watches the board (`/board/observation`): robot moves count
    /// only once seen; `camera` players' moves are read from it.
    pub camera: bool,
    /// A board that is no legal successor must stay stable this long before
    /// it is rejected (flicker is not a move); also how long a mismatch after
    /// the arm's move must stay before corrections start.
    pub illegal_after_s: f64,
    /// Longest wait for the arm's result.
    pub arm_timeout_s: f64,
    /// Longest wait for a stable observation after the arm's move (then an event, and again).
    pub confirm_timeout_s: f64,
    /// An event when no observation at all arrives for this long while the camera is needed.
    pub camera_timeout_s: f64,
    /// Corrective attempts by the arm before asking the person for help.
    pub correction_attempts: u32,
    /// Corrections after which the camera asked for the same corrections again,
    /// the pieces within `REGRASP_RADIUS_CM` of where they were taken (they
    /// slipped from the gripper and fell back where they lay): up to this
    /// many per place the pieces go to do not count against
    /// `correction_attempts` (0: all count).
    pub regrasp_attempts: u32,
    /// Before the robot's move, pieces the camera sees farther than this (mm)
    /// from their location's point are put back on it, and the move's own
    /// piece is picked where it lies; once the move shows, so are those the
    /// move nudged (in the bins too, beside the captures it put there);
    /// 0 = never.
    pub reseat_mm: f64,
    /// While waiting for help or for a person, a reminder event this often.
    pub remind_after_s: f64,
    /// Board file (a name under config/boards/ or a path) whose placement
    /// takes `robot=` positions to the arm's frame; empty = none.
    pub board: String,
}

impl RefereeParams {
    /// Declares and reads the parameters.
    pub fn declare<B: Bus>(bus: &B) -> Result<RefereeParams, NodeError> {
        let p = bus.parameters();
        Ok(RefereeParams {
            game_file: p.declare_string(
                "game_file",
                "games/tictactoe.game",
                "rule file of the game",
            )?,
            player_kinds: p.declare_string_array(
                "player_kinds",
                &["human", "ai:mcts:time=1s"],
                "per player: human, or ai:<strategy>",
            )?,
            time_budget_ms: p.declare_int(
                "time_budget_ms",
                0,
                0,
                3_600_000,
                "planner budget per move (0 = strategy's own)",
            )? as u32,
            seed: p.declare_int("seed", 1, 0, i64::MAX, "seed for stochastic strategies")? as u64,
            restart_after_s: p.declare_double(
                "restart_after_s",
                -1.0,
                -1.0,
                3600.0,
                "start a new game this long after one ends; -1 = never",
            )?,
            arm: p.declare_bool(
                "arm",
                false,
                "the arm makes the computer's moves (/arm/execute)",
            )?,
            camera: p.declare_bool(
                "camera",
                false,
                "a camera watches the board (/board/observation): robot moves count only once seen",
            )?,
            illegal_after_s: p.declare_double(
                "illegal_after_s",
                1.5,
                0.0,
                60.0,
                "an illegal-looking board must stay stable this long before it is rejected",
            )?,
            arm_timeout_s: p.declare_double(
                "arm_timeout_s",
                180.0,
                1.0,
                3600.0,
                "longest wait for the arm's result",
            )?,
            confirm_timeout_s: p.declare_double(
                "confirm_timeout_s",
                15.0,
                0.5,
                3600.0,
                "longest wait for a stable observation after the arm's move",
            )?,
            camera_timeout_s: p.declare_double(
                "camera_timeout_s",
                3.0,
                0.1,
                3600.0,
                "an event when no observation arrives for this long",
            )?,
            correction_attempts: p.declare_int(
                "correction_attempts",
                2,
                0,
                20,
                "corrective attempts by the arm before asking for help",
            )? as u32,
            regrasp_attempts: p.declare_int(
                "regrasp_attempts",
                4,
                0,
                20,
                "corrections that carried nothing (the piece slipped back where it lay) that do not count against correction_attempts, per place the piece goes to",
            )? as u32,
            reseat_mm: p.declare_double(
                "reseat_mm",
                5.0,
                0.0,
                100.0,
                "before the robot's move, and when it shows (up to 3 goals), pieces seen farther than this (mm) from their point are put back; 0 = never",
            )?,
            remind_after_s: p.declare_double(
                "remind_after_s",
                30.0,
                1.0,
                3600.0,
                "reminder events this often while waiting for help",
            )?,
            board: p.declare_string(
                "board",
                "",
                "board file (config/boards/ name or path) whose registered placement moves the arm's positions; empty = none",
            )?,
        })
    }
}

/// The INFO event repeated every `remind_after_s` while the referee waits
/// for help (a person, or the simulated one, looks at the board again).
pub const HELP_REMINDER: &str = "help: still waiting for the board to show the expected position";

/// State of the turn loop that the services share.
struct Referee<B: Bus> {
    core: RefereeCore,
    game_file: String,
    params: RefereeParams,
    state_pub: Publisher<GameState>,
    event_pub: Publisher<GameEvent>,
    planner: ActionClient<PlanMove>,
    plan: Option<(ClientGoal<PlanMove>, WaitKey)>,
    /// What the turn loop sleeps on.
    ws: WaitSet,
    /// When the goal in flight last gave a sign of life (sent, feedback).
    plan_heard: Instant,
    /// The ply for which a goal that got no answer at all was reported lost.
    planner_lost_reported: Option<usize>,
    /// The arm (with `arm: true`).
    executor: Option<ActionClient<ExecuteMove>>,
    /// The camera's observations (with `camera: true`).
    observations: Option<gamebot_ros::Subscription<BoardObservation>>,
    /// The camera's view of the game (rebuilt with every game).
    board: Option<VisionBoard>,
    /// The robot's move under way, if any.
    robot: Option<RobotTurn>,
    /// Judgement of a `camera` player's turn.
    person: PersonWatch,
    /// The latest stable observation, and when it arrived.
    seen: Option<(SeenBoard, Duration)>,
    /// When the last observation of any kind arrived; whether its absence was reported.
    camera_heard: Duration,
    camera_lost_reported: bool,
    /// When the referee started (for the flicker filter's clock).
    epoch: Duration,
    /// Game time: the system clock, or `/clock` under `use_sim_time`.
    clock: Clock,
    inference: InferenceConfig,
    /// RViz markers of the position (`/visualization_marker_array`).
    markers: crate::referee_markers::MarkerPublisher,
    _bus: std::marker::PhantomData<B>,
}

/// A move of the computer that the arm makes: what happens while it is under way.
struct RobotTurn {
    mv: Move,
    text: String,
    /// The position the move leads to (what the camera must show).
    expected: State,
    actions: Vec<ActionInfo>,
    stage: RobotStage,
    /// Corrective goals sent so far.
    corrections: u32,
    /// Of those, the ones the camera showed had carried nothing (the same
    /// corrections were needed again, from the same places).
    regrasps: Regrasps,
    /// The last corrections sent.
    last_corrections: Vec<Correction>,
    /// Corrections that took a piece from the turn-over station's exit.
    exit_tries: u32,
    /// The parts of the move not sent yet (with a camera, a move whose
    /// transfers rely on each other is sent in parts; see `move_parts`).
    parts: std::collections::VecDeque<MovePart>,
    /// What the camera must show once the part under way is done.
    then: Vec<Expectation>,
    /// How many parts the move has (1: sent in one goal).
    part_count: usize,
    /// The tidy-up goals sent since the move showed ([`TIDYING`]; at most
    /// [`TIDY_ROUNDS`]).
    tidy_rounds: u32,
}

/// The rounds of a move that carried nothing (the pieces slipped back where
/// they lay), counted per place a piece goes to: a move turning six discs
/// over makes thirteen transfers, and each may slip on its own.
#[derive(Debug, Default)]
struct Regrasps {
    /// All such rounds.
    total: u32,
    /// Those within the budget for every place they fill: they do not
    /// count against `correction_attempts`.
    free: u32,
    /// How often the piece for each place (location name) carried nothing.
    per_place: std::collections::BTreeMap<String, u32>,
}

impl Regrasps {
    /// A round that carried nothing to `places`: free when none of them has
    /// carried nothing more than `budget` times.
    fn record<'a>(&mut self, places: impl IntoIterator<Item = &'a str>, budget: u32) {
        self.total += 1;
        let mut free = true;
        for p in places {
            let n = self.per_place.entry(p.to_string()).or_insert(0);
            *n += 1;
            free &= *n <= budget;
        }
        if free {
            self.free += 1;
        }
    }
}

impl RobotTurn {
    /// Corrective goals that count against `correction_attempts`: all but
    /// the free regrasps. (A regrasp between a move's parts may be counted
    /// without a goal sent, when the attempts ran out: never below 0.)
    fn attempts(&self) -> u32 {
        self.corrections.saturating_sub(self.regrasps.free)
    }

    /// Drops the parts of the move not sent yet and waits to confirm the
    /// whole move (`report_at` after `timeout` without a stable view).
    fn confirm_whole_move(&mut self, now: Duration, timeout: Duration) {
        self.parts.clear();
        self.then.clear();
        self.stage = RobotStage::Confirming {
            since: now,
            mismatch: None,
            report_at: now + timeout,
        };
    }
}

/// The robot turn's states (see docs/ARCHITECTURE.md, the referee's turn loop).
enum RobotStage {
    /// A goal is in flight to `/arm/execute`.
    Executing {
        goal: gamebot_ros::ClientGoal<ExecuteMove>,
        key: WaitKey,
        deadline: Duration,
    },
    /// Waiting for `/arm/execute` to be served; then the goal of `resend`
    /// (actions, what it does), or the move.
    WaitingForArm {
        next_try: Duration,
        resend: Option<(Vec<ActionMsg>, String)>,
    },
    /// A part of the move is done; waiting for a stable observation that
    /// shows what the next part relies on (`RobotTurn::then`).
    Looking {
        since: Duration,
        /// Expectations seen broken, and since when (they must stay
        /// `illegal_after_s` before a transfer is made again).
        mismatch: Option<(Vec<Option<usize>>, Duration)>,
        report_at: Duration,
    },
    /// The arm is done; waiting for a stable observation that shows the expected board.
    Confirming {
        since: Duration,
        /// A mismatch seen, and since when (it must stay `illegal_after_s`).
        mismatch: Option<(Vec<Option<usize>>, Duration)>,
        report_at: Duration,
    },
    /// Asked the person for help; waiting until the board matches.
    WaitingForHelp { remind_at: Duration },
}

/// What a corrective goal does, in its `ARM_STARTED` event: the message
/// starts with [`ARM_STARTS`] and this.
pub const CORRECTING: &str = "correcting";

/// What the goal that re-seats pieces after the robot's move showed does,
/// in its `ARM_STARTED` event: a piece the move nudged more than
/// `reseat_mm` off its point is put back before the turn passes, so the arm
/// leaves the board tidy (after the last move of a game too, where no next
/// move of the arm would re-seat it); again while the camera still shows a
/// piece off, up to [`TIDY_ROUNDS`] goals.
pub const TIDYING: &str = "tidying up after";

/// How many tidy-up goals ([`TIDYING`]) one move may take: a re-seat's grasp
/// can slip too, leaving the piece where it lay, so the camera is looked at
/// again after each, and a piece still off its point is taken again (on the
/// board: bins and supplies get the first round only). After
/// the game's last move no later move re-seats it (a pentago soak game ended
/// with a marble 6.6 mm off its point when the one tidy-up slipped). Three:
/// a re-seat slipping three times in a row (0.15³ with the soaks' `slip`) is
/// left to the next move's re-seat; a piece the camera reads off its point
/// after every re-seat costs at most three short goals.
pub const TIDY_ROUNDS: u32 = 3;

/// Whether `l` names an irrelevant location of `game` (a supply or bin:
/// its pieces are alike).
fn is_supply(game: &gamebot_rules::Game, l: &str) -> bool {
    game.location_by_name(l)
        .is_some_and(|i| !game.is_relevant(i))
}

/// Whether the camera location `l` is one level of a stack (the camera sees
/// only its top); `None` when the board has no location `l`.
fn location_stacked(board: &VisionBoard, l: &str) -> Option<bool> {
    board
        .locations
        .iter()
        .find(|c| c.name == l)
        .map(|c| c.stacked)
}

/// Logs each re-seat of `out` (how far off its point the piece was seen),
/// after `why`.
fn log_reseats(why: &str, out: &[Correction]) {
    for c in out {
        let to = c.to_cm.unwrap_or_default();
        tracing::info!(
            "{why}re-seating {} seen {:.1} mm off {}",
            c.element,
            10.0 * (c.from_cm[0] - to[0]).hypot(c.from_cm[1] - to[1]),
            c.to_location
        );
    }
}

/// The start of every `ARM_STARTED` event's message.
pub const ARM_STARTS: &str = "the arm starts ";

/// A goal without feedback for this long (the planner sends some every
/// [`crate::planner_node::FEEDBACK_HEARTBEAT`] while it searches) is given
/// up and sent again once a planner is back: the planner died or restarted,
/// and a restarted planner knows nothing of the old goal.
const PLANNER_SILENT_AFTER: Duration = Duration::from_secs(3);

/// While the computer is to move and no planner answers yet, look again this often.
const PLANNER_RETRY: Duration = Duration::from_millis(100);

/// Runs the referee until `shutdown` is requested (or, with `stop_when_over`,
/// until the game ends).
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown, stop_when_over: bool) -> Result<(), NodeError> {
    let params = RefereeParams::declare(bus)?;
    let clock = crate::node_clock::node_clock(bus, Clock::real(), shutdown)?;
    let mut core = RefereeCore::load(&params.game_file, &params.player_kinds)?;
    if !params.board.is_empty() {
        let b = gamebot_kinematics::Board::load_named(&params.board)
            .map_err(|e| NodeError::Config(format!("referee board: {e}")))?;
        core.set_board(Some(b));
    }
    let submit = bus.service_server_on(&graph::SUBMIT_MOVE)?;
    let new_game = bus.service_server_on(&graph::NEW_GAME)?;
    let mut ws = WaitSet::new();
    ws.add(&submit);
    ws.add(&new_game);
    ws.add(shutdown);
    let executor = if params.arm {
        Some(bus.action_client_on(&graph::EXECUTE_MOVE)?)
    } else {
        None
    };
    let observations = if params.camera {
        let sub = bus.subscription_on(&graph::BOARD_OBSERVATION)?;
        ws.add(&sub);
        Some(sub)
    } else {
        None
    };
    let board = if params.camera {
        Some(
            VisionBoard::from_game(core.game())
                .map_err(|e| NodeError::Config(format!("{}: {e}", params.game_file)))?,
        )
    } else {
        None
    };
    let mut r = Referee::<B> {
        core,
        game_file: params.game_file.clone(),
        params,
        state_pub: bus.publisher_on(&graph::GAME_STATE)?,
        event_pub: bus.publisher_on(&graph::GAME_EVENTS)?,
        planner: bus.action_client_on(&graph::PLAN_MOVE)?,
        plan: None,
        ws,
        plan_heard: Instant::now(),
        planner_lost_reported: None,
        executor,
        observations,
        board,
        robot: None,
        person: PersonWatch::default(),
        seen: None,
        camera_heard: clock.now(),
        camera_lost_reported: false,
        epoch: clock.now(),
        clock,
        inference: InferenceConfig::default(),
        markers: crate::referee_markers::MarkerPublisher::new(bus)?,
        _bus: std::marker::PhantomData,
    };
    tracing::info!(game = %r.game_file, "referee started");
    r.event(GameEvent::GAME_STARTED, None, "game started".into());
    r.publish_state();
    // Game time (the node clock: /clock under `use_sim_time`).
    let mut over_since: Option<Duration> = None;
    while !shutdown.is_requested() {
        // Human moves and new games.
        loop {
            match submit.try_recv() {
                Ok(req) => {
                    let text = req.request.r#move.clone();
                    let resp = r.submit(&text, req.request.game_number);
                    if let Err(e) = req.respond(resp) {
                        tracing::warn!("submit_move: could not answer: {e}");
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            }
        }
        loop {
            match new_game.try_recv() {
                Ok(req) => {
                    let resp = r.new_game(&req.request.game_file, &req.request.player_kinds);
                    if let Err(e) = req.respond(resp) {
                        tracing::warn!("new_game: could not answer: {e}");
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            }
        }
        let camera_deadline = r.drive_camera();
        let robot_deadline = r.drive_robot();
        let planner_deadline = if r.robot.is_none() {
            r.drive_planner()
        } else {
            None
        };
        let mut restart_at = None;
        if r.core.is_over() {
            if stop_when_over {
                break;
            }
            let since = *over_since.get_or_insert_with(|| r.clock.now());
            if r.params.restart_after_s >= 0.0 {
                let at = since + Duration::from_secs_f64(r.params.restart_after_s);
                if r.clock.now() >= at {
                    let kinds = r.params.player_kinds.clone();
                    r.new_game("", &kinds);
                    over_since = None;
                    continue;
                }
                restart_at = Some(at);
            }
        } else {
            over_since = None;
        }
        // The planner's deadlines are wall time (thinking, liveness); the
        // rest is game time on the node clock.
        let wall = |t: Option<Duration>| t.map(|t| r.clock.wall_deadline(t));
        r.ws.wait_until(earliest([
            planner_deadline,
            wall(restart_at),
            wall(camera_deadline),
            wall(robot_deadline),
        ]));
    }
    // A goal still in flight to the arm is cancelled, not left running.
    r.drop_robot();
    Ok(())
}

/// Waits up to `timeout` for a state on `sub` that satisfies `pred` (helper
/// for clients and tests); `None` on timeout or when the transport closed.
pub fn wait_for_state(
    sub: &gamebot_ros::Subscription<GameState>,
    timeout: Duration,
    mut pred: impl FnMut(&GameState) -> bool,
) -> Option<GameState> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match sub.recv_timeout(left) {
            Ok(s) if pred(&s) => return Some(s),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

fn point(p: Option<[f64; 3]>) -> Point {
    // Game files give centimetres; ROS uses metres.
    p.map(|[x, y, z]| Point {
        x: x / 100.0,
        y: y / 100.0,
        z: z / 100.0,
    })
    .unwrap_or_default()
}

fn action_msg(a: &ActionInfo) -> ActionMsg {
    let (kind, from_state, to_state) = match a.action {
        PhysicalAction::Transfer { .. } => (ActionMsg::TRANSFER, 0, 0),
        PhysicalAction::Flip {
            from_state,
            to_state,
            ..
        } => (ActionMsg::FLIP, from_state, to_state),
    };
    ActionMsg {
        kind,
        element: a.element.clone(),
        element_type: a.element_type.clone(),
        from_location: a.from_location.clone(),
        to_location: a.to_location.clone(),
        from_state,
        to_state,
        from_position: point(a.from_position),
        to_position: point(a.to_position),
        neighbours: a.neighbours.iter().map(|&p| point(Some(p))).collect(),
    }
}

impl<B: Bus> Referee<B> {
    fn phase(&self) -> u8 {
        if self.core.is_over() {
            return GameState::PHASE_GAME_OVER;
        }
        if let Some(t) = &self.robot {
            return match t.stage {
                RobotStage::Executing { .. } | RobotStage::WaitingForArm { .. } => {
                    GameState::PHASE_EXECUTING
                }
                RobotStage::Confirming { .. } | RobotStage::Looking { .. } => {
                    GameState::PHASE_CONFIRMING
                }
                RobotStage::WaitingForHelp { .. } => GameState::PHASE_WAITING_FOR_HELP,
            };
        }
        match self.core.kind_to_move() {
            PlayerKind::Human | PlayerKind::Camera => GameState::PHASE_WAITING_FOR_HUMAN,
            PlayerKind::Ai(_) => GameState::PHASE_PLANNING,
        }
    }

    fn publish_state(&mut self) {
        self.markers.publish(&self.core);
        let g = self.core.game();
        let st = self.core.state();
        let msg = GameState {
            game_name: g.name.clone(),
            game_file: self.game_file.clone(),
            game_number: self.core.game_number(),
            move_history: self.core.history().to_vec(),
            players: g.players.clone(),
            player_kinds: self.core.kinds().iter().map(|k| k.text()).collect(),
            current_player: st.player(),
            winner: st.outcome().code(),
            scores: st.scores().to_vec(),
            board: self
                .core
                .board()
                .into_iter()
                .map(|l| LocationState {
                    location: l.location,
                    location_type: l.location_type,
                    relevant: l.relevant,
                    element: l.element,
                    element_type: l.element_type,
                    element_state: l.element_state,
                    owner: l.owner,
                })
                .collect(),
            legal_moves: self.core.legal_texts(),
            phase: self.phase(),
            state_hash: st.hash(),
            ..Default::default()
        };
        if let Err(e) = self.state_pub.publish(&msg) {
            tracing::warn!("{}: {e}", graph::GAME_STATE.name);
        }
    }

    fn event(&self, kind: u8, played: Option<&Played>, message: String) {
        let msg = GameEvent {
            kind,
            game_number: self.core.game_number(),
            ply: self.core.history().len() as u32,
            player: played.map(|p| p.player).unwrap_or(self.core.player()),
            r#move: played
                .map(|p| crate::planner_node::move_msg(&p.text))
                .unwrap_or_default(),
            actions: played
                .map(|p| p.actions.iter().map(action_msg).collect())
                .unwrap_or_default(),
            winner: self.core.outcome().code(),
            message,
            ..Default::default()
        };
        if let Err(e) = self.event_pub.publish(&msg) {
            tracing::warn!("{}: {e}", graph::GAME_EVENTS.name);
        }
    }

    fn after_move(&mut self, played: &Played) {
        self.markers.moved(played);
        tracing::info!(ply = played.ply, player = played.player, "{}", played.text);
        self.event(
            GameEvent::MOVE_PLAYED,
            Some(played),
            format!("player {} played {}", played.player, played.text),
        );
        if self.core.is_over() {
            let text = match self.core.outcome().winner() {
                None => "draw".to_string(),
                Some(w) => format!("player {w} wins"),
            };
            tracing::info!("game over: {text}");
            self.event(GameEvent::GAME_OVER, None, text);
        }
        self.publish_state();
    }

    fn submit(&mut self, text: &str, game_number: u32) -> SubmitMoveResponse {
        let reject = |reason: String| SubmitMoveResponse {
            accepted: false,
            reason,
            ..Default::default()
        };
        if game_number != 0 && game_number != self.core.game_number() {
            return reject(format!(
                "game {game_number} is not the current game {}",
                self.core.game_number()
            ));
        }
        match self.core.kind_to_move() {
            PlayerKind::Human => {}
            PlayerKind::Camera => {
                return reject(format!(
                    "player {}'s moves are read from the camera: make the move on the board",
                    self.core.player()
                ))
            }
            PlayerKind::Ai(_) => {
                return reject(format!(
                    "player {} is played by the computer",
                    self.core.player()
                ))
            }
        }
        match self.core.submit(text) {
            Ok(p) => {
                self.after_move(&p);
                SubmitMoveResponse {
                    accepted: true,
                    reason: String::new(),
                    r#move: crate::planner_node::move_msg(&p.text),
                }
            }
            Err(e) => {
                let reason = e.to_string();
                self.event(GameEvent::MOVE_REJECTED, None, reason.clone());
                reject(reason)
            }
        }
    }

    /// Forgets the goal in flight (dropping its handle abandons it).
    fn drop_plan(&mut self) {
        if let Some((_, key)) = self.plan.take() {
            self.ws.remove(key);
        }
    }

    fn new_game(&mut self, file: &str, kinds: &[String]) -> NewGameResponse {
        self.drop_plan();
        self.drop_robot();
        self.person.reset();
        self.seen = None;
        let game = if file.is_empty() {
            None
        } else {
            match gamebot_rules::Game::load(file) {
                Ok(g) => Some(std::sync::Arc::new(g)),
                Err(e) => {
                    return NewGameResponse {
                        success: false,
                        message: e.to_string(),
                        game_number: self.core.game_number(),
                    }
                }
            }
        };
        match self.core.new_game(game, kinds) {
            Ok(n) => {
                if !file.is_empty() {
                    self.game_file = file.to_string();
                }
                if self.board.is_some() {
                    match VisionBoard::from_game(self.core.game()) {
                        Ok(b) => self.board = Some(b),
                        Err(e) => {
                            tracing::warn!("{}: the camera cannot follow: {e}", self.game_file)
                        }
                    }
                }
                self.event(GameEvent::GAME_STARTED, None, format!("game {n} started"));
                self.publish_state();
                NewGameResponse {
                    success: true,
                    message: String::new(),
                    game_number: n,
                }
            }
            Err(e) => NewGameResponse {
                success: false,
                message: e.to_string(),
                game_number: self.core.game_number(),
            },
        }
    }

    /// Asks the planner for the computer's move and plays the answer.
    /// Returns when the loop must look again even if nothing arrives: the
    /// planner-silence deadline of the goal in flight, or the retry while no
    /// planner is up.
    fn drive_planner(&mut self) -> Option<Instant> {
        if self.core.is_over() {
            return None;
        }
        let PlayerKind::Ai(strategy) = self.core.kind_to_move().clone() else {
            return None;
        };
        if self.plan.is_none() {
            if !self.planner.is_ready() {
                return Some(Instant::now() + PLANNER_RETRY);
            }
            let goal = PlanMoveGoal {
                game_file: self.game_file.clone(),
                move_history: self.core.history().to_vec(),
                strategy,
                time_budget_ms: self.params.time_budget_ms,
                seed: self
                    .params
                    .seed
                    .wrapping_add(self.core.history().len() as u64),
            };
            match self.planner.send_goal(goal, Duration::from_secs(5)) {
                Ok(h) => {
                    let key = self.ws.add(&h);
                    self.plan = Some((h, key));
                    self.plan_heard = Instant::now();
                    self.planner_lost_reported = None;
                }
                Err(e) => {
                    tracing::warn!("plan_move: {e}");
                    // A planner that took the goal and died before its
                    // answer arrived is as lost as one that goes silent
                    // later: said once per ply.
                    let ply = self.core.history().len();
                    if self.planner_lost_reported != Some(ply) {
                        self.planner_lost_reported = Some(ply);
                        self.event(
                            GameEvent::INFO,
                            None,
                            format!("planner lost while planning ply {ply}; the goal will be sent again ({e})"),
                        );
                    }
                    return Some(Instant::now() + PLANNER_RETRY);
                }
            }
        }
        let (handle, _) = self.plan.as_mut()?;
        let done = loop {
            match handle.try_next_event() {
                Ok(GoalEvent::Feedback(_)) => self.plan_heard = Instant::now(),
                Ok(GoalEvent::Done(r)) => break Some(r),
                Err(TryRecvError::Empty) => break None,
                Err(TryRecvError::Closed) => {
                    break Some(Err(gamebot_ros::BusError::GoalFinished {
                        action: graph::PLAN_MOVE.name.to_string(),
                    }))
                }
            }
        };
        let Some(outcome) = done else {
            let silent_at = self.plan_heard + PLANNER_SILENT_AFTER;
            if Instant::now() >= silent_at {
                let ply = self.core.history().len();
                tracing::warn!(
                    "{}: no word from the planner for {:?} while planning ply {ply}; sending the goal again when a planner answers",
                    graph::PLAN_MOVE.name,
                    PLANNER_SILENT_AFTER
                );
                self.event(
                    GameEvent::INFO,
                    None,
                    format!("planner lost while planning ply {ply}; the goal will be sent again"),
                );
                self.drop_plan();
                return Some(Instant::now());
            }
            return Some(silent_at);
        };
        self.drop_plan();
        match outcome {
            Ok(o)
                if o.status == GoalStatus::Succeeded
                    && o.result.success
                    && self.executor.is_some() =>
            {
                match self.start_robot(&o.result.r#move.text) {
                    Ok(()) => return Some(Instant::now()),
                    Err(e) => {
                        tracing::error!("planner move {} rejected: {e}", o.result.r#move.text);
                        self.event(
                            GameEvent::MOVE_REJECTED,
                            None,
                            format!("planner move rejected: {e}"),
                        );
                    }
                }
            }
            Ok(o) if o.status == GoalStatus::Succeeded && o.result.success => {
                match self.core.submit(&o.result.r#move.text) {
                    Ok(p) => {
                        self.after_move(&p);
                        // The next player may be the computer too: look again at once.
                        return Some(Instant::now());
                    }
                    Err(e) => {
                        // The reference declares the next player the winner when a computer move fails validation.
                        tracing::error!("planner move {} rejected: {e}", o.result.r#move.text);
                        self.event(
                            GameEvent::MOVE_REJECTED,
                            None,
                            format!("planner move rejected: {e}"),
                        );
                    }
                }
            }
            Ok(o) => tracing::warn!("planning ended with {:?}: {}", o.status, o.result.message),
            Err(e) => tracing::warn!("plan_move: {e}"),
        }
        // A failed plan is asked for again, not in a tight loop.
        Some(Instant::now() + PLANNER_RETRY)
    }
}

/// Converts a correction to a transfer for `/arm/execute`: from where the
/// piece was seen (table, z = 0) to its location's `robot=` point.
/// A piece to be turned over on its way is a FLIP from there to the
/// target, which [`crate::flip_station::through_station`] makes two
/// transfers: to the station's intake, and from its exit to the target.
fn correction_msg(c: &Correction) -> ActionMsg {
    ActionMsg {
        kind: if c.turn_over {
            ActionMsg::FLIP
        } else {
            ActionMsg::TRANSFER
        },
        element: c.element.clone(),
        element_type: c.element_type.clone(),
        from_location: c.from_location.clone(),
        to_location: c.to_location.clone(),
        from_state: 0,
        to_state: 0,
        from_position: point(Some([c.from_cm[0], c.from_cm[1], c.from_level_cm])),
        to_position: point(c.to_cm),
        // The camera sees where the piece lies, not a plan: no neighbours known.
        neighbours: Vec::new(),
    }
}

/// Since when the camera has shown `classes` without a change: `mismatch`
/// keeps the view first seen and when; a different view starts again at `now`.
fn seen_since(
    mismatch: &mut Option<(Vec<Option<usize>>, Duration)>,
    classes: &[Option<usize>],
    now: Duration,
) -> Duration {
    match mismatch {
        Some((b, at)) if b.as_slice() == classes => *at,
        _ => {
            *mismatch = Some((classes.to_vec(), now));
            now
        }
    }
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s.max(0.0))
}

impl<B: Bus> Referee<B> {
    /// Abandons the robot's move under way (a new game or shutdown).
    fn drop_robot(&mut self) {
        if let Some(t) = self.robot.take() {
            if let RobotStage::Executing { goal, key, .. } = t.stage {
                self.ws.remove(key);
                let _ = goal.cancel(Duration::from_millis(200));
            }
        }
    }

    /// The computer's move goes to the arm; it counts when the arm (and, with
    /// a camera, the camera) says it happened.
    fn start_robot(&mut self, text: &str) -> Result<(), crate::referee_core::RefereeError> {
        // The planner does not know which supply piece lies on top.
        let mv = self.core.top_of_stack(&self.core.find(text)?);
        let (expected, actions) = self.core.preview(&mv)?;
        self.robot = Some(RobotTurn {
            text: self.core.game().move_text(&mv),
            mv,
            expected,
            actions,
            stage: RobotStage::WaitingForArm {
                next_try: self.clock.now(),
                resend: None,
            },
            corrections: 0,
            regrasps: Regrasps::default(),
            last_corrections: Vec::new(),
            exit_tries: 0,
            parts: Default::default(),
            then: Vec::new(),
            part_count: 1,
            tidy_rounds: 0,
        });
        self.publish_state();
        Ok(())
    }

    fn robot_event(&self, kind: u8, actions: &[ActionMsg], message: String) {
        let Some(t) = &self.robot else { return };
        let msg = GameEvent {
            kind,
            game_number: self.core.game_number(),
            ply: self.core.history().len() as u32,
            player: self.core.player(),
            r#move: crate::planner_node::move_msg(&t.text),
            actions: actions.to_vec(),
            winner: self.core.outcome().code(),
            message,
            ..Default::default()
        };
        if let Err(e) = self.event_pub.publish(&msg) {
            tracing::warn!("{}: {e}", graph::GAME_EVENTS.name);
        }
    }

    /// Sends a goal to the arm: the move's actions, or corrective transfers.
    fn send_execute(&mut self, actions: Vec<ActionMsg>, what: &str) -> Option<Duration> {
        let Some(exec) = &self.executor else {
            return None;
        };
        let now = self.clock.now();
        if !exec.is_ready() {
            if let Some(t) = self.robot.as_mut() {
                t.stage = RobotStage::WaitingForArm {
                    next_try: now + PLANNER_RETRY,
                    resend: Some((actions, what.to_string())),
                };
            }
            return Some(now + PLANNER_RETRY);
        }
        let text = self
            .robot
            .as_ref()
            .map(|t| t.text.clone())
            .unwrap_or_default();
        // The arm parks after the move, so the camera sees the board uncovered.
        let mut with_park = actions.clone();
        with_park.push(ActionMsg {
            kind: ActionMsg::PARK,
            ..Default::default()
        });
        let goal = ExecuteMoveGoal {
            r#move: crate::planner_node::move_msg(&text),
            actions: with_park,
        };
        match exec.send_goal(goal, Duration::from_secs(5)) {
            Ok(h) => {
                let key = self.ws.add(&h);
                let deadline = now + secs(self.params.arm_timeout_s);
                self.robot_event(
                    GameEvent::ARM_STARTED,
                    &actions,
                    format!("{ARM_STARTS}{what} {text}"),
                );
                if let Some(t) = self.robot.as_mut() {
                    t.stage = RobotStage::Executing {
                        goal: h,
                        key,
                        deadline,
                    };
                }
                self.publish_state();
                Some(deadline)
            }
            Err(e) => {
                tracing::warn!("{}: {e}", graph::EXECUTE_MOVE.name);
                if let Some(t) = self.robot.as_mut() {
                    t.stage = RobotStage::WaitingForArm {
                        next_try: now + PLANNER_RETRY,
                        resend: Some((actions, what.to_string())),
                    };
                }
                Some(now + PLANNER_RETRY)
            }
        }
    }

    /// The robot's move: send, wait for the arm, then confirm (with a camera) or play.
    fn drive_robot(&mut self) -> Option<Duration> {
        let now = self.clock.now();
        let t = self.robot.as_mut()?;
        match &mut t.stage {
            RobotStage::WaitingForArm { next_try, resend } => {
                if now < *next_try {
                    return Some(*next_try);
                }
                if let Some((actions, what)) = resend.take() {
                    return self.send_execute(actions, &what);
                }
                let mut actions: Vec<ActionMsg> = t.actions.iter().map(action_msg).collect();
                // Pieces the camera sees off their points are put back first;
                // the move's own piece is picked where it lies.
                let reseat = self.reseat(&mut actions);
                let first = if reseat.is_empty() {
                    String::new()
                } else {
                    format!("re-seating {} piece(s), then ", reseat.len())
                };
                let mut all: Vec<ActionMsg> = reseat.iter().map(correction_msg).collect();
                all.extend(actions);
                // A FLIP goes through the board's turn-over station.
                let station = self.core.flip_station();
                let actions = crate::flip_station::through_station(all, station.as_ref());
                // With a camera, transfers that rely on an earlier one of the
                // move wait until the camera has seen that one done.
                let parts: Vec<MovePart> = match (&self.board, &self.observations) {
                    (Some(board), Some(_)) => crate::move_parts::split(actions, |l| {
                        board.locations.iter().any(|c| c.relevant && c.name == l)
                    }),
                    _ => vec![MovePart {
                        actions,
                        then: Vec::new(),
                    }],
                };
                let t = self.robot.as_mut().expect("robot turn");
                t.part_count = parts.len();
                t.parts = parts.into();
                self.send_next_part(&first)
            }
            RobotStage::Executing {
                goal,
                key,
                deadline,
            } => {
                let done = loop {
                    match goal.try_next_event() {
                        Ok(GoalEvent::Feedback(_)) => {}
                        Ok(GoalEvent::Done(r)) => break Some(r),
                        Err(TryRecvError::Empty) => break None,
                        Err(TryRecvError::Closed) => {
                            break Some(Err(gamebot_ros::BusError::GoalFinished {
                                action: graph::EXECUTE_MOVE.name.to_string(),
                            }))
                        }
                    }
                };
                let outcome = match done {
                    Some(o) => o,
                    None if now < *deadline => return Some(*deadline),
                    None => {
                        let _ = goal.cancel(Duration::from_millis(200));
                        Err(gamebot_ros::BusError::GoalFinished {
                            action: format!(
                                "{} (no result within {:.0} s)",
                                graph::EXECUTE_MOVE.name,
                                self.params.arm_timeout_s
                            ),
                        })
                    }
                };
                let key = *key;
                self.ws.remove(key);
                let ok = matches!(&outcome, Ok(o) if o.status == GoalStatus::Succeeded && o.result.success);
                let detail = match &outcome {
                    Ok(o) => format!("{:?}: {}", o.status, o.result.message),
                    Err(e) => e.to_string(),
                };
                if ok {
                    self.robot_event(GameEvent::ARM_DONE, &[], "the arm is done".into());
                } else {
                    tracing::warn!("the arm failed: {detail}");
                    self.robot_event(
                        GameEvent::ARM_FAILED,
                        &[],
                        format!("the arm failed: {detail}"),
                    );
                }
                if self.observations.is_some() {
                    // With a camera, the camera decides what happened (a failed
                    // goal may have moved the piece partly; corrections follow).
                    let t = self.robot.as_mut().expect("robot turn");
                    if ok && !t.parts.is_empty() {
                        // The next part waits for the camera to show what it
                        // relies on.
                        t.stage = RobotStage::Looking {
                            since: now,
                            mismatch: None,
                            report_at: now + secs(self.params.confirm_timeout_s),
                        };
                        return Some(now);
                    }
                    // After a failed goal the rest of the move is left to
                    // the corrections against the whole move.
                    t.confirm_whole_move(now, secs(self.params.confirm_timeout_s));
                    self.publish_state();
                    return Some(now);
                }
                if !ok {
                    let t = self.robot.as_ref().expect("robot turn");
                    let msg = format!(
                        "help: the arm could not make {}; please make it by hand — the game goes on",
                        t.text
                    );
                    self.robot_event(GameEvent::INFO, &[], msg);
                }
                self.commit_robot("made by the arm");
                Some(now)
            }
            RobotStage::Confirming { report_at, .. } | RobotStage::Looking { report_at, .. } => {
                if now >= *report_at {
                    *report_at = now + secs(self.params.confirm_timeout_s);
                    let at = *report_at;
                    let msg = format!(
                        "no stable view of the board {:.0} s after the arm's move; still waiting to confirm",
                        self.params.confirm_timeout_s
                    );
                    self.robot_event(GameEvent::INFO, &[], msg);
                    return Some(at);
                }
                Some(*report_at)
            }
            RobotStage::WaitingForHelp { remind_at } => {
                if now >= *remind_at {
                    *remind_at = now + secs(self.params.remind_after_s);
                    let at = *remind_at;
                    self.robot_event(GameEvent::INFO, &[], HELP_REMINDER.into());
                    return Some(at);
                }
                Some(*remind_at)
            }
        }
    }

    /// Sends the move's next part (`first`: what comes before it in the same
    /// goal, for the event).
    fn send_next_part(&mut self, first: &str) -> Option<Duration> {
        let t = self.robot.as_mut()?;
        let part = t.parts.pop_front()?;
        t.then = part.then;
        let what = if t.part_count > 1 {
            let k = t.part_count - t.parts.len();
            format!("{first}part {k} of {} of the move", t.part_count)
        } else {
            format!("{first}the move")
        };
        self.send_execute(part.actions, &what)
    }

    /// With a camera and `reseat_mm` > 0: the transfers that put back pieces
    /// the latest stable view shows more than `reseat_mm` off their points
    /// (locations the move touches aside), and the move's `actions` changed
    /// to pick a piece seen off its point where it lies.
    fn reseat(&self, actions: &mut [ActionMsg]) -> Vec<Correction> {
        let Some((seen, _)) = self.seen.as_ref() else {
            return Vec::new();
        };
        if self.observations.is_none() || self.params.reseat_mm <= 0.0 {
            return Vec::new();
        }
        let game = self.core.game();
        let reseat_cm = self.params.reseat_mm / 10.0;
        let unstacked_supply = |l: &str| {
            is_supply(game, l)
                && self
                    .board
                    .as_ref()
                    .is_some_and(|b| location_stacked(b, l) == Some(false))
        };
        let mut stand_ins: Vec<&str> = Vec::new();
        // A piece the move takes from where an earlier action put it lies
        // where that action put it.
        for k in 0..actions.len() {
            let from = actions[k].from_location.clone();
            if actions[..k].iter().any(|a| a.to_location == from) {
                continue;
            }
            // A supply spot the camera sees empty (its piece went elsewhere:
            // pieces of a supply are alike, and a person putting the board
            // right takes any): the seen piece of the type on the nearest
            // other free-standing supply spot the move does not touch.
            if unstacked_supply(&from) && !seen.pieces.iter().any(|p| p.location == from) {
                let a = &actions[k];
                let at = [a.from_position.x * 100.0, a.from_position.y * 100.0];
                let stand_in = self.board.as_ref().and_then(|b| {
                    seen.pieces
                        .iter()
                        .filter(|p| {
                            b.classes[p.class].name == a.element_type
                                && unstacked_supply(&p.location)
                                && !stand_ins.contains(&p.location.as_str())
                                && !actions.iter().any(|x| {
                                    x.from_location == p.location || x.to_location == p.location
                                })
                        })
                        .min_by(|x, y| {
                            let d = |p: &&crate::referee_eyes::SeenPiece| {
                                (p.table_cm[0] - at[0]).hypot(p.table_cm[1] - at[1])
                            };
                            d(x).total_cmp(&d(y))
                        })
                });
                if let Some(p) = stand_in {
                    tracing::info!(
                        "{from} is seen empty: the arm takes the {} seen on {}",
                        a.element_type,
                        p.location
                    );
                    stand_ins.push(&p.location);
                    let a = &mut actions[k];
                    a.from_position.x = p.table_cm[0] / 100.0;
                    a.from_position.y = p.table_cm[1] / 100.0;
                }
                continue;
            }
            if !game
                .location_by_name(&from)
                .is_some_and(|l| game.is_relevant(l))
            {
                continue;
            }
            let Some(p) = seen.pieces.iter().find(|p| p.location == from) else {
                continue;
            };
            let a = &mut actions[k];
            let off = (p.table_cm[0] - a.from_position.x * 100.0)
                .hypot(p.table_cm[1] - a.from_position.y * 100.0);
            if off > reseat_cm {
                tracing::info!(
                    "{} is seen {:.1} mm off {from}: the arm picks it where it lies",
                    a.element,
                    off * 10.0
                );
                a.from_position.x = p.table_cm[0] / 100.0;
                a.from_position.y = p.table_cm[1] / 100.0;
            }
        }
        let touched: Vec<&str> = actions
            .iter()
            .flat_map(|a| [a.from_location.as_str(), a.to_location.as_str()])
            .collect();
        let out = crate::referee_eyes::reseats(
            game,
            self.core.state(),
            seen,
            reseat_cm,
            &touched,
            &[],
            |l| self.core.robot_point(l),
        );
        log_reseats("", &out);
        out
    }

    /// Plays the robot's move once it is known to have happened.
    fn commit_robot(&mut self, how: &str) {
        let Some(t) = self.robot.take() else { return };
        match self.core.play(t.mv) {
            Ok(p) => {
                tracing::info!("{} {how}", p.text);
                self.after_move(&p);
            }
            Err(e) => tracing::error!("robot move {} could not be played: {e}", t.text),
        }
    }

    /// Reads observations; judges the latest stable one.
    fn drive_camera(&mut self) -> Option<Duration> {
        let sub = self.observations.as_ref()?;
        let now = self.clock.now();
        let mut latest = None;
        loop {
            match sub.try_recv() {
                Ok(o) => {
                    self.camera_heard = now;
                    if o.stable {
                        latest = Some(o);
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => break,
            }
        }
        if self.camera_lost_reported && self.camera_heard == now {
            self.camera_lost_reported = false;
            self.event(GameEvent::INFO, None, "the camera is back".into());
        }
        let lost_at = self.camera_heard + secs(self.params.camera_timeout_s);
        let needed = !self.core.is_over()
            && (self.robot.is_some() || self.core.kind_to_move() == &PlayerKind::Camera);
        if needed && now >= lost_at && !self.camera_lost_reported {
            self.camera_lost_reported = true;
            tracing::warn!(
                "no board observation for {:.1} s",
                self.params.camera_timeout_s
            );
            self.event(
                GameEvent::INFO,
                None,
                format!(
                    "camera lost: no board observation for {:.1} s; waiting for it",
                    self.params.camera_timeout_s
                ),
            );
        }
        let board = self.board.as_ref()?;
        if let Some(o) = latest {
            let seen = SeenBoard::from_pieces(
                board,
                o.pieces.iter().chain(&o.unassigned).map(|p| {
                    (
                        p.location.as_str(),
                        p.element_type.as_str(),
                        p.element_state,
                        [p.position.x * 100.0, p.position.y * 100.0],
                    )
                }),
            );
            self.seen = Some((seen, now));
        }
        let deadline = self.judge(now);
        earliest([
            deadline,
            (needed && !self.camera_lost_reported).then_some(lost_at),
        ])
    }

    /// Judges the latest stable observation for the turn under way.
    fn judge(&mut self, now: Duration) -> Option<Duration> {
        let (seen, seen_at) = self.seen.clone()?;
        let board = self.board.clone()?;
        let game = self.core.game().clone();
        let illegal_after = secs(self.params.illegal_after_s);
        let station = self.core.flip_station();
        if let Some(t) = self.robot.as_mut() {
            let c = check(&game, &board, &t.expected, &seen, station.is_some());
            match &mut t.stage {
                RobotStage::Confirming {
                    mismatch, since, ..
                } => {
                    if seen_at <= *since {
                        // Seen before the arm was done: not evidence of its move.
                        return None;
                    }
                    if c.confirmed() {
                        if t.tidy_rounds < TIDY_ROUNDS && self.params.reseat_mm > 0.0 {
                            t.tidy_rounds += 1;
                            // Where the move put pieces off the board (a
                            // capture into its bin): their neighbours there
                            // are tidied too, in the first round only. On a
                            // bin's stack the camera reads a top piece a few
                            // mm outward (its top face stands 2 cm up), so a
                            // second round there walked a piece inward off
                            // its stack (alquerque soak, session 22, game 90).
                            let put_at: Vec<[f64; 3]> = if t.tidy_rounds == 1 {
                                t.actions
                                    .iter()
                                    .filter_map(|a| game.location_by_name(&a.to_location))
                                    .filter(|&l| !game.is_relevant(l))
                                    .filter_map(|l| self.core.robot_point(l))
                                    .collect()
                            } else {
                                Vec::new()
                            };
                            let tidy = crate::referee_eyes::reseats(
                                &game,
                                &t.expected,
                                &seen,
                                self.params.reseat_mm / 10.0,
                                &[],
                                &put_at,
                                |l| self.core.robot_point(l),
                            );
                            if !tidy.is_empty() {
                                log_reseats("the move showed; ", &tidy);
                                let actions = tidy.iter().map(correction_msg).collect();
                                return self.send_execute(actions, TIDYING);
                            }
                        }
                        self.robot_event(
                            GameEvent::INFO,
                            &[],
                            "seen on the camera: the arm's move is confirmed".into(),
                        );
                        self.commit_robot("confirmed by the camera");
                        return Some(now);
                    }
                    // A mismatch must stay (the camera may still be settling).
                    let first = seen_since(mismatch, &seen.classes, now);
                    if now < first + illegal_after {
                        return Some(first + illegal_after);
                    }
                    let changes: Vec<String> = c.changes.iter().map(|x| x.to_string()).collect();
                    self.robot_event(
                        GameEvent::OBSERVATION_MISMATCH,
                        &[],
                        format!(
                            "the camera does not show the arm's move: {}",
                            changes.join(", ")
                        ),
                    );
                    let mut corrections = c.corrections;
                    let mut uncorrectable = c.uncorrectable;
                    let t = self.robot.as_mut()?;
                    // A disc the camera misses (one turned over this move and
                    // not back on its square, or one left from an earlier
                    // move) may lie at the station's exit, out of view.
                    let instead_of_supply = t.exit_tries < crate::flip_station::EXIT_TRIES;
                    let mut from_exit = 0;
                    let mut unseen = crate::flip_station::Unseen::default();
                    let supply = |l: &str| is_supply(&game, l);
                    if let Some(f) = station.as_ref() {
                        let flipped: Vec<String> = t
                            .actions
                            .iter()
                            .filter(|a| matches!(a.action, PhysicalAction::Flip { .. }))
                            .map(|a| a.from_location.clone())
                            .collect();
                        let expected = &t.expected;
                        let stacked = |l: &str| location_stacked(&board, l) == Some(true);
                        let missing = |l: &str| {
                            uncorrectable.iter().any(|u| u == l)
                                || corrections.iter().any(|k| k.to_location == l)
                        };
                        // The camera's count guesses (a stack's drift from the
                        // rules' count shows as a piece missed): trusted over a
                        // seen supply piece for the move's first look at the
                        // exit only.
                        unseen = crate::flip_station::Unseen {
                            pieces: crate::referee_eyes::unseen_pieces(
                                &board,
                                &visible_board(&game, &board, expected),
                                &seen,
                            ),
                            maybe_in_a_stack: t
                                .actions
                                .iter()
                                .filter(|a| matches!(a.action, PhysicalAction::Transfer { .. }))
                                .filter(|a| stacked(&a.from_location) && missing(&a.to_location))
                                .count(),
                            trusted: t.exit_tries == 0,
                        };
                        let content = |l: &str| expected.content(game.location_by_name(l)?);
                        let wants = |l: &str| {
                            let e = content(l)?;
                            Some(Correction {
                                element: game.elements[e as usize].name.clone(),
                                element_type: game.element_type_of(e).name.clone(),
                                from_location: String::new(),
                                from_cm: [0.0; 2],
                                from_level_cm: 0.0,
                                to_location: l.to_string(),
                                to_cm: game.locations[game.location_by_name(l)? as usize]
                                    .robot_cm(),
                                turn_over: false,
                            })
                        };
                        let same_kind = |a: &str, b: &str| match (content(a), content(b)) {
                            (Some(x), Some(y)) => {
                                game.element_type_of(x).name == game.element_type_of(y).name
                                    && expected.element_state(x) == expected.element_state(y)
                            }
                            _ => false,
                        };
                        from_exit = crate::flip_station::take_from_exit(
                            &mut corrections,
                            &mut uncorrectable,
                            &flipped,
                            unseen,
                            instead_of_supply,
                            supply,
                            f,
                            wants,
                            same_kind,
                        );
                    }
                    // A correction that carried nothing (the piece slipped and
                    // fell back where it lay, so the same correction is needed
                    // again: at the exit too, where the camera cannot see it)
                    // is tried again on its own budget.
                    if crate::referee_eyes::repeats_all(&corrections, &t.last_corrections, &supply)
                    {
                        // Up to `regrasp_attempts` per place are free; the rest count.
                        let places: Vec<&str> =
                            corrections.iter().map(|k| k.to_location.as_str()).collect();
                        t.regrasps.record(places, self.params.regrasp_attempts);
                    }
                    let regrasps = t.regrasps.total;
                    let attempts = t.attempts();
                    if from_exit > 0 && attempts < self.params.correction_attempts {
                        t.exit_tries += 1;
                        tracing::warn!(
                            "the arm looks at the turn-over station's exit for {from_exit} disc(s){}",
                            match (unseen.pieces, unseen.maybe_in_a_stack) {
                                (0, _) => String::new(),
                                (n, 0) => format!(": the camera misses {n} piece(s)"),
                                (n, m) => format!(
                                    ": the camera misses {n} piece(s), {m} of them maybe slipped back onto a stack"
                                ),
                            }
                        );
                    }
                    if attempts < self.params.correction_attempts
                        && !corrections.is_empty()
                        && uncorrectable.is_empty()
                    {
                        if let Some(t) = self.robot.as_mut() {
                            t.corrections += 1;
                            t.last_corrections = corrections.clone();
                        }
                        for k in &corrections {
                            tracing::warn!(
                                "correcting: {} seen at ({:.1}, {:.1}) cm{} goes to {}{}",
                                k.element_type,
                                k.from_cm[0],
                                k.from_cm[1],
                                if k.from_location.is_empty() {
                                    " (on no location)".to_string()
                                } else {
                                    format!(" on {}", k.from_location)
                                },
                                k.to_location,
                                if k.turn_over {
                                    ", turned over at the station on the way"
                                } else {
                                    ""
                                }
                            );
                        }
                        let actions: Vec<ActionMsg> =
                            corrections.iter().map(correction_msg).collect();
                        let actions =
                            crate::flip_station::through_station(actions, station.as_ref());
                        return self.send_execute(actions, CORRECTING);
                    }
                    let why = if !uncorrectable.is_empty() {
                        format!("no piece to put on {}", uncorrectable.join(", "))
                    } else if regrasps > 0 {
                        format!(
                            "{attempts} correction(s) did not help; the piece slipped from the gripper {regrasps} time(s)"
                        )
                    } else {
                        format!("{attempts} correction(s) did not help")
                    };
                    let msg = format!(
                        "help: please put the board right ({}): {}",
                        changes.join(", "),
                        why
                    );
                    tracing::warn!("{msg}");
                    let remind_at = now + secs(self.params.remind_after_s);
                    if let Some(t) = self.robot.as_mut() {
                        t.stage = RobotStage::WaitingForHelp { remind_at };
                    }
                    self.robot_event(GameEvent::INFO, &[], msg);
                    self.publish_state();
                    return Some(remind_at);
                }
                RobotStage::Looking {
                    since, mismatch, ..
                } => {
                    if seen_at <= *since {
                        // Seen before the arm was done with the part.
                        return None;
                    }
                    let piece_seen = |l: &str| {
                        board
                            .locations
                            .iter()
                            .position(|c| c.name == l)
                            .is_some_and(|i| seen.classes[i].is_some())
                    };
                    let broken: Vec<Expectation> = crate::move_parts::unmet(&t.then, piece_seen)
                        .into_iter()
                        .cloned()
                        .collect();
                    if broken.is_empty() {
                        return self.send_next_part("");
                    }
                    // A broken expectation must stay (the camera may still be settling).
                    let first = seen_since(mismatch, &seen.classes, now);
                    if now < first + illegal_after {
                        return Some(first + illegal_after);
                    }
                    let lies_at = |l: &str| {
                        seen.pieces
                            .iter()
                            .find(|p| p.location == l)
                            .map(|p| p.table_cm)
                    };
                    let again: Vec<ActionMsg> =
                        broken.iter().filter_map(|e| e.redo(lies_at)).collect();
                    let said: Vec<String> = broken
                        .iter()
                        .map(|e| match e {
                            Expectation::Emptied { by } => {
                                format!("{} still shows {}", by.from_location, by.element_type)
                            }
                            Expectation::Filled { by } => {
                                format!("{} shows no {}", by.to_location, by.element_type)
                            }
                        })
                        .collect();
                    if again.is_empty() {
                        // The piece went astray on its way: the check of the
                        // whole move after the last part finds it.
                        tracing::warn!(
                            "between the parts of {}: {}; the piece is not where it was taken, the move goes on",
                            t.text,
                            said.join(", ")
                        );
                        return self.send_next_part("");
                    }
                    // The part carried nothing: a slip, tried again on the
                    // regrasps' budget.
                    let places: Vec<&str> = again.iter().map(|a| a.to_location.as_str()).collect();
                    t.regrasps.record(places, self.params.regrasp_attempts);
                    if t.attempts() >= self.params.correction_attempts {
                        // Out of attempts: the check of the whole move asks for help.
                        t.confirm_whole_move(now, secs(self.params.confirm_timeout_s));
                        return Some(now);
                    }
                    t.corrections += 1;
                    self.robot_event(
                        GameEvent::OBSERVATION_MISMATCH,
                        &[],
                        format!(
                            "between the parts of the arm's move the camera shows: {}; the arm takes it again",
                            said.join(", ")
                        ),
                    );
                    return self.send_execute(again, CORRECTING);
                }
                RobotStage::WaitingForHelp { .. } => {
                    // The person's hands put the board right; a piece left on
                    // no location off the board is not worth holding the game.
                    if c.board_right {
                        self.robot_event(
                            GameEvent::INFO,
                            &[],
                            "the board is right again: the move is confirmed".into(),
                        );
                        self.commit_robot("confirmed after help");
                        return Some(now);
                    }
                    return None;
                }
                _ => return None,
            }
        }
        if self.core.is_over() || self.core.kind_to_move() != &PlayerKind::Camera {
            return None;
        }
        let t = now.saturating_sub(self.epoch);
        let verdict = self.person.observe(
            &game,
            &board,
            self.core.state(),
            &seen.classes,
            t,
            illegal_after,
            &self.inference,
        );
        match verdict {
            Err(e) => {
                tracing::warn!("move inference: {e}");
                None
            }
            Ok(PersonVerdict::Nothing) => self
                .person
                .report_due(illegal_after)
                .map(|d| self.epoch + d),
            Ok(PersonVerdict::Play { moves, text, .. }) => {
                for mv in moves {
                    match self.core.play(mv) {
                        Ok(p) => {
                            tracing::info!("seen on the camera: {}", p.text);
                            self.after_move_seen(&p);
                        }
                        Err(e) => {
                            tracing::error!("inferred move {text} could not be played: {e}");
                            break;
                        }
                    }
                }
                Some(now)
            }
            Ok(PersonVerdict::AskFinish(msg)) => {
                self.event(GameEvent::INFO, None, msg);
                // A finished turn that only reads two ways is settled later.
                self.person
                    .report_due(illegal_after)
                    .map(|d| self.epoch + d)
            }
            Ok(PersonVerdict::Reject { message, .. }) => {
                tracing::info!("{message}");
                self.event(GameEvent::MOVE_REJECTED, None, message);
                None
            }
            Ok(PersonVerdict::Restored) => {
                self.event(
                    GameEvent::INFO,
                    None,
                    "the board shows the position again".into(),
                );
                None
            }
        }
    }

    /// Like `after_move`, for a move read from the camera.
    fn after_move_seen(&mut self, played: &Played) {
        self.event(
            GameEvent::INFO,
            Some(played),
            format!(
                "seen on the camera: player {} played {}",
                played.player, played.text
            ),
        );
        self.after_move(played);
    }
}

#[cfg(test)]
mod tests {
    use super::Regrasps;

    #[test]
    fn regrasps_are_free_up_to_the_budget_per_place() {
        let mut r = Regrasps::default();
        // Six discs slipping once or twice each: every round free.
        for place in ["b(1,1)", "b(2,2)", "b(3,3)", "b(1,1)", "b(2,2)", "b(3,3)"] {
            r.record([place], 2);
        }
        assert_eq!((r.total, r.free), (6, 6));
        // The third slip for b(1,1) counts, and so does a round with it in.
        r.record(["b(1,1)"], 2);
        r.record(["b(4,4)", "b(1,1)"], 2);
        assert_eq!((r.total, r.free), (8, 6));
        r.record(["b(4,4)"], 2);
        assert_eq!((r.total, r.free), (9, 7));
        // Budget 0: nothing is free.
        let mut none = Regrasps::default();
        none.record(["b(1,1)"], 0);
        assert_eq!((none.total, none.free), (1, 0));
    }
}
