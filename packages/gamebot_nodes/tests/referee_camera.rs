//! The referee reads a person's moves from the camera, on the in-process
//! bus: the simulated world (`gamebot_sim::World`, driven by this test's
//! thread as a camera would be) publishes rendered frames on
//! `/camera/image_raw`, the real `detector` node turns them into
//! `/board/observation`, and the real `referee` node (player kind `camera`
//! for both sides, `camera: true`) infers the moves. Covers: a legal move
//! seen and played; an illegal change rejected naming the changed
//! locations, then put right by making it legal; another restored by
//! undoing it; and a camera outage during which a move is made — it is
//! played once when the frames come back, nothing is lost or invented.

use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_interfaces::std_msgs::Header;
use gamebot_nodes::detector_node::mat_to_image;
use gamebot_nodes::{detector_node, referee_node};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Publisher, Qos, Shutdown, Subscription};
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};
use gamebot_sim::{HandAction, HandTarget, World, WorldConfig};
use std::time::Duration;

const OUT_OF_VIEW_AL5D: [f64; 5] = [0.0, 0.6, 1.3, 0.0, 0.0];

fn repo(p: &str) -> String {
    format!("{}/../../{p}", env!("CARGO_MANIFEST_DIR"))
}

struct Rig {
    world: World,
    images: Publisher<gamebot_interfaces::sensor_msgs::Image>,
    states: Subscription<GameState>,
    events: Subscription<GameEvent>,
    last: Option<GameState>,
    seen_events: Vec<GameEvent>,
}

impl Rig {
    /// Advances the world one frame; publishes it unless the camera is `dark`.
    fn frame(&mut self, dark: bool) {
        let period = self.world.frame_period();
        self.world.step(period).unwrap();
        if !dark {
            let f = self.world.render().unwrap();
            let img = mat_to_image(&f.image, Header::default()).unwrap();
            self.images.publish(&img).unwrap();
        }
        // The detector and referee get wall time to keep up with the frames.
        std::thread::sleep(Duration::from_millis(30));
        self.seen_events.extend(self.events.drain());
        if let Some(s) = self.states.drain().pop() {
            self.last = Some(s);
        }
    }

