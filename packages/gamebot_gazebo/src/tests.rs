use super::*;
use gamebot_rules::model::RobotSpec;

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(p)
}

fn spec() -> WorldSpec {
    WorldSpec {
        camera: repo("config/camera/sim.yaml"),
        ..WorldSpec::default()
    }
}

fn load(name: &str) -> Game {
    Game::load(repo("games").join(name)).unwrap()
}

/// The worlds of the closed-loop games are written, parsed back and pass
/// every check; pieces on `robot=x,y,z` locations sit at those coordinates
/// converted from cm to m (an independent reading of the game file).
#[test]
fn worlds_of_the_games_pass_the_checks() {
    for name in [
        "tictactoe.game",
        "connect4.game",
        "alquerque.game",
        "reversi6.game",
        "mill.game",
        "pentago.game",
    ] {
        let game = load(name);
        let world = TableWorld::build(&game, &spec()).unwrap();
        assert!(!world.pieces.is_empty(), "{name}");
        let sdf = world.to_sdf().unwrap();
        check_sdf(name, &sdf, &world).unwrap();
        let state = game.initial_state();
        let mut cartesian = 0;
        for p in &world.pieces {
            let e = game
                .elements
                .iter()
                .position(|e| e.name == p.element)
                .unwrap();
            let l = state.location_of(e as _);
            assert_eq!(game.locations[l as usize].name, p.location);
            if let Some(RobotSpec::Cartesian(c)) = game.locations[l as usize].robot {
                cartesian += 1;
                assert!(
                    (p.position[0] - c[0] / 100.0).abs() < 1e-9,
                    "{name} {}",
                    p.element
                );
                assert!(
                    (p.position[1] - c[1] / 100.0).abs() < 1e-9,
                    "{name} {}",
                    p.element
                );
                assert!(p.position[2] >= c[2] / 100.0 - 1e-9);
            }
            assert!(
                p.radius > 0.002 && p.radius < 0.05,
                "{name}: radius {} m",
                p.radius
            );
        }
        if name == "tictactoe.game" {
            assert!(cartesian > 0);
        }
    }
}

/// The camera put at the recovered pose sees the table as the calibration
/// file says (within 0.05 mm on the table = 0.1 px; the calibration's own
/// reprojection RMS is 0.08 px, so no rigid pose fits it exactly),
/// and the simulated camera's pose (50 cm above (0, 18) cm, looking down)
/// comes out.
#[test]
fn camera_pose_reproduces_the_calibration() {
    let path = repo("config/camera/sim.yaml");
    let cal = CameraCalibration::load(&path).unwrap();
    let cam = camera_from_calibration(&cal, &CameraModel::default(), &path).unwrap();
    for (x, y) in [(0.0, 18.0), (-10.0, 10.0), (12.0, 27.0), (-14.0, 26.0)] {
        let (u, v) = cam.project([x / 100.0, y / 100.0, 0.0]).unwrap();
        let (tx, ty) = cal.image_to_table_cm.apply(u, v).unwrap();
        assert!(
            (tx - x).abs() < 5e-3 && (ty - y).abs() < 5e-3,
            "({x},{y}) -> ({tx},{ty})"
        );
    }
    let [x, y, z] = cam.pose.xyz;
    assert!(
        x.abs() < 0.002 && (y - 0.18).abs() < 0.002 && (z - 0.5).abs() < 0.002,
        "{x} {y} {z}"
    );
    assert_eq!((cam.width, cam.height), (640, 480));
    // A tilted camera: its own homography gives its pose back.
    let tilted = CameraModel {
        yaw_deg: 12.0,
        pitch_deg: 8.0,
        roll_deg: -5.0,
        ..CameraModel::default()
    };
    let h = tilted.plane_homography(0.0);
    let cal2 = CameraCalibration {
        image_to_table_cm: h.inverse().unwrap(),
        ..cal.clone()
    };
    let cam2 = camera_from_calibration(&cal2, &tilted, &path).unwrap();
    for (x, y) in [(0.0, 18.0), (-10.0, 10.0), (12.0, 27.0)] {
        let want = tilted.project([x, y, 0.0]).unwrap();
        let got = cam2.project([x / 100.0, y / 100.0, 0.0]).unwrap();
        assert!(
            (want.0 - got.0).abs() < 1e-3 && (want.1 - got.1).abs() < 1e-3,
            "{want:?} {got:?}"
        );
    }
}

