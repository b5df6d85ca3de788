//! `gamebot play GAME --sim`: the whole robot in one process, on the
//! in-process bus, no network — the simulated world (`sim_world`, the
//! emulated SSC-32U, the camera), `ssc32_bridge`, `arm_controller`,
//! `detector`, `referee`, `planner` and (unless `--no-web`) the web UI.
//!
//! The arm plays the robot's side (`--robot STRATEGY`); the opponent is a
//! `camera` player whose moves the referee learns only from the camera. The
//! opponent's moves are made in the world by the simulated person's hand:
//! clicked in the web UI (`--opponent camera` with the web UI on), typed at
//! the keyboard (`--opponent camera --no-web` on a terminal), or chosen by a
//! strategy (`--opponent ai:STRATEGY`, also the fallback with `--no-web` when
//! standard input is not a terminal).

use anyhow::Context;
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_interfaces::srv::HumanMoveRequest;
use gamebot_nodes::referee_core::replay;
use gamebot_nodes::sim_robot::SimRobot;
use gamebot_nodes::{detector_node, planner_node, referee_node, NodeError};
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Qos};
use gamebot_rules::Game;
use gamebot_sim::{FaultSpec, WorldConfig};
use std::io::{BufRead, IsTerminal};
use std::net::SocketAddr;
use std::time::Duration;

/// How the simulated robot is run.
pub struct SimOptions {
    pub game: String,
    pub robot: String,
    pub opponent: String,
    pub robot_plays_both: bool,
    pub arm: String,
    pub speed: f64,
    pub faults: String,
    pub seed: u64,
    pub web: Option<SocketAddr>,
}

