//! One whole game of the simulated robot, start to end, and what happened in
//! it — the loop behind `gamebot play GAME --sim` and the closed-loop tests.
//!
//! [`SimGame::start`] starts a [`SimRobot`] (world, servo bridge, arm
//! controller), lets the embedder add its own nodes (web UI, recorder), then
//! starts `detector`, `planner` and `referee` (`arm: true`, `camera: true`).
//! [`SimGame::play`] follows `/game/state` and `/game/events` until the game
//! is over. On the opponent's turns it asks an [`OpponentTurn`] source for a
//! move and has the simulated person's hand make it in the world
//! (`/sim/human_move`); the referee still learns it only from the camera.
//!
//! The [`GameSummary`] it returns is built from two independent witnesses:
//! the referee's events (what was played, arm time, corrections, calls for
//! help) and the world itself — after every counted move the world's pieces
//! are compared, location by location, with the rule engine's position
//! ([`world_differences`]); `world_ok` is that comparison, never a node's word.

use crate::referee_node::{ARM_STARTS, CORRECTING, HELP_REMINDER};
use crate::sim_robot::SimRobot;
use crate::sim_world::WorldSnapshot;
use crate::{detector_node, planner_node, referee_node, NodeError};
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_interfaces::srv::{HumanMove, HumanMoveRequest, PutBoardRight, PutBoardRightRequest};
use gamebot_ros::inproc::InProcNode;
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Qos, ServiceClient, Subscription, WaitSet};
use gamebot_rules::{Game, State};
use gamebot_sim::WorldConfig;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a simulated game is set up.
#[derive(Debug, Clone)]
pub struct SimGameConfig {
    /// The game file.
    pub game_file: String,
    /// The arm's strategy (`gamebot_ai` spec).
    pub robot: String,
    /// The arm moves for every side (no opponent).
    pub robot_plays_both: bool,
    /// The world: arm, faults, seed, real-time factor.
    pub world: WorldConfig,
    /// The detector's camera calibration file.
    pub calibration: String,
    /// Referee seed.
    pub seed: u64,
    /// Give up (the game is reported unfinished) after this much wall time.
    pub wall_limit: Option<Duration>,
    /// The referee stays up after game over (a person starts the next game,
    /// e.g. from the web UI); otherwise it stops with the game.
    pub referee_stays: bool,
    /// The simulated person answers a call for help: the hand puts the
    /// board right (`/sim/put_board_right`) and the referee, seeing it on
    /// the camera, goes on; the call still counts as an intervention.
    /// Otherwise the game waits (as for a person who must do it).
    pub person_helps: bool,
    /// More referee parameters (name, value), after the ones the sim game
    /// sets (e.g. `regrasp_attempts`).
    pub referee_params: Vec<(String, ParamValue)>,
}

impl SimGameConfig {
    /// The arm (strategy `robot`) against an opponent, default world.
    pub fn new(game_file: &str, robot: &str) -> SimGameConfig {
        let world = WorldConfig::default();
        SimGameConfig {
            game_file: game_file.to_string(),
            robot: robot.to_string(),
            robot_plays_both: false,
            // The world's camera file, found as the world finds it (from
            // the current directory up, then the checkout).
            calibration: gamebot_kinematics::find_project_file(&world.camera)
                .display()
                .to_string(),
            world,
            seed: 1,
            wall_limit: None,
            referee_stays: false,
            person_helps: true,
            referee_params: Vec::new(),
        }
    }
}

/// What the opponent does on its turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpponentTurn {
    /// This move (its text); the simulated hand makes it.
    Move(String),
    /// Someone else makes the move (the web UI calls `/sim/human_move`).
    Elsewhere,
    /// Stop the game here.
    Quit,
}

