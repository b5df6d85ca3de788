//! `gamebot_ros_probe`: a two-sided check of the DDS transport between
//! processes, and the Rust end of the interop test.
//!
//! ```text
//! gamebot_ros_probe serve  [--ros-args ...]   # topics, a service, an action; runs until killed
//! gamebot_ros_probe client [--ros-args ...]   # exercises them, prints measurements, exit 0 = all good
//! gamebot_ros_probe interop [--ros-args ...]  # publishes /interop/state, checks the GameEvent a peer sends on /interop/event
//! ```
//!
//! Run it inside `scripts/netns-run` (it creates DDS participants).

use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context as _, Result};
use gamebot_interfaces::action::{PlanMove, PlanMoveFeedback, PlanMoveGoal, PlanMoveResult};
use gamebot_interfaces::msg::{GameEvent, GameState, LocationState, Move, PhysicalAction};
use gamebot_interfaces::rcl_interfaces::Log;
use gamebot_interfaces::srv::{SubmitMove, SubmitMoveRequest, SubmitMoveResponse};
use gamebot_interfaces::std_msgs;
use gamebot_ros::dds::{DdsContext, DdsNode};
use gamebot_ros::{logging, Bus, GoalEvent, GoalStatus, LogLevel, Qos, RosArgs};

const WAIT: Duration = Duration::from_secs(20);

fn main() -> Result<()> {
    let args = RosArgs::from_env()?;
    let role = args.user_args.first().cloned().unwrap_or_default();
    let default_name = match role.as_str() {
        "serve" => "probe_server",
        "client" => "probe_client",
        "interop" => "interop_peer",
        _ => bail!("usage: gamebot_ros_probe serve|client|interop [--ros-args ...]"),
    };
    let options = args.node_options(default_name)?;
    logging::init(&options);
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options.clone())?;
    if options.rosout {
        logging::attach_rosout(&node, options.log_level.unwrap_or(LogLevel::Info))?;
    }
    let result = match role.as_str() {
        "serve" => serve(&node),
        "client" => client(&node),
        _ => interop(&node),
    };
    logging::detach_rosout();
    result
}

/// The state both the probe client and the Python interop test check field by field.
pub fn known_state() -> GameState {
    GameState {
        header: std_msgs::Header {
            stamp: gamebot_interfaces::builtin_interfaces::Time {
                sec: 1_700_000_000,
                nanosec: 123_456_789,
            },
            frame_id: "board".into(),
        },
        game_name: "tictactoe".into(),
        game_file: "games/tictactoe.txt".into(),
        game_number: 3,
        move_history: vec!["x1:supply_x->a1".into(), "o1:supply_o->b2".into()],
        players: vec!["white".into(), "black".into()],
        player_kinds: vec!["human".into(), "mcts:iterations=500".into()],
        current_player: 1,
        winner: -1,
        scores: vec![0, -2],
        board: vec![
            LocationState {
                location: "a1".into(),
                location_type: "square".into(),
                relevant: true,
                element: "x1".into(),
                element_type: "x".into(),
                element_state: 1,
                owner: 1,
            },
            LocationState {
                location: "b2".into(),
                location_type: "square".into(),
                relevant: true,
                element: "o1".into(),
                element_type: "o".into(),
                element_state: 2,
                owner: 2,
            },
            LocationState {
                location: "c3".into(),
                location_type: "square".into(),
                relevant: false,
                ..Default::default()
            },
        ],
        legal_moves: vec!["x2:supply_x->a2".into(), "x2:supply_x->c3".into()],
        phase: GameState::PHASE_PLANNING,
        state_hash: 0x0123_4567_89ab_cdef,
    }
}

