//! The whole simulated robot in one process, closed loop: `sim_world`,
//! `ssc32_bridge`, `arm_controller`, `detector`, `referee` (`arm` and
//! `camera` on) and `planner`, the arm against an opponent whose moves the
//! simulated hand makes. Every move is made physically, and the referee
//! counts it only from the camera.
//!
//! Judged by the world and the rule engine, not by any node: after every
//! counted move and at the end, the pieces lying on each location equal the
//! rule engine's position (`sim_game::world_differences`), and the final
//! world equals the replay of the played moves.

use gamebot_nodes::referee_core::replay;
use gamebot_nodes::sim_game::{
    world_differences, GameSummary, OpponentTurn, Progress, SimGame, SimGameConfig, ON_LOCATION_MM,
};
use gamebot_rules::{Game, Outcome};
use gamebot_sim::WorldConfig;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::time::Duration;

fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Plays `file` with the arm (random strategy) against a seeded random
/// opponent through the hand; checks the world and returns the summary.
/// The referee never asked for help.
fn closed_loop(file: &str, seed: u64, faults: &str) -> GameSummary {
    let s = closed_loop_helped(file, seed, faults);
    assert_eq!(s.interventions, 0, "{file}: the referee asked for help");
    s
}

/// As [`closed_loop`], but calls for help may happen (the simulated person
/// answers them).
fn closed_loop_helped(file: &str, seed: u64, faults: &str) -> GameSummary {
    closed_loop_with(file, seed, faults, Vec::new())
}

/// As [`closed_loop_helped`], with more referee parameters.
fn closed_loop_with(
    file: &str,
    seed: u64,
    faults: &str,
    referee_params: Vec<(String, gamebot_ros::ParamValue)>,
) -> GameSummary {
    let mut config = SimGameConfig::new(&repo(&format!("games/{file}")), "random");
    config.referee_params = referee_params;
    config.calibration = repo("config/camera/sim.yaml");
    config.seed = seed;
    config.wall_limit = Some(Duration::from_secs(900));
    config.world = WorldConfig {
        real_time_factor: Some(10.0),
        faults: if faults.is_empty() {
            gamebot_sim::FaultSpec::none()
        } else {
            faults.parse().unwrap()
        },
        seed,
        ..WorldConfig::default()
    };
    let mut sim = SimGame::start(config, |_| Ok(())).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut opponent = |g: &Game, st: &gamebot_interfaces::msg::GameState| {
        let state = replay(g, &st.move_history).unwrap();
        let legal = g.legal_moves(&state).unwrap();
        let mv = legal
            .choose(&mut rng)
            .expect("a legal move on the opponent's turn");
        OpponentTurn::Move(g.move_text(mv))
    };
    // What happened, for the failure messages below.
    let mut transcript: Vec<String> = Vec::new();
    let summary = sim
        .play(&mut opponent, &mut |p| {
            transcript.push(match p {
                Progress::Event(e) => format!("[event {}] {}", e.kind, e.message),
                Progress::Opponent { player, text } => format!("opponent {player}: {text}"),
                Progress::HandRefused { text, reason } => format!("hand refused {text}: {reason}"),
                Progress::PersonHelped { text, message, .. } => {
                    format!("the person helped with {text}: {message}")
                }
                Progress::Ply(m) => format!("ply {} {} by {}", m.ply, m.text, m.by),
            })
        })
        .unwrap();
    let tail = transcript[transcript.len().saturating_sub(40)..].join("\n");
    let game = sim.game().clone();
    // The final world against the replay of what was played, independently
    // of the summary's own bookkeeping.
    let texts: Vec<String> = summary.moves.iter().map(|m| m.text.clone()).collect();
    let end = replay(&game, &texts).unwrap();
    let places: BTreeMap<String, [f64; 3]> = sim
        .robot()
        .places()
        .iter()
        .filter_map(|(n, p)| p.map(|p| (n.clone(), p)))
        .collect();
    let diff = world_differences(
        &game,
        &end,
        &sim.robot().probe().snapshot(),
        &places,
        ON_LOCATION_MM,
    );
    sim.stop().unwrap();
    assert!(
        summary.finished,
        "{file}: unfinished: {:?}; the last events:\n{tail}",
        summary.stopped
    );
    assert!(
        diff.is_empty(),
        "{file}: the final world differs from the replay: {diff:?}"
    );
    assert!(
        summary.differences.is_empty(),
        "{file}: {:?}",
        summary.differences
    );
    assert!(summary.moves.iter().all(|m| m.world_ok && m.seen));
    let outcome = match end.outcome() {
        Outcome::Running => panic!("{file}: the replay is not over"),
        o => o.code(),
    };
    assert_eq!(summary.winner, outcome, "{file}: the referee's winner");
    assert!(summary.moves.iter().any(|m| m.by == "robot"));
    assert!(summary.moves.iter().any(|m| m.by == "opponent"));
    summary
}