/// What [`SimGame::play`] tells its embedder as the game goes on.
#[derive(Debug)]
pub enum Progress<'a> {
    /// An event of the referee.
    Event(&'a GameEvent),
    /// The opponent's move, about to be made by the hand.
    Opponent { player: i32, text: &'a str },
    /// The hand could not make it.
    HandRefused { text: &'a str, reason: &'a str },
    /// The referee asked for help and the simulated person put the board
    /// right for the robot's move `text` (or could not: `message` says why).
    PersonHelped {
        text: &'a str,
        accepted: bool,
        message: &'a str,
    },
    /// A counted move, with the world's verdict on it.
    Ply(&'a PlySummary),
}

/// One counted move.
#[derive(Debug, Clone, Serialize)]
pub struct PlySummary {
    /// 1-based.
    pub ply: u32,
    pub player: i32,
    #[serde(rename = "move")]
    pub text: String,
    /// `robot` (the arm made it) or `opponent` (the hand made it).
    pub by: &'static str,
    /// The referee counted it from the camera (it never counts the arm's word).
    pub seen: bool,
    /// The world matched the rule engine's position right after the move was counted.
    pub world_ok: bool,
    /// Simulated seconds the arm worked on this move (corrections included).
    pub arm_seconds: f64,
    /// Corrective arm goals the referee sent after a mismatch.
    pub corrections: u32,
    /// Mismatches between the camera and the expected position.
    pub mismatches: u32,
}

/// One whole game.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    pub game: String,
    pub game_file: String,
    pub arm: String,
    /// 0 draw, N player N wins, -1 unfinished.
    pub winner: i32,
    pub finished: bool,
    /// Why an unfinished game stopped.
    pub stopped: Option<String>,
    pub moves: Vec<PlySummary>,
    /// Times the referee had to ask the person for help.
    pub interventions: u32,
    /// Faults the world injected, by kind.
    pub faults_injected: BTreeMap<String, u32>,
    /// Injected faults the game got over without help: every injected fault
    /// when the game finished without an intervention and its final world
    /// matches the rules, otherwise 0. (A piece a fault left past the world
    /// check's 8 mm but where the camera still reads it on its location —
    /// re-seated before the arm's next move — makes that move's `world_ok`
    /// false, not the game's faults unrecovered.)
    pub faults_recovered: u32,
    /// The final world equals the rule engine's replay of the move history.
    pub final_world_ok: bool,
    /// What differs, if anything (world against rules), after each bad move.
    pub differences: Vec<String>,
    /// Simulated and wall-clock seconds of the game.
    pub sim_seconds: f64,
    pub wall_seconds: f64,
    /// The bag the recorder wrote, when known.
    pub bag: Option<String>,
}

/// A running simulated game.
pub struct SimGame {
    robot: SimRobot,
    game: Arc<Game>,
    config: SimGameConfig,
    kinds: Vec<String>,
    client: InProcNode,
    states: Subscription<GameState>,
    events: Subscription<GameEvent>,
    hand: ServiceClient<HumanMove>,
    help: ServiceClient<PutBoardRight>,
    /// Messages of a newer game that ended the previous [`SimGame::play`]
    /// (a new game started from the web UI): the next `play` starts with them.
    backlog_events: Vec<GameEvent>,
    backlog_states: Vec<GameState>,
}

impl SimGame {
    /// Starts the robot; `extra` adds the embedder's nodes (before the
    /// referee starts, so they see the game from its first message); then
    /// the detector, planner and referee.
    pub fn start(
        config: SimGameConfig,
        extra: impl FnOnce(&mut SimRobot) -> Result<(), NodeError>,
    ) -> Result<SimGame, NodeError> {
        let mut robot = SimRobot::start(&config.game_file, config.world.clone())?;
        let game = robot.game().clone();
        // The embedder's view, subscribed before the referee publishes anything.
        let client = robot.bus().node(NodeOptions::new("sim_game"))?;
        let states = client.subscription_on(&graph::GAME_STATE)?;
        let events =
            client.subscription::<GameEvent>(graph::GAME_EVENTS.name, Qos::reliable(1000))?;
        let hand = client.service_client_on(&graph::SIM_HUMAN_MOVE)?;
        let help = client.service_client_on(&graph::SIM_PUT_BOARD_RIGHT)?;
        extra(&mut robot)?;
        let kinds: Vec<String> = (1..=game.player_count())
            .map(|p| {
                if p == 1 || config.robot_plays_both {
                    format!("ai:{}", config.robot)
                } else {
                    "camera".to_string()
                }
            })
            .collect();
        robot.spawn(
            NodeOptions::new("detector")
                .param("game_file", ParamValue::String(config.game_file.clone()))
                .param(
                    "calibration",
                    ParamValue::String(config.calibration.clone()),
                ),
            detector_node::run,
        )?;
        robot.spawn(NodeOptions::new("planner"), planner_node::run)?;
        let stays = config.referee_stays;
        let mut referee = NodeOptions::new("referee")
            .param("game_file", ParamValue::String(config.game_file.clone()))
            .param("player_kinds", ParamValue::StringArray(kinds.clone()))
            .param("seed", ParamValue::Integer(config.seed as i64))
            // The world's board: its placement and turn-over station.
            .param("board", ParamValue::String(config.world.board.clone()))
            .param("arm", ParamValue::Bool(true))
            .param("camera", ParamValue::Bool(true));
        for (name, value) in &config.referee_params {
            referee = referee.param(name, value.clone());
        }
        robot.spawn(referee, move |n, s| referee_node::run(n, s, !stays))?;
        Ok(SimGame {
            robot,
            game,
            config,
            kinds,
            client,
            states,
            events,
            hand,
            help,
            backlog_events: Vec::new(),
            backlog_states: Vec::new(),
        })
    }

    /// The robot (its world probe, clock, bus).
    pub fn robot(&self) -> &SimRobot {
        &self.robot
    }

    /// The game being played.
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The referee's player kinds (`ai:…` for the arm, `camera` for the opponent).
    pub fn player_kinds(&self) -> &[String] {
        &self.kinds
    }

    /// Plays the game to its end (or until `opponent` quits, the wall-time
    /// limit passes, a node fails or shutdown is requested).
    pub fn play(
        &mut self,
        opponent: &mut dyn FnMut(&Game, &GameState) -> OpponentTurn,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Result<GameSummary, NodeError> {
        let game = self.game.clone();
        let clock = self.robot.clock().clone();
        let stop = self.robot.shutdown().clone();
        let places: BTreeMap<String, [f64; 3]> = self
            .robot
            .places()
            .iter()
            .filter_map(|(n, p)| p.map(|p| (n.clone(), p)))
            .collect();
        let mut ws = WaitSet::new();
        ws.add(&self.states);
        ws.add(&self.events);
        ws.add(&stop);
        let wall0 = Instant::now();
        let sim0 = clock.now();
        let deadline = self.config.wall_limit.map(|d| wall0 + d);
        let mut summary = GameSummary {
            game: game.name.clone(),
            game_file: self.config.game_file.clone(),
            arm: self.robot.arm_name().to_string(),
            winner: -1,
            finished: false,
            stopped: None,
            moves: Vec::new(),
            interventions: 0,
            faults_injected: BTreeMap::new(),
            faults_recovered: 0,
            final_world_ok: false,
            differences: Vec::new(),
            sim_seconds: 0.0,
            wall_seconds: 0.0,
            bag: None,
        };
        let mut rules: State = game.initial_state();
        let mut last: Option<GameState> = None;
        let mut last_phase: Option<u8> = None;
        let mut handled_ply: Option<usize> = None;
        // The arm's work on the move under way: start of the current goal,
        // seconds so far, goals sent, mismatches.
        let mut arm_since: Option<Duration> = None;
        let mut arm_seconds = 0.0;
        // Goals of the arm that corrected its move (not the move's parts).
        let mut corrective_goals = 0u32;
        let mut mismatches = 0u32;
        // The robot's move the referee is making or confirming (every event
        // about the arm's work names it).
        let mut robot_move: Option<String> = None;
        let mut game_number: Option<u32> = None;
        // Ended by a newer game: the world now holds that game's set-up.
        let mut replaced = false;
        // The call for help the simulated person is answering.
        let mut helping: Option<Helping> = None;
        // Since when (sim time) the hand has refused the opponent's move at a ply.
        let mut refused_since: Option<(usize, Duration)> = None;
        // Why the simulated person gave up on a call for help, once it did.
        let mut help_given_up: Option<String> = None;
        // A node was seen stopped: one more pass over what arrived.
        let mut stopped_seen = false;
        loop {
            if let Some(why) = help_given_up.take() {
                summary.stopped = Some(why);
                break;
            }
            if stop.is_requested() {
                summary.stopped = Some("shutdown requested".into());
                break;
            }
            if self.robot.any_stopped() {
                // The referee ends on its own right after publishing game
                // over: read what the nodes sent before calling the game
                // stopped (once; a soak game ended so was counted stopped).
                if stopped_seen {
                    summary.stopped = Some(format!(
                        "node {} stopped (see the log)",
                        self.robot.stopped_nodes().join(", ")
                    ));
                    break;
                }
                stopped_seen = true;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                summary.stopped = Some(format!(
                    "no end after {:.0} s of wall time",
                    wall0.elapsed().as_secs_f64()
                ));
                break;
            }
            // Wakes on a message; the bound only re-checks the nodes' health.
            ws.wait_timeout(Duration::from_millis(500));
            let mut events = std::mem::take(&mut self.backlog_events);
            events.extend(self.events.drain());
            let mut events = events.into_iter();
            while let Some(e) = events.next() {
                if game_number.is_some_and(|g| e.game_number > g) {
                    // A newer game (started from the web UI): this one ends
                    // here; the next `play` follows the new one.
                    self.backlog_events.push(e);
                    self.backlog_events.extend(events.by_ref());
                    break;
                }
                if game_number.is_some_and(|g| g != e.game_number) {
                    continue;
                }
                report(Progress::Event(&e));
                match e.kind {
                    GameEvent::GAME_STARTED => game_number = Some(e.game_number),
                    GameEvent::ARM_STARTED => {
                        arm_since = Some(clock.now());
                        if e.message
                            .strip_prefix(ARM_STARTS)
                            .is_some_and(|m| m.starts_with(CORRECTING))
                        {
                            corrective_goals += 1;
                        }
                        robot_move = Some(e.r#move.text.clone());
                    }
                    GameEvent::ARM_DONE | GameEvent::ARM_FAILED => {
                        if let Some(t) = arm_since.take() {
                            arm_seconds += clock.now().saturating_sub(t).as_secs_f64();
                        }
                    }
                    GameEvent::OBSERVATION_MISMATCH => mismatches += 1,
                    // The referee still waits: what the hand did was not
                    // enough (a piece put down a little off, on another). A
                    // person reminded looks again.
                    GameEvent::INFO if e.message.starts_with(HELP_REMINDER) => {
                        if let Some(h) = helping.as_mut().filter(|h| h.looks < PERSON_LOOKS) {
                            h.looks += 1;
                            tracing::warn!(
                                "the referee still waits for help: the simulated person looks again ({} of {PERSON_LOOKS})",
                                h.looks
                            );
                            let (text, ply) = (h.text.clone(), h.ply);
                            self.person_helps(&text, ply, report)?;
                        } else if let Some(h) = &helping {
                            // Looked every time and the board is still not
                            // what the referee waits for: nothing the simulated
                            // person does will change that.
                            let snap = self.robot.probe().snapshot();
                            help_given_up = Some(format!(
                                "the referee still waits for help with {} after the simulated person looked {PERSON_LOOKS} times; the world: {}",
                                h.text,
                                stray_pieces(&snap, self.robot.places())
                            ));
                        }
                    }
                    GameEvent::MOVE_PLAYED => {
                        let text = e.r#move.text.clone();
                        let by_robot = self
                            .kinds
                            .get((e.player.max(1) - 1) as usize)
                            .is_some_and(|k| k.starts_with("ai:"));
                        let applied = game
                            .find_move(&rules, &text)
                            .and_then(|mv| game.apply(&mut rules, &mv).map(|_| ()));
                        if let Err(err) = applied {
                            return Err(NodeError::Config(format!(
                                "the referee played {text}, which the rules refuse: {err}"
                            )));
                        }
                        let snap = self.robot.probe().snapshot();
                        let diff = world_differences(&game, &rules, &snap, &places, ON_LOCATION_MM);
                        let ply = PlySummary {
                            ply: e.ply,
                            player: e.player,
                            text,
                            by: if by_robot { "robot" } else { "opponent" },
                            // With `camera: true` the referee counts a move only
                            // from a stable camera observation.
                            seen: true,
                            world_ok: diff.is_empty(),
                            arm_seconds: if by_robot { arm_seconds } else { 0.0 },
                            corrections: if by_robot { corrective_goals } else { 0 },
                            mismatches,
                        };
                        for d in diff {
                            summary
                                .differences
                                .push(format!("after ply {}: {d}", e.ply));
                        }
                        report(Progress::Ply(&ply));
                        summary.moves.push(ply);
                        arm_seconds = 0.0;
                        corrective_goals = 0;
                        mismatches = 0;
                    }
                    _ => {}
                }
            }
            let mut states = std::mem::take(&mut self.backlog_states);
            states.extend(self.states.drain());
            for s in states {
                if game_number.is_some_and(|g| s.game_number > g) {
                    self.backlog_states.push(s);
                    continue;
                }
                if game_number.is_some_and(|g| g != s.game_number) {
                    continue;
                }
                if s.phase == GameState::PHASE_WAITING_FOR_HELP
                    && last_phase != Some(GameState::PHASE_WAITING_FOR_HELP)
                {
                    summary.interventions += 1;
                    // What the world really looks like when a person is asked
                    // for help, against the position the referee waits for:
                    // for the log of an unattended run.
                    let snap = self.robot.probe().snapshot();
                    let waited_for = robot_move
                        .as_deref()
                        .and_then(|t| {
                            let mut after = rules.clone();
                            let mv = game.find_move(&after, t).ok()?;
                            game.apply(&mut after, &mv).ok()?;
                            Some(after)
                        })
                        .unwrap_or_else(|| rules.clone());
                    let diff =
                        world_differences(&game, &waited_for, &snap, &places, ON_LOCATION_MM);
                    tracing::warn!(
                        "asked for help; the world: {}; against the position after {}: {}",
                        stray_pieces(&snap, self.robot.places()),
                        robot_move.as_deref().unwrap_or("the last move"),
                        if diff.is_empty() {
                            "no difference".to_string()
                        } else {
                            diff.join("; ")
                        }
                    );
                    if self.config.person_helps {
                        let text = robot_move.clone().unwrap_or_default();
                        let ply = s.move_history.len() as u32 + 1;
                        self.person_helps(&text, ply, report)?;
                        helping = Some(Helping {
                            text,
                            ply,
                            looks: 1,
                        });
                    }
                }
                if s.phase != GameState::PHASE_WAITING_FOR_HELP {
                    helping = None;
                }
                last_phase = Some(s.phase);
                last = Some(s);
            }
            if !self.backlog_events.is_empty() || !self.backlog_states.is_empty() {
                let newer = self
                    .backlog_events
                    .iter()
                    .map(|e| e.game_number)
                    .chain(self.backlog_states.iter().map(|s| s.game_number))
                    .max()
                    .unwrap_or_default();
                summary.stopped = Some(format!("game {newer} was started"));
                replaced = true;
                break;
            }
            let Some(st) = &last else { continue };
            if st.phase == GameState::PHASE_GAME_OVER {
                // Every MOVE_PLAYED precedes the final state; count the last ones.
                if summary.moves.len() < st.move_history.len() {
                    continue;
                }
                summary.finished = true;
                summary.winner = st.winner;
                break;
            }
            let p = st.current_player;
            let ply = st.move_history.len();
            let opp_turn = p >= 1
                && st
                    .player_kinds
                    .get(p as usize - 1)
                    .is_some_and(|k| k == "camera")
                && st.phase == GameState::PHASE_WAITING_FOR_HUMAN;
            if !opp_turn || handled_ply == Some(ply) {
                continue;
            }
            match opponent(&game, st) {
                OpponentTurn::Quit => {
                    summary.stopped = Some("the opponent quit".into());
                    break;
                }
                OpponentTurn::Elsewhere => {
                    handled_ply = Some(ply);
                }
                OpponentTurn::Move(text) => {
                    report(Progress::Opponent {
                        player: p,
                        text: &text,
                    });
                    let r = self.hand.call(
                        HumanMoveRequest {
                            r#move: text.clone(),
                            cover_seconds: 0.5,
                            ply: ply as u32 + 1,
                        },
                        Duration::from_secs(30),
                    )?;
                    if r.accepted {
                        handled_ply = Some(ply);
                        refused_since = None;
                    } else {
                        report(Progress::HandRefused {
                            text: &text,
                            reason: &r.message,
                        });
                        // A hand busy with help refuses for a while; one that
                        // cannot make any move (no piece of the type left on
                        // a supply) would refuse for ever.
                        let now = clock.now();
                        let since = match refused_since {
                            Some((p, t)) if p == ply => t,
                            _ => {
                                refused_since = Some((ply, now));
                                now
                            }
                        };
                        if now.saturating_sub(since) >= HAND_GIVES_UP_AFTER {
                            // Where the pieces that lie on no location are,
                            // for the log of an unattended run.
                            let snap = self.robot.probe().snapshot();
                            summary.stopped = Some(format!(
                                "the simulated person could not make a move for {:.0} s of sim time (ply {}): {}; the world: {}",
                                HAND_GIVES_UP_AFTER.as_secs_f64(),
                                ply + 1,
                                r.message,
                                stray_pieces(&snap, self.robot.places())
                            ));
                            break;
                        }
                    }
                }
            }
        }
        let snap = self.robot.probe().snapshot();
        if !replaced {
            let diff = world_differences(&game, &rules, &snap, &places, ON_LOCATION_MM);
            summary.final_world_ok = diff.is_empty();
            for d in diff {
                summary.differences.push(format!("at the end: {d}"));
            }
        }
        summary.faults_injected = snap
            .faults
            .iter()
            .map(|(k, n)| (k.as_str().to_string(), *n))
            .collect();
        let injected: u32 = summary.faults_injected.values().sum();
        summary.faults_recovered =
            if summary.finished && summary.final_world_ok && summary.interventions == 0 {
                injected
            } else {
                0
            };
        summary.sim_seconds = clock.now().saturating_sub(sim0).as_secs_f64();
        summary.wall_seconds = wall0.elapsed().as_secs_f64();
        Ok(summary)
    }

    /// The simulated person puts the board right for `text` (the robot move
    /// the referee waits for, at `ply`): `/sim/put_board_right`.
    fn person_helps(
        &mut self,
        text: &str,
        ply: u32,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), NodeError> {
        let r = self.help.call(
            PutBoardRightRequest {
                r#move: text.to_string(),
                ply,
            },
            Duration::from_secs(30),
        )?;
        tracing::warn!(
            "the simulated person {} the board right for {text}: {}",
            if r.accepted { "put" } else { "could not put" },
            r.message
        );
        report(Progress::PersonHelped {
            text,
            accepted: r.accepted,
            message: &r.message,
        });
        Ok(())
    }

    /// The referee's client node (to call services from the embedder).
    pub fn client(&self) -> &InProcNode {
        &self.client
    }

    /// Stops every node; returns the first node error.
    pub fn stop(self) -> Result<(), NodeError> {
        self.robot.stop()
    }
}

/// A call for help the simulated person is answering: the robot move the
/// referee waits for, its ply, and how many times the person looked.
struct Helping {
    text: String,
    ply: u32,
    looks: u32,
}

/// The simulated person gives up (the game stops, unfinished, saying why)
/// when the hand has refused every move of one turn for this long.
const HAND_GIVES_UP_AFTER: Duration = Duration::from_secs(120);

/// How many times the simulated person looks at one call for help (the
/// first time, then at the referee's reminders).
const PERSON_LOOKS: u32 = 3;

/// How far (mm, horizontally) from a location's point a piece may lie and
/// still count as on it in the closed loop's world check: the simulated
/// person puts pieces down up to 4 mm off in each axis (5.7 mm diagonally),
/// and the referee rightly accepts what the camera sees on the square. The
/// arm's own accuracy is checked at 5 mm by `sim_execute`.
pub const ON_LOCATION_MM: f64 = 8.0;

/// The pieces lying farther than [`ON_LOCATION_MM`] from every place (or
/// held), each with its nearest place: what a person would have to put right.
pub fn stray_pieces(world: &WorldSnapshot, places: &[(String, Option<[f64; 3]>)]) -> String {
    let mut out = Vec::new();
    for p in &world.pieces {
        if p.held {
            out.push(format!("{} is held", p.name));
            continue;
        }
        let nearest = places
            .iter()
            .filter_map(|(n, at)| {
                at.map(|a| {
                    let d = 1000.0 * (a[0] - p.position[0]).hypot(a[1] - p.position[1]);
                    (d, n)
                })
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((d, n)) = nearest.filter(|(d, _)| *d > ON_LOCATION_MM) {
            out.push(format!(
                "{} ({}) at ({:.1}, {:.1}) cm, {d:.1} mm from {n}",
                p.name,
                p.element_type,
                100.0 * p.position[0],
                100.0 * p.position[1]
            ));
        }
    }
    if out.is_empty() {
        "every piece lies on a location".to_string()
    } else {
        out.join("; ")
    }
}

/// Whether the camera tells the states of element type `ty` apart: two or
/// more colour signatures of it, or a game without any (as
/// `visible_state_change`); not a counter kept in a piece (reversi's pass
/// token), whose state changes in the rules, not on the table.
pub fn shows_state(game: &Game, ty: &str) -> bool {
    game.realboard.is_empty() || game.realboard.iter().filter(|r| r.name == ty).count() >= 2
}

/// What differs between the world and the rule engine's position, location
/// by location: the (element type, state) of the pieces lying within
/// `tolerance_mm` of each location that has a place on the table, and of the
/// pieces lying elsewhere against those the rules keep on locations with no
/// place (supplies off the table). Element identity is not compared: the
/// camera cannot tell two pieces of one type apart, and the simulated person
/// may take any piece of the right type. Locations of a `relevant=no` type
/// (supplies, bins: interchangeable places, as the rules language defines
/// them) are compared as one pool per location type, since a person may take
/// the piece from any of them. Carried pieces count as elsewhere. States are
/// compared for types whose states the camera tells apart (two or more
/// colour signatures, or a game without any), not for counters kept in a
/// piece.
pub fn world_differences(
    game: &Game,
    rules: &State,
    world: &WorldSnapshot,
    places: &BTreeMap<String, [f64; 3]>,
    tolerance_mm: f64,
) -> Vec<String> {
    type Bag = BTreeMap<(String, i32), u32>;
    const OFF: &str = "(off the board)";
    const SAME_SPOT_MM: f64 = 2.0;
    // The key a location is compared under: itself, or its type's pool.
    let pools: BTreeMap<&str, String> = game
        .locations
        .iter()
        .filter(|l| !game.location_types[l.location_type].relevant)
        .map(|l| {
            (
                l.name.as_str(),
                format!("(any {})", game.location_types[l.location_type].name),
            )
        })
        .collect();
    let own_key =
        |name: &str| -> String { pools.get(name).cloned().unwrap_or_else(|| name.to_string()) };
    // Locations on the same spot (mill's bin slot k lies on supply slot k)
    // cannot be told apart by where a piece lies: their keys are merged.
    let mut merged: BTreeMap<String, String> = BTreeMap::new();
    {
        let canon = |k: &str, merged: &BTreeMap<String, String>| -> String {
            let mut k = k.to_string();
            while let Some(n) = merged.get(&k).filter(|n| **n != k) {
                k = n.clone();
            }
            k
        };
        let spots: Vec<(&String, &[f64; 3])> = places.iter().collect();
        for (i, (a, pa)) in spots.iter().enumerate() {
            for (b, pb) in &spots[i + 1..] {
                if 1000.0 * (pa[0] - pb[0]).hypot(pa[1] - pb[1]) > SAME_SPOT_MM {
                    continue;
                }
                let (ka, kb) = (canon(&own_key(a), &merged), canon(&own_key(b), &merged));
                if ka != kb {
                    let (lo, hi) = if ka < kb { (ka, kb) } else { (kb, ka) };
                    merged.insert(hi, lo);
                }
            }
        }
        let roots: Vec<String> = merged.keys().cloned().collect();
        let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for k in roots {
            let root = canon(&k, &merged);
            names
                .entry(root.clone())
                .or_insert_with(|| vec![root])
                .push(k);
        }
        merged = names
            .into_values()
            .flat_map(|mut group| {
                group.sort();
                let joined = group.join(" = ");
                group.into_iter().map(move |k| (k, joined.clone()))
            })
            .collect();
    }
    let key_of = |name: &str| -> String {
        let k = own_key(name);
        merged.get(&k).cloned().unwrap_or(k)
    };
    // A piece's state is compared only when the camera can tell its type's
    // states apart (as `visible_state_change`): a counter kept in a piece
    // (reversi's pass token) changes in the rules, not on the table.
    let seen_state = |ty: &str, s: i32| if shows_state(game, ty) { s } else { 0 };
    let mut want: BTreeMap<String, Bag> = BTreeMap::new();
    for (e, el) in game.elements.iter().enumerate() {
        let l = rules.location_of(e as u16);
        if !gamebot_rules::on_table(game, l) {
            // Bookkeeping (a turn counter on a spot the camera does not
            // watch): no body in the world.
            continue;
        }
        let name = game.locations[l as usize].name.as_str();
        let key = if places.contains_key(name) {
            key_of(name)
        } else {
            OFF.to_string()
        };
        let ty = game.element_types[el.element_type].name.clone();
        *want
            .entry(key)
            .or_default()
            .entry((ty.clone(), seen_state(&ty, rules.element_state(e as u16))))
            .or_default() += 1;
    }
    let mut have: BTreeMap<String, Bag> = BTreeMap::new();
    for p in &world.pieces {
        let near = if p.held {
            None
        } else {
            places
                .iter()
                .map(|(n, at)| {
                    (
                        n.as_str(),
                        1000.0 * (p.position[0] - at[0]).hypot(p.position[1] - at[1]),
                    )
                })
                .filter(|(_, d)| *d <= tolerance_mm)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(n, _)| n)
        };
        *have
            .entry(near.map(key_of).unwrap_or_else(|| OFF.to_string()))
            .or_default()
            .entry((p.element_type.clone(), seen_state(&p.element_type, p.state)))
            .or_default() += 1;
    }
    let show = |b: Option<&Bag>| -> String {
        match b {
            None => "nothing".into(),
            Some(b) => b
                .iter()
                .map(|((t, s), n)| {
                    if *n == 1 {
                        format!("{t}/{s}")
                    } else {
                        format!("{n}×{t}/{s}")
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    };
    let keys: std::collections::BTreeSet<&String> = want.keys().chain(have.keys()).collect();
    keys.into_iter()
        .filter(|k| want.get(*k) != have.get(*k))
        .map(|k| {
            format!(
                "{k}: the world has {}, the rules {}",
                show(have.get(k)),
                show(want.get(k))
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_rules::RobotSpec;
    use gamebot_sim::PieceInfo;

    fn mill() -> Game {
        let p = format!("{}/../../games/mill.game", env!("CARGO_MANIFEST_DIR"));
        Game::load(&p).unwrap()
    }

    /// The world as the rules say, each piece on its location's `robot=`
    /// point (stacked pieces at the same spot).
    fn world_of(game: &Game, state: &State) -> (WorldSnapshot, BTreeMap<String, [f64; 3]>) {
        let mut places = BTreeMap::new();
        for l in &game.locations {
            if let Some(RobotSpec::Cartesian(p)) = l.robot {
                places.insert(l.name.clone(), p.map(|v| v / 100.0));
            }
        }
        let pieces = game
            .elements
            .iter()
            .enumerate()
            .filter_map(|(e, el)| {
                let l = state.location_of(e as u16);
                if !gamebot_rules::on_table(game, l) {
                    return None;
                }
                let l = &game.locations[l as usize];
                Some(PieceInfo {
                    element: e as u16,
                    name: el.name.clone(),
                    element_type: game.element_types[el.element_type].name.clone(),
                    state: state.element_state(e as u16),
                    position: *places.get(&l.name)?,
                    radius: 0.01,
                    height: 0.005,
                    held: false,
                })
            })
            .collect();
        let snap = WorldSnapshot {
            pieces,
            ..WorldSnapshot::default()
        };
        (snap, places)
    }

    #[test]
    fn pieces_on_spots_two_locations_share_count_for_either() {
        // Mill's bin slot k lies on supply slot k: after the first placement
        // one supply piece has left, and a piece lying there could be either.
        let game = mill();
        let mut state = game.initial_state();
        let mv = game.legal_moves(&state).unwrap()[0].clone();
        game.apply(&mut state, &mv).unwrap();
        let (snap, places) = world_of(&game, &state);
        let diff = world_differences(&game, &state, &snap, &places, 5.0);
        assert!(diff.is_empty(), "{diff:?}");
        // A piece really missing is still reported.
        let mut lost = snap.clone();
        lost.pieces.pop();
        let diff = world_differences(&game, &state, &lost, &places, 5.0);
        assert_eq!(diff.len(), 1, "{diff:?}");
    }
}
