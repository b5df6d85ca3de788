//! The SSC-32U line parser (what the emulator's command handler runs on
//! every received line), the emulator's servo model driven by the parsed
//! commands (as its handler applies them: moves, STOP, Q, QP, with the stall
//! fault toggled and time advancing between lines) and the driver's answer
//! parsers.
#![no_main]
use gamebot_ssc32::emulator::Board;
use gamebot_ssc32::Command;
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut board = Board::new();
    let mut now = Duration::ZERO;
    for line in text.split('\r') {
        // Time moves on by an amount the input chooses (0 to 2.5 s).
        now += Duration::from_millis(line.len() as u64 % 64 * 40);
        if line.starts_with('!') {
            board.set_stalled(!board.is_stalled(), now);
            continue;
        }
        let Ok(cmd) = Command::parse(line) else {
            continue;
        };
        // What parses must print back to a line that parses the same.
        let again = Command::parse(&cmd.to_string()).expect("printed command parses");
        assert_eq!(again, cmd);
        match &cmd {
            Command::Move(m) => {
                let d = board.group_move(m, now);
                assert!(d < Duration::from_secs(3600), "a move of {d:?}");
            }
            Command::Stop(c) => board.stop(*c, now),
            Command::QueryMovement => {
                let _ = board.movement_at(now).byte();
            }
            Command::QueryPulse(chs) => {
                for &c in chs {
                    let p = board.pulse_at(c, now);
                    use gamebot_ssc32::protocol::{PULSE_MAX, PULSE_MIN};
                    assert!(p == 0 || (PULSE_MIN..=PULSE_MAX).contains(&p), "pulse {p}");
                }
            }
            Command::Version => {}
        }
    }
    let _ = gamebot_ssc32::protocol::parse_version(data);
});
