//! The recorder on the in-process bus: a whole referee + planner game (AI
//! against AI) with synthetic `/joint_states`, `/tf`, `/tf_static`,
//! `/robot_description`, `/board/observation`, `/camera/image_raw` and
//! `/clock` published by the test. The bag is read back and checked; with
//! `GAMEBOT_BAG_OUT=DIR` it is also left in DIR for the Python readers
//! (`tests/record/run`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_interfaces::geometry_msgs::TransformStamped;
use gamebot_interfaces::msg::{BoardObservation, GameEvent, GameState};
use gamebot_interfaces::rosgraph_msgs::Clock;
use gamebot_interfaces::sensor_msgs::{Image, JointState};
use gamebot_interfaces::std_msgs::{Header, String as StringMsg};
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_nodes::{planner_node, referee_node};
use gamebot_record::bag::BagMetadata;
use gamebot_record::db::{Filter, GameDb};
use gamebot_record::recorder_node::{self, RecorderConfig, Split};
use gamebot_record::replay::{describe, read_bag};
use gamebot_record::{cdr, now_ns};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Shutdown};

const T: Duration = Duration::from_secs(30);

fn game(name: &str) -> String {
    format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "gamebot-rec-{name}-{}-{}",
        std::process::id(),
        now_ns()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stamp() -> Time {
    let ns = now_ns();
    Time {
        sec: (ns / 1_000_000_000) as i32,
        nanosec: (ns % 1_000_000_000) as u32,
    }
}

fn only_subdir(dir: &Path) -> PathBuf {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    assert_eq!(v.len(), 1, "one bag expected in {}: {v:?}", dir.display());
    v.pop().unwrap()
}

#[test]
fn a_full_game_is_recorded_and_stored() {
    let out = scratch("game");
    let bags = out.join("bags");
    let db_path = out.join("games.sqlite3");
    let bus = InProcBus::new();
    let rec_node = bus.node(NodeOptions::new("recorder")).unwrap();
    let sensors = bus.node(NodeOptions::new("sensors")).unwrap();
    let planner = bus.node(NodeOptions::new("planner")).unwrap();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(game("tictactoe")))
                .param(
                    "player_kinds",
                    ParamValue::StringArray(vec![
                        "ai:alphabeta:depth=9".into(),
                        "ai:mcts:iterations=300,seed=3".into(),
                    ]),
                ),
        )
        .unwrap();
    let config = RecorderConfig::default()
        .dir(&bags)
        .db(Some(db_path.clone()))
        .split(Split::PerGame)
        .image_rate_hz(1000.0)
        .flush_period(Duration::from_millis(50));
    let stop_rec = Shutdown::new();
    let stop_nodes = Shutdown::new();
    let joint_pub = sensors.publisher_on(&graph::JOINT_STATES).unwrap();
    let tf_pub = sensors.publisher_on(&graph::TF).unwrap();
    let tf_static_pub = sensors.publisher_on(&graph::TF_STATIC).unwrap();
    let desc_pub = sensors.publisher_on(&graph::ROBOT_DESCRIPTION).unwrap();
    let obs_pub = sensors.publisher_on(&graph::BOARD_OBSERVATION).unwrap();
    let img_pub = sensors.publisher_on(&graph::CAMERA_IMAGE).unwrap();
    let clock_pub = sensors.publisher_on(&graph::CLOCK).unwrap();
    let summary = std::thread::scope(|s| {
        let st = stop_rec.clone();
        let recorder = s.spawn(move || recorder_node::run(&rec_node, &st, config));
        assert!(joint_pub.wait_for_subscribers(1, T), "recorder subscribed");
        desc_pub
            .publish(&StringMsg {
                data: "<robot name=\"al5d\"/>".into(),
            })
            .unwrap();
        tf_static_pub
            .publish(&TFMessage {
                transforms: vec![TransformStamped {
                    header: Header {
                        stamp: stamp(),
                        frame_id: "world".into(),
                    },
                    child_frame_id: "base_link".into(),
                    ..Default::default()
                }],
            })
            .unwrap();
        let st = stop_nodes.clone();
        s.spawn(move || planner_node::run(&planner, &st).unwrap());
        let st = stop_nodes.clone();
        let sensor_thread = s.spawn(move || {
            let mut i = 0u32;
            while !st.is_requested() {
                let h = Header {
                    stamp: stamp(),
                    frame_id: "base_link".into(),
                };
                joint_pub
                    .publish(&JointState {
                        header: h.clone(),
                        name: vec!["base".into(), "shoulder".into()],
                        position: vec![0.01 * i as f64, -0.5],
                        ..Default::default()
                    })
                    .unwrap();
                tf_pub
                    .publish(&TFMessage {
                        transforms: vec![TransformStamped {
                            header: h.clone(),
                            child_frame_id: "link1".into(),
                            ..Default::default()
                        }],
                    })
                    .unwrap();
                clock_pub.publish(&Clock { clock: stamp() }).unwrap();
                // Every tick, like the other topics: a quick game (a few ms on a
                // quiet machine) once ended before the first observation of
                // every fifth tick, and the bag had none (CI, 2026-11-28).
                {
                    obs_pub
                        .publish(&BoardObservation {
                            header: h.clone(),
                            ..Default::default()
                        })
                        .unwrap();
                    img_pub
                        .publish(&Image {
                            header: h,
                            height: 2,
                            width: 3,
                            encoding: "rgb8".into(),
                            step: 9,
                            data: (0..18).collect(),
                            ..Default::default()
                        })
                        .unwrap();
                }
                i += 1;
                std::thread::sleep(Duration::from_millis(5));
            }
            i
        });
        referee_node::run(&referee, &Shutdown::new(), true).unwrap();
        stop_nodes.request();
        let ticks = sensor_thread.join().unwrap();
        assert!(ticks > 0);
        stop_rec.request();
        recorder.join().unwrap().unwrap()
    });
    assert_eq!(summary.bags.len(), 1, "{summary:?}");
    assert_eq!(summary.games_written, 1);

    // The bag: our reader, metadata counts against the file.
    let bag_dir = only_subdir(&bags);
    assert_eq!(summary.bags[0], bag_dir);
    let name = bag_dir.file_name().unwrap().to_str().unwrap().to_string();
    assert!(name.ends_with("_tictactoe_1"), "{name}");
    let bag = read_bag(&bag_dir).unwrap();
    let meta = BagMetadata::read(&bag_dir)
        .unwrap()
        .rosbag2_bagfile_information;
    assert_eq!(meta.version, 9);
    assert_eq!(meta.storage_identifier, "mcap");
    assert_eq!(meta.message_count as usize, bag.messages.len());
    for t in &meta.topics_with_message_count {
        let n = bag
            .messages
            .iter()
            .filter(|m| m.topic == t.topic_metadata.name)
            .count();
        assert_eq!(t.message_count as usize, n, "{}", t.topic_metadata.name);
    }
    for topic in [
        "/game/state",
        "/game/events",
        "/joint_states",
        "/tf",
        "/tf_static",
        "/robot_description",
        "/board/observation",
        "/camera/image_raw",
        "/clock",
    ] {
        assert!(
            bag.messages.iter().any(|m| m.topic == topic),
            "{topic} missing from the bag"
        );
    }
    // The last state's history replays to its position.
    let last: GameState = bag
        .messages
        .iter()
        .rev()
        .find(|m| m.topic == "/game/state")
        .map(|m| cdr::decode(&m.data, "/game/state").unwrap())
        .unwrap();
    assert_eq!(last.phase, GameState::PHASE_GAME_OVER);
    let rules = gamebot_rules::Game::load(game("tictactoe")).unwrap();
    let st = gamebot_nodes::referee_core::replay(&rules, &last.move_history).unwrap();
    assert_eq!(st.hash(), last.state_hash);
    let played = bag
        .messages
        .iter()
        .filter(|m| m.topic == "/game/events")
        .map(|m| cdr::decode::<GameEvent>(&m.data, "/game/events").unwrap())
        .filter(|e| e.kind == GameEvent::MOVE_PLAYED)
        .count();
    assert_eq!(played, last.move_history.len());
    // Time-ordered.
    assert!(bag
        .messages
        .windows(2)
        .all(|w| w[0].log_time <= w[1].log_time));
    let text = describe(&bag).unwrap();
    assert!(text.contains("game tictactoe #1"), "{text}");
    assert!(text.contains(&last.move_history[0]), "{text}");

    // Played back onto another bus: every event arrives, in order.
    let replay_bus = InProcBus::new();
    let listener = replay_bus.node(NodeOptions::new("listener")).unwrap();
    let events_back = listener
        .subscription::<GameEvent>("/game/events", gamebot_ros::Qos::reliable(10_000))
        .unwrap();
    let player = replay_bus.node(NodeOptions::new("replay")).unwrap();
    let published =
        gamebot_record::replay::publish(&player, &bag, 1000.0, &Shutdown::new()).unwrap();
    assert_eq!(published.messages as usize, bag.messages.len());
    assert_eq!(published.clock_ticks, 0, "the bag has /clock itself");
    let recorded_events: Vec<GameEvent> = bag
        .messages
        .iter()
        .filter(|m| m.topic == "/game/events")
        .map(|m| cdr::decode(&m.data, "/game/events").unwrap())
        .collect();
    assert_eq!(events_back.drain(), recorded_events);

    // The database: one game with its moves, pointing at the bag.
    let db = GameDb::open(&db_path).unwrap();
    let games = db.games(&Filter::default()).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        last.move_history
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    assert!(g.moves.iter().all(|m| m.seat == 1 || m.seat == 2));
    assert_eq!(g.winner, Some(last.winner));
    assert_eq!(g.players[0].strategy, "alphabeta:depth=9");
    assert_eq!(g.bag_path.as_deref(), Some(bag_dir.to_str().unwrap()));
    assert_eq!(
        g.game_hash,
        gamebot_record::db::file_hash(Path::new(&game("tictactoe")))
    );

    if let Some(keep) = std::env::var_os("GAMEBOT_BAG_OUT") {
        let keep = PathBuf::from(keep);
        std::fs::create_dir_all(&keep).unwrap();
        let dest = keep.join(&name);
        let _ = std::fs::remove_dir_all(&dest);
        std::fs::rename(&bag_dir, &dest)
            .or_else(|_| copy_dir(&bag_dir, &dest))
            .unwrap();
    }
    std::fs::remove_dir_all(&out).unwrap();
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        std::fs::copy(e.path(), to.join(e.file_name()))?;
    }
    Ok(())
}

