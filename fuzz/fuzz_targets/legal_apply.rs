//! `legal`/`apply` on random move texts against the repository's games.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const GAMES: &[(&str, &str)] = &[
    ("tictactoe.game", include_str!("../../games/tictactoe.game")),
    ("connect4.game", include_str!("../../games/connect4.game")),
    ("alquerque.game", include_str!("../../games/alquerque.game")),
];

fn games() -> &'static Vec<gamebot_rules::Game> {
    static G: OnceLock<Vec<gamebot_rules::Game>> = OnceLock::new();
    G.get_or_init(|| {
        GAMES
            .iter()
            .map(|(f, t)| gamebot_rules::Game::parse(f, t).expect("repository game loads"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let game = &games()[which as usize % GAMES.len()];
    let mut state = game.initial_state();
    // Each line is a move text; legal ones are applied, the rest must be errors.
    for line in text.lines().take(64) {
        match game.find_move(&state, line) {
            Ok(mv) => {
                let mut next = state.clone();
                if game.apply(&mut next, &mv).is_ok() {
                    state = next;
                }
            }
            Err(_) => {}
        }
        if game.legal_moves(&state).map_or(true, |m| m.is_empty()) {
            break;
        }
    }
});
