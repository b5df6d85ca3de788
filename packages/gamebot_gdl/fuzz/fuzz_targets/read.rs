//! Fuzzes the KIF reader, the static checks and the compiler: any bytes must
//! give a description or positioned errors, never a panic or a hang.
//! Run: `cargo +nightly fuzz run read` in packages/gamebot_gdl (corpus: fuzz/corpus/read, not in git).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(exprs) = gamebot_gdl::kif::read("fuzz.gdl", text) {
        // Printing and re-reading gives the same expressions (positions aside).
        let printed: Vec<String> = exprs.iter().map(|e| e.to_string()).collect();
        let again = gamebot_gdl::kif::read("fuzz.gdl", &printed.join("\n")).expect("printed KIF reads");
        let reprinted: Vec<String> = again.iter().map(|e| e.to_string()).collect();
        assert_eq!(printed, reprinted);
    }
    let _ = gamebot_gdl::check_text("fuzz.gdl", text);
    // Compiling can be large for big inputs; keep the fuzzer fast.
    if text.len() < 2000 {
        if let Ok(game) = gamebot_gdl::Game::parse("fuzz.gdl", text) {
            let mut sc = game.scratch();
            let st = game.initial_state();
            let _ = game.legal_moves(&st, &mut sc);
            let _ = game.goals(&st, &mut sc);
        }
    }
});
