//! Properties of every game in `games/`: random play never fails, the state
//! stays consistent, and the incremental hash equals the hash of a rebuilt state.

use gamebot_rules::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

fn game_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"));
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "game"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn rebuilt(g: &Game, st: &State) -> State {
    let n = st.element_count() as u16;
    g.state_from_parts(
        (0..n).map(|e| st.location_of(e)).collect(),
        (0..n).map(|e| st.attrs(e)).collect(),
        st.player(),
        st.outcome(),
        st.scores().to_vec(),
    )
    .unwrap()
}

#[test]
fn every_game_loads() {
    let files = game_files();
    assert!(!files.is_empty(), "no games found");
    for f in &files {
        Game::load(f).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn random_play_keeps_states_consistent() {
    for f in game_files() {
        let g = Game::load(&f).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut sc = g.scratch();
        let mut moves = Vec::new();
        for _game in 0..12 {
            let mut st = g.initial_state();
            for _ in 0..200 {
                g.legal_moves_into(&st, &mut sc, &mut moves)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                if g.settle(&mut st, &moves) {
                    break;
                }
                let mv = moves[rng.gen_range(0..moves.len())].clone();
                // Every generated move targets an empty location and moves an element that is on `from`.
                assert_eq!(st.location_of(mv.element), mv.from);
                assert!(st.content(mv.to).is_none());
                g.apply_with(&mut st, &mv, &mut sc)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                st.check_consistency()
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                let r = rebuilt(&g, &st);
                assert_eq!(r.hash(), st.hash(), "{}", f.display());
                assert_eq!(r, st);
            }
        }
    }
}

#[test]
fn equivalent_moves_lead_to_equal_states() {
    for f in game_files() {
        let g = Game::load(&f).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut st = g.initial_state();
        for _ in 0..60 {
            let moves = g.legal_moves(&st).unwrap();
            if g.settle(&mut st, &moves) {
                break;
            }
            for a in &moves {
                for b in &moves {
                    if g.equivalence_key(&st, a) == g.equivalence_key(&st, b) {
                        let (mut sa, mut sb) = (st.clone(), st.clone());
                        g.apply(&mut sa, a).unwrap();
                        g.apply(&mut sb, b).unwrap();
                        assert_eq!(
                            sa,
                            sb,
                            "{}: {} vs {}",
                            f.display(),
                            g.move_text(a),
                            g.move_text(b)
                        );
                        assert_eq!(sa.hash(), sb.hash());
                    }
                }
                if moves.len() > 60 {
                    break; // quadratic; the first row is enough for big lists
                }
            }
            let mv = moves[rng.gen_range(0..moves.len())].clone();
            g.apply(&mut st, &mv).unwrap();
        }
    }
}

#[test]
fn physical_plans_replay_to_the_next_position() {
    use gamebot_rules::{physical_actions, PhysicalAction};
    for f in game_files() {
        let g = Game::load(&f).unwrap();
        let has_camera = g.locations.iter().any(|l| l.camera.is_some());
        let on_table = |l: u16| !has_camera || g.locations[l as usize].camera.is_some();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut st = g.initial_state();
        for _ in 0..80 {
            let moves = g.legal_moves(&st).unwrap();
            if g.settle(&mut st, &moves) {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())].clone();
            let mut next = st.clone();
            g.apply(&mut next, &mv).unwrap();
            let plan = physical_actions(&g, &st, &next).unwrap();
            let mut occ: Vec<Option<u16>> = (0..st.location_count() as u16)
                .map(|l| st.content(l))
                .collect();
            for a in &plan {
                if let PhysicalAction::Transfer { element, from, to } = a {
                    assert_eq!(occ[*from as usize], Some(*element), "{}", f.display());
                    assert!(occ[*to as usize].is_none(), "{}: {plan:?}", f.display());
                    occ[*from as usize] = None;
                    occ[*to as usize] = Some(*element);
                }
            }
            for l in 0..st.location_count() as u16 {
                if on_table(l) {
                    assert_eq!(
                        occ[l as usize],
                        next.content(l),
                        "{}: {}",
                        f.display(),
                        g.locations[l as usize].name
                    );
                }
            }
            // The moved piece itself is always part of the plan.
            assert!(plan.iter().any(|a| matches!(a, PhysicalAction::Transfer { element, .. } if *element == mv.element)), "{}", f.display());
            st = next;
        }
    }
}

#[test]
fn bookkeeping_pieces_need_no_arm() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/mill.game");
    let g = Game::load(path).unwrap();
    let st = g.initial_state();
    let mv = g.legal_moves(&st).unwrap()[0].clone();
    let mut next = st.clone();
    g.apply(&mut next, &mv).unwrap();
    let plan = gamebot_rules::physical_actions(&g, &st, &next).unwrap();
    assert_eq!(
        plan.len(),
        1,
        "placing a man is one transfer, markers are virtual: {plan:?}"
    );
}
