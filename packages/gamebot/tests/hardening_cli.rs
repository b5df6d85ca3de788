//! Issue 20 at the command line: every reproduction of the bad-input probe
//! runs the debug binary and must end with an error message (exit 2 or 1)
//! or quietly (exit 0), never with a panic or a signal.

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};

fn gamebot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("gamebot runs")
}

/// Asserts a clean refusal: exit code 2 (clap or command error), no panic, the message present.
fn refused(args: &[&str], message: &str) {
    let o = gamebot(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        err.contains(message),
        "{args:?}: expected `{message}` in: {err}"
    );
}

#[test]
fn numeric_options_have_checked_ranges() {
    for bad in ["NaN", "inf", "1e20", "-1"] {
        let seconds = format!("--seconds={bad}");
        refused(
            &["bench", "rules", "games/tictactoe.game", &seconds],
            "accepted 0.001 to 86400 seconds",
        );
    }
    refused(
        &["bench", "vision", "--seconds=-1", "--frames", "0"],
        "invalid value",
    );
    refused(
        &["bench", "ssc32", "--iterations", "0"],
        "accepted 1 to 1000000",
    );
    refused(
        &["bench", "ssc32", "--bauds", "0"],
        "accepted 300 to 4000000 baud",
    );
    refused(
        &["ssc32", "probe", "--port", "/dev/null", "--baud", "0"],
        "baud",
    );
    refused(
        &[
            "reach",
            "games/tictactoe.game",
            "--png",
            "/tmp/r.png",
            "--step-cm",
            "10000",
        ],
        "accepted 0.1 to 50 cm",
    );
    refused(
        &["bench", "ik", "--arms", "al5d", "--step-cm", "0.001"],
        "accepted 0.1 to 50 cm",
    );
    refused(
        &["ssc32", "emulator", "--garbage", "18446744073709551615"],
        "accepted 0 to 65536 bytes",
    );
    refused(
        &[
            "render",
            "--game",
            "games/tictactoe.game",
            "--out",
            "/tmp/unused.png",
            "--offset",
            "1e300",
        ],
        "--offset",
    );
    refused(
        &[
            "render",
            "--game",
            "games/tictactoe.game",
            "--out",
            "/tmp/unused.png",
            "--noise",
            "NaN",
        ],
        "--noise",
    );
    refused(
        &["bench", "ai", "games/tictactoe.game", "--seconds=-1"],
        "--seconds",
    );
    refused(&["bench", "rules", "--max-moves", "0"], "--max-moves");
    refused(&["ik", "1e300", "0", "0"], "accepted -10 to 10 m");
    // Too large for the type is a range error, not "expected a number".
    refused(
        &["bench", "ssc32", "--iterations", "99999999999999999999999"],
        "out of range",
    );
}

#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    for args in [
        &[
            "check",
            "games/tictactoe.game",
            "games/connect4.game",
            "games/alquerque.game",
        ][..],
        &[
            "bench",
            "rules",
            "--json",
            "games/tictactoe.game",
            "--seconds",
            "0.01",
        ][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close our end at once: every write of the child hits a broken pipe.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {status:?} {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn endless_and_foreign_inputs_are_bounded_and_named() {
    let o = gamebot(&["check", "/dev/zero"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("/dev/zero:0:0: larger than the 16777216-byte limit"),
        "{out}"
    );
    // `check -` reads the game from standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let game = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../games/tictactoe.game"
    ))
    .unwrap();
    child.stdin.take().unwrap().write_all(&game).unwrap();
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.starts_with("<stdin>: ok: 2 player(s)"), "{out}");
}

#[test]
fn solve_refuses_a_two_player_game() {
    refused(
        &["solve", "games/tictactoe.game"],
        "solve is for one-player puzzles, and this game has 2 players",
    );
}

#[test]
fn a_missing_arm_does_not_show_the_build_checkout() {
    let o = gamebot(&["ik", "--arm", "no_such_arm", "0.1", "0.1", "0.1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("config/arms/no_such_arm.yaml: no arm named no_such_arm"),
        "{err}"
    );
    assert!(!err.contains("packages/gamebot_kinematics"), "{err}");
}