#[test]
fn tictactoe() {
    closed_loop("tictactoe.game", 3, "");
}

#[test]
fn tictactoe_with_faults() {
    let s = closed_loop(
        "tictactoe.game",
        5,
        "slip=0.15,place_sigma_mm=1.5,nudge=0.1,serial_drop=0.02,serial_down_s=0.5,camera_dropout=0.01,camera_dropout_s=2",
    );
    // Every injected fault was got over without help.
    let injected: u32 = s.faults_injected.values().sum();
    assert_eq!(s.faults_recovered, injected);
}

/// Every piece the arm lifts slips out of the gripper: the referee sees the
/// square still empty, its corrections slip too (with `regrasp_attempts` 0
/// every one counts), and it asks for help; the
/// simulated person puts the board right (`/sim/put_board_right`), the
/// camera shows it, and the game goes on to its end. One call for help per
/// robot move, every one answered.
#[test]
fn a_person_answers_every_call_for_help() {
    // Slips are not retried on their own budget here: the calls for help
    // come sooner.
    let s = closed_loop_with(
        "tictactoe.game",
        9,
        "slip=1",
        vec![(
            "regrasp_attempts".into(),
            gamebot_ros::ParamValue::Integer(0),
        )],
    );
    let robot_moves = s.moves.iter().filter(|m| m.by == "robot").count() as u32;
    assert!(robot_moves >= 3, "{:?}", s.moves);
    assert_eq!(s.interventions, robot_moves, "{:?}", s.moves);
    assert!(s.faults_injected.get("slip").copied().unwrap_or(0) >= 3 * robot_moves);
}

/// Stacked supplies: the arm takes the top disc of a stack, the camera
/// counts a disc dropped into a column.
#[test]
fn connect_four() {
    let s = closed_loop("connect4.game", 7, "");
    // The referee sent the arm to pieces it could take: no move needed a
    // second goal.
    assert!(s.moves.iter().all(|m| m.corrections == 0), "{:?}", s.moves);
}

/// Removals into bins that lie on the supply spots, a placing phase and a
/// moving phase.
#[test]
fn mill() {
    closed_loop("mill.game", 7, "");
}

/// Capture chains: several rule moves in one turn, captured pieces to the
/// bins.
#[test]
fn alquerque() {
    closed_loop("alquerque.game", 7, "");
}

/// Place, then twist a quadrant: a turn of two rule moves, the twist a
/// cycle of transfers through a buffer.
#[test]
fn pentago() {
    closed_loop("pentago.game", 7, "");
}

/// Flips: the arm carries every disc it outflanks through the turn-over
/// station and back; the person's hand turns discs over in place; the
/// camera tells the colours apart (and the pass token's moves).
#[test]
fn reversi() {
    closed_loop("reversi6.game", 7, "");
}

/// A move the simulated hand can never make (here a location that does not
/// exist; in the faults soaks of reversi and pentago a supply with no piece
/// of the type left) does not hang the game: after two minutes of sim time of
/// refusals the game stops, unfinished, and says why.
#[test]
fn a_move_the_hand_cannot_make_stops_the_game_with_the_reason() {
    let mut config = SimGameConfig::new(&repo("games/tictactoe.game"), "random");
    config.calibration = repo("config/camera/sim.yaml");
    config.wall_limit = Some(Duration::from_secs(600));
    config.world = WorldConfig {
        real_time_factor: Some(20.0),
        faults: gamebot_sim::FaultSpec::none(),
        seed: 1,
        ..WorldConfig::default()
    };
    let mut sim = SimGame::start(config, |_| Ok(())).unwrap();
    let mut opponent = |_: &Game, _: &gamebot_interfaces::msg::GameState| {
        OpponentTurn::Move("o(1):so(1)->nowhere".into())
    };
    let mut refusals = 0;
    let summary = sim
        .play(&mut opponent, &mut |p| {
            if matches!(p, Progress::HandRefused { .. }) {
                refusals += 1;
            }
        })
        .unwrap();
    sim.stop().unwrap();
    assert!(!summary.finished);
    let why = summary.stopped.clone().unwrap_or_default();
    assert!(why.contains("could not make a move"), "{why}");
    assert!(why.contains("nowhere"), "the hand's reason: {why}");
    assert!(refusals > 1, "refused once and gave up: {refusals}");
    assert_eq!(summary.moves.len(), 1, "the arm's first move only");
}
