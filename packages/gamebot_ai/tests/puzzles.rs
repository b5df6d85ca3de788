//! Single-agent search on the puzzles: optimal lengths and costs.

mod common;
use common::*;
use gamebot_ai::puzzle::solve;
use gamebot_ai::{PuzzleOpts, SearchControl, Spec};
use std::collections::{HashMap, VecDeque};

fn opts(s: &str) -> PuzzleOpts {
    match s.parse::<Spec>().unwrap() {
        Spec::Puzzle(p) => p,
        other => panic!("{other} is not a puzzle search"),
    }
}

#[test]
fn frogs_bfs_and_astar_find_the_15_move_optimum_and_dfs_a_solution() {
    for name in ["frogs", "frogs-old"] {
        let g = game(name);
        let start = g.initial_state();
        for strategy in ["bfs", "astar"] {
            let sol = solve(&g, &start, &opts(strategy), &SearchControl::new()).unwrap();
            assert!(sol.solved, "{name} {strategy}");
            assert_eq!(sol.moves.len(), 15, "{name} {strategy}");
            assert_eq!(
                replay(&g, &start, &sol.moves).outcome(),
                gamebot_rules::Outcome::Won(1)
            );
        }
        let sol = solve(&g, &start, &opts("dfs"), &SearchControl::new()).unwrap();
        assert!(sol.solved, "{name} dfs");
        assert!(sol.moves.len() >= 15);
        assert_eq!(
            replay(&g, &start, &sol.moves).outcome(),
            gamebot_rules::Outcome::Won(1),
            "{name} dfs"
        );
    }
}

#[test]
fn a_stuck_puzzle_has_no_solution_and_a_depth_limit_is_not_a_proof() {
    let g = game("frogs");
    // Frogs 1-3 on the left facing toads 4-6: nobody can move.
    let stuck = place(
        &g,
        &[
            ("f(1)", "pad(1)"),
            ("f(2)", "pad(2)"),
            ("f(3)", "pad(3)"),
            ("t(1)", "pad(4)"),
            ("t(2)", "pad(5)"),
            ("t(3)", "pad(6)"),
        ],
    );
    for s in ["bfs", "dfs", "astar"] {
        let sol = solve(&g, &stuck, &opts(s), &SearchControl::new()).unwrap();
        assert!(!sol.solved && sol.exhausted && sol.moves.is_empty(), "{s}");
    }
    let sol = solve(
        &g,
        &g.initial_state(),
        &opts("bfs:depth=10"),
        &SearchControl::new(),
    )
    .unwrap();
    assert!(!sol.solved && !sol.exhausted);
}

#[test]
fn bridge_and_torch_takes_17_minutes() {
    let g = game("bridge");
    let start = g.initial_state();
    for s in ["astar:cost=score", "astar:cost=score,heuristic=none"] {
        let sol = solve(&g, &start, &opts(s), &SearchControl::new()).unwrap();
        assert!(sol.solved, "{s}");
        assert_eq!(sol.cost, 17, "{s}");
        let end = replay(&g, &start, &sol.moves);
        assert_eq!(
            (end.outcome(), end.scores()[0]),
            (gamebot_rules::Outcome::Won(1), 17),
            "{s}"
        );
    }
    // The wrong sign of cost is reported, not silently searched.
    let e = solve(
        &g,
        &start,
        &opts("astar:cost=-score"),
        &SearchControl::new(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("cost=score"), "{e}");
    // Fewest moves is not fewest minutes: bfs finds some solution.
    let sol = solve(&g, &start, &opts("bfs"), &SearchControl::new()).unwrap();
    assert!(sol.solved && replay(&g, &start, &sol.moves).scores()[0] >= 17);
}

/// Optimal 8-puzzle distances of every position, by an exhaustive breadth-first
/// search over permutations that does not use the rule engine. Board index
/// `(y-1)*3 + (x-1)` for cell(x,y); 0 is the hole; the goal is 1..8 then the hole.
fn puzzle8_distances() -> (Vec<[u8; 9]>, HashMap<[u8; 9], u32>) {
    let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    let mut dist = HashMap::from([(goal, 0u32)]);
    let mut order = vec![goal];
    let mut queue = VecDeque::from([goal]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        let h = b.iter().position(|&t| t == 0).unwrap();
        let (hx, hy) = (h % 3, h / 3);
        for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (hx as i32 + dx, hy as i32 + dy);
            if !(0..3).contains(&nx) || !(0..3).contains(&ny) {
                continue;
            }
            let mut n = b;
            n.swap(h, (ny * 3 + nx) as usize);
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                e.insert(d + 1);
                order.push(n);
                queue.push_back(n);
            }
        }
    }
    (order, dist)
}

#[test]
fn puzzle8_astar_is_optimal() {
    let (order, dist) = puzzle8_distances();
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    let g = game("puzzle8");
    // The start position of the game file needs 14 moves.
    let sol = solve(
        &g,
        &g.initial_state(),
        &opts("astar"),
        &SearchControl::new(),
    )
    .unwrap();
    assert_eq!(sol.moves.len(), 14);
    for want in [5u32, 12, 18, 20, 22, 24, 26, 28, 31] {
        // The first position at that distance in breadth-first order, and one from the middle.
        let at: Vec<&[u8; 9]> = order.iter().filter(|b| dist[*b] == want).collect();
        for board in [at[0], at[at.len() / 2]] {
            let placement: Vec<(String, String)> = board
                .iter()
                .enumerate()
                .filter(|(_, &t)| t != 0)
                .map(|(i, &t)| {
                    (
                        format!("tile({t})"),
                        format!("cell({},{})", i % 3 + 1, i / 3 + 1),
                    )
                })
                .collect();
            let refs: Vec<(&str, &str)> = placement
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            let start = place(&g, &refs);
            let sol = solve(&g, &start, &opts("astar"), &SearchControl::new()).unwrap();
            assert!(sol.solved, "{board:?}");
            assert_eq!(sol.moves.len() as u32, want, "{board:?}");
            assert_eq!(
                replay(&g, &start, &sol.moves).outcome(),
                gamebot_rules::Outcome::Won(1)
            );
        }
    }
}
