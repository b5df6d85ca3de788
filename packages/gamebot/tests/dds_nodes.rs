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

use gamebot_interfaces::action::{PlanMove, PlanMoveGoal};
use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_ros::dds::{DdsConfig, DdsContext, DdsNode};
use gamebot_ros::{Bus, GoalEvent, GoalStatus, NodeOptions, Qos, Subscription};
use gamebot_rules::Game;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

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

/// A node process; stopped (Ctrl-C, then kill) when dropped.
struct NodeProcess {
    name: &'static str,
    child: std::process::Child,
    log: PathBuf,
}

impl NodeProcess {
    /// Starts `exe --ros-args --params-file config/nodes.yaml ARGS...` in the
    /// repository root (the parameter file names games relative to it).
    fn start(name: &'static str, exe: &str, domain: u16, extra: &[&str], tag: &str) -> Self {
        let log = std::env::temp_dir().join(format!(
            "gamebot_dds_nodes_{}_{name}_{tag}.log",
            std::process::id()
        ));
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(exe)
            .current_dir(repo())
            .args(["--ros-args", "--params-file", "config/nodes.yaml"])
            .args(extra)
            .env("ROS_DOMAIN_ID", domain.to_string())
            .stdout(Stdio::null())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
        NodeProcess { name, child, log }
    }

    /// Asks the node to stop as Ctrl-C does and waits for it to exit.
    fn interrupt(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("{} did not stop on SIGINT:\n{}", self.name, self.log_text());
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for NodeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            std::fs::remove_file(&self.log).ok();
        }
    }
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
        if let Some(s) = states.recv_timeout(Duration::from_millis(50)) {
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
    assert_ne!(st.winner(), -1, "the replayed game is not over");
    assert_eq!(last.winner, st.winner());
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
    let mut planner =
        NodeProcess::start("planner", env!("CARGO_BIN_EXE_planner"), domain, &[], "a");
    // Connect four, both sides computer players; player 1 thinks a second
    // per move, so there is time to kill its planner in mid-thought.
    let referee = NodeProcess::start(
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
    let fail = |what: &str, procs: &[&NodeProcess]| -> ! {
        let logs: Vec<String> = procs
            .iter()
            .map(|p| format!("--- {} ---\n{}", p.name, p.log_text()))
            .collect();
        panic!("{what}\n{}", logs.join("\n"))
    };
    let Some(mid) = watch_until(&states, &events, &mut seen, Duration::from_secs(120), |s| {
        s.game_file.ends_with("connect4.game") && s.move_history.len() >= 2
    }) else {
        fail(
            "no position with 2 moves from the referee",
            &[&planner, &referee],
        )
    };
    assert_eq!(mid.game_name, "connect4");
    assert_eq!(mid.player_kinds.len(), 2);

    // Kill the planner in the middle of the game as a crash would (no result,
    // no goodbye on DDS), then start a fresh process; the referee notices the
    // silence, sends the goal again and the game goes on.
    // (Player 1 plans ply 2 for a second, far longer than this pause, so the
    // kill lands while its goal is in flight; no game of connect four is
    // over before ply 7.)
    std::thread::sleep(Duration::from_millis(300));
    planner.child.kill().unwrap();
    planner.child.wait().unwrap();
    let plies_at_stop = watch_until(
        &states,
        &events,
        &mut seen,
        Duration::from_millis(300),
        |_| false,
    )
    .map_or(mid.move_history.len(), |s| s.move_history.len());
    let planner2 = NodeProcess::start("planner", env!("CARGO_BIN_EXE_planner"), domain, &[], "b");
    let Some(last) = watch_until(&states, &events, &mut seen, Duration::from_secs(300), |s| {
        s.phase == GameState::PHASE_GAME_OVER
    }) else {
        fail(
            "the game did not finish after the planner restart",
            &[&planner2, &referee],
        )
    };
    assert!(
        last.move_history.len() > plies_at_stop,
        "no move after the restart"
    );
    check_finished_game(&last, &seen);
    assert!(
        seen.iter()
            .any(|e| e.kind == GameEvent::INFO && e.message.contains("planner lost")),
        "the referee did not report the lost goal:\n{}",
        referee.log_text()
    );
    let log = referee.log_text();
    assert!(
        !log.contains("panicked"),
        "referee log shows a panic:\n{log}"
    );
    println!(
        "connect4 over DDS: {} plies, winner {}, planner restarted after ply {}",
        last.move_history.len(),
        last.winner,
        plies_at_stop
    );
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn planner_process_honours_cancel() {
    let domain = 42;
    let (_ctx, node) = participant(domain);
    let mut planner = NodeProcess::start(
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
        if let Some(GoalEvent::Feedback(_)) = handle.next_event(Duration::from_millis(100)) {
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