#[test]
fn an_unwritable_bag_directory_is_logged_and_the_game_still_lands_in_the_database() {
    let out = scratch("unwritable");
    let db_path = out.join("games.sqlite3");
    // A file where the bag directory should be: creating bags fails.
    let blocker = out.join("bags");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let bus = InProcBus::new();
    let rec_node = bus.node(NodeOptions::new("recorder")).unwrap();
    let planner = bus.node(NodeOptions::new("planner")).unwrap();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(game("nim")))
                .param(
                    "player_kinds",
                    ParamValue::StringArray(vec![
                        "ai:random:seed=1".into(),
                        "ai:random:seed=2".into(),
                    ]),
                ),
        )
        .unwrap();
    let probe = bus.node(NodeOptions::new("probe")).unwrap();
    let probe_pub = probe.publisher_on(&graph::GAME_EVENTS).unwrap();
    let config = RecorderConfig::default()
        .dir(&blocker)
        .db(Some(db_path.clone()));
    let stop_rec = Shutdown::new();
    let stop_nodes = Shutdown::new();
    let summary = std::thread::scope(|s| {
        let st = stop_rec.clone();
        let recorder = s.spawn(move || recorder_node::run(&rec_node, &st, config));
        assert!(probe_pub.wait_for_subscribers(1, T));
        let st = stop_nodes.clone();
        s.spawn(move || planner_node::run(&planner, &st).unwrap());
        referee_node::run(&referee, &Shutdown::new(), true).unwrap();
        stop_nodes.request();
        stop_rec.request();
        recorder.join().unwrap().unwrap()
    });
    assert!(summary.bags.is_empty());
    assert_eq!(summary.games_written, 1);
    let db = GameDb::open(&db_path).unwrap();
    assert_eq!(db.game_count().unwrap(), 1);
    std::fs::remove_dir_all(&out).unwrap();
}

