//! `gamebot gdl ...`: check, legal, selfplay, bench, and a GGP match over
//! loopback HTTP between two `gamebot gdl player` processes driven by a small
//! game manager written here.

use gamebot_gdl::Game;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn gdl(name: &str) -> String {
    format!("{}/../../games/gdl/{name}.gdl", env!("CARGO_MANIFEST_DIR"))
}

fn gamebot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebot"))
        .args(args)
        .output()
        .expect("gamebot runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_passes_the_six_games_and_reports_problems() {
    let files: Vec<String> = [
        "tictactoe",
        "tictactoe-misere",
        "rpsls",
        "connect4",
        "puzzle8",
        "hex",
    ]
    .iter()
    .map(|n| gdl(n))
    .collect();
    let mut args = vec!["gdl", "check", "--games", "20"];
    args.extend(files.iter().map(String::as_str));
    let o = gamebot(&args);
    let out = stdout(&o);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.matches("static checks passed").count(), 6, "{out}");
    assert_eq!(out.matches("ok   deterministic").count(), 6, "{out}");
    assert!(!out.contains("FAIL"));

    let bad = std::env::temp_dir().join(format!("gamebot-bad-{}.gdl", std::process::id()));
    std::fs::write(&bad, "(role a)\n(<= (legal a ?m) (true on))\n").unwrap();
    let o = gamebot(&["gdl", "check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{}:2:5: unsafe rule: variable `?m`",
            bad.display()
        )),
        "{out}"
    );
    std::fs::remove_file(&bad).ok();
}

#[test]
fn legal_after_joint_moves() {
    let o = gamebot(&[
        "gdl",
        "legal",
        &gdl("tictactoe"),
        "--moves",
        "((put 2 2) noop)",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "x: noop");
    assert!(lines[1].starts_with("o: (put 1 1) (put 1 2)"));
    assert_eq!(lines[1].matches("(put").count(), 8);
    // Illegal at step 2: exit code 2 naming the step.
    let o = gamebot(&[
        "gdl",
        "legal",
        &gdl("tictactoe"),
        "--moves",
        "((put 2 2) noop) ((put 1 1) noop)",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("step 2"));
    // Simultaneous: both roles move in one step.
    let o = gamebot(&[
        "gdl",
        "legal",
        &gdl("rpsls"),
        "--moves",
        "((throw rock) (throw paper))",
    ]);
    assert!(stdout(&o).contains("left: (throw lizard) (throw paper)"));
}

#[test]
fn selfplay_and_bench_json() {
    let o = gamebot(&["gdl", "selfplay", &gdl("rpsls"), "--games", "50", "--json"]);
    assert!(o.status.success());
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["games"], 50);
    let g = j["mean_goals"].as_array().unwrap();
    let total: f64 = g.iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((total - 100.0).abs() < 1e-9, "constant-sum: {total}");

    let o = gamebot(&[
        "gdl",
        "bench",
        &gdl("tictactoe"),
        "--seconds",
        "0.2",
        "--json",
    ]);
    assert!(o.status.success());
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let row = &j[0];
    assert_eq!(row["game"], "gdl/tictactoe");
    for k in [
        "games_per_s",
        "positions_per_s",
        "mean_branching",
        "mean_length",
    ] {
        assert!(row[k].as_f64().unwrap() > 0.0, "{k}");
    }
    assert!(row["mean_length"].as_f64().unwrap() >= 5.0);
}

/// A `gamebot gdl player` process and its port.
struct PlayerProc {
    child: Child,
    port: u16,
}

impl PlayerProc {
    fn start(strategy: &str) -> PlayerProc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamebot"))
            .args([
                "gdl",
                "player",
                "--port",
                "0",
                "--strategy",
                strategy,
                "--margin-ms",
                "500",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("player starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in `{line}`"));
        PlayerProc { child, port }
    }
}

impl Drop for PlayerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends raw bytes; returns (status, body).
fn raw(port: u16, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(request).unwrap();
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    let status = resp
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    let body = resp
        .split_once("\r\n\r\n")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    (status, body)
}

/// POSTs a GGP message as a game manager does.
fn post(port: u16, msg: &str) -> (u16, String) {
    let req = format!(
        "POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: GAMEMASTER\r\nReceiver: GAMEPLAYER\r\nContent-type: text/acl\r\nContent-length: {}\r\n\r\n{msg}",
        msg.len()
    );
    raw(port, req.as_bytes())
}

#[test]
fn ggp_match_over_loopback_http() {
    let path = gdl("tictactoe");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = Game::load(&path).unwrap();
    let players = [PlayerProc::start("mcts"), PlayerProc::start("mcts")];
    for p in &players {
        assert_eq!(post(p.port, "(info)"), (200, "available".into()));
    }
    // Bad requests get errors and the player keeps serving.
    let p0 = players[0].port;
    assert_eq!(raw(p0, b"garbage\r\n\r\n").0, 400);
    assert_eq!(raw(p0, b"POST / HTTP/1.0\r\n\r\n(info)").0, 411);
    assert_eq!(
        raw(p0, b"POST / HTTP/1.0\r\nContent-Length: 99999999\r\n\r\n").0,
        413
    );
    assert_eq!(post(p0, "(info").0, 400);
    assert_eq!(post(p0, "(play nomatch nil)").0, 400);
    assert_eq!(post(p0, "(start m1 x ((role x)) 5 1)").0, 400);
    // The match: start clock 5 s, play clock 1 s.
    for (p, role) in players.iter().zip(["x", "o"]) {
        let (s, b) = post(p.port, &format!("(start match1 {role} ({text}) 5 1)"));
        assert_eq!((s, b.as_str()), (200, "ready"));
    }
    let mut sc = game.scratch();
    let mut st = game.initial_state();
    let mut last = "nil".to_string();
    let mut steps = 0;
    while !game.is_terminal(&st, &mut sc) {
        let mut joint = Vec::new();
        let mut texts = Vec::new();
        for (r, p) in players.iter().enumerate() {
            let (s, mv) = post(p.port, &format!("(play match1 {last})"));
            assert_eq!(s, 200, "{mv}");
            let m = game.parse_move(r, &mv).unwrap_or_else(|e| panic!("{e}"));
            joint.push(m);
            texts.push(mv);
        }
        st = game
            .next_state(&st, &joint, &mut sc)
            .expect("players answer legal moves");
        last = format!("({} {})", texts[0], texts[1]);
        steps += 1;
        assert!(steps <= 9);
    }
    // Two MCTS players with 0.5 s per move draw tic-tac-toe almost always;
    // the goals are whatever the game says, and they sum to 100.
    let goals = game.goals(&st, &mut sc);
    assert_eq!(goals[0].unwrap() as u32 + goals[1].unwrap() as u32, 100);
    for p in &players {
        assert_eq!(
            post(p.port, &format!("(stop match1 {last})")),
            (200, "done".into())
        );
        assert_eq!(post(p.port, "(info)"), (200, "available".into()));
    }
    // Abort of a running match.
    let (s, _) = post(p0, &format!("(start match2 o ({text}) 5 1)"));
    assert_eq!(s, 200);
    assert_eq!(post(p0, "(abort match2)"), (200, "done".into()));
}
