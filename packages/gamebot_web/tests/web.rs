//! The web node on the in-process graph with the real referee and planner:
//! HTTP assets, the WebSocket snapshot, moves, illegal moves explained, bad
//! messages answered, foreign origins refused, replay, shutdown.

use gamebot_nodes::{planner_node, referee_node};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{NodeOptions, ParamValue, Shutdown};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

fn game(name: &str) -> String {
    format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs referee + planner + web until `body` returns.
fn with_graph(kinds: &[&str], body: impl FnOnce(SocketAddr)) {
    let bus = InProcBus::new();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(game("tictactoe.game")))
                .param(
                    "player_kinds",
                    ParamValue::StringArray(kinds.iter().map(|k| k.to_string()).collect()),
                ),
        )
        .unwrap();
    let planner = bus.node(NodeOptions::new("planner")).unwrap();
    let web = bus.node(NodeOptions::new("web")).unwrap();
    let shutdown = Shutdown::new();
    let cfg = gamebot_web::WebConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        games_dir: format!("{}/../../games", env!("CARGO_MANIFEST_DIR")).into(),
        ..Default::default()
    };
    let server = gamebot_web::start(&web, &shutdown, cfg).unwrap();
    let addr = server.addr();
    assert!(server.url().starts_with("http://127.0.0.1:"));
    /// Stops the graph also when the test body panics.
    struct StopOnDrop(Shutdown);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            self.0.request();
        }
    }
    std::thread::scope(|s| {
        let (sd1, sd2) = (shutdown.clone(), shutdown.clone());
        let (r, p) = (&referee, &planner);
        s.spawn(move || referee_node::run(r, &sd1, false).unwrap());
        s.spawn(move || planner_node::run(p, &sd2).unwrap());
        let _stop = StopOnDrop(shutdown.clone());
        body(addr);
    });
    server.join();
}

fn connect(addr: SocketAddr, origin: Option<&str>) -> Result<Ws, Box<tungstenite::Error>> {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("Origin", o.parse().unwrap());
    }
    let (ws, _) = tungstenite::connect(req).map_err(Box::new)?;
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    Ok(ws)
}

fn next_json(ws: &mut Ws) -> Value {
    loop {
        match ws.read().expect("a message before the timeout") {
            Message::Text(t) => {
                eprintln!("<- {}", &t.as_str()[..t.len().min(160)]);
                return serde_json::from_str(t.as_str()).unwrap();
            }
            Message::Binary(_) | Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            Message::Close(c) => panic!("closed: {c:?}"),
        }
    }
}

/// Reads until a message satisfies `pred`.
fn until(ws: &mut Ws, mut pred: impl FnMut(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        let v = next_json(ws);
        if pred(&v) {
            return v;
        }
    }
    panic!("no matching message within 30 s");
}

fn send(ws: &mut Ws, v: &str) {
    ws.send(Message::Text(v.into())).unwrap();
}

fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let code = out[9..12].parse().unwrap();
    (code, out)
}

