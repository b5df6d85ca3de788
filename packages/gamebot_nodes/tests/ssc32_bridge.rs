//! `ssc32_bridge` on the in-process bus against `gamebot_ssc32::Emulator` on a
//! real pty: trajectories reach the board, bad goals end with the reason,
//! cancel sends STOP, a serial drop aborts naming the port and the bridge
//! reconnects, the gripper action.

use gamebot_interfaces::builtin_interfaces::Duration as RosDuration;
use gamebot_interfaces::control_msgs::{
    FollowJointTrajectory, FollowJointTrajectoryGoal, FollowJointTrajectoryResult as FjtResult,
    GripperCommand, GripperCommandAction, GripperCommandGoal,
};
use gamebot_interfaces::trajectory_msgs::{JointTrajectory, JointTrajectoryPoint};
use gamebot_kinematics::Arm;
use gamebot_nodes::ssc32_bridge::{run_with, BridgeConfig};
use gamebot_ros::action::{GoalEvent, GoalStatus};
use gamebot_ros::inproc::{InProcBus, InProcNode};
use gamebot_ros::{graph, ActionClient, Bus, NodeOptions, ParamValue, Qos, Shutdown};
use gamebot_ssc32::emulator::Outcome;
use gamebot_ssc32::{Clock, Command, Emulator, EmulatorConfig};
use std::path::PathBuf;
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn arm() -> Arm {
    Arm::load_named("al5d").unwrap()
}

fn point(p: &[f64], ms: u64) -> JointTrajectoryPoint {
    JointTrajectoryPoint {
        positions: p.to_vec(),
        time_from_start: RosDuration::from_std(Duration::from_millis(ms)),
        ..Default::default()
    }
}

