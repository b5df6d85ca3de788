//! `arm_controller` + `ssc32_bridge` + the SSC-32U emulator in one process:
//! an ExecuteMove transfer end to end, PARK, and TF against FK.

use gamebot_interfaces::action::ExecuteMoveGoal;
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::PhysicalAction;
use gamebot_kinematics::Arm;
use gamebot_nodes::arm_controller::{self, tf_message, ControllerOptions};
use gamebot_nodes::arm_core::ArmPlanner;
use gamebot_nodes::ssc32_bridge::{self, BridgeConfig};
use gamebot_ros::action::{GoalEvent, GoalStatus};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, NodeOptions, Shutdown};
use gamebot_ssc32::{Clock, Emulator, EmulatorConfig};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

fn transfer(from: [f64; 2], to: [f64; 2]) -> PhysicalAction {
    PhysicalAction {
        kind: PhysicalAction::TRANSFER,
        element: "x1".into(),
        element_type: "x".into(),
        from_location: "supply".into(),
        to_location: "b2".into(),
        from_position: Point {
            x: from[0],
            y: from[1],
            z: 0.0,
        },
        to_position: Point {
            x: to[0],
            y: to[1],
            z: 0.0,
        },
        ..Default::default()
    }
}

#[test]
fn an_execute_move_transfer_runs_end_to_end_then_parks() {
    let action = transfer([-0.135, 0.18], [0.0, 0.18]);
    with_arm(Clock::virtual_clock(), |emu, exec| {
        let mut g = exec
            .send_goal(
                ExecuteMoveGoal {
                    actions: vec![action.clone()],
                    ..Default::default()
                },
                T,
            )
            .unwrap();
        let mut steps = Vec::new();
        let outcome = loop {
            match g.next_event(T).unwrap() {
                GoalEvent::Feedback(f) => {
                    assert_eq!((f.action_index, f.actions_total), (0, 1));
                    if steps.last() != Some(&f.step) {
                        steps.push(f.step);
                    }
                }
                GoalEvent::Done(d) => break d.unwrap(),
            }
        };
        assert_eq!(
            outcome.status,
            GoalStatus::Succeeded,
            "{:?}",
            outcome.result
        );
        assert_eq!(outcome.result.actions_done, 1);
        assert_eq!(
            steps,
            ["approach", "grip", "lift", "carry", "place", "release", "retreat"]
        );
        // The board's final pulses are the planned retreat pose above the target,
        // through the arm YAML's pulse mapping (10 µs QP resolution aside, exact).
        let mut planner = ArmPlanner::new(Arm::load_named("al5d").unwrap());
        let home = planner.arm().home().to_vec();
        let open = planner.arm().config().gripper.open;
        let plan = planner.plan(&action, &home, open).unwrap();
        let retreat = &plan.last().unwrap().end;
        let frame = emu.lock().unwrap().pulses();
        for (j, v) in planner.arm().joints().iter().zip(retreat) {
            let want = j.pulse_unchecked(*v).round() as i32;
            let got = frame.pulses[j.servo.channel as usize] as i32;
            assert!((want - got).abs() <= 1, "{}: {got} vs {want}", j.name);
        }
        // The release pose put the tool at grasp height over the target.
        let release = &plan[5].end;
        let (tip, _) = planner.arm_mut().tool_point_axis(release);
        assert!((tip.x - 0.0).abs() < 2e-3 && (tip.y - 0.18).abs() < 2e-3);
        // PARK.
        let park = PhysicalAction {
            kind: PhysicalAction::PARK,
            ..Default::default()
        };
        let out = exec
            .send_goal(
                ExecuteMoveGoal {
                    actions: vec![park],
                    ..Default::default()
                },
                T,
            )
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Succeeded, "{:?}", out.result);
        let frame = emu.lock().unwrap().pulses();
        for (j, v) in planner.arm().joints().iter().zip(planner.arm().park()) {
            let want = j.pulse_unchecked(*v).round() as i32;
            assert!((want - frame.pulses[j.servo.channel as usize] as i32).abs() <= 1);
        }
        // An unreachable target fails naming the step, before anything moves.
        let before = emu.lock().unwrap().last_move();
        let out = exec
            .send_goal(
                ExecuteMoveGoal {
                    actions: vec![transfer([0.0, 0.18], [0.0, 0.9])],
                    ..Default::default()
                },
                T,
            )
            .unwrap()
            .result(T)
            .unwrap();
        assert_eq!(out.status, GoalStatus::Aborted);
        assert!(
            out.result.message.contains("carry"),
            "{}",
            out.result.message
        );
        assert_eq!(
            emu.lock().unwrap().last_move().map(|m| m.started),
            before.map(|m| m.started)
        );
    });
}

