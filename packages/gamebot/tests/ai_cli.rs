//! `gamebot solve`, `tournament`, `play --vs`: the AI commands' stable outputs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn games(name: &str) -> String {
    format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"))
}

fn gamebot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .output()
        .expect("gamebot runs")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn solve_prints_the_path_as_json() {
    let o = gamebot(&["solve", &games("frogs"), "--strategy", "bfs", "--json"]);
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(j["solved"], true);
    assert_eq!(j["length"], 15);
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 15);
    assert_eq!(moves[0], "f(3):pad(3)->pad(4)");
    assert!(j["expanded"].as_u64().unwrap() > 0);

    let o = gamebot(&[
        "solve",
        &games("bridge"),
        "--strategy",
        "astar:cost=score",
        "--json",
    ]);
    let j = json(&o);
    assert_eq!(
        (j["solved"].clone(), j["cost"].clone()),
        (true.into(), 17.into())
    );
}

#[test]
fn solve_says_when_there_is_no_solution() {
    // Depth-limited: not found within the limits, exit code 1.
    let o = gamebot(&["solve", &games("frogs"), "--strategy", "bfs:depth=5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("no solution"));
    let o = gamebot(&[
        "solve",
        &games("frogs"),
        "--strategy",
        "bfs:depth=5",
        "--json",
    ]);
    assert_eq!(json(&o)["solved"], false);
    // Not a puzzle search.
    let o = gamebot(&["solve", &games("frogs"), "--strategy", "mcts"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bfs, dfs or astar"));
}

#[test]
fn tournament_writes_json_with_suffixed_duplicates() {
    let file = std::env::temp_dir().join(format!("gamebot-tournament-{}.json", std::process::id()));
    let o = gamebot(&[
        "tournament",
        &games("tictactoe"),
        "--players",
        "alphabeta:depth=9",
        "random",
        "random",
        "--games",
        "4",
        "--swap-sides",
        "--jobs",
        "2",
        "--json",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Elo") && out.contains("95% interval"), "{out}");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_file(&file).ok();
    assert_eq!(
        j["players"],
        serde_json::json!(["alphabeta:depth=9", "random", "random#2"])
    );
    let pairings = j["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    for p in pairings {
        let n = |k: &str| p[k].as_u64().unwrap();
        assert_eq!(n("games"), 4);
        assert_eq!(n("a_wins") + n("b_wins") + n("draws"), 4);
        if p["a"] == "alphabeta:depth=9" {
            assert_eq!(n("b_wins"), 0, "{p}");
        }
    }
    assert!(j["elo"]["alphabeta:depth=9"].as_f64().unwrap() > j["elo"]["random"].as_f64().unwrap());
}

#[test]
fn unknown_strategies_list_what_exists() {
    let o = gamebot(&[
        "tournament",
        &games("tictactoe"),
        "--players",
        "deepblue",
        "random",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown strategy `deepblue`") && e.contains("alphabeta") && e.contains("mcts"),
        "{e}"
    );
    let o = gamebot(&["play", &games("tictactoe"), "--vs", "mcts:budget=3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("iterations"));
}

#[test]
fn play_shows_what_the_computer_considered() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args([
            "play",
            &games("tictactoe"),
            "--vs",
            "alphabeta:depth=9",
            "--human-side",
            "2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"1\nq\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("(player 1, alphabeta:depth=9) plays"), "{out}");
    assert!(out.contains("value +0.000 (solved)"), "{out}");
    assert!(out.contains("considered (9 moves)"), "{out}");
    assert!(out.contains("expected line:"), "{out}");
}
