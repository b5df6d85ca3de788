//! Fuzzes the game-file loader; files that load are played for a few moves
//! chosen by the remaining input bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = gamebot_rules::Game::parse("fuzz.game", &text) else { return };
    let mut state = game.initial_state();
    for &b in data.iter().take(16) {
        let Ok(moves) = game.legal_moves(&state) else { return };
        if game.settle(&mut state, &moves) {
            return;
        }
        let mv = &moves[b as usize % moves.len()];
        if game.apply(&mut state, mv).is_err() {
            return;
        }
        state.check_consistency().expect("consistent state");
    }
});
