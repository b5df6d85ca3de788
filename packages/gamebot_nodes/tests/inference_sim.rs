//! Move inference from rendered frames of the simulated world: a person makes
//! a random legal turn with the simulated hand (which also covers part of the
//! board for a while), the camera frames go through `Detector` and
//! `TemporalFilter`, and the stable observation after the hand has left is
//! given to `move_inference::infer`. 100 random positions per game, 0 wrong
//! inferences; an "ambiguous" answer counts as honest only when the true
//! turn is one of its classes (all classes show the observed board).

use gamebot_nodes::move_inference::{infer, visible_board, Inference, InferenceConfig};
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};
use gamebot_sim::{HandAction, HandTarget, World, WorldConfig};
use gamebot_vision::board_model::VisionBoard;
use gamebot_vision::detect::{Detector, DetectorConfig};
use gamebot_vision::filter::{FilterConfig, FilterStatus, TemporalFilter};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The arm folded up and back, out of the camera's view.
const OUT_OF_VIEW_AL5D: [f64; 5] = [0.0, 0.6, 1.3, 0.0, 0.0];

fn game(name: &str) -> Game {
    let p = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
        .join(format!("{name}.game"));
    Game::load(p.to_str().unwrap()).unwrap()
}

fn settled(g: &Game, mut s: State) -> State {
    let l = g.legal_moves(&s).unwrap();
    g.settle(&mut s, &l);
    s
}

/// A random position reached by random legal moves.
fn random_position(g: &Game, rng: &mut ChaCha8Rng, max_moves: usize) -> State {
    let mut s = g.initial_state();
    for _ in 0..rng.gen_range(0..=max_moves) {
        let legal = g.legal_moves(&s).unwrap();
        if s.is_over() || legal.is_empty() {
            break;
        }
        let m = &legal[rng.gen_range(0..legal.len())];
        g.apply(&mut s, m).unwrap();
        s = settled(g, s);
    }
    s
}

