//! The registration wizard over the WebSocket, against the simulated robot
//! (`sim_world` + `ssc32_bridge` on the emulated SSC-32U + `arm_controller`)
//! whose sheet lies 7 mm right, 4 mm nearer and turned 1.5° from where the
//! board file says: the page's moves put the tool on the true marks, the
//! wizard records them, shows the fit and saves it into the board file.

use gamebot_kinematics::{Board, Placement};
use gamebot_nodes::sim_robot::SimRobot;
use gamebot_ros::NodeOptions;
use gamebot_sim::WorldConfig;
use serde_json::{json, Value};
use std::net::TcpStream;
use std::time::Duration;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

const TRUTH: Placement = Placement {
    offset_mm: [7.0, -4.0],
    rotation_deg: 1.5,
    surface_offset_mm: 0.0,
};

/// Sends a command with an id and reads until its reply.
fn ask(ws: &mut Ws, id: u64, mut cmd: Value) -> Value {
    cmd["id"] = json!(id);
    ws.send(Message::Text(cmd.to_string().into())).unwrap();
    loop {
        match ws.read().expect("a reply before the timeout") {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "reply" && v["id"] == json!(id) {
                    eprintln!("<- {v}");
                    return v;
                }
            }
            Message::Close(c) => panic!("closed: {c:?}"),
            _ => {}
        }
    }
}

#[test]
fn the_wizard_records_marks_fits_and_saves() {
    let dir = std::env::temp_dir().join(format!("gamebot-web-reg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board_path = dir.join("a4.yaml");
    std::fs::copy(gamebot_kinematics::find_board_config("a4"), &board_path).unwrap();
    let mut robot = SimRobot::start(
        &format!("{}/../../games/tictactoe.game", env!("CARGO_MANIFEST_DIR")),
        WorldConfig {
            real_time_factor: Some(5.0),
            render_rate_hz: 0.5,
            sheet_placement: Some(TRUTH),
            ..WorldConfig::default()
        },
    )
    .unwrap();
    let cfg = gamebot_web::WebConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        board: board_path.to_string_lossy().to_string(),
        ..Default::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    robot
        .spawn(NodeOptions::new("web"), move |n, s| {
            let server = gamebot_web::start(n, s, cfg)
                .map_err(|e| gamebot_nodes::NodeError::Config(e.to_string()))?;
            tx.send(server.addr()).unwrap();
            server.join();
            Ok(())
        })
        .unwrap();
    let addr = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    }
    // Not started yet: refused with the reason.
    let r = ask(&mut ws, 1, json!({"cmd": "register", "step": "record"}));
    assert_eq!(r["ok"], false);
    assert!(
        r["message"].as_str().unwrap().contains("not started"),
        "{r}"
    );
    let r = ask(&mut ws, 2, json!({"cmd": "register", "step": "start"}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        r["data"]["next"]["text"],
        "point 1 of 4: the grid's far-left corner (x=-10.0, y=28.0 cm)"
    );
    let marks: Vec<[f64; 3]> = r["data"]["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            [
                m["x_cm"].as_f64().unwrap(),
                m["y_cm"].as_f64().unwrap(),
                0.0,
            ]
        })
        .collect();
    assert_eq!(marks.len(), 4);
    // After home the tool's position is not known: recording is refused.
    let r = ask(&mut ws, 3, json!({"cmd": "pose", "pose": "home"}));
    assert_eq!(r["ok"], true, "{r}");
    let r = ask(&mut ws, 4, json!({"cmd": "register", "step": "record"}));
    assert!(
        r["message"]
            .as_str()
            .unwrap()
            .contains("jog the tool onto the mark first"),
        "{r}"
    );
    let mut id = 10;
    for (k, m) in marks.iter().enumerate() {
        // The person puts the tip on the true mark (an absolute move here;
        // the page's jog buttons end in the same move_tool requests).
        let t = TRUTH.apply_cm([0.0, 18.0], *m);
        let r = ask(
            &mut ws,
            id,
            json!({"cmd": "move_tool", "target": {"x": t[0] / 100.0, "y": t[1] / 100.0, "z": t[2] / 100.0}}),
        );
        assert_eq!(r["ok"], true, "{r}");
        let r = ask(
            &mut ws,
            id + 1,
            json!({"cmd": "register", "step": "record"}),
        );
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(r["data"]["recorded"], k + 1);
        assert_eq!(r["data"]["fit"].is_null(), k < 2, "{r}");
        id += 2;
    }
    let r = ask(&mut ws, id, json!({"cmd": "register", "step": "save"}));
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["data"]["saved"], board_path.to_string_lossy().as_ref());
    let fit = &r["data"]["fit"];
    assert!(fit["rms_mm"].as_f64().unwrap() < 0.5, "{fit}");
    let saved = Board::load(&board_path).unwrap().placement.unwrap();
    assert!(
        (saved.offset_mm[0] - 7.0).abs() < 0.5
            && (saved.offset_mm[1] + 4.0).abs() < 0.5
            && (saved.rotation_deg - 1.5).abs() < 0.1,
        "{saved:?}"
    );
    let r = ask(
        &mut ws,
        id + 1,
        json!({"cmd": "register", "step": "cancel"}),
    );
    assert_eq!(r["data"]["active"], false, "{r}");
    drop(ws);
    robot.stop().unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}
