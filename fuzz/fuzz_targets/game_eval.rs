//! The expression evaluator on loaded games: every game that loads is played
//! a few moves (legal moves, apply, evaluation, end conditions, scores), with
//! the choices taken from the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // First 8 bytes choose the moves; the rest is the game text.
    let (choices, rest) = data.split_at(data.len().min(8));
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(game) = gamebot_rules::Game::parse("fuzz.game", text) else {
        return;
    };
    let mut state = game.initial_state();
    for &c in choices {
        let Ok(moves) = game.legal_moves(&state) else {
            return;
        };
        // End conditions and scores are evaluated here.
        if game.settle(&mut state, &moves) || moves.is_empty() {
            break;
        }
        let mv = &moves[c as usize % moves.len()];
        let _ = game.move_text(mv);
        let mut next = state.clone();
        if game.apply(&mut next, mv).is_err() {
            return;
        }
        state = next;
        let _ = state.outcome();
    }
});