fn serve(node: &DdsNode) -> Result<()> {
    let p = node.parameters();
    let step_ms = p.declare_int(
        "feedback_every_ms",
        2,
        0,
        1000,
        "pause between feedback messages",
    )? as u64;
    for (name, source) in p.undeclared_overrides() {
        tracing::warn!("parameter {name} from {source} is not used by this node");
    }
    let state = node.publisher::<GameState>("~/state", Qos::latched(1))?;
    state.publish(&known_state())?;
    let echo_in = node.subscription::<std_msgs::String>("~/echo", Qos::reliable(100))?;
    let echo_out = node.publisher::<std_msgs::String>("~/echo_reply", Qos::reliable(100))?;
    let submit = node.service_server::<SubmitMove>("~/submit_move")?;
    let plan = node.action_server::<PlanMove>("~/plan_move")?;
    tracing::info!("probe server {} ready", node.fully_qualified_name());
    let mut active: Option<(gamebot_ros::ActiveGoal<PlanMove>, u64, u64)> = None;
    loop {
        let mut idle = true;
        for m in echo_in.drain() {
            echo_out.publish(&m)?;
            idle = false;
        }
        idle &= submit.serve_pending(|req| {
            if req.r#move.contains("->") {
                let (el, rest) = req.r#move.split_once(':').unwrap_or(("", ""));
                let (from, to) = rest.split_once("->").unwrap_or(("", ""));
                SubmitMoveResponse {
                    accepted: true,
                    reason: String::new(),
                    r#move: Move::new(el, from, to),
                }
            } else {
                SubmitMoveResponse {
                    accepted: false,
                    reason: format!("`{}` is not element:from->to", req.r#move),
                    ..Default::default()
                }
            }
        }) == 0;
        if active.is_none() {
            if let Ok(incoming) = plan.try_recv() {
                idle = false;
                if incoming.goal.game_file.is_empty() {
                    incoming.reject()?;
                } else {
                    let n = incoming.goal.time_budget_ms as u64;
                    tracing::info!("plan goal {} accepted ({n} iterations)", incoming.id);
                    active = Some((incoming.accept()?, 0, n));
                }
            }
        }
        if let Some((goal, i, n)) = active.take() {
            idle = false;
            if goal.is_cancel_requested() {
                tracing::info!("plan goal {} canceled after {i} iterations", goal.id);
                goal.canceled(PlanMoveResult {
                    message: "canceled".into(),
                    iterations: i,
                    ..Default::default()
                })?;
            } else if i == n {
                goal.succeed(PlanMoveResult {
                    success: true,
                    r#move: Move::new("x2", "supply_x", "a2"),
                    value: 0.25,
                    iterations: i,
                    ..Default::default()
                })?;
            } else {
                goal.publish_feedback(PlanMoveFeedback {
                    iterations: i + 1,
                    best_move: Move::new("x2", "supply_x", "a2"),
                    value: i as f64,
                    depth: 1,
                })?;
                std::thread::sleep(Duration::from_millis(step_ms));
                active = Some((goal, i + 1, n));
            }
        }
        if idle {
            // Block on the echo topic so its round trip is not inflated by polling;
            // services and goals are picked up within this 1 ms.
            if let Ok(m) = echo_in.recv_timeout(Duration::from_millis(1)) {
                echo_out.publish(&m)?;
            }
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn stats(name: &str, mut v: Vec<f64>) {
    v.sort_by(f64::total_cmp);
    println!(
        "measure {name}: n={} min={:.3}ms median={:.3}ms p99={:.3}ms max={:.3}ms",
        v.len(),
        v[0],
        percentile(&v, 0.5),
        percentile(&v, 0.99),
        v[v.len() - 1]
    );
}

fn client(node: &DdsNode) -> Result<()> {
    let rounds = node
        .parameters()
        .declare_int("rounds", 200, 1, 100_000, "latency samples")? as usize;
    let server = node.parameters().declare_string(
        "server_ns",
        "/probe_server",
        "the probe server's node name",
    )?;
    let t0 = Instant::now();

    // Latched state from a publisher that started earlier.
    let state = node.subscription::<GameState>(&format!("{server}/state"), Qos::latched(1))?;
    let got = state
        .recv_timeout(WAIT)
        .context("no latched state from the server")?;
    ensure!(
        got == known_state(),
        "state differs:\n got {got:?}\nwant {:?}",
        known_state()
    );
    println!(
        "ok latched state after {:.0} ms (discovery included)",
        t0.elapsed().as_secs_f64() * 1e3
    );

    // rosout from the server process.
    let rosout = node.subscription::<Log>("/rosout", Qos::rosout())?;
    let deadline = Instant::now() + WAIT;
    loop {
        let log = rosout
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .context("no rosout record from the server")?;
        if log.msg.contains("ready") && log.name.contains("probe_server") {
            println!(
                "ok rosout: [{}] {} (level {})",
                log.name, log.msg, log.level
            );
            break;
        }
    }

    // Topic round trips.
    let echo = node.publisher::<std_msgs::String>(&format!("{server}/echo"), Qos::reliable(100))?;
    let reply =
        node.subscription::<std_msgs::String>(&format!("{server}/echo_reply"), Qos::reliable(100))?;
    ensure!(
        echo.wait_for_subscribers(1, WAIT) && reply.wait_for_publishers(1, WAIT),
        "echo topics did not match"
    );
    let mut rtt = vec![];
    for i in 0..rounds {
        let s = Instant::now();
        echo.publish(&std_msgs::String {
            data: format!("ping {i}"),
        })?;
        let r = reply
            .recv_timeout(WAIT)
            .with_context(|| format!("echo {i} lost"))?;
        ensure!(
            r.data == format!("ping {i}"),
            "echo out of order: {}",
            r.data
        );
        rtt.push(s.elapsed().as_secs_f64() * 1e3);
    }
    stats("topic round trip", rtt);

    // Service calls.
    let submit = node.service_client::<SubmitMove>(&format!("{server}/submit_move"))?;
    ensure!(submit.wait_for_service(WAIT), "service not found");
    let bad = submit.call(
        SubmitMoveRequest {
            r#move: "nonsense".into(),
            game_number: 0,
        },
        WAIT,
    )?;
    ensure!(
        !bad.accepted && bad.reason.contains("nonsense"),
        "bad move accepted: {bad:?}"
    );
    let mut rtt = vec![];
    for i in 0..rounds {
        let s = Instant::now();
        let r = submit.call(
            SubmitMoveRequest {
                r#move: format!("x{i}:supply_x->a1"),
                game_number: 0,
            },
            WAIT,
        )?;
        ensure!(
            r.accepted && r.r#move.element == format!("x{i}"),
            "wrong answer {r:?}"
        );
        rtt.push(s.elapsed().as_secs_f64() * 1e3);
    }
    stats("service call", rtt);

    // Action: complete with feedback, then cancel, then reject.
    let plan = node.action_client::<PlanMove>(&format!("{server}/plan_move"))?;
    ensure!(plan.wait_for_server(WAIT), "action server not found");
    let s = Instant::now();
    let mut g = plan.send_goal(
        PlanMoveGoal {
            game_file: "games/tictactoe.txt".into(),
            time_budget_ms: 20,
            ..Default::default()
        },
        WAIT,
    )?;
    let mut feedback = 0;
    let out = g.wait_with_feedback(WAIT, |_| feedback += 1)?;
    ensure!(
        out.status == GoalStatus::Succeeded && out.result.iterations == 20,
        "{out:?}"
    );
    ensure!(feedback > 0, "no feedback");
    println!(
        "ok action goal: {feedback} feedback messages, result {:?} in {:.1} ms",
        out.result.r#move.text,
        s.elapsed().as_secs_f64() * 1e3
    );
    drop(g);
    let mut g = plan.send_goal(
        PlanMoveGoal {
            game_file: "x".into(),
            time_budget_ms: 1_000_000,
            ..Default::default()
        },
        WAIT,
    )?;
    match g.next_event(WAIT) {
        Ok(GoalEvent::Feedback(_)) => {}
        other => bail!("expected feedback before cancel, got {other:?}"),
    }
    let s = Instant::now();
    ensure!(g.cancel(WAIT)?, "cancel refused");
    let out = g.result(WAIT)?;
    ensure!(out.status == GoalStatus::Canceled, "{out:?}");
    println!(
        "ok action cancel: canceled after {} iterations; cancel to result {:.1} ms",
        out.result.iterations,
        s.elapsed().as_secs_f64() * 1e3
    );
    drop(g);
    match plan.send_goal(PlanMoveGoal::default(), WAIT) {
        Err(gamebot_ros::BusError::GoalRejected { .. }) => println!("ok action reject"),
        other => bail!("expected a rejection, got {:?}", other.map(|g| g.id)),
    }
    println!("ok all checks in {:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// The event the Python interop peer publishes; checked field by field.
fn known_event() -> GameEvent {
    use gamebot_interfaces::geometry_msgs::Point;
    GameEvent {
        header: std_msgs::Header {
            stamp: gamebot_interfaces::builtin_interfaces::Time {
                sec: 42,
                nanosec: 7,
            },
            frame_id: "cyclone".into(),
        },
        kind: GameEvent::MOVE_PLAYED,
        game_number: 3,
        ply: 2,
        player: 1,
        r#move: Move::new("x2", "supply_x", "c3"),
        actions: vec![
            PhysicalAction {
                kind: PhysicalAction::TRANSFER,
                element: "x2".into(),
                element_type: "x".into(),
                from_location: "supply_x".into(),
                to_location: "c3".into(),
                from_state: 1,
                to_state: 1,
                from_position: Point {
                    x: 0.135,
                    y: 0.09,
                    z: 0.0,
                },
                to_position: Point {
                    x: 0.05,
                    y: 0.23,
                    z: -0.0025,
                },
                neighbours: vec![
                    Point {
                        x: 0.16,
                        y: 0.09,
                        z: 0.0,
                    },
                    Point {
                        x: 0.05,
                        y: 0.26,
                        z: -0.0025,
                    },
                ],
            },
            PhysicalAction {
                kind: PhysicalAction::FLIP,
                element: "o1".into(),
                element_type: "o".into(),
                from_location: "b2".into(),
                to_location: "b2".into(),
                from_state: 2,
                to_state: 1,
                ..Default::default()
            },
        ],
        winner: -1,
        message: "from Python: é漢".into(),
    }
}

fn interop(node: &DdsNode) -> Result<()> {
    let state = node.publisher::<GameState>("/interop/state", Qos::latched(1))?;
    let events = node.subscription::<GameEvent>("/interop/event", Qos::reliable(10))?;
    let ack = node.publisher::<std_msgs::String>("/interop/ack", Qos::latched(1))?;
    state.publish(&known_state())?;
    println!("interop: publishing /interop/state, waiting for a GameEvent on /interop/event");
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(ev) = events.recv_timeout(Duration::from_millis(200)) {
            println!("interop: received {ev:?}");
            ensure!(
                ev == known_event(),
                "GameEvent differs:\n got {ev:?}\nwant {:?}",
                known_event()
            );
            ack.publish(&std_msgs::String {
                data: "event ok".into(),
            })?;
            println!("ok interop event received and decoded");
            // Give the latched ack time to reach the peer before the participant goes.
            ensure!(
                ack.wait_for_subscribers(1, WAIT),
                "the peer never subscribed to /interop/ack"
            );
            std::thread::sleep(Duration::from_millis(500));
            return Ok(());
        }
    }
    bail!("no GameEvent on /interop/event within 60 s")
}
