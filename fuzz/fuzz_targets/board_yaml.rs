//! The board placement YAML loader (config/boards/*.yaml).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gamebot_kinematics::Board::parse(Path::new("fuzz.yaml"), text);
    }
});
