//! The plan of the person's moves in Gazebo, judged by the poses it leaves:
//! every test applies the plan's set-pose steps to a table of model poses
//! (what Gazebo would report after them) and compares that table with the
//! rule engine's position after the turn (`world_matches`), besides the
//! step-specific assertions.

use super::*;
use gamebot_gazebo::WorldSpec;
use gamebot_interfaces::geometry_msgs::{Transform, TransformStamped, Vector3};
use gamebot_rules::{on_table, visible_state_change};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(p)
}

fn table(name: &str) -> GazeboTable {
    let game = Arc::new(Game::load(repo("games").join(name)).unwrap());
    let spec = WorldSpec {
        camera: repo("config/camera/sim.yaml"),
        ..WorldSpec::default()
    };
    let world = TableWorld::build(&game, &spec).unwrap();
    GazeboTable::new(game, &world).unwrap()
}

/// A pose-info message as the bridge gives it: the models plus entities
/// that are not pieces (the table, a piece's link, the arm).
fn pose_info(poses: &[(String, ModelPose)]) -> TFMessage {
    let entry = |name: &str, frame: &str, p: &ModelPose| TransformStamped {
        header: gamebot_interfaces::std_msgs::Header {
            frame_id: frame.into(),
            ..Default::default()
        },
        child_frame_id: name.into(),
        transform: Transform {
            translation: Vector3 {
                x: p.position[0],
                y: p.position[1],
                z: p.position[2],
            },
            rotation: Quaternion {
                x: p.orientation[0],
                y: p.orientation[1],
                z: p.orientation[2],
                w: p.orientation[3],
            },
        },
    };
    let mut transforms = vec![entry(
        "table",
        "gamebot",
        &ModelPose::upright([0.0, 0.15, -0.015]),
    )];
    for (m, p) in poses {
        transforms.push(entry(m, "gamebot", p));
        transforms.push(entry("link", m, &ModelPose::upright([0.0; 3])));
    }
    TFMessage { transforms }
}

/// The poses of a fresh world, through a pose-info message.
fn initial_poses(t: &GazeboTable) -> PoseTable {
    let mut poses = PoseTable::new();
    let layout: Vec<(String, ModelPose)> = t
        .initial_layout()
        .into_iter()
        .map(|s| (s.model, s.pose))
        .collect();
    let n = poses.update(t, &pose_info(&layout)).unwrap();
    assert_eq!(n, t.pieces().len());
    poses
}

fn apply(poses: &mut PoseTable, steps: &[Step]) {
    for s in steps {
        poses.set(&s.model, s.pose);
    }
}