/// The checks fail on a moved piece, on centimetres, on a duplicate name,
/// on a moved camera and on a missing system.
#[test]
fn checks_catch_broken_worlds() {
    let game = load("tictactoe.game");
    let world = TableWorld::build(&game, &spec()).unwrap();
    let sdf = world.to_sdf().unwrap();
    let root = El::parse("w", &sdf).unwrap();
    let rewrite = |f: &dyn Fn(&mut El)| -> String {
        let mut r = root.clone();
        f(&mut r);
        r.to_document(None).unwrap()
    };
    fn world_mut(r: &mut El) -> &mut El {
        r.children.iter_mut().find(|c| c.name == "world").unwrap()
    }
    fn model_mut<'a>(r: &'a mut El, name: &str) -> &'a mut El {
        world_mut(r)
            .children
            .iter_mut()
            .find(|c| c.get("name") == Some(name))
            .unwrap()
    }
    let first = world.pieces[0].model.clone();
    let moved = rewrite(&|r| {
        let pose = model_mut(r, &first)
            .children
            .iter_mut()
            .find(|c| c.name == "pose")
            .unwrap();
        let mut v: Vec<f64> = pose.text.split(' ').map(|x| x.parse().unwrap()).collect();
        v[0] += 0.01;
        pose.text = v
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ");
    });
    let e = check_sdf("moved", &moved, &world).unwrap_err().to_string();
    assert!(e.contains(&world.pieces[0].element), "{e}");
    let cm = rewrite(&|r| {
        let pose = model_mut(r, &first)
            .children
            .iter_mut()
            .find(|c| c.name == "pose")
            .unwrap();
        let v: Vec<f64> = pose
            .text
            .split(' ')
            .map(|x| x.parse::<f64>().unwrap() * 100.0)
            .collect();
        pose.text = v
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ");
    });
    assert!(check_sdf("cm", &cm, &world)
        .unwrap_err()
        .to_string()
        .contains("metres"));
    let dup = rewrite(&|r| {
        let second = world.pieces[1].model.clone();
        let m = model_mut(r, &second);
        for a in &mut m.attrs {
            if a.0 == "name" {
                a.1 = first.clone();
            }
        }
    });
    assert!(check_sdf("dup", &dup, &world)
        .unwrap_err()
        .to_string()
        .contains("twice"));
    let cam = rewrite(&|r| {
        let pose = model_mut(r, "camera")
            .children
            .iter_mut()
            .find(|c| c.name == "pose")
            .unwrap();
        pose.text = "0 0.2 0.5 0 1.5707963 1.5707963".into();
    });
    assert!(check_sdf("cam", &cam, &world)
        .unwrap_err()
        .to_string()
        .contains("calibrated"));
    let nosys = rewrite(&|r| {
        world_mut(r)
            .children
            .retain(|c| c.get("name") != Some("gz::sim::systems::UserCommands"));
    });
    assert!(check_sdf("nosys", &nosys, &world)
        .unwrap_err()
        .to_string()
        .contains("UserCommands"));
}

