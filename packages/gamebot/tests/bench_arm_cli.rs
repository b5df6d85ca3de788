//! `gamebot bench arm`: the real nodes on the simulated robot carry pieces
//! for each kind of transfer; the JSON report must be complete and sane.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn bench_arm_reports_three_kinds_of_transfer_on_tictactoe() {
    let game = repo().join("games/tictactoe.game");
    let out = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .current_dir(repo())
        .args([
            "bench",
            "arm",
            "--game",
            game.to_str().unwrap(),
            "--repeat",
            "1",
            "--speed",
            "20",
            "--plan-repeats",
            "20",
            "--idle-seconds",
            "2",
            "--json",
        ])
        .output()
        .expect("gamebot runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench arm failed: {stderr}");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    assert_eq!(v["arm"], "al5d");
    let kinds = v["kinds"].as_array().expect("kinds");
    let names: Vec<&str> = kinds.iter().map(|k| k["kind"].as_str().unwrap()).collect();
    assert_eq!(names, ["adjacent", "across", "supply_to_far_corner"]);
    for k in kinds {
        let kind = k["kind"].as_str().unwrap();
        assert_eq!(k["transfers"], 1, "{kind}");
        assert_ne!(k["from"], k["to"], "{kind}");
        for field in ["sim_seconds", "wall_seconds", "reverse_sim_seconds"] {
            let s = &k[field];
            let (mean, min, max) = (
                s["mean"].as_f64().unwrap(),
                s["min"].as_f64().unwrap(),
                s["max"].as_f64().unwrap(),
            );
            assert!(mean > 0.0 && min > 0.0, "{kind} {field}: {s}");
            assert!(min <= mean && mean <= max, "{kind} {field}: {s}");
        }
        let err = k["placement_error_mm"]["max"].as_f64().unwrap();
        assert!(
            (0.0..=5.0).contains(&err),
            "{kind}: placement error {err} mm"
        );
        let (pm, p95) = (
            k["plan_mean_us"].as_f64().unwrap(),
            k["plan_p95_us"].as_f64().unwrap(),
        );
        assert!(pm > 0.0 && p95 > 0.0, "{kind}: plan {pm} / {p95} us");
        assert!(k["planned_arm_seconds"].as_f64().unwrap() > 0.0, "{kind}");
        assert!(k["planned_arm_segments"].as_u64().unwrap() >= 5, "{kind}");
    }
    // Adjacent is the shortest transfer, across the board the longest.
    let dist = |i: usize| kinds[i]["distance_cm"].as_f64().unwrap();
    assert!(dist(0) > 0.0 && dist(0) <= dist(1), "{kinds:?}");
    // The arm publishes joint states while moving and while idle.
    for w in ["joint_states_moving", "joint_states_idle"] {
        let r = &v[w];
        assert!(r["messages"].as_u64().unwrap() > 0, "{w}: {r}");
        assert!(r["sim_seconds"].as_f64().unwrap() > 0.0, "{w}: {r}");
        assert!(r["per_sim_second"].as_f64().unwrap() > 0.0, "{w}: {r}");
    }
    assert!(v["adjacent_target_met"].is_boolean());
}

#[test]
fn bench_arm_refuses_a_bad_repeat_and_a_missing_game() {
    let out = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["bench", "arm", "--repeat", "0"])
        .output()
        .expect("gamebot runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--repeat"));
    let out = Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(["bench", "arm", "--game", "/nonexistent/none.game", "--json"])
        .output()
        .expect("gamebot runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.game"));
}
