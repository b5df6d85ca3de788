//! Shared helpers of the integration tests.
#![allow(dead_code)]

use gamebot_ai::tournament::{run_tournament, TournamentConfig, TournamentResult};
use gamebot_ai::{CancelToken, Spec};
use gamebot_rules::{Game, Move, State};

/// Loads `games/<name>.game` from the repository.
pub fn game(name: &str) -> Game {
    let path = format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"));
    Game::load(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Applies the moves to a copy of `start` and returns the final state.
pub fn replay(game: &Game, start: &State, moves: &[Move]) -> State {
    let mut s = start.clone();
    for m in moves {
        let legal = game.legal_moves(&s).unwrap();
        assert!(
            legal.iter().any(|l| l == m),
            "illegal move {}",
            game.move_text(m)
        );
        game.apply(&mut s, m).unwrap();
    }
    s
}

/// A state with the given element placement (by name); other attributes as in the initial state.
pub fn place(game: &Game, at: &[(&str, &str)]) -> State {
    let init = game.initial_state();
    let mut locs: Vec<u16> = (0..game.elements.len() as u16)
        .map(|e| init.location_of(e))
        .collect();
    for (e, l) in at {
        let e = game
            .element_by_name(e)
            .unwrap_or_else(|| panic!("no element {e}"));
        let l = game
            .location_by_name(l)
            .unwrap_or_else(|| panic!("no location {l}"));
        locs[e as usize] = l;
    }
    let attrs = (0..game.elements.len() as u16)
        .map(|e| init.attrs(e))
        .collect();
    game.state_from_parts(
        locs,
        attrs,
        1,
        gamebot_rules::Outcome::Running,
        init.scores().to_vec(),
    )
    .unwrap()
}

/// Runs `games` games between two strategies (sides alternating) on two threads.
pub fn duel(game: &Game, a: &str, b: &str, games: usize, seed: u64) -> TournamentResult {
    let cfg = TournamentConfig {
        players: vec![
            ("a".into(), a.parse::<Spec>().unwrap()),
            ("b".into(), b.parse::<Spec>().unwrap()),
        ],
        games,
        swap_sides: true,
        seed,
        jobs: 2,
        max_plies: 500,
    };
    run_tournament(game, &cfg, &CancelToken::new(), &|_, _| {}).unwrap()
}
