//! The simulated world end to end, without ROS: the real driver on the
//! emulated pty, plans from gamebot_kinematics, grasping by geometry, the
//! person's hand seen by the real detector, faults.

mod common;

use std::time::Duration;

use common::*;
use gamebot_kinematics::{Action, Arm};
use gamebot_sim::{FaultKind, HandAction, HandTarget, SimError};
use gamebot_ssc32::DriverError;
use gamebot_vision::board_model::VisionBoard;
use gamebot_vision::detect::{Detector, DetectorConfig};
use gamebot_vision::filter::{FilterConfig, FilterStatus, TemporalFilter};

/// Supply → centre square: the piece ends within 5 mm (z within 2 mm) of the
/// square, nothing else was touched, occupancy follows.
fn pick_and_place(arm_name: &str) {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, arm_name, "none", 3);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named(arm_name).unwrap();
    let piece = element_on(&g, &s, "sx(1)");
    let from = resolve(&mut arm, &g, "sx(1)", 0.0);
    let to = resolve(&mut arm, &g, "cell(2,2)", 0.0);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &from,
                to: &to,
            },
            Action::Park,
        ],
    );
    let (xy, z) = error_to(&w, &g, &piece, "cell(2,2)");
    assert!(
        xy < 0.005 && z < 0.002,
        "{arm_name}: {piece} off by {:.2} mm, z {:.2} mm",
        xy * 1e3,
        z * 1e3
    );
    assert!(w.held().is_none());
    assert!(w.contacts().is_empty(), "{arm_name}: {:?}", w.contacts());
    let occ = w.occupancy();
    let on = |n: &str| occ.iter().find(|o| o.name == n).unwrap().elements.clone();
    assert_eq!(on("cell(2,2)"), vec![piece.clone()]);
    assert!(on("sx(1)").is_empty());
    // The rule engine's state after the same move agrees.
    let moves = g.legal_moves(&s).unwrap();
    let texts: Vec<String> = moves.iter().map(|m| g.move_text(m)).collect();
    let i = texts
        .iter()
        .position(|t| t.contains(&piece) && t.contains("cell(2,2)"))
        .unwrap_or_else(|| panic!("no move of {piece} to cell(2,2) in {texts:?}"));
    let mut after = s.clone();
    g.apply(&mut after, &moves[i]).unwrap();
    assert!(
        w.mismatches(&g, &after).is_empty(),
        "{:?}",
        w.mismatches(&g, &after)
    );
    assert!(
        !w.mismatches(&g, &s).is_empty(),
        "the world no longer matches the start"
    );
}

#[test]
fn al5d_moves_a_piece_from_the_supply_to_a_square() {
    pick_and_place("al5d");
}

#[test]
fn desk6_moves_a_piece_from_the_supply_to_a_square() {
    pick_and_place("desk6");
}

/// On a scaled clock (50 × real time) the driver, the emulator and the world
/// share one time line: the arm ends where FK of the plan's last pose says.
#[test]
fn a_scaled_clock_runs_the_same_world() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = gamebot_sim::World::new(
        &g,
        &s,
        gamebot_sim::WorldConfig {
            real_time_factor: Some(50.0),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(w.clock().real_time_factor(), Some(50.0));
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm.plan(&park, open, &[Action::Home]).unwrap();
    let wall = std::time::Instant::now();
    drv.run_trajectory(&points(&arm, &traj, 0.05)).unwrap();
    let sim = w.clock().now();
    assert!(
        sim.as_secs_f64() >= traj.duration(),
        "{sim:?} < {}",
        traj.duration()
    );
    assert!(wall.elapsed().as_secs_f64() * 50.0 <= sim.as_secs_f64() + 0.5);
    w.update().unwrap();
    let tool = w.tool_position();
    let home = arm.home().to_vec();
    let (want, _) = arm.tool_point_axis(&home);
    let err =
        ((tool[0] - want.x).powi(2) + (tool[1] - want.y).powi(2) + (tool[2] - want.z).powi(2))
            .sqrt();
    assert!(err < 0.002, "tool {tool:?} vs FK {want:?}");
}

#[test]
fn closing_on_nothing_grasps_nothing() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 4);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let before = w.pieces();
    // An empty square to an empty square: the gripper closes on air.
    let from = resolve(&mut arm, &g, "cell(1,1)", 0.0);
    let to = resolve(&mut arm, &g, "cell(3,3)", 0.0);
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm
        .plan(
            &park,
            open,
            &[Action::Transfer {
                from: &from,
                to: &to,
            }],
        )
        .unwrap();
    // Stop right after the gripper closed and lifted: nothing in it.
    let close_t = traj
        .waypoints
        .iter()
        .find(|wp| wp.label == "close")
        .unwrap()
        .time_s;
    let pts: Vec<_> = points(&arm, &traj, 0.05)
        .into_iter()
        .filter(|p| p.time_from_start.as_secs_f64() <= close_t + 0.5)
        .collect();
    drv.run_trajectory(&pts).unwrap();
    w.update().unwrap();
    let g_now = w.arm_state().gripper;
    assert!(g_now < open - 0.004, "the gripper closed ({g_now})");
    assert!(w.held().is_none());
    assert_eq!(w.pieces(), before, "no piece moved");
    assert!(w.contacts().is_empty());
}

