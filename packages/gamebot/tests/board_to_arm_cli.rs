//! `gamebot calibrate board-to-arm` against `gamebot ssc32 emulator` in
//! another process, driven by line commands on stdin as a script would:
//! the tool is brought 1 cm above each mark, one `jog 0 0 -10` puts it on
//! the mark (the emulated arm is exactly where it is told), and the saved
//! placement is the identity. A missing port is refused, naming it.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use support::{repo, start_emulator};

#[test]
fn a_script_registers_the_board_against_the_emulator() {
    let dir = std::env::temp_dir().join(format!("gamebot-b2a-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("ssc32");
    let (_emu, _) = start_emulator("b2a", &link, &["--baud", "115200"]);
    let board = dir.join("a4.yaml");
    let original = std::fs::read_to_string(repo().join("config/boards/a4.yaml")).unwrap();
    std::fs::write(&board, &original).unwrap();
    let mut run = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .current_dir(repo())
        .args([
            "calibrate",
            "board-to-arm",
            "--arm",
            "al5d",
            "--baud",
            "115200",
            "--board",
        ])
        .arg(&board)
        .arg("--port")
        .arg(&link)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "jog 0 0 -10\nrecord\n".repeat(4) + "fit\nsave\nquit\n";
    run.stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = run.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for needle in [
        "1. the grid's far-left corner (x=-10.0, y=28.0 cm)",
        "jog the tool tip onto point 1 of 4: the grid's far-left corner (x=-10.0, y=28.0 cm)",
        "recorded point 4 (the grid's near-left corner)",
        "point 3 (the grid's near-right corner):",
        "saved the placement to",
    ] {
        assert!(text.contains(needle), "{needle:?} not in:\n{text}");
    }
    let saved = std::fs::read_to_string(&board).unwrap();
    assert!(saved.starts_with(original.trim_end()), "{saved}");
    let b = gamebot_kinematics::Board::load(&board).unwrap();
    let p = b.placement.unwrap();
    assert!(
        p.offset_mm[0].abs() < 0.5 && p.offset_mm[1].abs() < 0.5 && p.rotation_deg.abs() < 0.1,
        "{p:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_port_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .current_dir(repo())
        .args([
            "calibrate",
            "board-to-arm",
            "--board",
            "config/boards/a4.yaml",
            "--port",
            "/dev/gamebot-no-such-port",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("serial port /dev/gamebot-no-such-port"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