#[test]
fn tf_from_base_to_tool_equals_fk_for_random_joint_states() {
    let mut arm = Arm::load_named("al5d").unwrap();
    let tool = arm.config().tool_link.clone();
    let mut seed: u64 = 0x1234_5678;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..50 {
        let q: Vec<f64> = arm
            .joints()
            .iter()
            .map(|j| j.lower + rnd() * (j.upper - j.lower))
            .collect();
        let msg = tf_message(&mut arm, &q, 0.01, Default::default());
        let t = msg
            .transforms
            .iter()
            .find(|t| t.child_frame_id == tool)
            .expect("tool frame published");
        let fk = arm.fk(&q);
        let p = fk.translation.vector;
        let tr = &t.transform.translation;
        assert!(
            (tr.x - p.x).abs() < 1e-9 && (tr.y - p.y).abs() < 1e-9 && (tr.z - p.z).abs() < 1e-9
        );
        let r = fk.rotation;
        let qr = &t.transform.rotation;
        let dot = r.i * qr.x + r.j * qr.y + r.k * qr.z + r.w * qr.w;
        assert!((dot.abs() - 1.0).abs() < 1e-9);
        assert_eq!(t.header.frame_id, arm.config().base_link);
    }
}

/// Runs `f` with an emulator on `clock`, a bridge and an arm controller on
/// one in-process bus, and an `/arm/execute` client; stops the nodes after.
fn with_arm(
    clock: Clock,
    f: impl FnOnce(
        &Mutex<Emulator>,
        &gamebot_ros::action::ActionClient<gamebot_interfaces::action::ExecuteMove>,
    ),
) {
    let options = ControllerOptions {
        publish_tf: true,
        gazebo_grip: None,
    };
    with_arm_options(clock, options, |emu, exec, _| f(emu, exec))
}

/// [`with_arm`] with the controller's options; `f` also gets the client
/// node (to watch what the controller publishes).
fn with_arm_options(
    clock: Clock,
    options: ControllerOptions,
    f: impl FnOnce(
        &Mutex<Emulator>,
        &gamebot_ros::action::ActionClient<gamebot_interfaces::action::ExecuteMove>,
        &gamebot_ros::inproc::InProcNode,
    ),
) {
    // A stable link, as udev gives a real board, so the bridge finds the
    // device again after a reconnect.
    static N: AtomicUsize = AtomicUsize::new(0);
    let link = std::env::temp_dir().join(format!(
        "gamebot-arm-controller-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let emu = Emulator::start(EmulatorConfig {
        clock: clock.clone(),
        link: Some(link),
        ..Default::default()
    })
    .unwrap();
    let port = emu.path().to_string_lossy().to_string();
    let emu = Mutex::new(emu);
    let bus = InProcBus::new();
    let client = bus.node(NodeOptions::new("referee")).unwrap();
    let bridge = bus.node(NodeOptions::new("ssc32_bridge")).unwrap();
    let ctrl = bus.node(NodeOptions::new("arm_controller")).unwrap();
    let stop = Shutdown::new();
    std::thread::scope(|s| {
        let st = stop.clone();
        let mut config = BridgeConfig::new(port);
        config.clock = clock.clone();
        s.spawn(move || {
            let arm = Arm::load_named("al5d").unwrap();
            ssc32_bridge::run_with(&bridge, &st, &arm, config).unwrap()
        });
        let st = stop.clone();
        s.spawn(move || {
            let arm = Arm::load_named("al5d").unwrap();
            arm_controller::run_with_options(&ctrl, &st, arm, options).unwrap()
        });
        let exec = client.action_client_on(&graph::EXECUTE_MOVE).unwrap();
        assert!(exec.wait_for_server(T));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&emu, &exec, &client)));
        stop.request();
        if let Err(p) = r {
            std::panic::resume_unwind(p);
        }
    });
}

/// Sends one transfer and returns every step reported (in order) and the outcome.
fn run_transfer(
    exec: &gamebot_ros::action::ActionClient<gamebot_interfaces::action::ExecuteMove>,
) -> (
    Vec<String>,
    gamebot_ros::action::GoalOutcome<gamebot_interfaces::action::ExecuteMoveResult>,
) {
    let mut g = exec
        .send_goal(
            ExecuteMoveGoal {
                actions: vec![transfer([-0.135, 0.18], [0.0, 0.18])],
                ..Default::default()
            },
            T,
        )
        .unwrap();
    let mut steps = Vec::new();
    loop {
        match g.next_event(T).unwrap() {
            GoalEvent::Feedback(f) => steps.push(f.step),
            GoalEvent::Done(d) => return (steps, d.unwrap()),
        }
    }
}

