//! The `referee` and `planner` executables as separate processes over DDS,
//! started as ROS 2 nodes are (`--ros-args --params-file config/nodes.yaml`),
//! watched from this test's own participant.
//!
//! They create DDS participants, so they are `#[ignore]`d and run only through
//! `scripts/netns-run` (see `scripts/test`):
//!
//! ```text
//! scripts/netns-run cargo test -p gamebot --test dds_nodes -- --ignored
//! ```
//!
//! Timeouts here only stop a broken run from hanging; nothing asserts speed.

mod support;

use gamebot_interfaces::action::{PlanMove, PlanMoveGoal};
use gamebot_interfaces::action_msgs::{GoalStatus as GoalStatusMsg, GoalStatusArray};
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_ros::dds::{DdsConfig, DdsContext, DdsNode};
use gamebot_ros::{Bus, GoalEvent, GoalStatus, NodeOptions, Qos, Subscription};
use gamebot_rules::Game;
use std::time::{Duration, Instant};
use support::{repo, ChildProcess};

fn participant(domain: u16) -> (DdsContext, DdsNode) {
    if let Err(e) = gamebot_ros::dds::check_private_netns() {
        panic!("{e}");
    }
    let ctx = DdsContext::new(DdsConfig {
        domain_id: domain,
        ..DdsConfig::default()
    })
    .unwrap();
    let node = ctx.node(NodeOptions::new("dds_nodes_test")).unwrap();
    (ctx, node)
}

/// A node process started as the launch files do:
/// `exe --ros-args --params-file config/nodes.yaml ARGS...` (the parameter
/// file names games relative to the repository root).
fn start_node(name: &str, exe: &str, domain: u16, extra: &[&str], tag: &str) -> ChildProcess {
    let mut args = vec!["--params-file".to_string(), "config/nodes.yaml".into()];
    args.extend(extra.iter().map(|a| a.to_string()));
    ChildProcess::ros_node(name, &format!("dds_nodes_{tag}"), exe, domain, &args)
}

/// Collects states and events until a state satisfies `done`.
fn watch_until(
    states: &Subscription<GameState>,
    events: &Subscription<GameEvent>,
    seen: &mut Vec<GameEvent>,
    timeout: Duration,
    mut done: impl FnMut(&GameState) -> bool,
) -> Option<GameState> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        seen.extend(events.drain());
        if let Ok(s) = states.recv_timeout(Duration::from_millis(50)) {
            if done(&s) {
                seen.extend(events.drain());
                return Some(s);
            }
        }
    }
    None
}

