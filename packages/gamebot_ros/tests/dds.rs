//! The shared Bus contract over real DDS, and two processes talking.
//!
//! These create DDS participants, so they are `#[ignore]`d and run only
//! through `scripts/netns-run` (see `scripts/test`):
//!
//! ```text
//! scripts/netns-run cargo test -p gamebot_ros --test dds -- --ignored
//! ```
//!
//! Each refuses to run outside a private network namespace. Each test uses
//! its own DDS domain so parallel tests do not see each other.

mod common;

use gamebot_ros::dds::{DdsConfig, DdsContext, DdsNode};
use gamebot_ros::{NodeOptions, ParamValue};
use std::io::Read;
use std::process::{Command, Stdio};

/// Panics unless this process is inside `scripts/netns-run`.
fn require_private_netns() {
    if let Err(e) = gamebot_ros::dds::check_private_netns() {
        panic!("{e}");
    }
}

/// Two participants (as two processes would have) with one node each.
fn pair(domain: u16, localhost_only: bool) -> (DdsContext, DdsContext, DdsNode, DdsNode) {
    require_private_netns();
    let cfg = DdsConfig {
        domain_id: domain,
        localhost_only,
        ..DdsConfig::default()
    };
    let ca = DdsContext::new(cfg.clone()).unwrap();
    let cb = DdsContext::new(cfg).unwrap();
    let a = ca.node(NodeOptions::new("a")).unwrap();
    let b = cb.node(NodeOptions::new("b")).unwrap();
    (ca, cb, a, b)
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn latched_state_reaches_late_joiner() {
    let (_ca, _cb, a, b) = pair(11, false);
    common::latched_state_reaches_late_joiner(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn reliable_stream_in_order() {
    let (_ca, _cb, a, b) = pair(12, false);
    common::reliable_stream_in_order(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn localhost_only_discovery_delivers() {
    // ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST: participants restricted to 127.0.0.1.
    let (_ca, _cb, a, b) = pair(13, true);
    common::reliable_stream_in_order(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn qos_mismatch_does_not_match() {
    let (_ca, _cb, a, b) = pair(14, false);
    common::qos_mismatch_does_not_match(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn names_resolve() {
    require_private_netns();
    let cfg = DdsConfig {
        domain_id: 15,
        ..DdsConfig::default()
    };
    let (ca, cb) = (
        DdsContext::new(cfg.clone()).unwrap(),
        DdsContext::new(cfg).unwrap(),
    );
    let ns = ca
        .node(NodeOptions::new("talker").namespace("/game"))
        .unwrap();
    let root = cb.node(NodeOptions::new("listener")).unwrap();
    common::names_resolve(&ns, &root);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn service_round_trip() {
    let (_ca, _cb, a, b) = pair(16, false);
    common::service_round_trip(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn action_goal_feedback_cancel() {
    let (_ca, _cb, a, b) = pair(17, false);
    common::action_goal_feedback_cancel(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn action_is_observable() {
    let (_ca, _cb, a, b) = pair(19, false);
    common::action_is_observable(&a, &b);
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn parameters_apply() {
    require_private_netns();
    let ctx = DdsContext::new(DdsConfig {
        domain_id: 18,
        ..DdsConfig::default()
    })
    .unwrap();
    let node = ctx
        .node(
            NodeOptions::new("planner")
                .param("time_budget_ms", ParamValue::Integer(250))
                .param("strategy", ParamValue::String("mcts".into()))
                .param("seed", ParamValue::Integer(3)),
        )
        .unwrap();
    common::parameters_apply(&node);
}

/// Kills the child when the test ends, pass or fail.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn two_processes_topic_service_action_and_rosout() {
    require_private_netns();
    let exe = env!("CARGO_BIN_EXE_gamebot_ros_probe");
    let dir = std::env::temp_dir().join(format!("gamebot_dds_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("probe.yaml");
    std::fs::write(
        &params,
        "/**:\n  ros__parameters:\n    rounds: 50\nprobe_server:\n  ros__parameters:\n    feedback_every_ms: 1\n",
    )
    .unwrap();
    let server = Child(
        Command::new(exe)
            .args(["serve", "--ros-args", "--params-file"])
            .arg(&params)
            .args(["--log-level", "info"])
            .env("ROS_DOMAIN_ID", "19")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let out = Command::new(exe)
        .args([
            "client",
            "--ros-args",
            "-r",
            "__node:=probe_client",
            "--params-file",
        ])
        .arg(&params)
        .env("ROS_DOMAIN_ID", "19")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut server = server;
    let _ = server.0.kill();
    let mut server_err = String::new();
    if let Some(mut e) = server.0.stderr.take() {
        let _ = e.read_to_string(&mut server_err);
    }
    assert!(
        out.status.success(),
        "client failed:\n{stdout}\n{}\nserver stderr:\n{server_err}",
        String::from_utf8_lossy(&out.stderr)
    );
    for needle in [
        "ok latched state",
        "ok rosout",
        "measure topic round trip: n=50",
        "measure service call: n=50",
        "ok action goal",
        "ok action cancel",
        "ok action reject",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
    println!("{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn bad_domain_id_is_reported() {
    require_private_netns();
    let out = Command::new(env!("CARGO_BIN_EXE_gamebot_ros_probe"))
        .args(["serve"])
        .env("ROS_DOMAIN_ID", "999")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ROS_DOMAIN_ID") && err.contains("999"),
        "{err}"
    );
}