#[test]
fn bad_configuration_is_an_error_naming_it() {
    let game = load("tictactoe.game");
    let e = TableWorld::build(
        &game,
        &WorldSpec {
            arm: "no_such_arm".into(),
            ..spec()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("no_such_arm"), "{e}");
    let e = TableWorld::build(
        &game,
        &WorldSpec {
            camera: PathBuf::from("/nonexistent/cam.yaml"),
            ..spec()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("/nonexistent/cam.yaml"), "{e}");
}

#[test]
fn the_gripper_link_comes_from_the_urdf() {
    let game = load("tictactoe.game");
    for arm in ["al5d", "desk6"] {
        let w = TableWorld::build(
            &game,
            &WorldSpec {
                arm: arm.into(),
                ..spec()
            },
        )
        .unwrap();
        assert_eq!(w.gripper_link, "gripper_link", "{arm}");
    }
}

/// A registered placement (shift and turn) moves and turns the sheet's box,
/// and every mark drawn on it lands where the world puts its location.
#[test]
fn the_sheet_follows_a_registered_placement() {
    let dir = std::env::temp_dir().join(format!("gamebot-gz-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("a4-turned.yaml");
    let text = std::fs::read_to_string(repo("config/boards/a4.yaml")).unwrap()
        + "placement: {offset_mm: [6, -4], rotation_deg: 3.5}\n";
    std::fs::write(&board, text).unwrap();
    let game = load("tictactoe.game");
    let plain = TableWorld::build(&game, &spec()).unwrap();
    let world = TableWorld::build(
        &game,
        &WorldSpec {
            board: board.to_string_lossy().into(),
            ..spec()
        },
    )
    .unwrap();
    assert!((world.sheet_yaw - 3.5f64.to_radians()).abs() < 1e-12);
    assert!((world.sheet_centre[0] - plain.sheet_centre[0] - 0.006).abs() < 1e-9);
    assert!((world.sheet_centre[1] - plain.sheet_centre[1] + 0.004).abs() < 1e-9);
    let sdf = world.to_sdf().unwrap();
    check_sdf("turned", &sdf, &world).unwrap();
    let root = crate::xml::El::parse("turned", &sdf).unwrap();
    let model = root
        .walk()
        .into_iter()
        .find(|e| e.name == "model" && e.get("name") == Some("board"))
        .expect("board model");
    let pose: Vec<f64> = model
        .first("pose")
        .unwrap()
        .text
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert!((pose[5] - world.sheet_yaw).abs() < 1e-9, "{pose:?}");
    let (s, c) = pose[5].sin_cos();
    let mut checked = 0;
    for v in model.walk() {
        let Some(mark) = world
            .marks
            .iter()
            .find(|m| v.name == "visual" && v.get("name") == Some(m.visual.as_str()))
        else {
            continue;
        };
        let rel: Vec<f64> = v
            .first("pose")
            .unwrap()
            .text
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let at = [
            pose[0] + c * rel[0] - s * rel[1],
            pose[1] + s * rel[0] + c * rel[1],
        ];
        assert!(
            (at[0] - mark.position[0]).abs() < 1e-6 && (at[1] - mark.position[1]).abs() < 1e-6,
            "{}: drawn at {at:?}, the world has {:?}",
            mark.location,
            mark.position
        );
        checked += 1;
    }
    assert_eq!(checked, world.marks.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// The world's bridge file bridges the pose info `gazebo_hand` reads (Gazebo
/// to ROS, `Pose_V` ↔ `TFMessage`), after the static entries and before the
/// grip topics; the off-board spot lies beside the sheet, on no location.
#[test]
fn the_bridge_has_the_pose_info_and_the_off_board_spot_is_off_the_sheet() {
    let game = load("mill.game");
    let world = TableWorld::build(&game, &spec()).unwrap();
    let base = std::fs::read_to_string(repo("config/gz_bridge.yaml")).unwrap();
    let yaml = bridge_yaml(&base, &world);
    let topic = pose_info_topic(WORLD_NAME);
    assert_eq!(topic, "/world/gamebot/pose/info");
    assert_eq!(set_pose_service(WORLD_NAME), "/world/gamebot/set_pose");
    let entry = format!(
        "- ros_topic_name: {topic}\n  gz_topic_name: {topic}\n  ros_type_name: tf2_msgs/msg/TFMessage\n  \
         gz_type_name: gz.msgs.Pose_V\n  direction: GZ_TO_ROS\n"
    );
    let at = yaml.find(&entry).expect("pose info entry");
    assert!(yaml.starts_with(base.trim_end()));
    assert!(at < yaml.find("/attach").unwrap());
    assert_eq!(
        yaml.matches("direction: GZ_TO_ROS").count(),
        base.matches("direction: GZ_TO_ROS").count() + 1
    );
    let [x, y, z] = world.off_board;
    for m in &world.marks {
        let d = (m.position[0] - x).hypot(m.position[1] - y);
        assert!(
            d > 0.03,
            "off-board spot {x},{y} is {d} m from {}",
            m.location
        );
    }
    let half = [world.sheet_size[0] / 2.0, world.sheet_size[1] / 2.0];
    assert!(
        (x - world.sheet_centre[0]).abs() > half[0] || (y - world.sheet_centre[1]).abs() > half[1],
        "off-board spot on the sheet"
    );
    assert!(
        z.abs() < 0.01,
        "off-board spot at the surface height, got {z}"
    );
}

/// Reversi's discs show the other colour underneath (two half-height
/// visuals, the side up in the colour of the disc's state): turned over by
/// the hand or the station, the camera sees the change. One-sided pieces
/// keep one visual.
#[test]
fn two_sided_pieces_have_two_coloured_halves() {
    let find_models = |name: &str| {
        let game = load(name);
        let world = TableWorld::build(&game, &spec()).unwrap();
        let root = crate::xml::El::parse(name, &world.to_sdf().unwrap()).unwrap();
        let world_el = root.first("world").unwrap().clone();
        (world, world_el)
    };
    let (world, el) = find_models("reversi6.game");
    let discs: Vec<&PieceModel> = world
        .pieces
        .iter()
        .filter(|p| p.underside.is_some())
        .collect();
    assert!(!discs.is_empty());
    for p in &discs {
        assert_ne!(Some(p.colour), p.underside, "{}", p.element);
        let m = el
            .all("model")
            .find(|m| m.get("name") == Some(p.model.as_str()))
            .unwrap();
        let visuals: Vec<&crate::xml::El> = m.first("link").unwrap().all("visual").collect();
        assert_eq!(visuals.len(), 2, "{}", p.model);
        let z = |v: &crate::xml::El| -> f64 {
            v.first("pose")
                .unwrap()
                .text
                .split(' ')
                .nth(2)
                .unwrap()
                .parse()
                .unwrap()
        };
        assert!(z(visuals[0]) > 0.0 && z(visuals[1]) < 0.0);
    }
    // Both colours occur among the sides up (discs of both colours start
    // on the board or in the pools).
    let ups: std::collections::BTreeSet<String> =
        discs.iter().map(|p| format!("{:?}", p.colour)).collect();
    let downs: std::collections::BTreeSet<String> = discs
        .iter()
        .map(|p| format!("{:?}", p.underside.unwrap()))
        .collect();
    assert_eq!(ups.union(&downs).count(), 2, "{ups:?} {downs:?}");
    let (world, _) = find_models("tictactoe.game");
    assert!(world.pieces.iter().all(|p| p.underside.is_none()));
}

/// The board's turn-over station is drawn (intake and exit) where the board
/// file puts it, and the check notices a station in the wrong place.
#[test]
fn the_turn_over_station_is_drawn_where_the_board_has_it() {
    let game = load("reversi6.game");
    let world = TableWorld::build(&game, &spec()).unwrap();
    let f = world.flip_station.expect("the default board has a station");
    // config/boards/a4.yaml: intake (-17.5, 13.0) cm, exit (-17.5, 9.0) cm.
    assert!((f.intake[0] + 0.175).abs() < 1e-9 && (f.intake[1] - 0.13).abs() < 1e-9);
    assert!((f.exit[1] - 0.09).abs() < 1e-9);
    let sdf = world.to_sdf().unwrap();
    check_sdf("reversi6", &sdf, &world).unwrap();
    let mut moved = world.clone();
    moved.flip_station = Some(crate::StationSpec {
        exit: [f.exit[0] + 0.01, f.exit[1], f.exit[2]],
        ..f
    });
    let e = check_sdf("reversi6", &sdf, &moved).unwrap_err().to_string();
    assert!(e.contains("exit"), "{e}");
    let mut none = world.clone();
    none.flip_station = None;
    let e = check_sdf("reversi6", &sdf, &none).unwrap_err().to_string();
    assert!(e.contains("does not have"), "{e}");
}