fn goal(arm: &Arm, points: Vec<JointTrajectoryPoint>) -> FollowJointTrajectoryGoal {
    FollowJointTrajectoryGoal {
        trajectory: JointTrajectory {
            joint_names: arm.joints().iter().map(|j| j.name.clone()).collect(),
            points,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn pulse(arm: &Arm, i: usize, v: f64) -> u16 {
    arm.joints()[i].pulse_unchecked(v).round() as u16
}

/// Runs a bridge on `port` with `clock` while `body` runs; the client node is given.
fn with_bridge(port: &str, clock: Clock, body: impl FnOnce(&InProcNode)) {
    let bus = InProcBus::new();
    let client = bus.node(NodeOptions::new("client")).unwrap();
    let node = bus.node(NodeOptions::new("ssc32_bridge")).unwrap();
    let stop = Shutdown::new();
    let arm = arm();
    let mut config = BridgeConfig::new(port);
    config.clock = clock;
    /// Stops the bridge even when the body panics.
    struct StopOnDrop(Shutdown);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.request();
        }
    }
    std::thread::scope(|s| {
        let st = stop.clone();
        let h = s.spawn(move || run_with(&node, &st, &arm, config));
        let guard = StopOnDrop(stop.clone());
        body(&client);
        drop(guard);
        h.join().unwrap().unwrap();
    });
}

fn fjt(client: &InProcNode) -> ActionClient<FollowJointTrajectory> {
    let c = client
        .action_client_on(&graph::FOLLOW_JOINT_TRAJECTORY)
        .unwrap();
    assert!(c.wait_for_server(T));
    c
}

#[test]
fn a_trajectory_reaches_the_board_and_joint_states_track_it() {
    let clock = Clock::virtual_clock();
    let emu = Emulator::start(EmulatorConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .unwrap();
    let arm = arm();
    let port = emu.path().to_string_lossy().to_string();
    with_bridge(&port, clock.clone(), |client| {
        let states = client
            .subscription::<gamebot_interfaces::sensor_msgs::JointState>(
                graph::JOINT_STATES.name,
                Qos::reliable(10_000),
            )
            .unwrap();
        let c = fjt(client);
        let home = arm.home().to_vec();
        let mut a = home.clone();
        a[0] = 0.4;
        a[1] = 0.2;
        let mut b = a.clone();
        b[0] = -0.2;
        let start = clock.now();
        let mut g = c
            .send_goal(
                goal(&arm, vec![point(&home, 0), point(&a, 800), point(&b, 1600)]),
                T,
            )
            .unwrap();
        let out = g.result(T).unwrap();
        assert_eq!(out.status, GoalStatus::Succeeded, "{:?}", out.result);
        assert_eq!(out.result.error_code, FjtResult::SUCCESSFUL);
        // The trajectory took its time on the board's clock.
        assert!(clock.now() - start >= Duration::from_millis(1600));
        let frame = emu.pulses();
        for (i, v) in b.iter().enumerate() {
            let ch = arm.joints()[i].servo.channel as usize;
            assert_eq!(frame.pulses[ch], pulse(&arm, i, *v), "joint {i}");
        }
        // Joint states at >= 20 Hz of board time, ending at the target.
        let got: Vec<_> = states.drain();
        assert!(got.len() >= 1600 / 50, "{} joint states", got.len());
        let js = got.last().unwrap();
        assert_eq!(js.name.len(), arm.dof() + 1);
        // The states after the goal ended report the target.
        let close = |js: &gamebot_interfaces::sensor_msgs::JointState| {
            b.iter()
                .enumerate()
                .all(|(i, v)| (js.position[i] - v).abs() < 0.01)
        };
        let mut last = js.clone();
        for _ in 0..200 {
            if close(&last) {
                break;
            }
            last = states.recv_timeout(T).expect("joint states keep coming");
        }
        assert!(close(&last), "{:?} vs {b:?}", last.position);
    });
}

#[test]
fn bad_goals_end_with_the_code_and_the_reason() {
    let clock = Clock::virtual_clock();
    let emu = Emulator::start(EmulatorConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .unwrap();
    let arm = arm();
    let port = emu.path().to_string_lossy().to_string();
    with_bridge(&port, clock, |client| {
        let c = fjt(client);
        let mut unknown = goal(&arm, vec![point(&[0.1], 500)]);
        unknown.trajectory.joint_names = vec!["tail_wag".into()];
        let out = c.send_goal(unknown, T).unwrap().result(T).unwrap();
        assert_eq!(out.status, GoalStatus::Aborted);
        assert_eq!(out.result.error_code, FjtResult::INVALID_JOINTS);
        assert!(out.result.error_string.contains("tail_wag"));
        let mut far = arm.home().to_vec();
        far[2] = 3.0;
        let out = c
            .send_goal(goal(&arm, vec![point(&far, 20_000)]), T)
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Aborted);
        assert_eq!(out.result.error_code, FjtResult::INVALID_GOAL);
        assert!(
            out.result.error_string.contains("elbow_pitch")
                && out.result.error_string.contains("outside"),
            "{}",
            out.result.error_string
        );
        // Nothing moved.
        assert!(emu.last_move().is_none());
    });
}

#[test]
fn cancel_sends_stop_and_ends_the_goal_at_once() {
    let emu = Emulator::start(EmulatorConfig::default()).unwrap();
    let log = emu.subscribe_log();
    let arm = arm();
    let port = emu.path().to_string_lossy().to_string();
    with_bridge(&port, Clock::real(), |client| {
        let c = fjt(client);
        let home = arm.home().to_vec();
        let mut far = home.clone();
        far[0] = 1.2;
        // Servo outputs that were never driven jump to their first pulse (as on
        // the board): drive them to home first.
        let out = c
            .send_goal(goal(&arm, vec![point(&home, 200)]), T)
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Succeeded);
        let mut g = c
            .send_goal(goal(&arm, vec![point(&home, 0), point(&far, 3000)]), T)
            .unwrap();
        // Wait until it moves (first feedback), then cancel.
        // Wait until it moves (first feedback).
        if let GoalEvent::Done(d) = g.next_event(T).unwrap() {
            panic!("ended early: {d:?}");
        }
        assert!(g.cancel(T).unwrap());
        let out = g.result(T).unwrap();
        assert_eq!(out.status, GoalStatus::Canceled);
        let stops = log
            .try_iter()
            .filter(|e| matches!(e.outcome, Outcome::Executed(Command::Stop(_))))
            .count();
        assert!(stops >= 1, "no STOP reached the board");
        // Stopped short of the target.
        let ch = arm.joints()[0].servo.channel as usize;
        let now = emu.pulses().pulses[ch];
        assert_ne!(now, pulse(&arm, 0, 1.2));
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(emu.pulses().pulses[ch], now, "still moving after STOP");
    });
}

#[test]
fn a_serial_drop_aborts_naming_the_port_and_the_bridge_reconnects() {
    let link: PathBuf = std::env::temp_dir().join(format!("gamebot-bridge-{}", std::process::id()));
    let config = || EmulatorConfig {
        link: Some(link.clone()),
        ..Default::default()
    };
    let emu = Emulator::start(config()).unwrap();
    let arm = arm();
    let port = link.to_string_lossy().to_string();
    with_bridge(&port, Clock::real(), |client| {
        let diag = client.subscription_on(&graph::DIAGNOSTICS).unwrap();
        let c = fjt(client);
        let home = arm.home().to_vec();
        let mut far = home.clone();
        far[0] = 0.9;
        let mut g = c
            .send_goal(goal(&arm, vec![point(&home, 0), point(&far, 2000)]), T)
            .unwrap();
        // Wait until it moves (first feedback).
        if let GoalEvent::Done(d) = g.next_event(T).unwrap() {
            panic!("ended early: {d:?}");
        }
        emu.disconnect();
        drop(emu);
        let out = g.result(T).unwrap();
        assert_eq!(out.status, GoalStatus::Aborted);
        assert!(
            out.result.error_string.contains(&port),
            "{}",
            out.result.error_string
        );
        // The fault is published.
        let mut saw_error = false;
        while let Ok(d) = diag.recv_timeout(T) {
            if d.status[0].level == 2 && !d.status[0].values[4].value.is_empty() {
                saw_error = true;
                break;
            }
        }
        assert!(saw_error);
        // The line comes back at the same path; the bridge reopens it.
        let emu = Emulator::start(config()).unwrap();
        loop {
            let d = diag.recv_timeout(T).expect("diagnostics");
            if d.status[0].message == "ready" {
                break;
            }
        }
        let mut g = c
            .send_goal(goal(&arm, vec![point(&home, 0), point(&far, 1000)]), T)
            .unwrap();
        // The new board starts with unknown positions: the first point is a jump
        // to home, which the board makes at once; then the timed move.
        let out = g.result(T).unwrap();
        assert_eq!(out.status, GoalStatus::Succeeded, "{:?}", out.result);
        let ch = arm.joints()[0].servo.channel as usize;
        assert_eq!(emu.pulses().pulses[ch], pulse(&arm, 0, 0.9));
    });
    let _ = std::fs::remove_file(&link);
}

#[test]
fn the_gripper_action_moves_the_finger_servo() {
    let clock = Clock::virtual_clock();
    let emu = Emulator::start(EmulatorConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .unwrap();
    let arm = arm();
    let port = emu.path().to_string_lossy().to_string();
    with_bridge(&port, clock, |client| {
        let c: ActionClient<GripperCommandAction> =
            client.action_client_on(&graph::GRIPPER_COMMAND).unwrap();
        assert!(c.wait_for_server(T));
        let closed = arm.config().gripper.closed;
        let out = c
            .send_goal(
                GripperCommandGoal {
                    command: GripperCommand {
                        position: closed,
                        max_effort: 0.0,
                    },
                },
                T,
            )
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Succeeded);
        assert!(out.result.reached_goal);
        assert!((out.result.position - closed).abs() < 1e-3);
        let g = arm.gripper();
        assert_eq!(
            emu.pulses().pulses[g.servo.channel as usize],
            g.pulse_unchecked(closed).round() as u16
        );
        // Beyond the finger's range: aborted, nothing sent.
        let out = c
            .send_goal(
                GripperCommandGoal {
                    command: GripperCommand {
                        position: 0.5,
                        max_effort: 0.0,
                    },
                },
                T,
            )
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Aborted);
    });
}

