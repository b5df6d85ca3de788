//! Correctness of the searches: alpha-beta agrees with minimax, budgets are
//! reproducible, cancellation works, heuristics from the game files are right.

mod common;
use common::*;
use gamebot_ai::{build, strategy, AiError, CancelToken, SearchControl, Spec};
use gamebot_rules::{Game, State};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position after `plies` random moves (or earlier if the game ends).
fn random_position(g: &Game, seed: u64, plies: usize) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = g.initial_state();
    for _ in 0..plies {
        let legal = g.legal_moves(&s).unwrap();
        if legal.is_empty() || s.is_over() {
            break;
        }
        let m = legal[rng.gen_range(0..legal.len())].clone();
        g.apply(&mut s, &m).unwrap();
    }
    s
}

fn value(g: &Game, spec: &str, s: &State) -> f64 {
    strategy(spec)
        .unwrap()
        .choose(g, s, &SearchControl::new())
        .unwrap()
        .stats
        .value
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Alpha-beta (with its table, ordering and iterative deepening) computes the
    /// same root value as plain minimax at the same depth.
    #[test]
    fn alphabeta_value_equals_minimax(seed in 0u64..1_000_000, plies in 0usize..6, which in 0usize..3) {
        // Pentago: a turn is two moves by the same player (turn extensions happen).
        let (name, depth) = [("tictactoe", 4), ("connect4", 3), ("pentago", 2)][which];
        let g = game(name);
        let s = random_position(&g, seed, plies);
        prop_assume!(!s.is_over());
        for h in ["pieces", "mobility", "auto"] {
            for ext in [0, 4] {
                let m = value(&g, &format!("minimax:depth={depth},heuristic={h},ext={ext}"), &s);
                let a = value(&g, &format!("alphabeta:depth={depth},heuristic={h},ext={ext}"), &s);
                prop_assert!((m - a).abs() < 1e-9, "{name} {h} ext={ext}: minimax {m} alphabeta {a}");
            }
        }
    }
}

#[test]
fn alphabeta_sees_a_forced_win_and_reports_its_line() {
    let g = game("tictactoe");
    // x on (1,1),(2,2); o on (1,2),(3,3)... x to move can win at once on (3,1)/(1,3)? Build:
    // x: cell(1,1), cell(2,1); o: cell(1,2), cell(2,2); x to move wins on cell(3,1).
    let s = place(
        &g,
        &[
            ("x(1)", "cell(1,1)"),
            ("x(2)", "cell(2,1)"),
            ("o(1)", "cell(1,2)"),
            ("o(2)", "cell(2,2)"),
        ],
    );
    let d = strategy("alphabeta:depth=5")
        .unwrap()
        .choose(&g, &s, &SearchControl::new())
        .unwrap();
    assert_eq!(g.move_text(&d.mv), "x(3):sx(3)->cell(3,1)");
    assert!((d.stats.value - 0.99).abs() < 1e-12, "{}", d.stats.value);
    assert_eq!(d.stats.pv, vec!["x(3):sx(3)->cell(3,1)"]);
    for spec in [
        "minimax:depth=2",
        "mcts:iterations=200",
        "mcts:iterations=200,cutoff=0",
        "mc:playouts=50",
    ] {
        let d = strategy(spec)
            .unwrap()
            .choose(&g, &s, &SearchControl::new())
            .unwrap();
        assert_eq!(g.move_text(&d.mv), "x(3):sx(3)->cell(3,1)", "{spec}");
    }
}

#[test]
fn full_depth_alphabeta_solves_tictactoe_as_a_draw() {
    let g = game("tictactoe");
    let d = strategy("alphabeta:depth=9")
        .unwrap()
        .choose(&g, &g.initial_state(), &SearchControl::new())
        .unwrap();
    assert_eq!(d.stats.value, 0.0);
    assert!(d.stats.complete);
    assert_eq!(d.stats.considered.len(), 9);
    assert_eq!(d.stats.pv.len(), 9, "{:?}", d.stats.pv);
}