#[test]
fn a_released_piece_lands_on_a_stack() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 5);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let piece = element_on(&g, &s, "sx(1)");
    let below = element_on(&g, &s, "sx(2)");
    let from = resolve(&mut arm, &g, "sx(1)", 0.0);
    // Put it down one piece height higher, on top of the piece in sx(2).
    let to = resolve(&mut arm, &g, "sx(2)", 1.0);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &from,
                to: &to,
            },
            Action::Park,
        ],
    );
    let p = w.pieces().into_iter().find(|p| p.name == piece).unwrap();
    let (xy, _) = error_to(&w, &g, &piece, "sx(2)");
    assert!(xy < 0.005, "{:.2} mm", xy * 1e3);
    assert!(
        (p.position[2] - 0.01).abs() < 0.002,
        "on top of the other: z {}",
        p.position[2]
    );
    let occ = w.occupancy();
    let on = occ.iter().find(|o| o.name == "sx(2)").unwrap();
    assert_eq!(on.elements, vec![below, piece], "bottom first");
    assert!(w.contacts().is_empty(), "{:?}", w.contacts());
}

/// The contact log is not blind: putting a piece down into an occupied slot
/// (at table height) drives the carried piece through the one there.
#[test]
fn carrying_a_piece_through_another_is_a_contact() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 12);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let piece = element_on(&g, &s, "sx(1)");
    let other = element_on(&g, &s, "sx(2)");
    let from = resolve(&mut arm, &g, "sx(1)", 0.0);
    let to = resolve(&mut arm, &g, "sx(2)", 0.0);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &from,
                to: &to,
            },
            Action::Park,
        ],
    );
    let c = w.contacts();
    assert!(
        c.iter().any(|c| c.by == piece && c.element == other),
        "{c:?}"
    );
    let at = w
        .location_position(g.location_by_name("sx(2)").unwrap())
        .unwrap();
    let hit = c.iter().find(|c| c.element == other).unwrap();
    assert!((hit.position[0] - at[0]).abs() < 0.005 && (hit.position[1] - at[1]).abs() < 0.005);
}

#[test]
fn reset_starts_a_new_game_on_the_same_line() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 13);
    let path = w.serial_path().to_path_buf();
    let moves = g.legal_moves(&s).unwrap();
    let mut after = s.clone();
    g.apply(&mut after, &moves[0]).unwrap();
    assert!(!w.mismatches(&g, &after).is_empty());
    w.reset(&g, &after).unwrap();
    assert!(
        w.mismatches(&g, &after).is_empty(),
        "{:?}",
        w.mismatches(&g, &after)
    );
    assert_eq!(w.serial_path(), path.as_path());
    let c4 = game("connect4");
    let s4 = c4.initial_state();
    w.reset(&c4, &s4).unwrap();
    assert!(
        w.mismatches(&c4, &s4).is_empty(),
        "{:?}",
        w.mismatches(&c4, &s4)
    );
    // Connect four's supply slots share points: real stacks, z grows.
    let pieces = w.pieces();
    assert!(pieces.iter().any(|p| p.position[2] > 0.015));
    for p in pieces.iter().filter(|p| p.position[2] > 1e-9) {
        assert!(
            pieces
                .iter()
                .any(|q| (q.position[0] - p.position[0]).abs() < 1e-9
                    && (q.position[1] - p.position[1]).abs() < 1e-9
                    && (q.position[2] + q.height - p.position[2]).abs() < 1e-9),
            "{} floats at {:?}",
            p.name,
            p.position
        );
    }
}

