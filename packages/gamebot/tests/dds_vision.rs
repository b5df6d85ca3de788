//! The `camera` (replaying image files) and `detector` executables as
//! separate DDS processes: the board observations reach this test's own
//! participant, stable, with the pieces the frames show.
//!
//! They create DDS participants, so the test is `#[ignore]`d and runs only
//! through `scripts/netns-run` (see `scripts/test`):
//!
//! ```text
//! scripts/netns-run cargo test -p gamebot --test dds_vision -- --ignored
//! ```
//!
//! Timeouts here only stop a broken run from hanging; nothing asserts speed.

mod support;

use gamebot_interfaces::msg::BoardObservation;
use gamebot_ros::dds::{DdsConfig, DdsContext};
use gamebot_ros::{graph, Bus, NodeOptions};
use gamebot_rules::Game;
use gamebot_vision::calib::BoardConfig;
use gamebot_vision::render::{scene_from_state, RenderOptions, Renderer};
use std::time::{Duration, Instant};
use support::{repo, ChildProcess};

#[test]
#[ignore = "creates DDS participants: run through scripts/netns-run"]
fn camera_and_detector_processes_publish_observations() {
    if let Err(e) = gamebot_ros::dds::check_private_netns() {
        panic!("{e}");
    }
    // Frames of a tic-tac-toe position: a cross in the centre.
    let g = Game::load(repo().join("games/tictactoe.game")).unwrap();
    let mut st = g.initial_state();
    let mv = g
        .legal_moves(&st)
        .unwrap()
        .into_iter()
        .find(|m| g.locations[m.to as usize].name == "cell(2,2)")
        .unwrap();
    g.apply(&mut st, &mv).unwrap();
    let cfg = BoardConfig::load(repo().join("config/boards/a4.yaml")).unwrap();
    let r = Renderer::from_game(&g, &cfg, Default::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("gamebot_dds_vision_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..3 {
        let f = r
            .render(&scene_from_state(&g, &st), &RenderOptions::clean(), i)
            .unwrap();
        gamebot_vision::source::write_image(dir.join(format!("f{i}.png")), &f.image).unwrap();
    }
    let domain = 40 + (std::process::id() % 50) as u16;
    let ctx = DdsContext::new(DdsConfig {
        domain_id: domain,
        ..DdsConfig::default()
    })
    .unwrap();
    let node = ctx.node(NodeOptions::new("dds_vision_test")).unwrap();
    let obs = node
        .subscription_on::<BoardObservation>(&graph::BOARD_OBSERVATION)
        .unwrap();
    let camera = ChildProcess::ros_node(
        "camera",
        "dds_vision",
        env!("CARGO_BIN_EXE_camera"),
        domain,
        &[
            "-p".into(),
            format!("source:={}", dir.display()),
            "-p".into(),
            "fps:=10.0".into(),
        ],
    );
    let detector = ChildProcess::ros_node(
        "detector",
        "dds_vision",
        env!("CARGO_BIN_EXE_detector"),
        domain,
        &[
            "-p".into(),
            "game_file:=games/tictactoe.game".into(),
            "-p".into(),
            "downscale:=2".into(),
        ],
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut got: Option<BoardObservation> = None;
    let mut received = 0;
    while Instant::now() < deadline {
        if let Ok(o) = obs.recv_timeout(Duration::from_millis(200)) {
            received += 1;
            if o.stable {
                got = Some(o);
                break;
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    let o = got.unwrap_or_else(|| {
        panic!(
            "no stable observation ({received} received)\ncamera log:\n{}\ndetector log:\n{}",
            camera.log_text(),
            detector.log_text()
        )
    });
    assert_eq!(o.game_name, g.name);
    assert!(o.occlusion.is_empty(), "{}", o.occlusion);
    let centre: Vec<_> = o
        .pieces
        .iter()
        .filter(|p| p.location == "cell(2,2)")
        .collect();
    assert_eq!(centre.len(), 1, "{:?}", o.pieces);
    assert_eq!(centre[0].element_type, "cross");
    // The table position of the centre cell is (0, 18) cm.
    assert!(
        centre[0].position.x.abs() < 0.005 && (centre[0].position.y - 0.18).abs() < 0.005,
        "{:?}",
        centre[0].position
    );
    // Crosses left in the supply are seen there, and nothing else is on the cells.
    assert!(o
        .pieces
        .iter()
        .all(|p| p.location == "cell(2,2)" || !p.location.starts_with("cell")));
    assert_eq!(o.header.frame_id, "camera");
}