#[test]
fn mcts_is_reproducible_for_a_fixed_budget_seed_and_thread_count() {
    let g = game("connect4");
    let s = random_position(&g, 11, 4);
    let run = |spec: &str| {
        let d = strategy(spec)
            .unwrap()
            .choose(&g, &s, &SearchControl::new())
            .unwrap();
        (
            g.move_text(&d.mv),
            d.stats.considered,
            d.stats.playouts,
            d.stats.nodes,
        )
    };
    for spec in [
        "mcts:iterations=600,seed=7",
        "mcts:iterations=600,seed=7,threads=2",
    ] {
        let a = run(spec);
        assert_eq!(a, run(spec), "{spec}");
        assert_eq!(a.1.iter().map(|c| c.visits).sum::<u64>(), 600, "{spec}");
    }
    assert_ne!(
        run("mcts:iterations=600,seed=7").1,
        run("mcts:iterations=600,seed=8").1
    );
}

/// Player 1 blocks player 2's only piece (2 is stuck: a draw, §7.11) or
/// steps aside (2 then steps in and wins).
const BLOCK_GAME: &str = "[ELEMENT TYPES]\nname=peg\nstates=1\n\
[LOCATION TYPES]\nname=cell\n\
[LOCATIONS]\nname=s(1)\ntype=cell\nname=s(2)\ntype=cell\nname=s(3)\ntype=cell\n\
name=aside\ntype=cell\n\
[PLAYER NAMES]\n1=one\n2=two\n\
[MOVABLE ELEMENTS]\nname=x\ntype=peg\nplayer=1\nlocation=s(1)\n\
name=y\ntype=peg\nplayer=2\nlocation=s(3)\n\
[END OF GAME]\nsituation=(NOT EMPTY(\"s(2)\")) AND (OWNER(CONTENT(\"s(2)\")) == 2)\nwinner=2\n\
[GAME RULES]\nname=block\nelement=x\nplayer=1\nfrom=s(1)\nto=s(2)\nfollowup=NEXTPLAYER\n\
name=aside\nelement=x\nplayer=1\nfrom=s(1)\nto=aside\nfollowup=NEXTPLAYER\n\
name=step\nelement=y\nplayer=2\nfrom=s(3)\nto=s(2)\nfollowup=NEXTPLAYER\n";

/// Blocking is proven a draw (and chosen) whatever judges the leaves:
/// playouts, playouts cut short, or (`cutoff=0`) the heuristic at once, which
/// finds the stuck player only when the leaf is expanded.
#[test]
fn mcts_proves_a_stuck_opponent_a_draw_at_any_cutoff() {
    let g = Game::parse("block.game", BLOCK_GAME).unwrap();
    let s = g.initial_state();
    for spec in [
        "mcts:iterations=300,seed=1",
        "mcts:iterations=300,seed=1,cutoff=2,heuristic=pieces",
        "mcts:iterations=300,seed=1,cutoff=0,heuristic=pieces",
    ] {
        let d = strategy(spec)
            .unwrap()
            .choose(&g, &s, &SearchControl::new())
            .unwrap();
        assert_eq!(g.move_text(&d.mv), "x:s(1)->s(2)", "{spec}");
        assert!(d.stats.complete, "{spec}: {:?}", d.stats);
        let mut proven: Vec<(&str, f64, bool)> = d
            .stats
            .considered
            .iter()
            .map(|c| (c.mv.as_str(), c.value, c.proven))
            .collect();
        proven.sort_by_key(|c| c.0);
        assert_eq!(
            proven,
            [("x:s(1)->aside", -1.0, true), ("x:s(1)->s(2)", 0.0, true)],
            "{spec}"
        );
    }
}

#[test]
fn mcts_reuses_its_tree() {
    let g = game("connect4");
    let mut ai = strategy("mcts:iterations=2000,seed=1").unwrap();
    let mut s = g.initial_state();
    let d = ai.choose(&g, &s, &SearchControl::new()).unwrap();
    assert_eq!(d.stats.reused, 0);
    g.apply(&mut s, &d.mv).unwrap();
    let reply = g.legal_moves(&s).unwrap()[0].clone();
    g.apply(&mut s, &reply).unwrap();
    let d2 = ai.choose(&g, &s, &SearchControl::new()).unwrap();
    assert!(d2.stats.reused > 0, "{:?}", d2.stats);
    let mut fresh = strategy("mcts:iterations=2000,seed=1,reuse=no").unwrap();
    fresh
        .choose(&g, &g.initial_state(), &SearchControl::new())
        .unwrap();
    assert_eq!(
        fresh
            .choose(&g, &s, &SearchControl::new())
            .unwrap()
            .stats
            .reused,
        0
    );
}