/// Whether the models lie as the rules' `state` says: on every place (the
/// locations on one spot together), the pieces' (type, side) multiset equals
/// the rules' (type, state) — sides only where the camera can see them;
/// irrelevant places (supplies) pooled; the off-board spot holding the
/// pieces whose location has no place; and every model resting on the
/// surface or exactly on the model below it.
fn world_matches(t: &GazeboTable, poses: &PoseTable, state: &State) -> Result<(), String> {
    let g = t.game();
    let init = g.initial_state();
    let near = |a: [f64; 3], b: [f64; 3]| (a[0] - b[0]).hypot(a[1] - b[1]) <= ON_LOCATION_M;
    // Per spot (a representative location point): whether relevant, the
    // rules' and Gazebo's (type, side) lists.
    type Pieces = Vec<(String, i32)>;
    let mut spots: Vec<([f64; 3], bool, Pieces, Pieces)> = Vec::new();
    let mut spot_index = |p: [f64; 3], relevant: bool| -> usize {
        match spots.iter().position(|s| near(s.0, p)) {
            Some(i) => i,
            None => {
                spots.push((p, relevant, Vec::new(), Vec::new()));
                spots.len() - 1
            }
        }
    };
    let off = t.off_board();
    let off_i = spot_index(off, false);
    for (l, loc) in g.locations.iter().enumerate() {
        if let Some(p) = t.place(&loc.name) {
            spot_index(p, g.is_relevant(l as u16));
        }
    }
    let states = |e: u16| g.element_type_of(e).states.max(1);
    for (e, el) in g.elements.iter().enumerate() {
        let e = e as u16;
        if t.model_of(&el.name).is_none() {
            continue;
        }
        let l = state.location_of(e);
        let name = &g.locations[l as usize].name;
        let s = state.element_state(e);
        let s0 = init.element_state(e);
        let side = if visible_state_change(g, e, s0, s0 % states(e) + 1) {
            s
        } else {
            0
        };
        let ty = g.element_type_of(e).name.clone();
        let i = match t.place(name) {
            Some(p) if on_table(g, l) => spots.iter().position(|x| near(x.0, p)).unwrap(),
            _ => off_i,
        };
        spots[i].2.push((ty, side));
    }
    for (m, spec) in t.pieces() {
        let p = poses.get(m).ok_or_else(|| format!("no pose of {m}"))?;
        let e = g
            .elements
            .iter()
            .position(|x| x.name == spec.element)
            .unwrap() as u16;
        let s0 = init.element_state(e);
        let turned = s0 % states(e) + 1;
        let s = if p.is_upright() { s0 } else { turned };
        let side = if visible_state_change(g, e, s0, turned) {
            s
        } else {
            0
        };
        let i = spots
            .iter()
            .position(|x| near(x.0, p.position))
            .ok_or_else(|| format!("{m} at {:?} lies on no place", p.position))?;
        spots[i].3.push((spec.element_type.clone(), side));
    }
    // Irrelevant places pooled.
    let mut pool = (Vec::new(), Vec::new());
    let mut problems = Vec::new();
    for (i, (p, relevant, want, seen)) in spots.iter_mut().enumerate() {
        if !*relevant && i != off_i {
            pool.0.append(want);
            pool.1.append(seen);
            continue;
        }
        want.sort();
        seen.sort();
        if want != seen {
            problems.push(format!("at {p:?}: rules {want:?}, Gazebo {seen:?}"));
        }
    }
    pool.0.sort();
    pool.1.sort();
    if pool.0 != pool.1 {
        problems.push(format!("supplies: rules {:?}, Gazebo {:?}", pool.0, pool.1));
    }
    // Resting: each model's bottom on the surface or on the top of another.
    let all: Vec<(&String, &ModelPose, f64)> = t
        .pieces()
        .iter()
        .map(|(m, s)| (m, poses.get(m).unwrap(), s.height))
        .collect();
    for (m, p, h) in &all {
        let bottom = p.position[2] - h / 2.0;
        let surface = spots
            .iter()
            .find(|x| near(x.0, p.position))
            .map(|x| x.0[2])
            .unwrap();
        let on = (bottom - surface).abs() < 1e-9
            || all.iter().any(|(o, q, qh)| {
                o != m
                    && near(q.position, p.position)
                    && (q.position[2] + qh / 2.0 - bottom).abs() < 1e-9
            });
        if !on {
            problems.push(format!("{m} floats at bottom z {bottom}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

fn settled(g: &Game, mut s: State) -> State {
    let l = g.legal_moves(&s).unwrap();
    g.settle(&mut s, &l);
    s
}

/// A random whole turn from `s`: random legal moves while the same player
/// stays to move.
fn random_turn(g: &Game, s: &State, rng: &mut ChaCha8Rng) -> Option<(String, State)> {
    let player = s.player();
    let mut st = s.clone();
    let mut texts: Vec<String> = Vec::new();
    loop {
        let legal = g.legal_moves(&st).unwrap();
        if st.is_over() || legal.is_empty() || (!texts.is_empty() && st.player() != player) {
            break;
        }
        let m = &legal[rng.gen_range(0..legal.len())];
        texts.push(g.move_text(m));
        g.apply(&mut st, m).unwrap();
        st = settled(g, st);
        if texts.len() > 8 {
            return None;
        }
    }
    (!texts.is_empty()).then(|| (texts.join(" "), st))
}

/// Plays random whole games: every turn planned from the poses the previous
/// turns' steps left, applied, and compared with the rule engine. Returns
/// every plan with its turn text.
fn play(name: &str, games: usize, seed: u64) -> Vec<(String, Vec<Step>)> {
    let t = table(name);
    let g = t.game().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut plans = Vec::new();
    for _ in 0..games {
        let mut poses = initial_poses(&t);
        let mut s = settled(&g, g.initial_state());
        for turn in 0..200 {
            let Some((text, next)) = random_turn(&g, &s, &mut rng) else {
                break;
            };
            let steps = match plan(&t, &s, &text, &poses) {
                Ok(st) => st,
                // A turn that moves nothing on the table (a pass) is refused.
                Err(e) if e.contains("moves no piece") => {
                    s = next;
                    continue;
                }
                Err(e) => panic!("{name} turn {turn} {text}: {e}"),
            };
            apply(&mut poses, &steps);
            world_matches(&t, &poses, &next)
                .unwrap_or_else(|e| panic!("{name} turn {turn} {text}:\n{e}\nsteps {steps:#?}"));
            plans.push((text, steps));
            s = next;
        }
    }
    plans
}

#[test]
fn a_placement_puts_the_supply_piece_on_the_cell_at_rest_height() {
    let t = table("tictactoe.game");
    let g = t.game().clone();
    let s = settled(&g, g.initial_state());
    let mut poses = initial_poses(&t);
    let legal = g.legal_moves(&s).unwrap();
    let text = legal
        .iter()
        .map(|m| g.move_text(m))
        .find(|m| m.ends_with("->cell_2_2") || m.contains("2_2"))
        .unwrap_or_else(|| g.move_text(&legal[0]));
    let steps = plan(&t, &s, &text, &poses).unwrap();
    assert_eq!(steps.len(), 1, "{steps:?}");
    let st = &steps[0];
    let to = text.rsplit("->").next().unwrap();
    assert_eq!(st.location, to);
    let at = t.place(to).unwrap();
    let h = t.pieces()[&st.model].height;
    assert_eq!(st.pose.position, [at[0], at[1], at[2] + h / 2.0]);
    assert!(st.pose.is_upright());
    // The model taken is the one on top of the supply stack.
    let from = text.split("->").next().unwrap().split(':').nth(1).unwrap();
    let src = t.place(from).unwrap();
    let top = t
        .pieces()
        .keys()
        .filter(|m| {
            let p = poses.get(m.as_str()).unwrap().position;
            (p[0] - src[0]).hypot(p[1] - src[1]) < 1e-6
        })
        .max_by(|a, b| {
            let za = poses.get(a.as_str()).unwrap().position[2];
            za.total_cmp(&poses.get(b.as_str()).unwrap().position[2])
        })
        .unwrap()
        .clone();
    assert_eq!(st.model, top);
    apply(&mut poses, &steps);
    let mut next = s.clone();
    g.apply(&mut next, &g.find_move(&s, &text).unwrap())
        .unwrap();
    world_matches(&t, &poses, &settled(&g, next)).unwrap();
}

#[test]
fn tictactoe_and_connect4_games_leave_gazebo_as_the_rules_say() {
    assert!(!play("tictactoe.game", 3, 1).is_empty());
    assert!(!play("connect4.game", 2, 2).is_empty());
}

#[test]
fn captures_go_to_the_bin_or_off_the_board() {
    for name in ["alquerque.game", "mill.game"] {
        let plans = play(name, 2, 3);
        let t = table(name);
        let g = t.game();
        let relevant = |name: &str| {
            g.locations
                .iter()
                .position(|l| l.name == name)
                .is_some_and(|l| g.is_relevant(l as u16))
        };
        // A piece taken from the board to a bin or off the board.
        let captured = plans
            .iter()
            .flat_map(|(_, s)| s)
            .any(|s| s.from.as_deref().is_some_and(relevant) && !relevant(&s.location));
        assert!(captured, "{name}: no capture in {} turns", plans.len());
    }
}

#[test]
fn pentago_twists_cycle_through_the_buffer_and_take_the_parked_piece() {
    let plans = play("pentago.game", 2, 4);
    // A twist: some step takes a piece from a place an earlier step of the
    // same turn put a piece on, and it is that piece.
    let mut twists = 0;
    for (text, steps) in &plans {
        for (i, s) in steps.iter().enumerate() {
            if let Some(earlier) = steps[..i]
                .iter()
                .rev()
                .find(|e| s.from.as_ref() == Some(&e.location))
            {
                assert_eq!(earlier.model, s.model, "{text}: {steps:#?}");
                twists += 1;
            }
        }
    }
    assert!(
        twists > 0,
        "no twist through a buffer in {} turns",
        plans.len()
    );
}

#[test]
fn reversi_flips_turn_the_models_over_in_place() {
    let plans = play("reversi6.game", 2, 5);
    let flips: Vec<&Step> = plans
        .iter()
        .flat_map(|(_, s)| s)
        .filter(|s| s.what.contains("turned over"))
        .collect();
    assert!(!flips.is_empty());
    // World x roll by π: the identity becomes (1, 0, 0, 0) and back.
    let up = ModelPose::upright([0.1, 0.2, 0.005]);
    let over = up.turned_over();
    assert_eq!(over.orientation, [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(over.position, up.position);
    assert!(!over.is_upright());
    assert!(over.turned_over().is_upright());
}

#[test]
fn refused_moves_name_the_piece_and_the_place() {
    let t = table("tictactoe.game");
    let g = t.game().clone();
    let s = settled(&g, g.initial_state());
    let poses = initial_poses(&t);
    // Not a legal move.
    let e = plan(&t, &s, "nonsense:nowhere->cell_1_1", &poses).unwrap_err();
    assert!(e.contains("nonsense"), "{e}");
    assert!(plan(&t, &s, "  ", &poses).unwrap_err().contains("no move"));
    // No pose info yet.
    let legal = g.move_text(&g.legal_moves(&s).unwrap()[0]);
    let e = plan(&t, &s, &legal, &PoseTable::new()).unwrap_err();
    assert!(e.contains("no piece pose"), "{e}");
    // The supply place emptied in Gazebo (someone took its pieces away).
    let from = legal
        .split("->")
        .next()
        .unwrap()
        .split(':')
        .nth(1)
        .unwrap()
        .to_string();
    let src = t.place(&from).unwrap();
    let mut moved = poses.clone();
    for m in t.pieces().keys() {
        let p = poses.get(m).unwrap().position;
        if (p[0] - src[0]).hypot(p[1] - src[1]) < ON_LOCATION_M {
            moved.set(m, ModelPose::upright([0.35, 0.45, 0.005]));
        }
    }
    let e = plan(&t, &s, &legal, &moved);
    // Another supply stack of the same type stands in, or the move is refused
    // naming the place.
    match e {
        Ok(steps) => assert_ne!(steps[0].from.as_deref(), Some(from.as_str())),
        Err(e) => assert!(e.contains(&from), "{e}"),
    }
    // A piece of the wrong type on top of the place.
    let el = legal.split(':').next().unwrap();
    let ty = &g
        .element_type_of(g.elements.iter().position(|x| x.name == el).unwrap() as u16)
        .name;
    let other = t.pieces().values().find(|p| &p.element_type != ty).unwrap();
    let mut wrong = poses.clone();
    wrong.set(
        &other.model,
        ModelPose::upright([src[0], src[1], src[2] + 0.5 * other.height + 0.05]),
    );
    // Floating 5 cm above: not resting, so not taken.
    assert!(plan(&t, &s, &legal, &wrong).is_ok());
    let top = (0..)
        .map(|k| src[2] + k as f64 * other.height)
        .take(40)
        .find(|z| {
            !t.pieces().iter().any(|(m, p)| {
                let q = poses.get(m).unwrap().position;
                (q[0] - src[0]).hypot(q[1] - src[1]) < 1e-6
                    && (q[2] - p.height / 2.0 - z).abs() < 1e-9
            })
        })
        .unwrap();
    wrong.set(
        &other.model,
        ModelPose::upright([src[0], src[1], top + other.height / 2.0]),
    );
    let e = plan(&t, &s, &legal, &wrong).unwrap_err();
    assert!(e.contains(&other.model) && e.contains(&from), "{e}");
}

#[test]
fn malformed_pose_info_is_an_error_naming_the_entry_and_keeps_the_rest() {
    let t = table("tictactoe.game");
    let mut models = t.pieces().keys();
    let (a, b) = (
        models.next().unwrap().clone(),
        models.next().unwrap().clone(),
    );
    let mut poses = PoseTable::new();
    let good = ModelPose::upright([0.1, 0.2, 0.005]);
    let nan = ModelPose::upright([f64::NAN, 0.2, 0.005]);
    let e = poses
        .update(&t, &pose_info(&[(a.clone(), nan), (b.clone(), good)]))
        .unwrap_err();
    assert!(e.contains(&a) && e.contains("not finite"), "{e}");
    assert!(poses.get(&a).is_none());
    assert_eq!(poses.get(&b), Some(&good));
    let zero = ModelPose {
        position: [0.0; 3],
        orientation: [0.0; 4],
    };
    let e = poses
        .update(&t, &pose_info(&[(a.clone(), zero)]))
        .unwrap_err();
    assert!(e.contains("unit quaternion"), "{e}");
    // Entities that are not pieces are skipped, an empty message is fine.
    assert_eq!(poses.update(&t, &TFMessage::default()), Ok(0));
    // Reached: 5 mm and the side.
    assert!(reached(&good, &ModelPose::upright([0.103, 0.2, 0.005])));
    assert!(!reached(&good, &ModelPose::upright([0.11, 0.2, 0.005])));
    assert!(!reached(&good, &good.turned_over()));
}

/// The turn-over station: a disc the arm let go at the intake (resting, no
/// longer attached) goes to the exit turned over, on top of what lies
/// there; one still attached, or resting outside the capture radius, or
/// carried above the intake, stays.
#[test]
fn the_station_turns_a_released_disc_over_at_its_exit() {
    let t = table("reversi6.game");
    let f = t.station.expect("the default board has a station");
    let mut poses = initial_poses(&t);
    let mut models = t.pieces().keys().cloned();
    let (a, b, c) = (
        models.next().unwrap(),
        models.next().unwrap(),
        models.next().unwrap(),
    );
    let h = t.pieces()[&a].height;
    let at = |dx: f64, dz: f64| {
        ModelPose::upright([f.intake[0] + dx, f.intake[1], f.intake[2] + h / 2.0 + dz])
    };
    // Nothing at the intake: nothing to do.
    assert!(station_turns(&t, &poses, &BTreeSet::new()).is_empty());
    poses.set(&a, at(0.004, 0.0));
    poses.set(&b, at(f.capture_radius + 0.003, 0.0));
    poses.set(&c, at(0.0, 0.03));
    let steps = station_turns(&t, &poses, &BTreeSet::new());
    assert_eq!(steps.len(), 1, "{steps:?}");
    let s = &steps[0];
    assert_eq!(s.model, a);
    assert!(!s.pose.is_upright());
    assert!((s.pose.position[0] - f.exit[0]).abs() < 1e-9);
    assert!((s.pose.position[1] - f.exit[1]).abs() < 1e-9);
    assert!((s.pose.position[2] - (f.exit[2] + h / 2.0)).abs() < 1e-9);
    // Attached to the gripper (being put down): not yet.
    let held: BTreeSet<String> = [a.clone()].into();
    assert!(station_turns(&t, &poses, &held).is_empty());
    // A second disc while the first still lies at the exit: on top of it,
    // and a turned-over disc turned again comes out upright.
    apply(&mut poses, &steps);
    poses.set(&b, at(0.0, 0.0).turned_over());
    let steps = station_turns(&t, &poses, &BTreeSet::new());
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].model, b);
    assert!(steps[0].pose.is_upright());
    assert!((steps[0].pose.position[2] - (f.exit[2] + h + h / 2.0)).abs() < 1e-9);
}
