//! `gamebot ssc32`: the emulator in one process, `probe` and `send` from
//! others, as a person would use them from two terminals.

mod support;

use std::process::{Command, Output};
use support::start_emulator;

fn gamebot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .output()
        .expect("gamebot runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn emulator_probe_and_send_from_separate_processes() {
    let link = std::env::temp_dir().join(format!("gamebot-ssc32-cli-{}", std::process::id()));
    let (mut emu, device) = start_emulator("ssc32-cli", &link, &[]);
    assert_eq!(
        std::fs::read_link(&link).unwrap().to_str(),
        Some(device.as_str())
    );
    let port = link.to_str().unwrap();

    let probe = gamebot(&["ssc32", "probe", "--port", port]);
    assert!(probe.status.success(), "{}", text(&probe));
    let out = String::from_utf8_lossy(&probe.stdout);
    assert!(out.contains("firmware: SSC32-V2.50USB"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("channel")).count(), 32);

    let first_move = gamebot(&["ssc32", "send", "--port", port, "#0P1000#1P2000"]);
    assert!(first_move.status.success(), "{}", text(&first_move));
    let timed = gamebot(&["ssc32", "send", "--port", &device, "#0P1500#1P1500T300"]);
    assert!(timed.status.success(), "{}", text(&timed));
    assert!(String::from_utf8_lossy(&timed.stdout).starts_with("done in"));

    let qp = gamebot(&["ssc32", "send", "--port", port, "QP 0 QP 1 QP 2"]);
    let out = String::from_utf8_lossy(&qp.stdout).to_string();
    assert!(
        out.contains("channel  0: 1500 µs") && out.contains("channel  1: 1500 µs"),
        "{out}"
    );
    assert!(out.contains("channel  2: off"), "{out}");

    let bad = gamebot(&["ssc32", "send", "--port", port, "#0P2600"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad).contains("2600"), "{}", text(&bad));

    let wrong_baud = gamebot(&[
        "ssc32",
        "probe",
        "--port",
        port,
        "--baud",
        "115200",
        "--timeout-ms",
        "200",
    ]);
    assert!(!wrong_baud.status.success());
    assert!(
        text(&wrong_baud).contains("wrong baud rate"),
        "{}",
        text(&wrong_baud)
    );

    // SIGTERM: the emulator exits cleanly and removes its link.
    let killed = Command::new("kill")
        .args(["-TERM", &emu.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(emu.child.wait().unwrap().success());
    assert!(
        std::fs::symlink_metadata(&link).is_err(),
        "link removed on exit"
    );

    let missing = gamebot(&["ssc32", "probe", "--port", port]);
    assert!(
        text(&missing).contains("does not exist"),
        "{}",
        text(&missing)
    );
}