#[test]
fn searches_stop_when_cancelled_and_return_a_move() {
    let g = game("connect4");
    for spec in [
        "alphabeta:time=1h",
        "mcts:time=1h",
        "mcts:time=1h,threads=2",
        "mc:playouts=100000000",
        "minimax:depth=12",
        "bfs",
    ] {
        let cancel = CancelToken::new();
        let c2 = cancel.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(150));
            c2.cancel();
        });
        let ctl = SearchControl::new().with_cancel(cancel);
        let mut ai = strategy(spec).unwrap();
        let d = ai.choose(&g, &g.initial_state(), &ctl).unwrap();
        t.join().unwrap();
        let legal = g.legal_moves(&g.initial_state()).unwrap();
        assert!(legal.contains(&d.mv), "{spec}");
    }
}

/// Cancelled before the first iteration (the planner node stopping at once):
/// every anytime strategy still returns a legal move, none panics.
#[test]
fn searches_cancelled_before_they_start_return_a_legal_move() {
    let g = game("connect4");
    let s = g.initial_state();
    let legal = g.legal_moves(&s).unwrap();
    for spec in [
        "alphabeta:time=1h",
        "alphabeta:depth=8",
        "mcts:time=1h",
        "mcts:iterations=300",
        "mcts:time=1h,threads=2",
        "mcts:time=1h,cutoff=4,heuristic=pieces",
        "mc:playouts=1000",
        "minimax:depth=4",
        "random",
    ] {
        let cancel = CancelToken::new();
        cancel.cancel();
        let ctl = SearchControl::new().with_cancel(cancel);
        let d = strategy(spec)
            .unwrap()
            .choose(&g, &s, &ctl)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert!(legal.contains(&d.mv), "{spec}");
    }
}

#[test]
fn progress_is_reported() {
    let g = game("connect4");
    let seen = std::sync::Mutex::new(Vec::new());
    let f = |s: &gamebot_ai::SearchStats| seen.lock().unwrap().push(s.depth);
    let ctl = SearchControl::new().with_progress(&f);
    strategy("alphabeta:depth=3")
        .unwrap()
        .choose(&g, &g.initial_state(), &ctl)
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), vec![1, 2, 3]);
}

#[test]
fn nothing_to_choose_is_an_error() {
    let g = game("tictactoe");
    let s = place(
        &g,
        &[
            ("x(1)", "cell(1,1)"),
            ("x(2)", "cell(2,1)"),
            ("o(1)", "cell(1,2)"),
            ("o(2)", "cell(2,2)"),
        ],
    );
    let win = g.find_move(&s, "x(3):sx(3)->cell(3,1)").unwrap();
    let mut over = s.clone();
    g.apply(&mut over, &win).unwrap();
    assert_eq!(over.outcome(), gamebot_rules::Outcome::Won(1));
    for spec in ["random", "bfs", "minimax", "alphabeta", "mc", "mcts"] {
        let e = strategy(spec)
            .unwrap()
            .choose(&g, &over, &SearchControl::new())
            .unwrap_err();
        assert!(matches!(e, AiError::NoMove(_)), "{spec}: {e}");
    }
}

#[test]
fn eval_heuristic_needs_an_evaluation_section() {
    let g = game("tictactoe");
    let e = strategy("alphabeta:heuristic=eval")
        .unwrap()
        .choose(&g, &g.initial_state(), &SearchControl::new())
        .unwrap_err();
    assert!(e.to_string().contains("[EVALUATION]"), "{e}");
}

#[test]
fn stochastic_minimax_varies_only_within_the_margin() {
    let g = game("tictactoe");
    let s = g.initial_state();
    let mut picks = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let spec: Spec = format!("minimax-stochastic:depth=2,margin=0.05,seed={seed}")
            .parse()
            .unwrap();
        let d = build(&spec).choose(&g, &s, &SearchControl::new()).unwrap();
        let best = d
            .stats
            .considered
            .iter()
            .map(|c| c.value)
            .fold(f64::MIN, f64::max);
        assert!(d.stats.value >= best - 0.05);
        picks.insert(g.move_text(&d.mv));
    }
    assert!(picks.len() > 1, "{picks:?}");
}