/// Runs one game of the simulated robot; returns the exit code.
pub fn run(o: SimOptions) -> anyhow::Result<i32> {
    let game = crate::common::load_game(&o.game)?;
    let n = game.player_count();
    let faults: FaultSpec = if o.faults.trim().is_empty() {
        FaultSpec::none()
    } else {
        o.faults.parse().context("--faults")?
    };
    // Who makes the opponent's moves with the simulated hand: the person in the
    // browser (the web UI calls /sim/human_move itself), the person at the
    // keyboard (this loop), or a strategy (this loop).
    let browser = o.opponent == "camera" && o.web.is_some();
    let keyboard = o.opponent == "camera" && !browser && std::io::stdin().is_terminal();
    let opponent_ai = match o.opponent.as_str() {
        "camera" if keyboard || browser => None,
        "camera" => Some("random".to_string()),
        s => Some(
            s.strip_prefix("ai:")
                .with_context(|| format!("--opponent {s}: use camera or ai:STRATEGY"))?
                .to_string(),
        ),
    };
    if let Some(s) = &opponent_ai {
        gamebot_ai::strategy(s).with_context(|| format!("--opponent ai:{s}"))?;
    }
    let kinds: Vec<String> = (1..=n)
        .map(|p| {
            if p == 1 || o.robot_plays_both {
                format!("ai:{}", o.robot)
            } else {
                "camera".to_string()
            }
        })
        .collect();
    let mut robot = SimRobot::start(
        &o.game,
        WorldConfig {
            arm: o.arm.clone(),
            faults,
            seed: o.seed,
            real_time_factor: Some(o.speed),
            ..WorldConfig::default()
        },
    )
    .with_context(|| format!("starting the simulated robot for {}", o.game))?;
    let stop = robot.shutdown().clone();
    let s = stop.clone();
    ctrlc::set_handler(move || s.request()).context("installing the Ctrl-C handler")?;
    let calibration = "config/camera/sim.yaml".to_string();
    robot.spawn(
        NodeOptions::new("detector")
            .param("game_file", ParamValue::String(o.game.clone()))
            .param("calibration", ParamValue::String(calibration)),
        detector_node::run,
    )?;
    robot.spawn(NodeOptions::new("planner"), planner_node::run)?;
    robot.spawn(
        NodeOptions::new("referee")
            .param("game_file", ParamValue::String(o.game.clone()))
            .param("player_kinds", ParamValue::StringArray(kinds))
            .param("seed", ParamValue::Integer(o.seed as i64))
            .param("arm", ParamValue::Bool(true))
            .param("camera", ParamValue::Bool(true)),
        // With the web UI the referee outlives a game: the person may start another.
        move |n, s| referee_node::run(n, s, !browser),
    )?;
    if let Some(addr) = o.web {
        let cfg = gamebot_web::WebConfig {
            addr,
            ..Default::default()
        };
        robot.spawn(NodeOptions::new("web"), move |n, s| {
            // No web UI (e.g. the port is taken) is no reason to stop the robot.
            if let Err(e) = gamebot_web::run(n, s, cfg) {
                tracing::error!("web UI not available: {e}");
            }
            Ok::<(), NodeError>(())
        })?;
    }
    let client = robot.bus().node(NodeOptions::new("gamebot_play"))?;
    let states = client.subscription_on(&graph::GAME_STATE)?;
    let events = client.subscription::<GameEvent>(graph::GAME_EVENTS.name, Qos::reliable(1000))?;
    let hand = client.service_client_on(&graph::SIM_HUMAN_MOVE)?;
    outln!(
        "gamebot: {} — the {} arm plays {} with {}; opponent: {}",
        game.name,
        o.arm,
        if o.robot_plays_both {
            "every side".to_string()
        } else {
            game.players[0].clone()
        },
        o.robot,
        match &opponent_ai {
            None if browser =>
                "you (click moves in the web UI; the simulated hand makes them on the board)"
                    .to_string(),
            None => "you (type moves; the simulated hand makes them on the board)".to_string(),
            Some(s) => format!("ai:{s} through the simulated hand"),
        }
    );
    let mut handled_ply: Option<usize> = None;
    let mut lines = std::io::stdin().lock().lines();
    let mut last: Option<GameState> = None;
    let mut code = 0;
    // With the web UI the process serves the page until Ctrl-C: the person
    // may start the next game from the browser.
    let mut reported_over: Option<u32> = None;
    while !stop.is_requested() {
        if robot.any_stopped() {
            break;
        }
        if let Ok(s) = states.recv_timeout(Duration::from_millis(100)) {
            last = Some(s);
        }
        for s in states.drain() {
            last = Some(s);
        }
        for e in events.drain() {
            outln!("  [{}] {}", event_name(e.kind), e.message);
        }
        let Some(st) = &last else { continue };
        if st.phase == GameState::PHASE_GAME_OVER {
            if browser && reported_over == Some(st.game_number) {
                continue;
            }
            outln!(
                "game over after {} moves: {}",
                st.move_history.len(),
                match st.winner {
                    0 => "draw".to_string(),
                    // The state's own names: the browser may have started another game.
                    w if w > 0 => format!(
                        "{} (player {w}) wins",
                        st.players.get(w as usize - 1).map_or("?", String::as_str)
                    ),
                    _ => "unfinished".to_string(),
                }
            );
            if browser {
                reported_over = Some(st.game_number);
                outln!("start a new game in the web UI, or press Ctrl-C to stop");
                continue;
            }
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
        if !opp_turn || handled_ply == Some(ply) || browser {
            continue;
        }
        let text = match &opponent_ai {
            Some(s) => {
                let state = replay(&game, &st.move_history)?;
                let mut ai = gamebot_ai::strategy(s)?;
                let d = ai.choose(&game, &state, &gamebot_ai::SearchControl::new())?;
                game.move_text(&d.mv)
            }
            None => match ask(&game, st, &mut lines)? {
                Some(t) => t,
                None => {
                    outln!("no more input; stopping.");
                    break;
                }
            },
        };
        outln!("opponent (player {p}): {text}");
        let r = hand.call(
            HumanMoveRequest {
                r#move: text,
                cover_seconds: 0.5,
            },
            Duration::from_secs(30),
        )?;
        if r.accepted {
            handled_ply = Some(ply);
        } else {
            outln!("  the hand could not make it: {}", r.message);
            if opponent_ai.is_some() {
                code = 1;
                break;
            }
        }
    }
    let snap = robot.probe().snapshot();
    if !snap.faults.is_empty() {
        outln!("faults injected: {:?}", snap.faults);
    }
    robot.stop()?;
    Ok(code)
}

/// Asks the person at the keyboard for a move; `None` at the end of input.
fn ask(
    game: &Game,
    st: &GameState,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<String>> {
    let legal = &st.legal_moves;
    outln!(
        "{} (player {}) to move:",
        game.players[st.current_player as usize - 1],
        st.current_player
    );
    for (i, t) in legal.iter().enumerate() {
        outln!("  {:>3}. {t}", i + 1);
    }
    loop {
        out!("your move (number or element:from->to, q to quit)> ");
        let Some(line) = lines.next() else {
            return Ok(None);
        };
        let line = line.context("reading standard input")?;
        let t = line.trim();
        if t == "q" {
            return Ok(None);
        }
        if let Ok(i) = t.parse::<usize>() {
            if (1..=legal.len()).contains(&i) {
                return Ok(Some(legal[i - 1].clone()));
            }
        }
        if !t.is_empty() {
            return Ok(Some(t.to_string()));
        }
    }
}

fn event_name(kind: u8) -> &'static str {
    match kind {
        GameEvent::MOVE_PLAYED => "move",
        GameEvent::MOVE_REJECTED => "rejected",
        GameEvent::OBSERVATION_MISMATCH => "mismatch",
        GameEvent::GAME_OVER => "over",
        _ => "event",
    }
}
