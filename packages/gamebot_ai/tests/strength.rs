//! Strength tests with iteration/depth budgets (deterministic).

mod common;
use common::*;

/// tic-tac-toe: full-depth alpha-beta never loses to random play, on either side.
#[test]
fn tictactoe_alphabeta_never_loses_to_random() {
    let g = game("tictactoe");
    for (ai_first, seed) in [(true, 1), (false, 2)] {
        let (a, b) = if ai_first {
            ("alphabeta:depth=9", "random")
        } else {
            ("random", "alphabeta:depth=9")
        };
        let r = duel_fixed(&g, a, b, 100, seed);
        let ai_losses = if ai_first { r.b_wins } else { r.a_wins };
        assert_eq!(
            ai_losses,
            0,
            "alphabeta lost as player {}: {r:?}",
            if ai_first { 1 } else { 2 }
        );
    }
}

/// tic-tac-toe: mcts with 20000 iterations never loses to random play, on either side.
#[test]
fn tictactoe_mcts_never_loses_to_random() {
    let g = game("tictactoe");
    for (ai_first, seed) in [(true, 3), (false, 4)] {
        let (a, b) = if ai_first {
            ("mcts:iterations=20000", "random")
        } else {
            ("random", "mcts:iterations=20000")
        };
        let r = duel_fixed(&g, a, b, 100, seed);
        let ai_losses = if ai_first { r.b_wins } else { r.a_wins };
        assert_eq!(
            ai_losses,
            0,
            "mcts lost as player {}: {r:?}",
            if ai_first { 1 } else { 2 }
        );
    }
}

/// tic-tac-toe: the two perfect players always draw.
#[test]
fn tictactoe_alphabeta_and_mcts_draw() {
    let g = game("tictactoe");
    let r = duel(&g, "alphabeta:depth=9", "mcts:iterations=20000", 20, 5);
    let p = &r.pairings[0];
    assert_eq!(p.draws, 20, "{p:?}");
}

/// connect four: mcts wins at least 95 of 100 games against random play.
#[test]
fn connect4_mcts_beats_random() {
    let g = game("connect4");
    let r = duel(&g, "mcts:iterations=100", "random", 100, 6);
    let p = &r.pairings[0];
    assert!(p.a_wins >= 95, "{p:?}");
}

/// Games between two strategies where one side always moves first.
fn duel_fixed(
    game: &gamebot_rules::Game,
    a: &str,
    b: &str,
    games: usize,
    seed: u64,
) -> gamebot_ai::tournament::Pairing {
    use gamebot_ai::tournament::{run_tournament, TournamentConfig};
    let cfg = TournamentConfig {
        players: vec![
            ("a".into(), a.parse().unwrap()),
            ("b".into(), b.parse().unwrap()),
        ],
        games,
        swap_sides: false,
        seed,
        jobs: 2,
        max_plies: 100,
    };
    let r = run_tournament(game, &cfg, &gamebot_ai::CancelToken::new(), &|_, _| {}).unwrap();
    assert_eq!(r.pairings[0].games, games);
    r.pairings[0].clone()
}