#[test]
fn a_move_stalled_once_is_tried_again_from_where_the_arm_stopped() {
    with_arm(Clock::scaled(20.0).unwrap(), |emu, exec| {
        // The servos stall at the start; the first STOP (the bridge's
        // timeout) frees them, as a servo blocked for a moment would be.
        emu.lock().unwrap().set_stall(true);
        let log = emu.lock().unwrap().subscribe_log();
        std::thread::scope(|s| {
            s.spawn(move || {
                while let Ok(e) = log.recv_timeout(T) {
                    if e.line.starts_with("STOP") {
                        emu.lock().unwrap().set_stall(false);
                        break;
                    }
                }
            });
            let (steps, outcome) = run_transfer(exec);
            assert_eq!(
                outcome.status,
                GoalStatus::Succeeded,
                "{:?}",
                outcome.result
            );
            // The plan's steps, the first one twice.
            let mut planner = ArmPlanner::new(Arm::load_named("al5d").unwrap());
            let home = planner.arm().home().to_vec();
            let open = planner.arm().config().gripper.open;
            let action = transfer([-0.135, 0.18], [0.0, 0.18]);
            let mut want: Vec<&str> = planner
                .plan(&action, &home, open)
                .unwrap()
                .iter()
                .map(|s| s.name)
                .collect();
            want.insert(0, want[0]);
            assert_eq!(steps, want);
        });
    });
}

#[test]
fn a_servo_that_stays_stalled_aborts_naming_the_step_after_the_retries() {
    with_arm(Clock::scaled(20.0).unwrap(), |emu, exec| {
        emu.lock().unwrap().set_stall(true);
        let (steps, outcome) = run_transfer(exec);
        assert_eq!(outcome.status, GoalStatus::Aborted);
        assert!(steps.iter().all(|s| s == "approach"), "{steps:?}");
        let m = &outcome.result.message;
        assert!(
            m.contains("step approach") && m.contains("not complete"),
            "{m}"
        );
        assert!(m.contains("parking failed too"), "{m}");
        assert_eq!(outcome.result.actions_done, 0);
    });
}

#[test]
fn a_serial_line_lost_again_and_again_is_waited_out_without_using_up_the_retries() {
    // More losses than the controller has paused retries (three): each one
    // must be waited out until the bridge's status says the line is back.
    const LOSSES: usize = 6;
    with_arm(Clock::scaled(20.0).unwrap(), |emu, exec| {
        let log = emu.lock().unwrap().subscribe_log();
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let done = &done;
            let losses = s.spawn(move || {
                let mut n = 0;
                while n < LOSSES && !done.load(Ordering::SeqCst) {
                    let Ok(e) = log.recv_timeout(Duration::from_millis(200)) else {
                        continue;
                    };
                    if !e.line.starts_with('#') {
                        continue;
                    }
                    // The cable is pulled during a move and plugged in again
                    // a moment later (wall time, as a person would).
                    emu.lock().unwrap().disconnect();
                    n += 1;
                    std::thread::sleep(Duration::from_millis(150));
                    emu.lock().unwrap().reconnect().unwrap();
                }
                n
            });
            let (steps, outcome) = run_transfer(exec);
            done.store(true, Ordering::SeqCst);
            let n = losses.join().unwrap();
            assert_eq!(n, LOSSES, "the line was lost {n} times");
            assert_eq!(
                outcome.status,
                GoalStatus::Succeeded,
                "{:?}",
                outcome.result
            );
            assert_eq!(outcome.result.actions_done, 1);
            // Every step of the plan was reported, in order (some again
            // after a loss).
            let mut planner = ArmPlanner::new(Arm::load_named("al5d").unwrap());
            let home = planner.arm().home().to_vec();
            let open = planner.arm().config().gripper.open;
            let action = transfer([-0.135, 0.18], [0.0, 0.18]);
            let want: Vec<&str> = planner
                .plan(&action, &home, open)
                .unwrap()
                .iter()
                .map(|s| s.name)
                .collect();
            assert!(steps.len() >= want.len() + LOSSES, "{steps:?}");
            let (mut got, mut want) = (steps.clone(), want);
            got.dedup();
            want.dedup();
            assert_eq!(got, want, "{steps:?}");
        });
    });
}