#[test]
fn a_seeded_slip_drops_the_piece_during_the_carry() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "slip=1", 6);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let piece = element_on(&g, &s, "sx(1)");
    let from = resolve(&mut arm, &g, "sx(1)", 0.0);
    let to = resolve(&mut arm, &g, "cell(2,2)", 0.0);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &from,
                to: &to,
            },
            Action::Park,
        ],
    );
    assert_eq!(w.fault_counts().get(&FaultKind::Slip), Some(&1));
    let (xy, _) = error_to(&w, &g, &piece, "cell(2,2)");
    assert!(xy > 0.02, "the piece never arrived ({:.1} mm)", xy * 1e3);
    let p = w.pieces().into_iter().find(|p| p.name == piece).unwrap();
    assert!(!p.held);
    assert!(
        p.position[2] < 0.011,
        "it fell onto the table or a piece: z {}",
        p.position[2]
    );
    // It fell near its supply slot: the slip happens 2 cm above the grasp.
    let (from_xy, _) = error_to(&w, &g, &piece, "sx(1)");
    assert!(from_xy < 0.01, "{:.1} mm", from_xy * 1e3);
}

#[test]
fn serial_drop_and_reconnect_at_the_same_path() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "serial_drop=1,serial_down_s=1.5", 7);
    let path = w.serial_path().to_path_buf();
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm.plan(&park, open, &[Action::Home]).unwrap();
    let pts = points(&arm, &traj, 0.05);
    // The first group move draws the drop as soon as the world sees it:
    // when the emulator's thread has read it from the pty, however busy the
    // machine is (a CI run once starved it past 5 s of simulation time), so
    // the bound is only a generous guard against a hang.
    let moves = gamebot_ssc32::driver::trajectory_moves(&pts[..2]).unwrap();
    drv.start_move(&moves[0]).unwrap();
    let guard = std::time::Instant::now();
    while w.fault_counts().get(&FaultKind::SerialDrop).is_none() {
        w.step(Duration::from_millis(10)).unwrap();
        std::thread::yield_now();
        assert!(guard.elapsed() < Duration::from_secs(120), "no drop");
    }
    assert!(!w.serial_connected());
    let e = drv.version().unwrap_err();
    assert!(
        matches!(
            e,
            DriverError::Disconnected { .. } | DriverError::Timeout { .. }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains(path.to_str().unwrap()),
        "names the port: {e}"
    );
    assert!(
        gamebot_ssc32::Driver::open(
            gamebot_ssc32::DriverConfig::new(path.to_str().unwrap()).baud(w.baud())
        )
        .is_err(),
        "the device is gone while down"
    );
    w.step(Duration::from_millis(1600)).unwrap();
    assert!(w.serial_connected());
    assert_eq!(w.serial_path(), path.as_path());
    let mut drv = driver(&w);
    assert!(drv.version().is_ok());
    // The controller kept its outputs: the rest of the plan runs.
    drv.run_trajectory(&pts[1..])
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn servo_offsets_move_the_real_pose() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "servo_offset_deg=2", 8);
    assert_eq!(w.fault_counts().get(&FaultKind::ServoOffset), Some(&5));
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm.plan(&park, open, &[Action::Home]).unwrap();
    drv.run_trajectory(&points(&arm, &traj, 0.05)).unwrap();
    w.update().unwrap();
    let q = &w.arm_state().joints;
    let home = arm.home();
    let max = q
        .iter()
        .zip(home)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f64, f64::max);
    assert!(
        max > 0.002 && max <= 2f64.to_radians() + 0.005,
        "{q:?} vs {home:?}"
    );
}

