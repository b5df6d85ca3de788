//! Test bodies shared by the in-process and the DDS backend: each takes two
//! nodes (`a`, `b`) of the same backend and checks one part of the Bus
//! contract. Waits are generous upper bounds for DDS discovery, not speed
//! checks.
#![allow(dead_code)]

use std::time::Duration;

use gamebot_interfaces::action::{PlanMove, PlanMoveFeedback, PlanMoveGoal, PlanMoveResult};
use gamebot_interfaces::msg::{GameEvent, GameState, LocationState, Move};
use gamebot_interfaces::srv::{SubmitMove, SubmitMoveRequest, SubmitMoveResponse};
use gamebot_interfaces::std_msgs;
use gamebot_ros::{Bus, BusError, GoalEvent, GoalStatus, Qos};

/// Upper bound for anything that needs discovery.
pub const T: Duration = Duration::from_secs(15);

pub fn sample_state(n: u32) -> GameState {
    GameState {
        header: std_msgs::Header::now("board"),
        game_name: "tictactoe".into(),
        game_file: "games/tictactoe.txt".into(),
        game_number: n,
        move_history: vec!["x1:supply->a1".into(), "o1:supply->b2".into()],
        players: vec!["white".into(), "black".into()],
        player_kinds: vec!["human".into(), "mcts".into()],
        current_player: 1,
        winner: -1,
        scores: vec![0, 0],
        board: vec![LocationState {
            location: "a1".into(),
            location_type: "square".into(),
            relevant: true,
            element: "x1".into(),
            element_type: "x".into(),
            element_state: 1,
            owner: 1,
        }],
        legal_moves: vec!["x2:supply->a2".into(), "x2:supply->a3".into()],
        phase: GameState::PHASE_WAITING_FOR_HUMAN,
        state_hash: 0xdead_beef_0123_4567,
    }
}

/// A late-joining transient-local subscription gets the last published
/// state; a volatile one does not.
pub fn latched_state_reaches_late_joiner<B: Bus>(a: &B, b: &B) {
    let publisher = a
        .publisher::<GameState>("/game/state", Qos::latched(1))
        .unwrap();
    // A subscription matched before the samples: once it has the second,
    // the publisher holds it. (A backend may hand a sample to its writer
    // asynchronously — RustDDS's event loop does —, so a subscription that
    // joined right after `publish` returned could find the first sample
    // still in the history, the second on its way: seen once under load.)
    let witness = b
        .subscription::<GameState>("/game/state", Qos::latched(1))
        .unwrap();
    assert!(publisher.wait_for_subscribers(1, T));
    publisher.publish(&sample_state(1)).unwrap();
    publisher.publish(&sample_state(2)).unwrap();
    while witness
        .recv_timeout(T)
        .expect("the matched subscription gets the state")
        .game_number
        != 2
    {}
    let late = b
        .subscription::<GameState>("/game/state", Qos::latched(1))
        .unwrap();
    let got = late
        .recv_timeout(T)
        .expect("late joiner gets the latched state");
    assert_eq!(got, sample_state(2).with_stamp(&got));
    assert!(
        late.recv_timeout(Duration::from_millis(200)).is_err(),
        "only the last one is kept"
    );
}

trait WithStamp {
    fn with_stamp(self, other: &Self) -> Self;
}

impl WithStamp for GameState {
    /// Stamps differ between two `sample_state` calls; compare the rest.
    fn with_stamp(mut self, other: &GameState) -> GameState {
        self.header.stamp = other.header.stamp.clone();
        self
    }
}

