//! The `gazebo_hand` node on the in-process bus against a stand-in of
//! Gazebo: a set-pose server that applies each requested pose to a table of
//! model poses and republishes the whole table as the world's pose info
//! (`tf2_msgs/TFMessage`, as ros_gz_bridge gives gz-sim's `Pose_V`). The
//! test plays the referee (it publishes `/game/state`) and the web page (it
//! calls `/sim/human_move`). Every check is made on the stand-in's model
//! poses — every piece where the rule engine's position after the move
//! says — not on the node's reply alone.

use gamebot_gazebo::{TableWorld, WorldSpec};
use gamebot_interfaces::geometry_msgs::{Pose, Quaternion, Transform, TransformStamped, Vector3};
use gamebot_interfaces::msg::GameState;
use gamebot_interfaces::ros_gz_interfaces::{Entity, SetEntityPose, SetEntityPoseResponse};
use gamebot_interfaces::srv::{HumanMoveRequest, HumanMoveResponse};
use gamebot_interfaces::std_msgs::Header;
use gamebot_interfaces::tf2_msgs::TFMessage;
use gamebot_nodes::gazebo_hand;
use gamebot_nodes::referee_core::replay;
use gamebot_ros::inproc::{InProcBus, InProcNode};
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Publisher, ServiceClient, Shutdown};
use gamebot_rules::{on_table, visible_state_change, Game, State};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(p)
}

fn game_file(name: &str) -> String {
    repo("games").join(name).to_string_lossy().into_owned()
}

fn spec() -> WorldSpec {
    WorldSpec {
        camera: repo("config/camera/sim.yaml"),
        ..WorldSpec::default()
    }
}

#[derive(Clone, Copy, Debug)]
struct P {
    xyz: [f64; 3],
    q: [f64; 4],
}

impl P {
    fn upright(&self) -> bool {
        1.0 - 2.0 * (self.q[0] * self.q[0] + self.q[1] * self.q[1]) > 0.0
    }
}

/// The stand-in Gazebo: model poses, a set-pose server, the pose info.
struct FakeGazebo {
    models: Arc<Mutex<BTreeMap<String, P>>>,
    /// Refuse every set-pose (answer success = false).
    refuse: Arc<AtomicBool>,
    /// Answer success = true without moving anything.
    lie: Arc<AtomicBool>,
    calls: Arc<Mutex<Vec<String>>>,
    stop: Shutdown,
    thread: Option<JoinHandle<()>>,
}

fn pose_info(models: &BTreeMap<String, P>) -> TFMessage {
    let entry = |name: &str, frame: &str, p: &P| TransformStamped {
        header: Header {
            frame_id: frame.into(),
            ..Default::default()
        },
        child_frame_id: name.into(),
        transform: Transform {
            translation: Vector3 {
                x: p.xyz[0],
                y: p.xyz[1],
                z: p.xyz[2],
            },
            rotation: Quaternion {
                x: p.q[0],
                y: p.q[1],
                z: p.q[2],
                w: p.q[3],
            },
        },
    };
    let mut transforms = vec![entry(
        "table",
        "gamebot",
        &P {
            xyz: [0.0, 0.15, -0.015],
            q: [0.0, 0.0, 0.0, 1.0],
        },
    )];
    for (m, p) in models {
        transforms.push(entry(m, "gamebot", p));
        transforms.push(entry(
            "link",
            m,
            &P {
                xyz: [0.0; 3],
                q: [0.0, 0.0, 0.0, 1.0],
            },
        ));
    }
    TFMessage { transforms }
}