/// `use_sim_time`: the bridge's node clock is `/clock`. The emulated board
/// runs 5× faster than the wall; `/clock` carries its time (offset by 1000 s,
/// as a simulation's time line starts where it likes): a trajectory's
/// timing and the joint-state stamps are on that time line, and the arm
/// controller's `/tf` carries the joint states' stamps.
#[test]
fn with_use_sim_time_the_bridge_and_tf_run_on_the_clock_topic() {
    let clock = Clock::scaled(5.0).unwrap();
    let emu = Emulator::start(EmulatorConfig {
        clock: clock.clone(),
        ..Default::default()
    })
    .unwrap();
    let arm = arm();
    let port = emu.path().to_string_lossy().to_string();
    let bus = InProcBus::new();
    let client = bus.node(NodeOptions::new("client")).unwrap();
    let sim_time = |name: &str| {
        NodeOptions::new(name)
            .param("use_sim_time", ParamValue::Bool(true))
            .param("port", ParamValue::String(port.clone()))
    };
    let bridge = bus.node(sim_time("ssc32_bridge")).unwrap();
    let ctrl = bus
        .node(NodeOptions::new("arm_controller").param("use_sim_time", ParamValue::Bool(true)))
        .unwrap();
    let clock_pub = client.publisher_on(&graph::CLOCK).unwrap();
    let stop = Shutdown::new();
    let offset = Duration::from_secs(1000);
    let sim_ns = |d: Duration| (offset + d).as_nanos() as i64;
    std::thread::scope(|s| {
        let st = stop.clone();
        s.spawn(move || gamebot_nodes::ssc32_bridge::run(&bridge, &st).unwrap());
        let st = stop.clone();
        s.spawn(move || gamebot_nodes::arm_controller::run(&ctrl, &st).unwrap());
        // The time source: the board's clock on /clock every 10 ms of its time.
        let st = stop.clone();
        let c = clock.clone();
        let clock_pub = &clock_pub;
        s.spawn(move || {
            while !st.is_requested() {
                let _ = clock_pub.publish(&gamebot_interfaces::rosgraph_msgs::Clock {
                    clock: gamebot_interfaces::builtin_interfaces::Time::from_nanos(sim_ns(
                        c.now(),
                    )),
                });
                c.sleep(Duration::from_millis(10));
            }
        });
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let states = client
                .subscription::<gamebot_interfaces::sensor_msgs::JointState>(
                    graph::JOINT_STATES.name,
                    Qos::reliable(10_000),
                )
                .unwrap();
            let tf = client.subscription_on(&graph::TF).unwrap();
            let c = fjt(&client);
            let home = arm.home().to_vec();
            let mut a = home.clone();
            a[0] = 0.4;
            // The board's outputs start off, and a channel's first pulse
            // jumps there at once (as on the real board): so first put the
            // servos on at home. Without this the timed move below is a
            // jump, and the goal ends on the bridge's /clock alone, which
            // trails the board's time by up to a tick.
            let on = c
                .send_goal(goal(&arm, vec![point(&home, 0), point(&home, 100)]), T)
                .unwrap()
                .result(T)
                .unwrap();
            assert_eq!(on.status, GoalStatus::Succeeded, "{:?}", on.result);
            assert!(emu.pulses().pulses[..5].iter().all(|&p| p != 0));
            let t0 = clock.now();
            let out = c
                .send_goal(goal(&arm, vec![point(&home, 0), point(&a, 2000)]), T)
                .unwrap()
                .result(T)
                .unwrap();
            assert_eq!(out.status, GoalStatus::Succeeded, "{:?}", out.result);
            // 2 s of board time (0.4 s of wall time at 5×): the board's `Q`
            // answers done only then.
            assert!(clock.now() - t0 >= Duration::from_millis(2000));
            let js = states.drain();
            assert!(!js.is_empty());
            let now = sim_ns(clock.now());
            for m in &js {
                let t = m.header.stamp.as_nanos();
                assert!(
                    t >= sim_ns(Duration::ZERO) && t <= now,
                    "a joint state stamped {t}, not on /clock's time line (now {now})"
                );
            }
            // /tf is stamped as the joint states it came from.
            let tfm = tf.recv_timeout(T).expect("/tf");
            let t = tfm.transforms[0].header.stamp.as_nanos();
            assert!(
                t >= sim_ns(Duration::ZERO) && t <= sim_ns(clock.now()),
                "{t}"
            );
        }));
        stop.request();
        if let Err(p) = r {
            std::panic::resume_unwind(p);
        }
    });
}
