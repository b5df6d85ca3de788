//! The referee node: runs the turn loop over any bus.
//!
//! The loop sleeps on one [`WaitSet`] holding the two service servers, the
//! goal in flight to the planner (while there is one) and the shutdown
//! request; the only deadlines are the planner-silence check, the retry
//! while no planner is up, and the automatic restart after a game. Idle
//! means asleep.

use crate::referee_core::{ActionInfo, Played, PlayerKind, RefereeCore};
use crate::NodeError;
use gamebot_interfaces::action::{PlanMove, PlanMoveGoal};
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::{GameEvent, GameState, LocationState, PhysicalAction as ActionMsg};
use gamebot_interfaces::srv::{NewGameResponse, SubmitMoveResponse};
use gamebot_ros::wait::{earliest, TryRecvError, WaitKey};
use gamebot_ros::{
    graph, ActionClient, Bus, ClientGoal, GoalEvent, GoalStatus, Publisher, Shutdown, WaitSet,
};
use gamebot_rules::PhysicalAction;
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
        })
    }
}

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
    /// RViz markers of the position (`/visualization_marker_array`).
    markers: crate::referee_markers::MarkerPublisher,
    _bus: std::marker::PhantomData<B>,
}

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
    let core = RefereeCore::load(&params.game_file, &params.player_kinds)?;
    let submit = bus.service_server_on(&graph::SUBMIT_MOVE)?;
    let new_game = bus.service_server_on(&graph::NEW_GAME)?;
    let mut ws = WaitSet::new();
    ws.add(&submit);
    ws.add(&new_game);
    ws.add(shutdown);
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
        markers: crate::referee_markers::MarkerPublisher::new(bus)?,
        _bus: std::marker::PhantomData,
    };
    tracing::info!(game = %r.game_file, "referee started");
    r.event(GameEvent::GAME_STARTED, None, "game started".into());
    r.publish_state();
    let mut over_since: Option<Instant> = None;
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
        let planner_deadline = r.drive_planner();
        let mut restart_at = None;
        if r.core.is_over() {
            if stop_when_over {
                break;
            }
            let since = *over_since.get_or_insert_with(Instant::now);
            if r.params.restart_after_s >= 0.0 {
                let at = since + Duration::from_secs_f64(r.params.restart_after_s);
                if Instant::now() >= at {
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
        r.ws.wait_until(earliest([planner_deadline, restart_at]));
    }
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
    }
}

impl<B: Bus> Referee<B> {
    fn phase(&self) -> u8 {
        if self.core.is_over() {
            GameState::PHASE_GAME_OVER
        } else if self.core.kind_to_move() == &PlayerKind::Human {
            GameState::PHASE_WAITING_FOR_HUMAN
        } else {
            GameState::PHASE_PLANNING
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
        if self.core.kind_to_move() != &PlayerKind::Human {
            return reject(format!(
                "player {} is played by the computer",
                self.core.player()
            ));
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
                }
                Err(e) => {
                    tracing::warn!("plan_move: {e}");
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