impl FakeGazebo {
    fn start(node: InProcNode, world: &TableWorld, serve: bool) -> FakeGazebo {
        let models: BTreeMap<String, P> = world
            .pieces
            .iter()
            .map(|p| {
                (
                    p.model.clone(),
                    P {
                        xyz: [p.position[0], p.position[1], p.position[2] + p.height / 2.0],
                        q: [0.0, 0.0, 0.0, 1.0],
                    },
                )
            })
            .collect();
        let models = Arc::new(Mutex::new(models));
        let refuse = Arc::new(AtomicBool::new(false));
        let lie = Arc::new(AtomicBool::new(false));
        let calls = Arc::new(Mutex::new(Vec::new()));
        let stop = Shutdown::new();
        let (m, r, c, s) = (models.clone(), refuse.clone(), calls.clone(), stop.clone());
        let l = lie.clone();
        let thread = std::thread::spawn(move || {
            let publisher: Publisher<TFMessage> = node
                .publisher("/world/gamebot/pose/info", graph::GZ_POSE_INFO.qos)
                .unwrap();
            let server = serve.then(|| {
                node.service_server::<SetEntityPose>("/world/gamebot/set_pose")
                    .unwrap()
            });
            let mut next = Instant::now();
            while !s.is_requested() {
                if let Some(server) = &server {
                    if let Ok(req) = server.recv_timeout(Duration::from_millis(5)) {
                        let e = &req.request.entity;
                        c.lock().unwrap().push(e.name.clone());
                        let Pose {
                            position: p,
                            orientation: q,
                        } = req.request.pose.clone();
                        let ok = !r.load(Ordering::SeqCst)
                            && e.r#type == Entity::MODEL
                            && m.lock().unwrap().contains_key(&e.name);
                        if ok && !l.load(Ordering::SeqCst) {
                            m.lock().unwrap().insert(
                                e.name.clone(),
                                P {
                                    xyz: [p.x, p.y, p.z],
                                    q: [q.x, q.y, q.z, q.w],
                                },
                            );
                        }
                        let _ = req.respond(SetEntityPoseResponse { success: ok });
                        // Gazebo reports the new pose on its next update.
                        let _ = publisher.publish(&pose_info(&m.lock().unwrap()));
                    }
                } else {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if Instant::now() >= next {
                    let _ = publisher.publish(&pose_info(&m.lock().unwrap()));
                    next = Instant::now() + Duration::from_millis(50);
                }
            }
        });
        FakeGazebo {
            models,
            refuse,
            lie,
            calls,
            stop,
            thread: Some(thread),
        }
    }

    fn poses(&self) -> BTreeMap<String, P> {
        self.models.lock().unwrap().clone()
    }
}

impl Drop for FakeGazebo {
    fn drop(&mut self) {
        self.stop.request();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Whether the stand-in's models lie as `state` says: per place (locations
/// on one spot together; supplies pooled), the (type, side) multisets agree
/// (sides only where the camera sees them), pieces whose location has no
/// place lie off the board, and every model rests on the surface or on
/// another model.
fn world_matches(
    game: &Game,
    world: &TableWorld,
    poses: &BTreeMap<String, P>,
    state: &State,
) -> Result<(), String> {
    let init = game.initial_state();
    let near = |a: [f64; 3], b: [f64; 3]| (a[0] - b[0]).hypot(a[1] - b[1]) <= 0.015;
    let mut spots: Vec<([f64; 3], bool)> = vec![(world.off_board, false)];
    for m in &world.marks {
        if !spots.iter().any(|s| near(s.0, m.position)) {
            spots.push((m.position, m.relevant));
        }
    }
    let mut want = vec![Vec::new(); spots.len()];
    let mut seen = vec![Vec::new(); spots.len()];
    let place = |l: &str| {
        world
            .marks
            .iter()
            .find(|m| m.location == l)
            .map(|m| m.position)
    };
    let states = |e: u16| game.element_type_of(e).states.max(1);
    for p in &world.pieces {
        let e = game
            .elements
            .iter()
            .position(|x| x.name == p.element)
            .unwrap() as u16;
        let ty = game.element_type_of(e).name.clone();
        // The rules.
        let l = state.location_of(e);
        let s = state.element_state(e);
        let s0 = init.element_state(e);
        let visible = visible_state_change(game, e, s0, s0 % states(e) + 1);
        let side = if visible { s } else { 0 };
        let i = match place(&game.locations[l as usize].name) {
            Some(at) if on_table(game, l) => spots.iter().position(|x| near(x.0, at)).unwrap(),
            _ => 0,
        };
        want[i].push((ty.clone(), side));
        // Gazebo: this model (whatever element it was made for).
        let q = poses
            .get(&p.model)
            .ok_or_else(|| format!("no pose of {}", p.model))?;
        let s0 = init.element_state(e);
        let turned = s0 % states(e) + 1;
        let s = if q.upright() { s0 } else { turned };
        let side = if visible_state_change(game, e, s0, turned) {
            s
        } else {
            0
        };
        let i = spots
            .iter()
            .position(|x| near(x.0, q.xyz))
            .ok_or_else(|| format!("{} at {:?} lies on no place", p.model, q.xyz))?;
        seen[i].push((ty, side));
        // Resting.
        let bottom = q.xyz[2] - p.height / 2.0;
        let on = (bottom - spots[i].0[2]).abs() < 1e-6
            || world.pieces.iter().any(|o| {
                let r = &poses[&o.model];
                o.model != p.model
                    && near(r.xyz, q.xyz)
                    && (r.xyz[2] + o.height / 2.0 - bottom).abs() < 1e-6
            });
        if !on {
            return Err(format!("{} floats (bottom z {bottom})", p.model));
        }
    }
    let mut problems = Vec::new();
    let (mut pool_w, mut pool_s) = (Vec::new(), Vec::new());
    for (i, (at, relevant)) in spots.iter().enumerate() {
        let (mut w, mut s) = (want[i].clone(), seen[i].clone());
        if !relevant && i != 0 {
            pool_w.append(&mut w);
            pool_s.append(&mut s);
            continue;
        }
        w.sort();
        s.sort();
        if w != s {
            problems.push(format!("at {at:?}: rules {w:?}, Gazebo {s:?}"));
        }
    }
    pool_w.sort();
    pool_s.sort();
    if pool_w != pool_s {
        problems.push(format!("supplies: rules {pool_w:?}, Gazebo {pool_s:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The node with a stand-in Gazebo, and the referee's and page's ends.
struct Rig {
    name: String,
    game: Game,
    world: TableWorld,
    gz: FakeGazebo,
    state_pub: Publisher<GameState>,
    client: ServiceClient<gamebot_interfaces::srv::HumanMove>,
    history: Vec<String>,
    game_number: u32,
    stop: Shutdown,
    node: Option<JoinHandle<Result<(), gamebot_nodes::NodeError>>>,
    _bus: InProcBus,
}

impl Rig {
    fn new(name: &str, serve: bool) -> Rig {
        let game = Game::load(game_file(name)).unwrap();
        let world = TableWorld::build(&game, &spec()).unwrap();
        let bus = InProcBus::new();
        let gz = FakeGazebo::start(bus.node(NodeOptions::new("gz")).unwrap(), &world, serve);
        let me = bus.node(NodeOptions::new("test")).unwrap();
        let state_pub = me.publisher_on(&graph::GAME_STATE).unwrap();
        let client = me.service_client_on(&graph::SIM_HUMAN_MOVE).unwrap();
        let node = bus
            .node(
                NodeOptions::new("gazebo_hand")
                    .param("game_file", ParamValue::String(game_file(name)))
                    .param(
                        "camera",
                        ParamValue::String(repo("config/camera/sim.yaml").to_string_lossy().into()),
                    )
                    .param("use_sim_time", ParamValue::Bool(true)),
            )
            .unwrap();
        let stop = Shutdown::new();
        let s = stop.clone();
        let node = std::thread::spawn(move || gazebo_hand::run(&node, &s));
        assert!(
            client.wait_for_service(Duration::from_secs(30)),
            "the node serves /sim/human_move"
        );
        let mut rig = Rig {
            name: name.into(),
            game,
            world,
            gz,
            state_pub,
            client,
            history: Vec::new(),
            game_number: 1,
            stop,
            node: Some(node),
            _bus: bus,
        };
        rig.publish_state();
        rig
    }

    fn state(&self) -> State {
        replay(&self.game, &self.history).unwrap()
    }

    fn publish_state(&mut self) {
        self.state_pub
            .publish(&GameState {
                game_file: game_file(&self.name),
                game_number: self.game_number,
                move_history: self.history.clone(),
                ..Default::default()
            })
            .unwrap();
    }

    fn ask(&self, text: &str, ply: u32) -> HumanMoveResponse {
        self.client
            .call(
                HumanMoveRequest {
                    r#move: text.into(),
                    cover_seconds: 0.0,
                    ply,
                },
                Duration::from_secs(20),
            )
            .unwrap()
    }

    /// One legal turn picked by `pick` among the legal rule moves (and its
    /// continuation while the same player stays to move), made by the hand;
    /// then the referee's state follows. Returns the turn text.
    fn turn(&mut self, pick: impl Fn(&[String]) -> usize) -> String {
        let mut st = self.state();
        let player = st.player();
        let mut texts: Vec<String> = Vec::new();
        loop {
            let legal: Vec<String> = self
                .game
                .legal_moves(&st)
                .unwrap()
                .iter()
                .map(|m| self.game.move_text(m))
                .collect();
            if legal.is_empty() || st.is_over() || (!texts.is_empty() && st.player() != player) {
                break;
            }
            let t = legal[pick(&legal) % legal.len()].clone();
            let mv = self.game.find_move(&st, &t).unwrap();
            self.game.apply(&mut st, &mv).unwrap();
            texts.push(t);
        }
        let text = texts.join(" ");
        let r = self.ask(&text, self.history.len() as u32 + 1);
        assert!(r.accepted, "{}: {text}: {}", self.name, r.message);
        self.history.extend(texts);
        // Gazebo's models, not the reply, are judged.
        world_matches(&self.game, &self.world, &self.gz.poses(), &self.state())
            .unwrap_or_else(|e| panic!("{} after {text}:\n{e}", self.name));
        self.publish_state();
        text
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        self.stop.request();
        if let Some(t) = self.node.take() {
            let r = t.join().expect("the node does not panic");
            if !std::thread::panicking() {
                r.expect("the node ends cleanly");
            }
        }
    }
}

#[test]
fn tictactoe_moves_put_the_models_where_the_rules_say() {
    let mut rig = Rig::new("tictactoe.game", true);
    for k in 0..5 {
        rig.turn(|l| 3 * k + 1 + l.len() / 2);
    }
    assert!(rig.gz.calls.lock().unwrap().len() >= 5);
}

#[test]
fn reversi_flips_and_pentago_twists_in_gazebo() {
    let mut rig = Rig::new("reversi6.game", true);
    for k in 0..4 {
        rig.turn(|l| k + l.len() / 3);
    }
    // Some model lies turned over (a flip made in Gazebo).
    assert!(rig.gz.poses().values().any(|p| !p.upright()));
    drop(rig);
    let mut rig = Rig::new("pentago.game", true);
    for k in 0..3 {
        let text = rig.turn(|l| 7 * k + l.len() / 2);
        assert!(
            text.contains(' '),
            "a pentago turn is place + twist: {text}"
        );
    }
}

#[test]
fn a_request_before_its_position_waits_for_it_and_a_wrong_ply_is_refused() {
    let mut rig = Rig::new("tictactoe.game", true);
    let st = rig.state();
    let first = rig.game.move_text(&rig.game.legal_moves(&st).unwrap()[0]);
    // Ply 2 while the latest position is after 0 moves: refused after the wait.
    let t0 = Instant::now();
    let r = rig.ask(&first, 2);
    assert!(!r.accepted);
    assert!(
        r.message.contains("ply 2") && r.message.contains("after 0 moves"),
        "{}",
        r.message
    );
    assert!(
        t0.elapsed() >= Duration::from_millis(1900),
        "waited {:?}",
        t0.elapsed()
    );
    // The first move is made; the referee publishes its position only while
    // the request for the second one already waits.
    let r = rig.ask(&first, 1);
    assert!(r.accepted, "{}", r.message);
    let mut st = rig.state();
    let mv = rig.game.find_move(&st, &first).unwrap();
    rig.game.apply(&mut st, &mv).unwrap();
    let second = rig.game.move_text(&rig.game.legal_moves(&st).unwrap()[0]);
    let late = rig
        ._bus
        .node(NodeOptions::new("late_referee"))
        .unwrap()
        .publisher_on(&graph::GAME_STATE)
        .unwrap();
    let msg = GameState {
        game_file: game_file("tictactoe.game"),
        game_number: 1,
        move_history: vec![first.clone()],
        ..Default::default()
    };
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        late.publish(&msg).unwrap();
        late
    });
    let r = rig.ask(&second, 2);
    let _late = t.join().unwrap();
    assert!(r.accepted, "{}", r.message);
    rig.history = vec![first, second];
    world_matches(&rig.game, &rig.world, &rig.gz.poses(), &rig.state()).unwrap();
}

#[test]
fn failures_answer_with_the_piece_the_place_and_the_service() {
    // Gazebo refuses the set-pose.
    let mut rig = Rig::new("tictactoe.game", true);
    rig.gz.refuse.store(true, Ordering::SeqCst);
    let st = rig.state();
    let text = rig.game.move_text(&rig.game.legal_moves(&st).unwrap()[0]);
    let to = text.rsplit("->").next().unwrap().to_string();
    let before = rig.gz.poses();
    let r = rig.ask(&text, 1);
    assert!(!r.accepted);
    assert!(
        r.message.contains("/world/gamebot/set_pose")
            && r.message.contains("piece_")
            && r.message.contains(&to),
        "{}",
        r.message
    );
    assert_eq!(before.len(), rig.gz.poses().len());
    // Gazebo says yes but its poses never show the move.
    rig.gz.refuse.store(false, Ordering::SeqCst);
    rig.gz.lie.store(true, Ordering::SeqCst);
    let r = rig.ask(&text, 1);
    assert!(!r.accepted);
    assert!(
        r.message.contains("/world/gamebot/pose/info")
            && r.message.contains("piece_")
            && r.message.contains(&to),
        "{}",
        r.message
    );
    rig.gz.lie.store(false, Ordering::SeqCst);
    // An illegal move names itself; nothing moves.
    let r = rig.ask("ghost:cell_1_1->cell_2_2", 1);
    assert!(!r.accepted && r.message.contains("ghost"), "{}", r.message);
    // Malformed pose info: logged, the node carries on with the good poses.
    let bad = rig
        ._bus
        .node(NodeOptions::new("bad"))
        .unwrap()
        .publisher::<TFMessage>("/world/gamebot/pose/info", graph::GZ_POSE_INFO.qos)
        .unwrap();
    let model = rig.world.pieces[0].model.clone();
    let mut m = BTreeMap::new();
    m.insert(
        model,
        P {
            xyz: [f64::NAN, 0.0, 0.0],
            q: [0.0; 4],
        },
    );
    bad.publish(&pose_info(&m)).unwrap();
    rig.turn(|_| 0);
    // The referee plays another game: refused, naming both files.
    rig.name = "connect4.game".into();
    rig.publish_state();
    std::thread::sleep(Duration::from_millis(100));
    let r = rig.ask("x", 0);
    assert!(
        !r.accepted && r.message.contains("connect4"),
        "{}",
        r.message
    );
    drop(rig);

    // No set-pose service at all.
    let rig = Rig::new("tictactoe.game", false);
    let st = rig.state();
    let text = rig.game.move_text(&rig.game.legal_moves(&st).unwrap()[0]);
    // Wait for the first pose info to reach the node.
    std::thread::sleep(Duration::from_millis(200));
    let r = rig.ask(&text, 1);
    assert!(!r.accepted);
    assert!(
        r.message.contains("/world/gamebot/set_pose") && r.message.contains("piece_"),
        "{}",
        r.message
    );
}

#[test]
fn a_new_game_puts_every_piece_back() {
    let mut rig = Rig::new("tictactoe.game", true);
    rig.turn(|_| 0);
    rig.turn(|l| l.len() - 1);
    assert!(!rig.history.is_empty());
    rig.history.clear();
    rig.game_number = 2;
    rig.publish_state();
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let ok = world_matches(
            &rig.game,
            &rig.world,
            &rig.gz.poses(),
            &rig.game.initial_state(),
        );
        if ok.is_ok() {
            break;
        }
        assert!(Instant::now() < end, "{ok:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Exactly the world file's poses.
    for p in &rig.world.pieces {
        let q = rig.gz.poses()[&p.model];
        assert!((q.xyz[2] - (p.position[2] + p.height / 2.0)).abs() < 1e-9);
    }
    rig.turn(|_| 1);
}

/// The turn-over station in Gazebo: a disc the arm lets go at the intake
/// (its detach topic, as the arm controller publishes it) ends at the exit
/// turned over, in Gazebo's own poses; while it is attached to the gripper
/// it is left alone.
#[test]
fn a_disc_let_go_at_the_station_comes_out_turned_over() {
    let rig = Rig::new("reversi6.game", true);
    let f = rig
        .world
        .flip_station
        .expect("the default board has a station");
    let disc = rig.world.pieces[0].clone();
    let arm = rig._bus.node(NodeOptions::new("arm")).unwrap();
    let (attach_topic, detach_topic) = gamebot_gazebo::grip_topics(&disc.model);
    let qos = gamebot_ros::Qos::reliable(10);
    let attach = arm
        .publisher::<gamebot_interfaces::std_msgs::Empty>(&attach_topic, qos)
        .unwrap();
    let detach = arm
        .publisher::<gamebot_interfaces::std_msgs::Empty>(&detach_topic, qos)
        .unwrap();
    // The gripper closed on it and put it down on the intake.
    attach.publish(&Default::default()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let at_intake = P {
        xyz: [
            f.intake[0] + 0.003,
            f.intake[1],
            f.intake[2] + disc.height / 2.0,
        ],
        q: [0.0, 0.0, 0.0, 1.0],
    };
    rig.gz
        .models
        .lock()
        .unwrap()
        .insert(disc.model.clone(), at_intake);
    std::thread::sleep(Duration::from_millis(600));
    let p = rig.gz.poses()[&disc.model];
    assert!(
        (p.xyz[0] - at_intake.xyz[0]).abs() < 1e-9 && p.upright(),
        "moved while attached: {p:?}"
    );
    // The gripper opened.
    detach.publish(&Default::default()).unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    let out = loop {
        let p = rig.gz.poses()[&disc.model];
        if (p.xyz[0] - f.exit[0]).hypot(p.xyz[1] - f.exit[1]) < 1e-6 {
            break p;
        }
        assert!(Instant::now() < end, "never came out at the exit: {p:?}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!out.upright(), "{out:?}");
    assert!(
        (out.xyz[2] - (f.exit[2] + disc.height / 2.0)).abs() < 1e-9,
        "{out:?}"
    );
    assert_eq!(
        rig.gz
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|c| **c == disc.model)
            .count(),
        1
    );
}