/// A random whole turn: random legal moves while the same player stays to move.
fn random_turn(g: &Game, s: &State, rng: &mut ChaCha8Rng) -> Option<(Vec<String>, State)> {
    let player = s.player();
    let mut st = s.clone();
    let mut texts = Vec::new();
    loop {
        let legal = g.legal_moves(&st).unwrap();
        if st.is_over() || legal.is_empty() {
            break;
        }
        if !texts.is_empty() && st.player() != player {
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
    (!texts.is_empty()).then_some((texts, st))
}

/// A turn of a position where the turn is more than one rule move when
/// `long` (a double capture, a mill and its removal, place and twist).
fn sample(g: &Game, rng: &mut ChaCha8Rng, long: bool) -> (State, Vec<String>, State) {
    for _ in 0..400 {
        let s = random_position(g, rng, 40);
        if s.is_over() {
            continue;
        }
        let Some((texts, after)) = random_turn(g, &s, rng) else {
            continue;
        };
        if long && texts.len() < 2 {
            continue;
        }
        return (s, texts, after);
    }
    panic!("{}: no position with a long turn found", g.name);
}

/// What the hand does for a turn: the rule engine's physical actions
/// (transfers and flips), with the hand covering a random board spot for a
/// while at a random point of the move.
fn hand_actions(
    g: &Game,
    w: &World,
    before: &State,
    after: &State,
    rng: &mut ChaCha8Rng,
) -> Vec<HandAction> {
    let mut out: Vec<HandAction> = physical_actions(g, before, after)
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
    let spots: Vec<[f64; 3]> = (0..g.locations.len() as u16)
        .filter(|&l| g.is_relevant(l))
        .filter_map(|l| w.location_position(l))
        .collect();
    let at = spots[rng.gen_range(0..spots.len())];
    let i = rng.gen_range(0..=out.len());
    out.insert(
        i,
        HandAction::Cover {
            at: [at[0], at[1]],
            seconds: rng.gen_range(0.3..1.5),
        },
    );
    out
}

#[derive(Debug, Default)]
struct Tally {
    turns: usize,
    long_turns: usize,
    correct: usize,
    ambiguous: usize,
    wrong: Vec<String>,
}

fn run_game(name: &str, n: usize, seed: u64) -> Tally {
    let g = game(name);
    let board = VisionBoard::from_game(&g).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = World::new(
        &g,
        &g.initial_state(),
        WorldConfig {
            seed,
            rest_pose: Some(OUT_OF_VIEW_AL5D.to_vec()),
            ..Default::default()
        },
    )
    .unwrap();
    let mut det = Detector::new(
        board.clone(),
        Some(w.camera_calibration()),
        DetectorConfig::default(),
    )
    .unwrap();
    let period = w.frame_period();
    let cfg = InferenceConfig::default();
    let mut t = Tally::default();
    for k in 0..n {
        // Every fourth sample insists on a turn of several rule moves where the game has them.
        let long = k.is_multiple_of(4) && matches!(name, "alquerque" | "mill" | "pentago");
        let (before, texts, after) = sample(&g, &mut rng, long);
        w.reset(&g, &before).unwrap();
        let mut filter = TemporalFilter::new(FilterConfig::default());
        // The camera settles on the position before the move.
        for _ in 0..3 {
            w.step(period).unwrap();
            filter.push(det.detect(&w.render().unwrap().image).unwrap());
        }
        let seen_before = filter.stable().expect("stable before the move");
        let cls: Vec<Option<usize>> = seen_before.locations.iter().map(|l| l.class).collect();
        assert!(
            matches!(
                infer(&g, &board, &before, &cls, &cfg).unwrap(),
                Inference::Unchanged
            ),
            "{name} sample {k}: the camera does not see the position before the move"
        );
        let actions = hand_actions(&g, &w, &before, &after, &mut rng);
        w.human_move(&actions).unwrap();
        // While the hand is at work the camera looks every third frame (the
        // filter must see the hand; every frame would only cost time).
        let mut n = 0u32;
        while w.hand_busy() {
            w.step(period).unwrap();
            n += 1;
            if n.is_multiple_of(3) {
                filter.push(det.detect(&w.render().unwrap().image).unwrap());
            }
        }
        // After the hand has gone: the first stable observation.
        let mut stable = None;
        for _ in 0..20 {
            w.step(period).unwrap();
            if let FilterStatus::Stable { .. } =
                filter.push(det.detect(&w.render().unwrap().image).unwrap())
            {
                stable = filter.stable().cloned();
                break;
            }
        }
        let stable = stable.unwrap_or_else(|| panic!("{name} sample {k}: never stable"));
        let cls: Vec<Option<usize>> = stable.locations.iter().map(|l| l.class).collect();
        t.turns += 1;
        if texts.len() > 1 {
            t.long_turns += 1;
        }
        let truth = visible_board(&g, &board, &after);
        let label = format!("{name} sample {k}: turn {}", texts.join(" "));
        match infer(&g, &board, &before, &cls, &cfg).unwrap() {
            Inference::Unique(c) if c.representative().state == after && c.complete() => {
                t.correct += 1
            }
            Inference::Ambiguous(cs)
                if cs
                    .iter()
                    .any(|c| c.representative().state == after && c.complete()) =>
            {
                t.ambiguous += 1
            }
            Inference::Unchanged if truth == visible_board(&g, &board, &before) => {
                // A turn the camera cannot see at all (nothing visible moved).
                t.ambiguous += 1
            }
            other => t.wrong.push(format!(
                "{label}: inferred {:?} (camera saw {} difference(s) from the truth)",
                match &other {
                    Inference::Unique(c) => c.text(),
                    Inference::Ambiguous(cs) =>
                        cs.iter().map(|c| c.text()).collect::<Vec<_>>().join(" | "),
                    Inference::Unchanged => "unchanged".into(),
                    Inference::Illegal { changes } => format!("illegal: {changes:?}"),
                },
                gamebot_nodes::move_inference::changes(&board, &truth, &cls).len()
            )),
        }
    }
    eprintln!("{name}: {t:?}");
    t
}

fn check(name: &str, seed: u64) {
    let t = run_game(name, 100, seed);
    assert!(
        t.wrong.is_empty(),
        "{name}: wrong inferences:\n{}",
        t.wrong.join("\n")
    );
    assert_eq!(t.turns, 100);
    if matches!(name, "alquerque" | "mill" | "pentago") {
        assert!(
            t.long_turns >= 25,
            "{name}: only {} long turns",
            t.long_turns
        );
    }
    // "Ambiguous" is honest only rarely: most turns are told apart.
    assert!(t.correct >= 90, "{name}: {t:?}");
}

#[test]
fn tictactoe_moves_are_inferred_from_frames() {
    check("tictactoe", 1);
}

#[test]
fn connect4_moves_are_inferred_from_frames() {
    check("connect4", 2);
}

#[test]
fn alquerque_captures_are_inferred_from_frames() {
    check("alquerque", 3);
}

#[test]
fn reversi_placements_with_flips_are_inferred_from_frames() {
    check("reversi6", 4);
}

#[test]
fn mill_and_removal_are_inferred_from_frames() {
    check("mill", 5);
}

#[test]
fn pentago_place_and_twist_are_inferred_from_frames() {
    check("pentago", 6);
}