#[test]
fn a_stall_freezes_the_arm_and_the_driver_times_out() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 9);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm.plan(&park, open, &[Action::Home]).unwrap();
    let pts = points(&arm, &traj, 0.05);
    w.stall(Duration::from_secs(30));
    let e = drv.run_trajectory(&pts[..3]).unwrap_err();
    assert!(matches!(e, DriverError::MoveTimeout { .. }), "{e}");
    assert_eq!(w.fault_counts().get(&FaultKind::Stall), Some(&1));
}

const OUT_OF_VIEW_AL5D: [f64; 5] = [0.0, 0.6, 1.3, 0.0, 0.0];

/// Frames the camera sees while a person moves a piece: occluded while the
/// hand is over the board, then stable with the piece on its new square.
#[test]
fn a_persons_move_is_seen_by_the_camera_only_after_the_hand_leaves() {
    let g = game("tictactoe");
    let s = g.initial_state();
    // The arm folded up and back, out of the camera's view (al5d.yaml's park
    // pose puts the gripper in view, at the sheet's near edge).
    let mut w = gamebot_sim::World::new(
        &g,
        &s,
        gamebot_sim::WorldConfig {
            seed: 10,
            rest_pose: Some(OUT_OF_VIEW_AL5D.to_vec()),
            ..Default::default()
        },
    )
    .unwrap();
    let vb = VisionBoard::from_game(&g).unwrap();
    let mut det = Detector::new(
        vb.clone(),
        Some(w.camera_calibration()),
        DetectorConfig::default(),
    )
    .unwrap();
    let mut filter = TemporalFilter::new(FilterConfig::default());
    let piece = element_on(&g, &s, "sx(1)");
    let cam_index = |name: &str| {
        let l = g.location_by_name(name).unwrap();
        vb.camera_index[l as usize].unwrap()
    };
    let (cell, supply) = (cam_index("cell(2,2)"), cam_index("sx(1)"));
    let cross = vb.class_for(
        &g.element_type_of(g.element_by_name(&piece).unwrap()).name,
        1,
    );
    assert!(cross.is_some());
    // Settle on the start position.
    let period = w.frame_period();
    for _ in 0..4 {
        w.step(period).unwrap();
        let f = w.render().unwrap();
        filter.push(det.detect(&f.image).unwrap());
    }
    let stable = filter.stable().expect("stable before the move");
    assert_eq!(stable.class_at(supply), cross);
    assert_eq!(stable.class_at(cell), None);

    let d = w
        .human_move(&[HandAction::Transfer {
            element: piece.clone(),
            from: "sx(1)".into(),
            to: HandTarget::Location("cell(2,2)".into()),
        }])
        .unwrap();
    assert!(d > Duration::from_secs(1), "{d:?}");
    assert!(matches!(w.human_move(&[]), Err(SimError::HandBusy)));
    let (mut occluded, mut hand_frames) = (0, 0);
    while w.hand_busy() {
        w.step(period).unwrap();
        let f = w.render().unwrap();
        let status = filter.push(det.detect(&f.image).unwrap());
        if w.hand_busy() {
            hand_frames += 1;
            if f.truth.occluded {
                assert!(
                    !matches!(status, FilterStatus::Stable { .. }),
                    "stable at {:?} while the hand covers the board",
                    f.time
                );
            }
            if matches!(status, FilterStatus::Occluded(_)) {
                occluded += 1;
            }
        }
    }
    assert!(
        hand_frames >= 10 && occluded >= 5,
        "{occluded} of {hand_frames}"
    );
    // After the hand left: the piece is seen on the square.
    let mut seen = false;
    for _ in 0..10 {
        w.step(period).unwrap();
        let f = w.render().unwrap();
        if let FilterStatus::Stable { .. } = filter.push(det.detect(&f.image).unwrap()) {
            let st = filter.stable().unwrap();
            if st.class_at(cell) == cross && st.class_at(supply).is_none() {
                seen = true;
                break;
            }
        }
    }
    assert!(seen, "the camera never saw the new position");
    let (xy, z) = error_to(&w, &g, &piece, "cell(2,2)");
    assert!(
        xy < 0.0045 && xy > 0.0 && z < 1e-9,
        "put down a few mm off: {:.2} mm",
        xy * 1e3
    );
    let occ = w.occupancy();
    assert_eq!(
        occ.iter().find(|o| o.name == "cell(2,2)").unwrap().elements,
        vec![piece]
    );
}