#[test]
fn flat_monte_carlo_variants_rank_moves() {
    let g = game("connect4");
    for spec in [
        "mc:playouts=20,variant=mean",
        "mc:playouts=20,variant=wins",
        "mc:playouts=20,variant=score",
    ] {
        let d = strategy(spec)
            .unwrap()
            .choose(&g, &g.initial_state(), &SearchControl::new())
            .unwrap();
        assert_eq!(d.stats.playouts, 7 * 20, "{spec}");
        assert_eq!(d.stats.considered.len(), 7);
        assert!(d.stats.considered.iter().all(|c| c.visits == 20));
    }
}

/// The weighted-square table of the issue, written here independently.
fn reversi_weight(x: usize, y: usize) -> i32 {
    const W: [[i32; 8]; 8] = [
        [100, -20, 10, 5, 5, 10, -20, 100],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [100, -20, 10, 5, 5, 10, -20, 100],
    ];
    W[y - 1][x - 1]
}

#[test]
fn reversi8_evaluation_is_the_weighted_square_table() {
    let g = game("reversi8");
    let mut sc = g.scratch();
    for seed in 0..12 {
        let s = random_position(&g, seed, 6 + 4 * seed as usize);
        let mut want = 0;
        for x in 1..=8 {
            for y in 1..=8 {
                let l = g.location_by_name(&format!("b({x},{y})")).unwrap();
                if let Some(e) = s.content(l) {
                    want += reversi_weight(x, y) * if s.element_state(e) == 1 { 1 } else { -1 };
                }
            }
        }
        assert_eq!(
            g.evaluate(&s, 1, &mut sc).unwrap(),
            Some(want),
            "seed {seed}"
        );
    }
}

#[test]
fn pentago_evaluation_counts_five_in_a_row_windows() {
    let g = game("pentago");
    let mut sc = g.scratch();
    let cell = |s: &State, x: i32, y: i32| -> i32 {
        let l = g.location_by_name(&format!("c({x},{y})")).unwrap();
        match s.content(l).map(|e| g.element_type_of(e).name.as_str()) {
            Some("redmarble") => 1,
            Some("bluemarble") => -1,
            _ => 0,
        }
    };
    let worth = [0, 1, 10, 100, 1000, 10000];
    for seed in 0..12 {
        let s = random_position(&g, seed, 4 + 3 * seed as usize);
        let mut want = 0;
        for x0 in 1..=6 {
            for y0 in 1..=6 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (x4, y4) = (x0 + 4 * dx, y0 + 4 * dy);
                    if !(1..=6).contains(&x4) || !(1..=6).contains(&y4) {
                        continue;
                    }
                    let (mut r, mut b) = (0, 0);
                    for k in 0..5 {
                        match cell(&s, x0 + k * dx, y0 + k * dy) {
                            1 => r += 1,
                            -1 => b += 1,
                            _ => {}
                        }
                    }
                    if b == 0 {
                        want += worth[r];
                    } else if r == 0 {
                        want -= worth[b];
                    }
                }
            }
        }
        assert_eq!(
            g.evaluate(&s, 1, &mut sc).unwrap(),
            Some(want),
            "seed {seed}"
        );
    }
}

#[test]
fn every_strategy_plays_every_two_player_game_to_the_end() {
    use gamebot_ai::tournament::play_game;
    for name in ["nim", "tictactoe", "reversi6"] {
        let g = game(name);
        for spec in [
            "minimax:depth=2",
            "alphabeta:depth=2",
            "mc:playouts=5",
            "mcts:iterations=50",
            "minimax-stochastic:depth=1",
        ] {
            let mut players = vec![strategy(spec).unwrap(), strategy("random:seed=3").unwrap()];
            let r = play_game(&g, &mut players, 400, &CancelToken::new(), |_, _| {}).unwrap();
            assert!(r.winner >= 0 && !r.moves.is_empty(), "{name} {spec}");
        }
    }
}
