//! The SSC-32U line parser (what the emulator's command handler runs on
//! every received line) and the driver's answer parsers.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\r') {
        if let Ok(cmd) = gamebot_ssc32::Command::parse(line) {
            // What parses must print back to a line that parses the same.
            let again = gamebot_ssc32::Command::parse(&cmd.to_string()).expect("printed command parses");
            assert_eq!(again, cmd);
        }
    }
    let _ = gamebot_ssc32::protocol::parse_version(data);
});