/// Gazebo mode: before the goal every piece is detached (DetachableJoint
/// attaches them all when the world starts); the moved piece is attached
/// once when the gripper has closed on it and detached when it opened; no
/// other piece is ever attached.
#[test]
fn in_gazebo_mode_the_gripped_piece_is_attached_and_detached() {
    let options = ControllerOptions {
        publish_tf: true,
        gazebo_grip: Some(vec!["x1".into(), "o(1)".into()]),
    };
    with_arm_options(Clock::scaled(20.0).unwrap(), options, |_, exec, client| {
        use gamebot_interfaces::std_msgs::Empty;
        let sub = |element: &str, attach: bool| {
            let (a, d) = gamebot_gazebo::grip_topics(&gamebot_gazebo::piece_model(element));
            client
                .subscription::<Empty>(if attach { &a } else { &d }, gamebot_ros::Qos::reliable(10))
                .unwrap()
        };
        let (x_attach, x_detach) = (sub("x1", true), sub("x1", false));
        let (o_attach, o_detach) = (sub("o(1)", true), sub("o(1)", false));
        assert_eq!(
            gamebot_gazebo::grip_topics(&gamebot_gazebo::piece_model("o(1)")).0,
            "/gamebot/grip/piece_o_1_/attach"
        );
        let (steps, outcome) = run_transfer(exec);
        assert_eq!(
            outcome.status,
            GoalStatus::Succeeded,
            "{:?}",
            outcome.result
        );
        assert!(steps.contains(&"grip".to_string()), "{steps:?}");
        let count = |s: &gamebot_ros::Subscription<Empty>| {
            let mut n = 0;
            while s.try_recv().is_ok() {
                n += 1;
            }
            n
        };
        // Detached before the goal and after the release; attached once.
        assert_eq!(count(&x_attach), 1);
        assert_eq!(count(&x_detach), 2);
        assert_eq!(count(&o_attach), 0);
        assert_eq!(count(&o_detach), 1);
    });
}

/// Gazebo mode: pieces of one type trade names (the referee infers an
/// equivalent move), so the closing gripper attaches the model the world's
/// pose info shows where the action picks, not the model named after the
/// rules' element, which lies elsewhere.
#[test]
fn in_gazebo_mode_the_model_lying_at_the_pick_point_is_attached() {
    let options = ControllerOptions {
        publish_tf: true,
        gazebo_grip: Some(vec!["x1".into(), "x2".into()]),
    };
    with_arm_options(Clock::scaled(20.0).unwrap(), options, |_, exec, client| {
        use gamebot_interfaces::geometry_msgs::{Transform, TransformStamped, Vector3};
        use gamebot_interfaces::std_msgs::Empty;
        use gamebot_interfaces::tf2_msgs::TFMessage;
        let sub = |element: &str| {
            let (a, _) = gamebot_gazebo::grip_topics(&gamebot_gazebo::piece_model(element));
            client
                .subscription::<Empty>(&a, gamebot_ros::Qos::reliable(10))
                .unwrap()
        };
        let (x1_attach, x2_attach) = (sub("x1"), sub("x2"));
        let at = |model: &str, x: f64, y: f64, z: f64| TransformStamped {
            child_frame_id: model.into(),
            transform: Transform {
                translation: Vector3 { x, y, z },
                ..Default::default()
            },
            ..Default::default()
        };
        // x2's model lies where the transfer of x1 picks (2 mm off); x1's
        // model lies 10 cm away. A piece of the world that is no piece of
        // the game lies there too and is never attached.
        let poses = TFMessage {
            transforms: vec![
                at(&gamebot_gazebo::piece_model("x1"), -0.135, 0.28, 0.005),
                at(&gamebot_gazebo::piece_model("x2"), -0.133, 0.18, 0.005),
                at("table", -0.135, 0.18, 0.5),
            ],
        };
        let publisher = client
            .publisher_on(&gamebot_ros::graph::GZ_POSE_INFO)
            .unwrap();
        let done = std::sync::atomic::AtomicBool::new(false);
        let (steps, outcome) = std::thread::scope(|s| {
            s.spawn(|| {
                // Gazebo publishes the pose info all the time.
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    publisher.publish(&poses).unwrap();
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let r = run_transfer(exec);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            r
        });
        assert_eq!(
            outcome.status,
            GoalStatus::Succeeded,
            "{:?}",
            outcome.result
        );
        assert!(steps.contains(&"grip".to_string()), "{steps:?}");
        let count = |s: &gamebot_ros::Subscription<Empty>| {
            let mut n = 0;
            while s.try_recv().is_ok() {
                n += 1;
            }
            n
        };
        assert_eq!(count(&x2_attach), 1, "the model lying at the pick point");
        assert_eq!(count(&x1_attach), 0, "the model named after the element");
    });
}
