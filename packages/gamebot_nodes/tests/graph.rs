//! Graph tests on the in-process bus: the referee and planner nodes play
//! whole games, and human moves are validated through `SubmitMove`.

use gamebot_interfaces::msg::{GameEvent, GameState};
use gamebot_interfaces::srv::SubmitMoveRequest;
use gamebot_nodes::{planner_node, referee_node};
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Shutdown};
use gamebot_ros::{Bus, NodeOptions, ParamValue, Qos};
use std::time::Duration;

fn game(name: &str) -> String {
    format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"))
}

fn strings(v: &[&str]) -> ParamValue {
    ParamValue::StringArray(v.iter().map(|s| s.to_string()).collect())
}

/// Runs a referee (until the game ends) and a planner on one in-process bus;
/// returns the final state and every event.
fn play(file: &str, kinds: &[&str]) -> (GameState, Vec<GameEvent>) {
    let bus = InProcBus::new();
    let observer = bus.node(NodeOptions::new("observer")).unwrap();
    let states = observer.subscription_on(&graph::GAME_STATE).unwrap();
    let events = observer
        .subscription::<GameEvent>(graph::GAME_EVENTS.name, Qos::reliable(1000))
        .unwrap();
    let stop = Shutdown::new();
    let planner = bus.node(NodeOptions::new("planner")).unwrap();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(file.into()))
                .param("player_kinds", strings(kinds)),
        )
        .unwrap();
    std::thread::scope(|s| {
        let st = stop.clone();
        s.spawn(move || planner_node::run(&planner, &st).unwrap());
        referee_node::run(&referee, &Shutdown::new(), true).unwrap();
        stop.request();
    });
    let last = states.drain().pop().expect("a state was published");
    (last, events.drain())
}

#[test]
fn ai_games_play_to_the_end() {
    for (g, kinds) in [
        (
            "tictactoe",
            ["ai:alphabeta:depth=9", "ai:mcts:iterations=300,seed=3"],
        ),
        (
            "connect4",
            ["ai:mcts:iterations=200,seed=1", "ai:random:seed=2"],
        ),
        ("nim", ["ai:alphabeta:depth=4", "ai:random:seed=5"]),
    ] {
        let (state, events) = play(&game(g), &kinds);
        assert_eq!(state.phase, GameState::PHASE_GAME_OVER, "{g}");
        assert!(state.winner >= 0, "{g}");
        let played = events
            .iter()
            .filter(|e| e.kind == GameEvent::MOVE_PLAYED)
            .count();
        assert_eq!(played, state.move_history.len(), "{g}");
        assert!(events.iter().any(|e| e.kind == GameEvent::GAME_OVER), "{g}");
        // Every played move comes with at least the moved piece's transfer.
        for e in events.iter().filter(|e| e.kind == GameEvent::MOVE_PLAYED) {
            assert!(
                e.actions.iter().any(|a| a.element == e.r#move.element),
                "{g}: {:?}",
                e.actions
            );
        }
        // The history replays to the published position.
        let rules = gamebot_rules::Game::load(game(g)).unwrap();
        let st = gamebot_nodes::referee_core::replay(&rules, &state.move_history).unwrap();
        assert_eq!(st.hash(), state.state_hash, "{g}");
    }
}

#[test]
fn human_moves_are_validated() {
    let bus = InProcBus::new();
    let referee = bus
        .node(
            NodeOptions::new("referee")
                .param("game_file", ParamValue::String(game("tictactoe")))
                .param("player_kinds", strings(&["human", "human"])),
        )
        .unwrap();
    let client_node = bus.node(NodeOptions::new("person")).unwrap();
    let client = client_node.service_client_on(&graph::SUBMIT_MOVE).unwrap();
    let stop = Shutdown::new();
    std::thread::scope(|s| {
        s.spawn(|| referee_node::run(&referee, &stop, false).unwrap());
        assert!(client.wait_for_service(Duration::from_secs(10)));
        let call = |m: &str| {
            client
                .call(
                    SubmitMoveRequest {
                        r#move: m.into(),
                        game_number: 0,
                    },
                    Duration::from_secs(10),
                )
                .unwrap()
        };
        let bad = call("x(1):sx(1)->nowhere");
        assert!(
            !bad.accepted && bad.reason.contains("no location"),
            "{}",
            bad.reason
        );
        let bad = call("o(1):so(1)->cell(1,1)");
        assert!(
            !bad.accepted && bad.reason.contains("legal moves are"),
            "{}",
            bad.reason
        );
        let good = call("x(1):sx(1)->cell(2,2)");
        assert!(good.accepted, "{}", good.reason);
        assert_eq!(good.r#move.to_location, "cell(2,2)");
        let occupied = call("o(1):so(1)->cell(2,2)");
        assert!(!occupied.accepted);
        stop.request();
    });
}

#[test]
fn the_shipped_parameter_file_configures_both_nodes() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/nodes.yaml");
    for node in ["referee", "planner"] {
        let args = gamebot_ros::RosArgs::parse(["x", "--ros-args", "--params-file", file]).unwrap();
        let options = args.node_options(node).unwrap();
        let n = InProcBus::new().node(options).unwrap();
        if node == "referee" {
            let p = referee_node::RefereeParams::declare(&n).unwrap();
            assert_eq!(p.player_kinds, vec!["human", "ai:mcts:time=1s"]);
            assert!(p.game_file.ends_with("tictactoe.game"));
        } else {
            let s = n.parameters().declare_string("strategy", "", "").unwrap();
            gamebot_ai::strategy(&s).unwrap();
        }
    }
}

#[test]
fn a_bad_strategy_parameter_is_a_parameter_error() {
    let bus = InProcBus::new();
    let planner = bus
        .node(
            NodeOptions::new("planner")
                .param("strategy", ParamValue::String("mcst:time=1s".into())),
        )
        .unwrap();
    let e = planner_node::run(&planner, &Shutdown::new()).unwrap_err();
    assert!(
        matches!(e, gamebot_nodes::NodeError::Param(_)),
        "not a parameter error: {e:?}"
    );
    let text = e.to_string();
    for part in ["/planner", "strategy", "mcst:time=1s"] {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }
}
