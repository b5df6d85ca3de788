//! The arm over DDS: `arm_controller` and `ssc32_bridge` as separate
//! processes, the bridge on the pseudo-terminal of a `gamebot ssc32 emulator`
//! process, and one `ExecuteMove` goal sent from this test's own participant
//! end to end.
//!
//! Judged by the driver's side, not by the controller's word: the last
//! `/joint_states` the bridge published (its motion model, checked against
//! the board's `QP` read-backs) must be the planned retreat pose above the
//! target, and the emulated board must have logged the group moves.
//!
//! They create DDS participants, so they are `#[ignore]`d and run only through
//! `scripts/netns-run` (see `scripts/test`):
//!
//! ```text
//! scripts/netns-run cargo test -p gamebot --test dds_arm -- --ignored
//! ```
//!
//! Timeouts here only stop a broken run from hanging; nothing asserts speed.

mod support;

use gamebot_interfaces::action::ExecuteMoveGoal;
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::PhysicalAction;
use gamebot_interfaces::sensor_msgs::JointState;
use gamebot_kinematics::Arm;
use gamebot_nodes::arm_core::ArmPlanner;
use gamebot_ros::dds::{DdsConfig, DdsContext};
use gamebot_ros::{graph, Bus, GoalEvent, GoalStatus, NodeOptions};
use std::time::{Duration, Instant};
use support::{start_emulator, ChildProcess};

/// `exe --ros-args -p P...` on domain `domain`.
fn ros_node(name: &str, exe: &str, domain: u16, params: &[String]) -> ChildProcess {
    let args: Vec<String> = params
        .iter()
        .flat_map(|p| ["-p".to_string(), p.clone()])
        .collect();
    ChildProcess::ros_node(name, "dds_arm", exe, domain, &args)
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn execute_move_across_arm_controller_and_ssc32_bridge_processes() {
    if let Err(e) = gamebot_ros::dds::check_private_netns() {
        panic!("{e}");
    }
    let domain = 44;
    let link = std::env::temp_dir().join(format!("gamebot_dds_arm_{}.tty", std::process::id()));
    // The emulated board: its first stdout line is the device path.
    let (emulator, _) = start_emulator("dds_arm", &link, &[]);
    let _bridge = ros_node(
        "ssc32_bridge",
        env!("CARGO_BIN_EXE_ssc32_bridge"),
        domain,
        &[format!("port:={}", link.display()), "arm:=al5d".into()],
    );
    let _controller = ros_node(
        "arm_controller",
        env!("CARGO_BIN_EXE_arm_controller"),
        domain,
        &["arm:=al5d".into()],
    );
    let ctx = DdsContext::new(DdsConfig {
        domain_id: domain,
        ..DdsConfig::default()
    })
    .unwrap();
    let node = ctx.node(NodeOptions::new("dds_arm_test")).unwrap();
    let states = node.subscription_on(&graph::JOINT_STATES).unwrap();
    let exec = node.action_client_on(&graph::EXECUTE_MOVE).unwrap();
    let logs = |what: &str, procs: &[&ChildProcess]| -> String {
        let l: Vec<String> = procs
            .iter()
            .map(|p| format!("--- {} ---\n{}", p.name, p.log_text()))
            .collect();
        format!("{what}\n{}", l.join("\n"))
    };
    assert!(
        exec.wait_for_server(Duration::from_secs(60)),
        "{}",
        logs(
            "no /arm/execute server",
            &[&emulator, &_bridge, &_controller]
        )
    );
    // A supply piece to the middle of the board.
    let action = PhysicalAction {
        kind: PhysicalAction::TRANSFER,
        element: "x1".into(),
        element_type: "x".into(),
        from_location: "supply".into(),
        to_location: "b(2,2)".into(),
        from_position: Point {
            x: -0.135,
            y: 0.18,
            z: 0.0,
        },
        to_position: Point {
            x: 0.0,
            y: 0.18,
            z: 0.0,
        },
        ..Default::default()
    };
    let t = Duration::from_secs(120);
    let mut goal = exec
        .send_goal(
            ExecuteMoveGoal {
                actions: vec![action.clone()],
                ..Default::default()
            },
            t,
        )
        .unwrap_or_else(|e| panic!("{}", logs(&format!("goal not sent: {e}"), &[&_controller])));
    let mut steps: Vec<String> = Vec::new();
    let outcome = loop {
        match goal.next_event(t) {
            Ok(GoalEvent::Feedback(f)) => {
                if steps.last() != Some(&f.step) {
                    steps.push(f.step);
                }
            }
            Ok(GoalEvent::Done(d)) => break d.unwrap(),
            Err(e) => panic!(
                "{}",
                logs(
                    &format!("no result: {e}"),
                    &[&emulator, &_bridge, &_controller]
                )
            ),
        }
    };
    assert_eq!(
        outcome.status,
        GoalStatus::Succeeded,
        "{}",
        logs(&format!("{:?}", outcome.result), &[&_bridge, &_controller])
    );
    assert_eq!(
        steps,
        ["approach", "grip", "lift", "carry", "place", "release", "retreat"]
    );
    // The driver's joint states settle on the planned retreat pose.
    let mut planner = ArmPlanner::new(Arm::load_named("al5d").unwrap());
    let home = planner.arm().home().to_vec();
    let open = planner.arm().config().gripper.open;
    let plan = planner.plan(&action, &home, open).unwrap();
    let retreat = plan.last().unwrap().end.clone();
    let names: Vec<String> = planner
        .arm()
        .joints()
        .iter()
        .map(|j| j.name.clone())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last: Option<JointState> = None;
    let settled = loop {
        if let Ok(js) = states.recv_timeout(Duration::from_millis(200)) {
            let ok = names.iter().zip(&retreat).all(|(n, want)| {
                js.name
                    .iter()
                    .position(|m| m == n)
                    .is_some_and(|i| (js.position[i] - want).abs() < 0.02)
            });
            last = Some(js);
            if ok {
                break true;
            }
        }
        if Instant::now() > deadline {
            break false;
        }
    };
    assert!(
        settled,
        "joint states {last:?} never reached the retreat pose {names:?} = {retreat:?}"
    );
    // The emulated board carried it out: it logged timed group moves.
    let emu_log = emulator.log_text();
    let moves = emu_log.lines().filter(|l| l.contains('#')).count();
    assert!(moves >= 7, "the emulator logged {moves} moves:\n{emu_log}");
    // Stopped, the emulator leaves no link to its pty behind.
    drop(emulator);
    assert!(
        std::fs::symlink_metadata(&link).is_err(),
        "{} left behind",
        link.display()
    );
}