/// `use_sim_time`: a message's time in the bag is the latest `/clock`
/// received before it, as `ros2 bag record --use-sim-time` writes it.
#[test]
fn with_use_sim_time_bag_times_are_the_clock() {
    let out = scratch("simtime");
    let bags = out.join("bags");
    let bus = InProcBus::new();
    let rec_node = bus
        .node(NodeOptions::new("recorder").param("use_sim_time", ParamValue::Bool(true)))
        .unwrap();
    let sensors = bus.node(NodeOptions::new("sensors")).unwrap();
    let mut config = RecorderConfig::declare(&rec_node).unwrap();
    assert!(config.use_sim_time);
    config = config
        .dir(&bags)
        .db(None)
        .split(Split::Session)
        .flush_period(Duration::from_millis(20));
    let clock_pub = sensors.publisher_on(&graph::CLOCK).unwrap();
    let joint_pub = sensors.publisher_on(&graph::JOINT_STATES).unwrap();
    let stop = Shutdown::new();
    std::thread::scope(|s| {
        let st = stop.clone();
        let recorder = s.spawn(move || recorder_node::run(&rec_node, &st, config));
        assert!(joint_pub.wait_for_subscribers(1, T), "recorder subscribed");
        assert!(clock_pub.wait_for_subscribers(1, T), "recorder subscribed");
        let tick = |secs: i32| {
            clock_pub
                .publish(&Clock {
                    clock: Time {
                        sec: secs,
                        nanosec: 500,
                    },
                })
                .unwrap();
            // One message at a time, so receive order is publish order.
            std::thread::sleep(Duration::from_millis(150));
        };
        let joints = |p: f64| {
            joint_pub
                .publish(&JointState {
                    name: vec!["base".into()],
                    position: vec![p],
                    ..Default::default()
                })
                .unwrap();
            std::thread::sleep(Duration::from_millis(150));
        };
        tick(100);
        joints(0.1);
        tick(250);
        joints(0.2);
        joints(0.3);
        stop.request();
        recorder.join().unwrap().unwrap();
    });
    let bag = read_bag(&only_subdir(&bags)).unwrap();
    let times: Vec<(String, u64)> = bag
        .messages
        .iter()
        .map(|m| (m.topic.clone(), m.log_time))
        .collect();
    let s = |secs: u64| secs * 1_000_000_000 + 500;
    assert_eq!(
        times,
        [
            ("/clock".to_string(), s(100)),
            ("/joint_states".to_string(), s(100)),
            ("/clock".to_string(), s(250)),
            ("/joint_states".to_string(), s(250)),
            ("/joint_states".to_string(), s(250)),
        ]
    );
    std::fs::remove_dir_all(&out).ok();
}