#[test]
fn hand_flips_and_puts_pieces_on_the_table() {
    let g = game("reversi6");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 11);
    let on_board = w
        .pieces()
        .into_iter()
        .find(|p| {
            w.occupancy()
                .iter()
                .any(|o| o.elements.contains(&p.name) && g.is_relevant(o.location))
        })
        .unwrap();
    let d = w
        .human_move(&[HandAction::Flip {
            element: on_board.name.clone(),
        }])
        .unwrap();
    w.step(d + Duration::from_millis(50)).unwrap();
    let after = w
        .pieces()
        .into_iter()
        .find(|p| p.name == on_board.name)
        .unwrap();
    assert_ne!(after.state, on_board.state);
    assert!((after.position[0] - on_board.position[0]).abs() < 1e-9);
    // Errors name what is wrong.
    let e = w
        .human_move(&[HandAction::Flip {
            element: "nope".into(),
        }])
        .unwrap_err();
    assert!(e.to_string().contains("nope"), "{e}");
    let e = w
        .human_move(&[HandAction::Transfer {
            element: on_board.name.clone(),
            from: g.locations[0].name.clone(),
            to: HandTarget::Table([0.0, 0.3]),
        }])
        .err();
    if let Some(e) = e {
        assert!(e.to_string().contains(&on_board.name), "{e}");
    }
}

#[test]
fn bad_configs_are_errors() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let e = gamebot_sim::World::new(
        &g,
        &s,
        gamebot_sim::WorldConfig {
            arm: "no_such_arm".into(),
            ..Default::default()
        },
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("no_such_arm"), "{e}");
    let e = gamebot_sim::World::new(
        &g,
        &s,
        gamebot_sim::WorldConfig {
            real_time_factor: Some(0.0),
            ..Default::default()
        },
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("real-time factor"), "{e}");
}

/// A sheet laid where the board file does not say: every `robot=` location
/// moves with it, and the camera's scene is in the sheet's frame (as a camera
/// calibrated on the sheet's markers sees it). An out-of-range placement is
/// refused naming the key.
#[test]
fn a_misplaced_sheet_moves_the_locations_and_the_camera_sees_it_in_its_frame() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let p = gamebot_kinematics::Placement {
        offset_mm: [7.0, -4.0],
        rotation_deg: 1.5,
        surface_offset_mm: 0.0,
    };
    let config = |placement| gamebot_sim::WorldConfig {
        sheet_placement: placement,
        ..gamebot_sim::WorldConfig::default()
    };
    let mut plain = gamebot_sim::World::new(&g, &s, config(None)).unwrap();
    let mut moved = gamebot_sim::World::new(&g, &s, config(Some(p))).unwrap();
    let mut n = 0;
    for (l, loc) in g.locations.iter().enumerate() {
        let Some(gamebot_rules::model::RobotSpec::Cartesian(c)) = loc.robot else {
            continue;
        };
        let a = plain.location_position(l as _).unwrap();
        assert_eq!(
            a,
            [c[0] / 100.0, c[1] / 100.0, c[2] / 100.0],
            "{}",
            loc.name
        );
        let want = p.apply_cm([0.0, 18.0], c);
        let b = moved.location_position(l as _).unwrap();
        for k in 0..3 {
            assert!((b[k] * 100.0 - want[k]).abs() < 1e-9, "{}: {b:?}", loc.name);
        }
        n += 1;
    }
    assert!(n >= 9);
    // The pieces lie at the moved places; the camera's scene has them where
    // the unmoved world has them.
    let (sa, sb) = (plain.table_scene(), moved.table_scene());
    assert_eq!(sa.pieces.len(), sb.pieces.len());
    for (a, b) in sa.pieces.iter().zip(&sb.pieces) {
        assert!(
            (a.centre_cm.0 - b.centre_cm.0).abs() < 1e-9
                && (a.centre_cm.1 - b.centre_cm.1).abs() < 1e-9,
            "{:?} vs {:?}",
            a.centre_cm,
            b.centre_cm
        );
    }
    let bad = gamebot_kinematics::Placement {
        rotation_deg: 40.0,
        ..p
    };
    let e = gamebot_sim::World::new(&g, &s, config(Some(bad)))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("placement.rotation_deg"), "{e}");
}

