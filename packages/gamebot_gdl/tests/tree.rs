//! The tic-tac-toe GDL and the tic-tac-toe rule file give the same game tree:
//! per depth the same number of distinct positions, of paths (move sequences),
//! and of won/drawn positions; plus random-play properties of every game.

use gamebot_gdl::Game;
use proptest::prelude::*;
use rustc_hash::FxHashMap;

fn root() -> String {
    format!("{}/../../games", env!("CARGO_MANIFEST_DIR"))
}

/// Per depth: (positions, paths, x wins, o wins, draws) — wins and draws count positions.
type Layers = Vec<(usize, u64, usize, usize, usize)>;

fn gdl_layers() -> Layers {
    let g = Game::load(format!("{}/gdl/tictactoe.gdl", root())).unwrap();
    let mut sc = g.scratch();
    let mut layer: FxHashMap<u64, (gamebot_gdl::State, u64)> = FxHashMap::default();
    let s0 = g.initial_state();
    layer.insert(s0.hash(), (s0, 1));
    let mut out = Vec::new();
    let mut buf = Vec::new();
    while !layer.is_empty() {
        let (mut xw, mut ow, mut dr) = (0, 0, 0);
        let paths: u64 = layer.values().map(|v| v.1).sum();
        let mut next: FxHashMap<u64, (gamebot_gdl::State, u64)> = FxHashMap::default();
        for (st, n) in layer.values() {
            g.load_state(st, &mut sc);
            if g.loaded_terminal(&sc) {
                let mut goals = Vec::new();
                g.loaded_goals(&mut sc, &mut goals);
                match (goals[0], goals[1]) {
                    (Some(100), Some(0)) => xw += 1,
                    (Some(0), Some(100)) => ow += 1,
                    (Some(50), Some(50)) => dr += 1,
                    other => panic!("goals {other:?}"),
                }
                continue;
            }
            // Exactly one role has a choice; the other plays noop.
            let mut legal = Vec::new();
            for r in 0..2 {
                g.loaded_legal(&sc, r, &mut buf);
                legal.push(buf.clone());
            }
            for &a in &legal[0] {
                for &b in &legal[1] {
                    g.load_state(st, &mut sc);
                    let c = g.loaded_next(&mut sc, &[a, b]);
                    next.entry(c.hash()).or_insert((c, 0)).1 += n;
                }
            }
        }
        out.push((layer.len(), paths, xw, ow, dr));
        layer = next;
    }
    out
}

fn rules_layers() -> Layers {
    let g = gamebot_rules::Game::load(format!("{}/tictactoe.game", root())).unwrap();
    let mut layer: FxHashMap<u64, (gamebot_rules::State, u64)> = FxHashMap::default();
    let s0 = g.initial_state();
    layer.insert(s0.hash(), (s0, 1));
    let mut out = Vec::new();
    while !layer.is_empty() {
        let (mut xw, mut ow, mut dr) = (0, 0, 0);
        let paths: u64 = layer.values().map(|v| v.1).sum();
        let mut next: FxHashMap<u64, (gamebot_rules::State, u64)> = FxHashMap::default();
        for (st, n) in layer.values() {
            let moves = g.legal_moves(st).unwrap();
            let moves = g.distinct_moves(st, &moves);
            if st.is_over() || moves.is_empty() {
                match st.outcome().winner() {
                    Some(1) => xw += 1,
                    Some(2) => ow += 1,
                    _ => dr += 1,
                }
                continue;
            }
            for m in &moves {
                let mut c = st.clone();
                g.apply(&mut c, m).unwrap();
                next.entry(c.hash()).or_insert((c, 0)).1 += n;
            }
        }
        out.push((layer.len(), paths, xw, ow, dr));
        layer = next;
    }
    out
}

#[test]
fn tictactoe_gdl_and_rule_file_have_the_same_tree() {
    let a = gdl_layers();
    let b = rules_layers();
    assert_eq!(a, b);
    // The well-known totals: 5478 positions, 958 of them terminal, 16 drawn.
    assert_eq!(a.iter().map(|l| l.0).sum::<usize>(), 5478);
    assert_eq!(a.iter().map(|l| l.2 + l.3 + l.4).sum::<usize>(), 958);
    assert_eq!(a.iter().map(|l| l.4).sum::<usize>(), 16);
}

fn games() -> Vec<Game> {
    [
        "tictactoe",
        "tictactoe-misere",
        "rpsls",
        "connect4",
        "puzzle8",
        "hex",
    ]
    .iter()
    .map(|n| Game::load(format!("{}/gdl/{n}.gdl", root())).unwrap())
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random play never panics, every state's hash equals the rebuilt hash,
    /// and the checked API agrees with the fast one.
    #[test]
    fn random_play_keeps_hash_and_agrees(seed in any::<u64>(), which in 0usize..6) {
        use rand::{Rng, SeedableRng};
        let gs = games();
        let g = &gs[which];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut sc = g.scratch();
        let mut sc2 = g.scratch();
        let mut st = g.initial_state();
        let mut buf = Vec::new();
        for _ in 0..200 {
            prop_assert_eq!(st.hash(), g.rebuild_hash(&st));
            g.load_state(&st, &mut sc);
            if g.loaded_terminal(&sc) {
                let goals = g.goals(&st, &mut sc2);
                prop_assert!(goals.iter().all(|x| x.is_some_and(|v| v <= 100)));
                break;
            }
            let mut choice = Vec::new();
            for r in 0..g.roles().len() {
                g.loaded_legal(&sc, r, &mut buf);
                prop_assert!(!buf.is_empty());
                choice.push(buf[rng.gen_range(0..buf.len())]);
            }
            let next = g.loaded_next(&mut sc, &choice);
            let joint: Vec<_> = choice.iter().enumerate().map(|(r, &i)| g.move_of(r, i)).collect();
            prop_assert_eq!(&g.next_state(&st, &joint, &mut sc2).unwrap(), &next);
            // Round trip through the text form.
            let text = g.state_text(&next);
            let refs: Vec<&str> = text.iter().map(String::as_str).collect();
            prop_assert_eq!(&g.state_from_text(&refs).unwrap(), &next);
            st = next;
        }
    }

    /// Arbitrary text never panics the reader, the checks or the compiler.
    #[test]
    fn arbitrary_text_never_panics(text in "[()a-z?<=; \n0-9]{0,200}") {
        let _ = gamebot_gdl::check_text("p.gdl", &text);
        let _ = Game::parse("p.gdl", &text);
    }
}