/// Replays the published history through the rule engine and checks the final
/// state the referee published, and that every played move was announced.
fn check_finished_game(last: &GameState, events: &[GameEvent]) {
    let game = Game::load(repo().join(&last.game_file)).unwrap();
    let mut st = game.initial_state();
    for (i, text) in last.move_history.iter().enumerate() {
        let mv = game
            .find_move(&st, text)
            .unwrap_or_else(|e| panic!("ply {i}: `{text}` is not legal: {e}"));
        game.apply(&mut st, &mv).unwrap();
    }
    let legal = game.legal_moves(&st).unwrap();
    game.settle(&mut st, &legal);
    assert!(st.is_over(), "the replayed game is not over");
    assert_eq!(last.winner, st.outcome().code());
    assert_eq!(last.state_hash, st.hash());
    assert_eq!(last.phase, GameState::PHASE_GAME_OVER);
    let played: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == GameEvent::MOVE_PLAYED && e.game_number == last.game_number)
        .map(|e| e.r#move.text.as_str())
        .collect();
    assert_eq!(played, last.move_history, "events and history differ");
    assert!(events
        .iter()
        .any(|e| e.kind == GameEvent::GAME_OVER && e.winner == last.winner));
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn referee_and_planner_processes_play_a_game_through_a_planner_restart() {
    let domain = 41;
    let (_ctx, node) = participant(domain);
    let states = node
        .subscription::<GameState>("/game/state", Qos::latched(1))
        .unwrap();
    let events = node
        .subscription::<GameEvent>("/game/events", Qos::reliable(1000))
        .unwrap();
    // The planner's own account of its goals (every goal it accepted, with
    // its status), as `ros2 action info`-style tools see it.
    let goal_status = node
        .subscription::<GoalStatusArray>("/planner/plan_move/_action/status", Qos::latched(100))
        .unwrap();
    // Every node executable publishes its log records on /rosout.
    let rosout = node
        .subscription::<gamebot_interfaces::rcl_interfaces::Log>("/rosout", Qos::rosout())
        .unwrap();
    let mut planner = start_node("planner", env!("CARGO_BIN_EXE_planner"), domain, &[], "a");
    // Connect four, both sides computer players; player 1 thinks a second
    // per move, so there is time to kill its planner in mid-thought.
    let referee = start_node(
        "referee",
        env!("CARGO_BIN_EXE_referee"),
        domain,
        &[
            "-p",
            "game_file:=games/connect4.game",
            "-p",
            "player_kinds:=[ai:mcts:time=1s, ai:alphabeta:depth=3]",
            "-p",
            "seed:=5",
        ],
        "game",
    );
    let mut seen = Vec::new();
    let fail = |what: &str, procs: &[&ChildProcess]| -> ! {
        let logs: Vec<String> = procs
            .iter()
            .map(|p| format!("--- {} ---\n{}", p.name, p.log_text()))
            .collect();
        panic!("{what}\n{}", logs.join("\n"))
    };
    // Kill the planner in the middle of the game as a crash would (no result,
    // no goodbye on DDS), then start a fresh process; the referee notices the
    // silence, sends the goal again and the game goes on.
    // The kill must land while a goal is in flight. The test watches the
    // planner's goal status (`<action>/_action/status`, what `ros2 action`
    // tools read): the referee sends one goal per ply, one at a time, so the
    // n-th goal id the planner reports plans ply n. It kills once a goal of
    // player 1 (even plies; it thinks a second) from ply 2 on is executing.
    // No fixed pause, so a slow machine cannot make the kill miss the goal.
    let mut goal_ids: Vec<[u8; 16]> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    let killed_ply = loop {
        if Instant::now() > deadline {
            fail(
                "no goal of player 1 seen executing from ply 2 on",
                &[&planner, &referee],
            )
        }
        seen.extend(events.drain());
        let mut reports = goal_status.drain();
        if reports.is_empty() {
            reports.extend(goal_status.recv_timeout(Duration::from_millis(20)));
        }
        for g in reports.iter().flat_map(|r| &r.status_list) {
            if !goal_ids.contains(&g.goal_info.goal_id.uuid) {
                goal_ids.push(g.goal_info.goal_id.uuid);
            }
        }
        let Some(report) = reports.last() else {
            continue;
        };
        let running: Vec<usize> = report
            .status_list
            .iter()
            .filter(|g| g.status == GoalStatusMsg::STATUS_EXECUTING)
            .filter_map(|g| {
                goal_ids
                    .iter()
                    .position(|id| *id == g.goal_info.goal_id.uuid)
            })
            .collect();
        if let [ply] = running[..] {
            if ply >= 2 && ply % 2 == 0 {
                break ply;
            }
        }
    };
    planner.child.kill().unwrap();
    planner.child.wait().unwrap();
    // With no planner at all, the referee must notice that the goal is lost
    // and say so, and wait for a planner to come back.
    let lost = |seen: &[GameEvent]| {
        seen.iter().any(|e| {
            e.kind == GameEvent::INFO
                && e.message
                    .contains(&format!("planner lost while planning ply {killed_ply};"))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !lost(&seen) && Instant::now() < deadline {
        seen.extend(events.recv_timeout(Duration::from_millis(50)));
    }
    if !lost(&seen) {
        fail(
            &format!("the referee did not report the lost goal of ply {killed_ply}"),
            &[&referee],
        )
    }
    let planner2 = start_node("planner", env!("CARGO_BIN_EXE_planner"), domain, &[], "b");
    let Some(last) = watch_until(&states, &events, &mut seen, Duration::from_secs(300), |s| {
        s.phase == GameState::PHASE_GAME_OVER
    }) else {
        fail(
            "the game did not finish after the planner restart",
            &[&planner2, &referee],
        )
    };
    assert!(
        last.move_history.len() > killed_ply,
        "no move after the restart"
    );
    assert_eq!(last.game_name, "connect4");
    check_finished_game(&last, &seen);
    let log = referee.log_text();
    assert!(
        !log.contains("panicked"),
        "referee log shows a panic:\n{log}"
    );
    let loggers: std::collections::BTreeSet<String> =
        rosout.drain().into_iter().map(|l| l.name).collect();
    for name in ["referee", "planner"] {
        assert!(
            loggers.contains(name),
            "no /rosout record from {name}; loggers seen: {loggers:?}"
        );
    }
    println!(
        "connect4 over DDS: {} plies, winner {}, planner killed while planning ply {killed_ply} and restarted",
        last.move_history.len(),
        last.winner,
    );
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn planner_process_honours_cancel() {
    let domain = 42;
    let (_ctx, node) = participant(domain);
    let mut planner = start_node(
        "planner",
        env!("CARGO_BIN_EXE_planner"),
        domain,
        &[],
        "cancel",
    );
    let client = node
        .action_client::<PlanMove>("/planner/plan_move")
        .unwrap();
    assert!(
        client.wait_for_server(Duration::from_secs(30)),
        "no planner"
    );
    let goal = PlanMoveGoal {
        game_file: "games/reversi8.game".into(),
        move_history: vec![],
        // A budget far beyond the test: only the cancel can end it.
        strategy: "mcts:time=10m,threads=1".into(),
        time_budget_ms: 0,
        seed: 1,
    };
    let mut handle = client.send_goal(goal, Duration::from_secs(10)).unwrap();
    // Wait until the search runs (feedback arrives), then cancel.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut feedback = 0;
    while feedback == 0 && Instant::now() < deadline {
        if let Ok(GoalEvent::Feedback(_)) = handle.next_event(Duration::from_millis(100)) {
            feedback += 1;
        }
    }
    assert!(feedback > 0, "no feedback from the running search");
    let asked = Instant::now();
    assert!(
        handle.cancel(Duration::from_secs(10)).unwrap(),
        "cancel refused"
    );
    let outcome = handle.result(Duration::from_secs(30)).unwrap();
    assert_eq!(outcome.status, GoalStatus::Canceled);
    // Anytime search: the best move so far comes with the cancellation.
    assert!(
        !outcome.result.r#move.text.is_empty(),
        "{:?}",
        outcome.result
    );
    println!(
        "cancel -> Canceled in {:.1} ms (result {})",
        asked.elapsed().as_secs_f64() * 1000.0,
        outcome.result.r#move.text
    );
    // Ctrl-C ends the node cleanly.
    let status = planner.interrupt();
    assert!(
        status.success(),
        "planner exit {status}:\n{}",
        planner.log_text()
    );
}
