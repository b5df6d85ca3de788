//! The game database from the command line: two `gamebot tournament`
//! processes writing to one database at once lose no game, `gamebot play`
//! stores its game (and an abandoned one), and `gamebot stats` figures
//! agree with what the tournaments reported.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn games(name: &str) -> String {
    format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "gamebot-cli-{name}-{}-{}",
        std::process::id(),
        gamebot_record::now_ns()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tournament(db: &Path, json: &Path, players: &[&str], games_n: usize, seed: u64) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamebot"));
    c.args(["tournament", &games("tictactoe"), "--players"])
        .args(players)
        .args([
            "--games",
            &games_n.to_string(),
            "--swap-sides",
            "--jobs",
            "2",
        ])
        .args(["--seed", &seed.to_string(), "--db"])
        .arg(db)
        .arg("--json")
        .arg(json);
    c
}

fn stats(db: &Path, extra: &[&str]) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .arg("stats")
        .arg("--db")
        .arg(db)
        .arg("--json")
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn player<'a>(s: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    s["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == name)
        .unwrap_or_else(|| panic!("{name} not in {s}"))
}

#[test]
fn two_tournaments_writing_at_once_lose_nothing_and_stats_agree() {
    let dir = scratch("tournaments");
    let db = dir.join("games.sqlite3");
    let (ja, jb) = (dir.join("a.json"), dir.join("b.json"));
    // 2 x 40 games, both processes inserting at the same time.
    let mut a = tournament(&db, &ja, &["random", "alphabeta:depth=2"], 40, 1)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut b = tournament(
        &db,
        &jb,
        &["alphabeta:depth=1", "mcts:iterations=50"],
        40,
        2,
    )
    .stdout(Stdio::null())
    .spawn()
    .unwrap();
    assert!(a.wait().unwrap().success());
    assert!(b.wait().unwrap().success());
    let s = stats(&db, &[]);
    assert_eq!(s["games_count"], 80, "{s}");
    let g = &s["games"][0];
    assert_eq!(g["game"], "tictactoe");
    assert_eq!(g["played"], 80);
    // Wins and draws per player as the tournaments counted them.
    for (json, names) in [
        (&ja, ["random", "alphabeta:depth=2"]),
        (&jb, ["alphabeta:depth=1", "mcts:iterations=50"]),
    ] {
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        let p = &t["pairings"][0];
        let (aw, bw, d) = (
            p["a_wins"].as_u64().unwrap(),
            p["b_wins"].as_u64().unwrap(),
            p["draws"].as_u64().unwrap(),
        );
        let pa = player(&s, names[0]);
        let pb = player(&s, names[1]);
        assert_eq!(
            (
                pa["wins"].as_u64(),
                pa["draws"].as_u64(),
                pa["losses"].as_u64()
            ),
            (Some(aw), Some(d), Some(bw))
        );
        assert_eq!(
            (pb["wins"].as_u64(), pb["losses"].as_u64()),
            (Some(bw), Some(aw))
        );
        let score = (aw as f64 + d as f64 / 2.0) / 40.0;
        assert!((pa["score"].as_f64().unwrap() - score).abs() < 1e-12);
        let (lo, hi) = (
            pa["score_low"].as_f64().unwrap(),
            pa["score_high"].as_f64().unwrap(),
        );
        assert!(
            lo <= score && score <= hi && hi - lo < 0.35,
            "{lo} {score} {hi}"
        );
        // The stronger side of each pairing ends with the higher Elo.
        if aw < bw {
            assert!(pb["elo"].as_f64() > pa["elo"].as_f64());
        }
        assert!(pa["think_ms_per_move"].is_number());
    }
    // --player narrows to that player's games.
    let only = stats(&db, &["--player", "mcts:iterations=50"]);
    assert_eq!(only["games_count"], 40);
    assert_eq!(only["players"].as_array().unwrap().len(), 1);
    // --since in the future: nothing.
    let none = stats(&db, &["--since", "2999-01-01"]);
    assert_eq!(none["games_count"], 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_stores_finished_and_abandoned_games() {
    let dir = scratch("play");
    let db = dir.join("games.sqlite3");
    let run = |input: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args([
                "play",
                &games("nim"),
                "--vs",
                "alphabeta:depth=4",
                "--human-side",
                "1",
                "--db",
            ])
            .arg(&db)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    // Always the first listed move; a bad move first (a correction).
    run(&format!("nonsense\n{}", "1\n".repeat(40)));
    // One move, then quit: abandoned.
    run("1\nq\n");
    let s = stats(&db, &[]);
    assert_eq!(s["games_count"], 2, "{s}");
    assert_eq!(s["games"][0]["abandoned"], 1);
    let h = player(&s, "human");
    assert_eq!(h["kind"], "human");
    assert_eq!(h["played"], 1);
    assert_eq!(h["abandoned"], 1);
    assert_eq!(h["corrections_per_game"], 0.5);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A simulated game recorded and read back: `gamebot replay` prints the
/// timeline — every move with who made it, the planner's goals coming and
/// going, the simulation time beside the receive time — and the same moves
/// the game's summary lists.
#[test]
fn a_recorded_sim_game_replays_as_a_timeline() {
    let dir = scratch("timeline");
    let summary = dir.join("summary.json");
    let o = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args([
            "play",
            &games("tictactoe"),
            "--sim",
            "--robot-plays-both",
            "--robot",
            "random",
            "--speed",
            "20",
            "--no-web",
            "--no-db",
            "--seed",
            "3",
            "--record",
        ])
        .arg(dir.join("bags"))
        .arg("--summary")
        .arg(&summary)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let bag = s["games"][0]["bag"]
        .as_str()
        .expect("the summary names the bag");
    let o = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["replay", bag])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let moves = s["games"][0]["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        assert!(text.contains(mv), "{mv} is not in the timeline:\n{text}");
    }
    let planner = |status: &str| {
        text.lines()
            .filter(|l| l.contains("action /planner/plan_move goal") && l.ends_with(status))
            .count()
    };
    // One planner goal per robot move, each seen through to its result.
    assert_eq!(planner(": succeeded"), moves.len(), "{text}");
    assert!(text.contains("(sim "), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