    /// Publishes frames until `done` holds (or panics after `max` frames).
    fn until(&mut self, max: usize, what: &str, mut done: impl FnMut(&Rig) -> bool) {
        for _ in 0..max {
            self.frame(false);
            if done(self) {
                return;
            }
        }
        panic!(
            "{what}: not reached; history {:?}; events:\n{}",
            self.last.as_ref().map(|s| s.move_history.clone()),
            self.seen_events
                .iter()
                .map(|e| format!("{} {}", e.kind, e.message))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    fn plies(&self) -> usize {
        self.last.as_ref().map_or(0, |s| s.move_history.len())
    }

    /// The person's hand: runs the actions to the end (frames published unless `dark`).
    fn hand(&mut self, actions: &[HandAction], dark: bool) {
        self.world.human_move(actions).unwrap();
        while self.world.hand_busy() {
            self.frame(dark);
        }
    }
}

fn transfer(g: &Game, st: &State, from: &str, to: &str) -> HandAction {
    let l = g.location_by_name(from).unwrap();
    let e = st.content(l).unwrap();
    HandAction::Transfer {
        element: g.elements[e as usize].name.clone(),
        from: from.into(),
        to: HandTarget::Location(to.into()),
    }
}

/// The hand actions of a legal move given as text, and the position after it.
fn legal(g: &Game, st: &State, to: &str) -> (Vec<HandAction>, State) {
    let mv = g
        .legal_moves(st)
        .unwrap()
        .into_iter()
        .find(|m| g.locations[m.to as usize].name == to)
        .unwrap();
    let mut next = st.clone();
    g.apply(&mut next, &mv).unwrap();
    let acts = physical_actions(g, st, &next)
        .unwrap()
        .into_iter()
        .map(|a| match a {
            PhysicalAction::Transfer { element, from, to } => HandAction::Transfer {
                element: g.elements[element as usize].name.clone(),
                from: g.locations[from as usize].name.clone(),
                to: HandTarget::Location(g.locations[to as usize].name.clone()),
            },
            PhysicalAction::Flip { element, .. } => HandAction::Flip {
                element: g.elements[element as usize].name.clone(),
            },
        })
        .collect();
    (acts, next)
}

#[test]
fn the_referee_reads_moves_rejects_illegal_boards_and_survives_camera_loss() {
    let file = repo("games/tictactoe.game");
    let g = Game::load(&file).unwrap();
    let mut st = g.initial_state();
    let bus = InProcBus::new();
    let observer = bus.node(NodeOptions::new("observer")).unwrap();
    let states = observer.subscription_on(&graph::GAME_STATE).unwrap();
    let events = observer
        .subscription::<GameEvent>(graph::GAME_EVENTS.name, Qos::reliable(1000))
        .unwrap();
    let camera = bus.node(NodeOptions::new("camera")).unwrap();
    let images = camera.publisher_on(&graph::CAMERA_IMAGE).unwrap();
    let detector = bus
        .node(
            NodeOptions::new("detector")
                .param("game_file", ParamValue::String(file.clone()))
                .param(
                    "calibration",
                    ParamValue::String(repo("config/camera/sim.yaml")),
                ),
        )
        .unwrap();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(file.clone()))
                .param(
                    "player_kinds",
                    ParamValue::StringArray(vec!["camera".into(), "camera".into()]),
                )
                .param("camera", ParamValue::Bool(true))
                .param("illegal_after_s", ParamValue::Double(0.4))
                .param("camera_timeout_s", ParamValue::Double(1.0)),
        )
        .unwrap();
    let world = World::new(
        &g,
        &st,
        WorldConfig {
            seed: 21,
            rest_pose: Some(OUT_OF_VIEW_AL5D.to_vec()),
            ..Default::default()
        },
    )
    .unwrap();
    let stop = Shutdown::new();
    std::thread::scope(|s| {
        let st1 = stop.clone();
        s.spawn(move || detector_node::run(&detector, &st1).unwrap());
        let st2 = stop.clone();
        s.spawn(move || referee_node::run(&referee, &st2, false).unwrap());
        let mut rig = Rig {
            world,
            images,
            states,
            events,
            last: None,
            seen_events: Vec::new(),
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            rig.until(50, "first state", |r| r.last.is_some());
            assert_eq!(
                rig.last.as_ref().unwrap().phase,
                GameState::PHASE_WAITING_FOR_HUMAN
            );

            // 1. A legal move, seen and played.
            let (acts, next) = legal(&g, &st, "cell(2,2)");
            rig.hand(&acts, false);
            rig.until(40, "the cross seen", |r| r.plies() == 1);
            st = next;
            assert!(rig.last.as_ref().unwrap().move_history[0].ends_with("->cell(2,2)"));
            assert!(rig
                .seen_events
                .iter()
                .any(|e| e.kind == GameEvent::INFO && e.message.contains("seen on the camera")));

            // 2. Two noughts at once: rejected naming both cells...
            let two = [
                transfer(&g, &st, "so(1)", "cell(1,1)"),
                transfer(&g, &st, "so(2)", "cell(3,3)"),
            ];
            rig.hand(&two, false);
            rig.until(60, "the rejection", |r| {
                r.seen_events
                    .iter()
                    .any(|e| e.kind == GameEvent::MOVE_REJECTED)
            });
            let rej = rig
                .seen_events
                .iter()
                .find(|e| e.kind == GameEvent::MOVE_REJECTED)
                .unwrap()
                .message
                .clone();
            assert!(
                rej.contains("cell(1,1): empty -> nought")
                    && rej.contains("cell(3,3): empty -> nought"),
                "{rej}"
            );
            assert_eq!(rig.plies(), 1, "nothing played for an illegal board");
            // ...then put right by taking one back: a legal move, played.
            let mut tmp = st.clone();
            let e = tmp.content(g.location_by_name("so(2)").unwrap()).unwrap();
            let back = HandAction::Transfer {
                element: g.elements[e as usize].name.clone(),
                from: "cell(3,3)".into(),
                to: HandTarget::Location("so(2)".into()),
            };
            rig.hand(&[back], false);
            rig.until(40, "the legal nought", |r| r.plies() == 2);
            let h = rig.last.as_ref().unwrap().move_history.clone();
            assert!(h[1].ends_with("->cell(1,1)"), "{h:?}");
            let mv = g.find_move(&tmp, &h[1]).unwrap();
            g.apply(&mut tmp, &mv).unwrap();
            st = tmp;

            // 3. An illegal change undone: the referee says the board is back, plays nothing.
            let before = rig.seen_events.len();
            let wrong = [
                transfer(&g, &st, "sx(2)", "cell(1,2)"),
                transfer(&g, &st, "sx(3)", "cell(3,2)"),
            ];
            rig.hand(&wrong, false);
            rig.until(60, "the second rejection", |r| {
                r.seen_events[before..]
                    .iter()
                    .any(|e| e.kind == GameEvent::MOVE_REJECTED)
            });
            let undo = [
                HandAction::Transfer {
                    element: match &wrong[0] {
                        HandAction::Transfer { element, .. } => element.clone(),
                        _ => unreachable!(),
                    },
                    from: "cell(1,2)".into(),
                    to: HandTarget::Location("sx(2)".into()),
                },
                HandAction::Transfer {
                    element: match &wrong[1] {
                        HandAction::Transfer { element, .. } => element.clone(),
                        _ => unreachable!(),
                    },
                    from: "cell(3,2)".into(),
                    to: HandTarget::Location("sx(3)".into()),
                },
            ];
            rig.hand(&undo, false);
            rig.until(40, "the board restored", |r| {
                r.seen_events[before..]
                    .iter()
                    .any(|e| e.message.contains("shows the position again"))
            });
            assert_eq!(rig.plies(), 2);

            // 4. Camera loss: the person moves while no frames arrive.
            let (acts, _) = legal(&g, &st, "cell(3,1)");
            let before = rig.seen_events.len();
            for _ in 0..60 {
                rig.frame(true);
            }
            rig.hand(&acts, true);
            for _ in 0..10 {
                rig.frame(true);
            }
            assert!(
                rig.seen_events[before..]
                    .iter()
                    .any(|e| e.message.contains("camera lost")),
                "the outage is reported"
            );
            assert_eq!(rig.plies(), 2, "no move invented while the camera is dark");
            rig.until(40, "the move after the outage", |r| r.plies() == 3);
            for _ in 0..20 {
                rig.frame(false);
            }
            let h = rig.last.as_ref().unwrap().move_history.clone();
            assert_eq!(h.len(), 3, "played exactly once: {h:?}");
            assert!(h[2].ends_with("->cell(3,1)"), "{h:?}");
            assert!(rig.seen_events[before..]
                .iter()
                .any(|e| e.message.contains("camera is back")));
        }));
        stop.request();
        if let Err(p) = result {
            std::panic::resume_unwind(p);
        }
    });
}