/// A reliable stream arrives complete and in order once matched.
pub fn reliable_stream_in_order<B: Bus>(a: &B, b: &B) {
    let sub = b
        .subscription::<GameEvent>("/game/events", Qos::reliable(100))
        .unwrap();
    let publisher = a
        .publisher::<GameEvent>("/game/events", Qos::reliable(100))
        .unwrap();
    assert!(
        publisher.wait_for_subscribers(1, T),
        "publisher matches the subscription"
    );
    assert!(
        sub.wait_for_publishers(1, T),
        "subscription matches the publisher"
    );
    for i in 0..20u32 {
        let ev = GameEvent {
            kind: GameEvent::MOVE_PLAYED,
            ply: i,
            r#move: Move::new("x1", "supply", &format!("a{i}")),
            message: "é ü 漢字".into(),
            ..Default::default()
        };
        publisher.publish(&ev).unwrap();
    }
    for i in 0..20u32 {
        let ev = sub
            .recv_timeout(T)
            .unwrap_or_else(|e| panic!("event {i} arrives: {e}"));
        assert_eq!(ev.ply, i);
        assert_eq!(ev.r#move.text, format!("x1:supply->a{i}"));
        assert_eq!(ev.message, "é ü 漢字");
    }
}

/// A reliable subscription does not match a best-effort publisher (DDS
/// request/offer rule); a best-effort one does.
pub fn qos_mismatch_does_not_match<B: Bus>(a: &B, b: &B) {
    let publisher = a
        .publisher::<std_msgs::String>("/camera/status", Qos::best_effort(5))
        .unwrap();
    let control = b
        .subscription::<std_msgs::String>("/camera/status", Qos::best_effort(5))
        .unwrap();
    let strict = b
        .subscription::<std_msgs::String>("/camera/status", Qos::reliable(5))
        .unwrap();
    assert!(control.wait_for_publishers(1, T));
    assert!(publisher.wait_for_subscribers(1, T));
    for _ in 0..50 {
        publisher
            .publish(&std_msgs::String {
                data: "frame".into(),
            })
            .unwrap();
        if control.recv_timeout(Duration::from_millis(100)).is_ok() {
            break;
        }
    }
    assert_eq!(strict.publisher_count(), 0);
    assert_eq!(
        strict.try_recv().err(),
        Some(gamebot_ros::TryRecvError::Empty)
    );
    assert_eq!(publisher.subscriber_count(), 1);
}

/// Names resolve against the namespace, privately with `~`, and remaps apply.
pub fn names_resolve<B: Bus>(ns_node: &B, root_node: &B) {
    assert_eq!(
        ns_node.resolve("state").unwrap(),
        format!("{}/state", ns_node.namespace())
    );
    assert_eq!(
        ns_node.resolve("~/x").unwrap(),
        format!("{}/x", ns_node.fully_qualified_name())
    );
    let publisher = ns_node
        .publisher::<std_msgs::String>("chatter", Qos::reliable(10))
        .unwrap();
    let sub = root_node
        .subscription::<std_msgs::String>(
            &format!("{}/chatter", ns_node.namespace()),
            Qos::reliable(10),
        )
        .unwrap();
    assert!(publisher.wait_for_subscribers(1, T));
    assert!(sub.wait_for_publishers(1, T));
    publisher
        .publish(&std_msgs::String { data: "hi".into() })
        .unwrap();
    assert_eq!(sub.recv_timeout(T).unwrap().data, "hi");
}

fn judge(req: &SubmitMoveRequest) -> SubmitMoveResponse {
    if req.r#move.contains("->") {
        SubmitMoveResponse {
            accepted: true,
            reason: String::new(),
            r#move: Move::new("x1", "supply", "a1"),
        }
    } else {
        SubmitMoveResponse {
            accepted: false,
            reason: format!("`{}` is not element:from->to", req.r#move),
            ..Default::default()
        }
    }
}

/// Service calls get their own answers; with no server the call times out.
pub fn service_round_trip<B: Bus>(a: &B, b: &B) {
    let client = b
        .service_client::<SubmitMove>("/referee/submit_move")
        .unwrap();
    let e = client
        .call(
            SubmitMoveRequest {
                r#move: "x".into(),
                game_number: 0,
            },
            Duration::from_millis(300),
        )
        .unwrap_err();
    assert!(matches!(e, BusError::Timeout { .. }), "{e}");
    assert!(e.to_string().contains("/referee/submit_move"), "{e}");

    let server = a
        .service_server::<SubmitMove>("/referee/submit_move")
        .unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                if let Ok(req) = server.recv_timeout(Duration::from_millis(20)) {
                    let resp = judge(&req.request);
                    req.respond(resp).unwrap();
                }
            }
        });
        assert!(client.wait_for_service(T));
        for i in 0..5 {
            let mv = if i % 2 == 0 {
                format!("x1:supply->a{i}")
            } else {
                format!("garbage{i}")
            };
            let resp = client
                .call(
                    SubmitMoveRequest {
                        r#move: mv.clone(),
                        game_number: i,
                    },
                    T,
                )
                .unwrap();
            assert_eq!(resp.accepted, i % 2 == 0, "{mv}");
            if i % 2 == 1 {
                assert!(resp.reason.contains(&mv));
            }
        }
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}