#[test]
fn serves_the_page_and_plays_over_the_websocket() {
    with_graph(&["human", "ai:random"], |addr| {
        let (code, page) = http_get(addr, "/");
        assert_eq!(code, 200);
        assert!(page.contains("id=\"status\"") && page.contains("/app.js"));
        let (code, js) = http_get(addr, "/app.js");
        assert_eq!(code, 200);
        assert!(js.contains("text/javascript"));
        assert_eq!(http_get(addr, "/no-such-file").0, 404);

        let origin = format!("http://{addr}");
        let mut ws = connect(addr, Some(&origin)).unwrap();
        let hello = next_json(&mut ws);
        assert_eq!(hello["type"], "hello");
        assert_eq!(hello["sim"], false, "no simulated hand in this graph");
        assert!(hello["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g.as_str().unwrap().ends_with("tictactoe.game")));
        let layout = until(&mut ws, |v| v["type"] == "layout");
        assert_eq!(layout["layout"]["locations"].as_array().unwrap().len(), 19);
        let state = until(&mut ws, |v| v["type"] == "state");
        assert_eq!(state["state"]["phase"], "your-turn");
        assert_eq!(state["state"]["current_player"], 1);
        let legal: Vec<String> =
            serde_json::from_value(state["state"]["legal_moves"].clone()).unwrap();
        let centre = legal
            .iter()
            .find(|m| m.ends_with("->cell(2,2)"))
            .unwrap()
            .clone();

        // Bad messages: answered with an error, the connection stays usable.
        for bad in [
            "garbage",
            "{\"cmd\":\"fly\"}",
            "{\"cmd\":\"pose\",\"pose\":\"dance\"}",
        ] {
            send(&mut ws, bad);
            let e = until(&mut ws, |v| v["type"] == "error");
            assert_eq!(e["ok"], false);
            assert!(!e["message"].as_str().unwrap().is_empty());
        }
        ws.send(Message::Binary(vec![1, 2, 3].into())).unwrap();
        assert_eq!(until(&mut ws, |v| v["type"] == "error")["ok"], false);

        send(
            &mut ws,
            &format!("{{\"cmd\":\"move\",\"id\":7,\"move\":\"{centre}\"}}"),
        );
        // The reply, and the state after the computer's answer (then it is
        // the person's turn again), in either order: a quick answer's state
        // may be broadcast before the reply to the move is sent.
        let (mut reply, mut after) = (None, None);
        until(&mut ws, |v| {
            if v["type"] == "reply" && v["id"] == 7 {
                reply = Some(v.clone());
            } else if v["type"] == "state" && v["state"]["moves"].as_array().unwrap().len() == 2 {
                after = Some(v.clone());
            }
            reply.is_some() && after.is_some()
        });
        let (r, s) = (reply.unwrap(), after.unwrap());
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(s["state"]["phase"], "your-turn");
        assert_eq!(s["state"]["moves"][0], centre.as_str());

        // An occupied cell: refused with the referee's reason.
        let x = centre.split(':').next().unwrap();
        let again = "x(5):sx(5)->cell(2,2)";
        assert_ne!(x, "x(5)");
        send(
            &mut ws,
            &format!("{{\"cmd\":\"move\",\"id\":8,\"move\":\"{again}\"}}"),
        );
        let r = until(&mut ws, |v| v["type"] == "reply" && v["id"] == 8);
        assert_eq!(r["ok"], false);
        let why = r["message"].as_str().unwrap();
        assert!(
            why.contains("not allowed") && why.contains("illegal move"),
            "{r}"
        );

        // Replay: the position after the first move has exactly one piece on a cell.
        send(&mut ws, "{\"cmd\":\"position\",\"id\":9,\"ply\":1}");
        let r = until(&mut ws, |v| v["type"] == "reply" && v["id"] == 9);
        assert_eq!(r["ok"], true, "{r}");
        let on_cells: Vec<&Value> = r["data"]["board"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["location"].as_str().unwrap().starts_with("cell"))
            .collect();
        assert_eq!(on_cells.len(), 1);
        assert_eq!(on_cells[0]["location"], "cell(2,2)");
        send(&mut ws, "{\"cmd\":\"position\",\"id\":10,\"ply\":99}");
        assert_eq!(until(&mut ws, |v| v["id"] == 10)["ok"], false);

        // The arm controller is not running: said so, nothing hangs forever.
        send(&mut ws, "{\"cmd\":\"gripper\",\"id\":11,\"open\":true}");
        let r = until(&mut ws, |v| v["id"] == 11);
        assert_eq!(r["ok"], false);
        assert!(
            r["message"].as_str().unwrap().contains("not running"),
            "{r}"
        );

        // A second page gets the same game on connect.
        let mut ws2 = connect(addr, None).unwrap();
        let s2 = until(&mut ws2, |v| v["type"] == "state");
        assert_eq!(s2["state"]["moves"][0], centre.as_str());
        // ... and what the planner thought of its answer (/planner/progress).
        let p = until(&mut ws2, |v| v["type"] == "progress");
        assert_eq!(p["progress"]["ply"], 1, "{p}");
        assert_eq!(p["progress"]["done"], true, "{p}");
        assert_eq!(p["progress"]["best_move"], s["state"]["moves"][1], "{p}");
        assert!(p["progress"]["strategy"]
            .as_str()
            .unwrap()
            .starts_with("random"));
    });
}

#[test]
fn foreign_origins_are_refused() {
    with_graph(&["human", "human"], |addr| {
        match connect(addr, Some("http://evil.example")) {
            Err(e) => match *e {
                tungstenite::Error::Http(resp) => assert_eq!(resp.status(), 403),
                other => panic!("expected 403, got {other:?}"),
            },
            Ok(_) => panic!("expected 403, got a connection"),
        }
        assert!(connect(addr, Some(&format!("http://localhost:{}", addr.port()))).is_ok());
    });
}

#[test]
fn binding_a_used_port_is_an_error_naming_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let bus = InProcBus::new();
    let web = bus.node(NodeOptions::new("web")).unwrap();
    let cfg = gamebot_web::WebConfig {
        addr,
        ..Default::default()
    };
    let e = gamebot_web::start(&web, &Shutdown::new(), cfg)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&addr.to_string()), "{e}");
}
