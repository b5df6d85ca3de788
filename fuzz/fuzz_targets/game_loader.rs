//! The game-file loader on arbitrary bytes (decoded as the loader does).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = gamebot_input::decode_text("fuzz.game", data.to_vec()) {
        let _ = gamebot_rules::Game::parse("fuzz.game", &text);
    }
});