/// Runs a planner-like server on `a`: counts to `goal.time_budget_ms`
/// iterations with feedback, honours cancel, rejects an empty game file.
fn planner_server<B: Bus>(a: &B, stop: &std::sync::atomic::AtomicBool) {
    let server = a.action_server::<PlanMove>("/planner/plan_move").unwrap();
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        let Ok(incoming) = server.recv_timeout(Duration::from_millis(20)) else {
            continue;
        };
        if incoming.goal.game_file.is_empty() {
            incoming.reject().unwrap();
            continue;
        }
        let n = incoming.goal.time_budget_ms as u64;
        let goal = incoming.accept().unwrap();
        let mut i = 0;
        loop {
            if goal.is_cancel_requested() {
                goal.canceled(PlanMoveResult {
                    success: false,
                    message: "canceled".into(),
                    iterations: i,
                    ..Default::default()
                })
                .unwrap();
                break;
            }
            if i == n {
                goal.succeed(PlanMoveResult {
                    success: true,
                    r#move: Move::new("x1", "supply", "b2"),
                    value: 0.5,
                    iterations: i,
                    ..Default::default()
                })
                .unwrap();
                break;
            }
            i += 1;
            goal.publish_feedback(PlanMoveFeedback {
                iterations: i,
                value: i as f64,
                depth: 1,
                ..Default::default()
            })
            .unwrap();
            // Paces the feedback so the client sees it while the goal runs.
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// A goal runs to completion with feedback; a second runs until canceled;
/// an invalid goal is rejected; one goal at a time per client.
pub fn action_goal_feedback_cancel<B: Bus>(a: &B, b: &B) {
    let client = b.action_client::<PlanMove>("/planner/plan_move").unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| planner_server(a, &stop));
        assert!(client.wait_for_server(T));

        let goal = PlanMoveGoal {
            game_file: "games/tictactoe.txt".into(),
            time_budget_ms: 25,
            ..Default::default()
        };
        let mut g = client.send_goal(goal.clone(), T).unwrap();
        let e = client
            .send_goal(goal.clone(), T)
            .err()
            .expect("second goal while the first runs");
        assert!(matches!(e, BusError::GoalInFlight { .. }), "{e}");
        let mut seen = vec![];
        let outcome = g
            .wait_with_feedback(T, |f| seen.push(f.iterations))
            .unwrap();
        assert_eq!(outcome.status, GoalStatus::Succeeded);
        assert_eq!(outcome.result.iterations, 25);
        assert_eq!(outcome.result.r#move.text, "x1:supply->b2");
        assert!(!seen.is_empty(), "feedback arrives");
        assert!(
            seen.windows(2).all(|w| w[0] < w[1]),
            "feedback in order: {seen:?}"
        );
        assert!(!g.cancel(T).unwrap(), "a finished goal cannot be canceled");
        drop(g);

        let long = PlanMoveGoal {
            time_budget_ms: 1_000_000,
            ..goal.clone()
        };
        let mut g = client.send_goal(long, T).unwrap();
        // Wait for it to be running, then cancel.
        match g.next_event(T) {
            Ok(GoalEvent::Feedback(_)) => {}
            other => panic!("expected feedback, got {other:?}"),
        }
        assert!(g.cancel(T).unwrap(), "cancel accepted");
        let outcome = g.result(T).unwrap();
        assert_eq!(outcome.status, GoalStatus::Canceled);
        assert!(outcome.result.iterations < 1_000_000);
        drop(g);

        let e = client
            .send_goal(PlanMoveGoal::default(), T)
            .err()
            .expect("rejected");
        assert!(matches!(e, BusError::GoalRejected { .. }), "{e}");
        // The client is usable again after a rejection.
        let mut g = client
            .send_goal(
                PlanMoveGoal {
                    time_budget_ms: 1,
                    ..goal
                },
                T,
            )
            .unwrap();
        assert_eq!(g.result(T).unwrap().status, GoalStatus::Succeeded);
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}

/// Parameters declared by node code take the overrides the node was created with.
pub fn parameters_apply<B: Bus>(node: &B) {
    let p = node.parameters();
    assert_eq!(
        p.declare_int("time_budget_ms", 1000, 1, 600_000, "thinking time")
            .unwrap(),
        250
    );
    assert_eq!(
        p.declare_string("strategy", "random", "AI strategy")
            .unwrap(),
        "mcts"
    );
    let e = p.declare_bool("seed", false, "").unwrap_err().to_string();
    assert!(
        e.contains("`seed`") && e.contains(&node.fully_qualified_name()),
        "{e}"
    );
}

/// An action's feedback and goal statuses are topics any node can watch
/// (`<action>/_action/feedback`, `<action>/_action/status`), as rosbag2 and
/// the ROS 2 command-line tools see them — not only the goal's client.
pub fn action_is_observable<B: Bus>(a: &B, b: &B) {
    use gamebot_interfaces::action_msgs::GoalStatusArray;
    use gamebot_interfaces::FeedbackMessage;
    let feedback = b
        .subscription::<FeedbackMessage<PlanMove>>(
            "/planner/plan_move/_action/feedback",
            Qos::default_profile(),
        )
        .unwrap();
    let status = b
        .subscription::<GoalStatusArray>("/planner/plan_move/_action/status", Qos::latched(1))
        .unwrap();
    let client = b.action_client::<PlanMove>("/planner/plan_move").unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| planner_server(a, &stop));
        assert!(client.wait_for_server(T));
        assert!(feedback.wait_for_publishers(1, T), "a feedback publisher");
        let goal = PlanMoveGoal {
            game_file: "games/tictactoe.txt".into(),
            time_budget_ms: 5,
            ..Default::default()
        };
        let mut g = client.send_goal(goal, T).unwrap();
        let id = g.id;
        let outcome = g.result(T).unwrap();
        assert_eq!(outcome.status, GoalStatus::Succeeded);
        // Every feedback the server sent, with the goal's id, in order.
        let mut seen = Vec::new();
        while seen.len() < 5 {
            let Ok(m) = feedback.recv_timeout(T) else {
                break;
            };
            assert_eq!(m.goal_id.uuid, id.0, "the goal's id");
            seen.push(m.feedback.iterations);
        }
        assert_eq!(seen, vec![1, 2, 3, 4, 5]);
        // The status list ends with the goal succeeded.
        let succeeded = loop {
            let Ok(list) = status.recv_timeout(T) else {
                break false;
            };
            if list.status_list.iter().any(|s| {
                s.goal_info.goal_id.uuid == id.0 && s.status == GoalStatus::Succeeded.code()
            }) {
                break true;
            }
        };
        assert!(succeeded, "a status list with the goal succeeded");
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}