/// The turn-over station: a disc the arm lets go over its intake lies at
/// its exit the other side up; carried back it lies on its square turned.
/// A disc put down beside the intake is not turned; one let go over the
/// exit's cradle slides back into the exit.
#[test]
fn the_turn_over_station_turns_a_disc_let_go_over_its_intake() {
    use gamebot_kinematics::{Board, LocationInput, ResolvedLocation, RobotPosition};
    let g = game("reversi6");
    let s = g.initial_state();
    let mut w = world(&g, &s, "al5d", "none", 3);
    let mut drv = driver(&w);
    let mut arm = Arm::load_named("al5d").unwrap();
    let station = Board::load_named("a4").unwrap().flip_station.unwrap();
    let spot = |arm: &mut Arm, name: &str, cm: [f64; 3]| -> ResolvedLocation {
        let home = arm.home().to_vec();
        arm.resolve_location(
            &LocationInput {
                name: name.into(),
                robot: Some(RobotPosition::Cartesian(cm)),
                point: None,
            },
            None,
            &home,
        )
        .unwrap()
    };
    let piece = element_on(&g, &s, "b(3,3)");
    let info = |w: &gamebot_sim::World| w.pieces().into_iter().find(|p| p.name == piece).unwrap();
    let before = info(&w).state;
    let square = resolve(&mut arm, &g, "b(3,3)", 0.0);
    let intake = spot(&mut arm, "intake", station.intake_cm);
    let exit = spot(&mut arm, "exit", station.exit_cm);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[Action::Transfer {
            from: &square,
            to: &intake,
        }],
    );
    let p = info(&w);
    assert_eq!(p.state, 3 - before, "turned over");
    let e = station.exit_m();
    assert!(
        (p.position[0] - e[0]).hypot(p.position[1] - e[1]) < 1e-9,
        "{:?}",
        p.position
    );
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &exit,
                to: &square,
            },
            Action::Park,
        ],
    );
    let (xy, z) = error_to(&w, &g, &piece, "b(3,3)");
    assert!(
        xy < 0.005 && z < 0.002,
        "off by {:.2} mm, z {:.2} mm",
        xy * 1e3,
        z * 1e3
    );
    assert_eq!(info(&w).state, 3 - before);
    assert!(w.contacts().is_empty(), "{:?}", w.contacts());
    // Beside the intake (3 cm off, outside its capture radius): not turned.
    let mut beside = station.intake_cm;
    beside[1] += 3.0;
    let beside = spot(&mut arm, "beside", beside);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[Action::Transfer {
            from: &square,
            to: &beside,
        }],
    );
    assert_eq!(info(&w).state, 3 - before, "not turned again");
    // Let go 8 mm beside the exit (inside its cradle): it slides back into
    // the exit, not turned.
    let mut by_exit = station.exit_cm;
    by_exit[0] -= 0.8;
    let by_exit = spot(&mut arm, "by the exit", by_exit);
    run(
        &mut w,
        &mut drv,
        &mut arm,
        &[
            Action::Transfer {
                from: &beside,
                to: &by_exit,
            },
            Action::Park,
        ],
    );
    let p = info(&w);
    assert_eq!(p.state, 3 - before, "not turned by the cradle");
    assert!(
        (p.position[0] - e[0]).hypot(p.position[1] - e[1]) < 1e-9,
        "in the exit's cradle: {:?}",
        p.position
    );
}
