//! `gamebot play --sim` stopped in the middle of a game — by Ctrl-C
//! (SIGINT) or by SIGTERM (what `ros2 launch`, `timeout` and service
//! managers send) — shuts its nodes down: it exits on its own (not killed
//! by the signal), writes the summary of the game so far, and leaves nothing
//! in its temporary directory (the emulated SSC-32U's pty link and its
//! directory are removed).

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::ChildProcess;

fn stopped_by(signal: &str) {
    let scratch =
        std::env::temp_dir().join(format!("gamebot_play_sim_{}_{signal}", std::process::id()));
    let tmp = scratch.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let summary = scratch.join("summary.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamebot"));
    cmd.args([
        "play",
        "games/tictactoe.game",
        "--sim",
        "--robot-plays-both",
        "--robot",
        "random",
        "--speed",
        "20",
        "--no-web",
        "--no-db",
        "--summary",
    ])
    .arg(&summary)
    .env("TMPDIR", &tmp)
    .stdout(Stdio::piped());
    let mut game = ChildProcess::spawn("play", signal, cmd);
    // The game is under way once the arm has started a move.
    let stdout = game.child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let end = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("the arm starts")) {
        match rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
            Ok(l) => seen.push(l),
            Err(_) => panic!(
                "no arm move within 120 s; stdout:\n{}\nstderr:\n{}",
                seen.join("\n"),
                game.log_text()
            ),
        }
    }
    let pid = game.child.id().to_string();
    assert!(Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = game.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "still running 30 s after SIG{signal}:\n{}",
            game.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        status.code().is_some(),
        "killed by SIG{signal} instead of stopping: {status:?}\n{}",
        game.log_text()
    );
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind in TMPDIR: {left:?}");
    let text = std::fs::read_to_string(&summary).expect("the summary of the game so far");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["games"][0]["finished"], false, "{text}");
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn ctrl_c_in_the_middle_of_a_game_leaves_nothing_behind() {
    stopped_by("INT");
}

#[test]
fn sigterm_in_the_middle_of_a_game_leaves_nothing_behind() {
    stopped_by("TERM");
}
