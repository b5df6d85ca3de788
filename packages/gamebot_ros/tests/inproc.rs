//! The shared Bus contract on the in-process backend, plus what only it
//! guarantees (synchronous, deterministic delivery; keep-last depth exactly).

mod common;

use std::time::Duration;

use gamebot_interfaces::msg::GameState;
use gamebot_interfaces::srv::{SubmitMove, SubmitMoveRequest};
use gamebot_interfaces::std_msgs;
use gamebot_ros::inproc::{InProcBus, InProcNode};
use gamebot_ros::{Bus, BusError, NodeOptions, ParamValue, Qos, RosArgs};

fn pair() -> (InProcNode, InProcNode) {
    let bus = InProcBus::new();
    (
        bus.node(NodeOptions::new("a")).unwrap(),
        bus.node(NodeOptions::new("b")).unwrap(),
    )
}

#[test]
fn latched_state_reaches_late_joiner() {
    let (a, b) = pair();
    common::latched_state_reaches_late_joiner(&a, &b);
}

#[test]
fn reliable_stream_in_order() {
    let (a, b) = pair();
    common::reliable_stream_in_order(&a, &b);
}

#[test]
fn qos_mismatch_does_not_match() {
    let (a, b) = pair();
    common::qos_mismatch_does_not_match(&a, &b);
}

#[test]
fn names_resolve() {
    let bus = InProcBus::new();
    let ns = bus
        .node(NodeOptions::new("talker").namespace("/game"))
        .unwrap();
    let root = bus.node(NodeOptions::new("listener")).unwrap();
    common::names_resolve(&ns, &root);
}

#[test]
fn service_round_trip() {
    let (a, b) = pair();
    common::service_round_trip(&a, &b);
}

#[test]
fn action_goal_feedback_cancel() {
    let (a, b) = pair();
    common::action_goal_feedback_cancel(&a, &b);
}

#[test]
fn action_is_observable() {
    let (a, b) = pair();
    common::action_is_observable(&a, &b);
}

#[test]
fn parameters_from_ros_args() {
    let args = RosArgs::parse([
        "--ros-args",
        "-r",
        "__node:=planner_white",
        "-p",
        "time_budget_ms:=250",
        "-p",
        "strategy:=mcts",
        "-p",
        "seed:=7",
    ])
    .unwrap();
    let node = InProcBus::new().node_from_args("planner", &args).unwrap();
    assert_eq!(node.fully_qualified_name(), "/planner_white");
    common::parameters_apply(&node);
}

#[test]
fn keep_last_depth_is_exact() {
    let (a, b) = pair();
    let sub = b
        .subscription::<std_msgs::String>("/x", Qos::reliable(2))
        .unwrap();
    let publisher = a
        .publisher::<std_msgs::String>("/x", Qos::reliable(10))
        .unwrap();
    for i in 0..5 {
        publisher
            .publish(&std_msgs::String {
                data: i.to_string(),
            })
            .unwrap();
    }
    let got: Vec<String> = sub.drain().into_iter().map(|m| m.data).collect();
    assert_eq!(got, ["3", "4"]);
    assert_eq!(sub.dropped(), 3);
}

#[test]
fn transient_local_keeps_depth_and_volatile_subscribers_get_nothing_old() {
    let (a, b) = pair();
    let publisher = a
        .publisher::<std_msgs::String>("/log", Qos::latched(3))
        .unwrap();
    for i in 0..5 {
        publisher
            .publish(&std_msgs::String {
                data: i.to_string(),
            })
            .unwrap();
    }
    let late = b
        .subscription::<std_msgs::String>("/log", Qos::latched(10))
        .unwrap();
    let volatile = b
        .subscription::<std_msgs::String>("/log", Qos::reliable(10))
        .unwrap();
    let got: Vec<String> = late.drain().into_iter().map(|m| m.data).collect();
    assert_eq!(got, ["2", "3", "4"]);
    assert_eq!(
        volatile.try_recv().err(),
        Some(gamebot_ros::TryRecvError::Empty)
    );
    publisher
        .publish(&std_msgs::String { data: "5".into() })
        .unwrap();
    assert_eq!(late.try_recv().unwrap().data, "5");
    assert_eq!(volatile.try_recv().unwrap().data, "5");
    // A dropped publisher takes its history with it.
    drop(publisher);
    let later = b
        .subscription::<std_msgs::String>("/log", Qos::latched(10))
        .unwrap();
    assert_eq!(
        later.try_recv().err(),
        Some(gamebot_ros::TryRecvError::Empty)
    );
}

#[test]
fn type_mismatch_and_duplicate_servers_are_errors() {
    let (a, b) = pair();
    let _p = a
        .publisher::<GameState>("/game/state", Qos::latched(1))
        .unwrap();
    let e = b
        .subscription::<std_msgs::String>("/game/state", Qos::latched(1))
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("/game/state") && e.to_string().contains("std_msgs/msg/String"),
        "{e}"
    );
    let _s = a
        .service_server::<SubmitMove>("/referee/submit_move")
        .unwrap();
    let e = b
        .service_server::<SubmitMove>("/referee/submit_move")
        .err()
        .unwrap();
    assert!(matches!(e, BusError::Duplicate { .. }), "{e}");
}

#[test]
fn unanswered_request_reports_disconnect() {
    let (a, b) = pair();
    let client = b
        .service_client::<SubmitMove>("/referee/submit_move")
        .unwrap();
    let server = a
        .service_server::<SubmitMove>("/referee/submit_move")
        .unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            let req = server.recv_timeout(Duration::from_secs(30)).unwrap();
            drop(req);
        });
        let e = client
            .call(SubmitMoveRequest::default(), Duration::from_secs(30))
            .unwrap_err();
        assert!(matches!(e, BusError::Disconnected { .. }), "{e}");
    });
}

#[test]
fn dropping_an_active_goal_aborts_it() {
    use gamebot_interfaces::action::{PlanMove, PlanMoveGoal};
    let (a, b) = pair();
    let server = a.action_server::<PlanMove>("plan").unwrap();
    let client = b.action_client::<PlanMove>("plan").unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            let g = server
                .recv_timeout(Duration::from_secs(30))
                .unwrap()
                .accept()
                .unwrap();
            drop(g);
        });
        let mut g = client
            .send_goal(PlanMoveGoal::default(), Duration::from_secs(30))
            .unwrap();
        assert_eq!(
            g.result(Duration::from_secs(30)).unwrap().status,
            gamebot_ros::GoalStatus::Aborted
        );
    });
}

#[test]
fn bad_names_and_parameters_are_reported() {
    let bus = InProcBus::new();
    assert!(bus.node(NodeOptions::new("9lives")).is_err());
    assert!(bus.node(NodeOptions::new("n").namespace("/a//b")).is_err());
    let n = bus
        .node(NodeOptions::new("n").param("rate", ParamValue::String("fast".into())))
        .unwrap();
    let e = n
        .publisher::<std_msgs::String>("bad name", Qos::reliable(1))
        .err()
        .unwrap();
    assert!(e.to_string().contains("bad name"), "{e}");
    let e = n
        .parameters()
        .declare_double("rate", 1.0, 0.0, 10.0, "Hz")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`rate`") && e.contains("expected double, got string"),
        "{e}"
    );
}
