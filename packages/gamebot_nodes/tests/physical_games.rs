//! Whole random games carried out physically by the simulated robot
//! (`sim_world` + `ssc32_bridge` on the emulated SSC-32U + `arm_controller`),
//! judged by the world after every move: every piece within 5 mm of its
//! location (z within 2 mm), the world's pieces where the rule engine has
//! them, no piece touched but the carried one.

use gamebot_nodes::sim_execute::{execute_moves, Tolerance};
use gamebot_nodes::sim_robot::SimRobot;
use gamebot_rules::Game;
use gamebot_sim::WorldConfig;

fn games() -> String {
    format!("{}/../../games", env!("CARGO_MANIFEST_DIR"))
}

/// A seeded random game (splitmix64 picks among the legal moves), as texts.
fn random_game(game: &Game, seed: u64, max_moves: usize) -> Vec<String> {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut state = game.initial_state();
    let mut out = Vec::new();
    while !state.is_over() && out.len() < max_moves {
        let legal = game.legal_moves(&state).unwrap();
        if legal.is_empty() {
            break;
        }
        let mv = &legal[(next() % legal.len() as u64) as usize];
        out.push(game.move_text(mv));
        game.apply(&mut state, mv).unwrap();
    }
    out
}

fn play(file: &str, arm: &str, seed: u64, max_moves: usize) {
    let path = format!("{}/{file}", games());
    let game = Game::load(&path).unwrap();
    let moves = random_game(&game, seed, max_moves);
    assert!(!moves.is_empty());
    let robot = SimRobot::start(
        &path,
        WorldConfig {
            arm: arm.into(),
            real_time_factor: Some(10.0),
            render_rate_hz: 0.5,
            seed,
            ..WorldConfig::default()
        },
    )
    .unwrap();
    let report = execute_moves(&robot, &moves, Tolerance::default()).unwrap();
    for m in &report.moves {
        for a in &m.actions {
            assert!(a.ok, "{file} {}: {} failed: {}", m.text, a.element, a.error);
            assert!(
                !a.grasp_joints.is_empty(),
                "{file} {}: no grasp joints",
                m.text
            );
        }
        assert!(
            m.problems.is_empty(),
            "{file} after {}: {:?}",
            m.text,
            m.problems
        );
        assert!(m.max_error_mm <= 5.0);
    }
    assert_eq!(report.moves.len(), moves.len());
    robot.stop().unwrap();
}

#[test]
fn tictactoe_with_the_al5d() {
    play("tictactoe.game", "al5d", 1, 200);
}

#[test]
fn tictactoe_with_the_desk6() {
    play("tictactoe.game", "desk6", 2, 200);
}

#[test]
fn connect4() {
    play("connect4.game", "al5d", 3, 200);
}

#[test]
fn alquerque_with_capture_chains() {
    play("alquerque.game", "al5d", 4, 200);
}

#[test]
fn mill_with_removals() {
    play("mill.game", "al5d", 5, 200);
}

#[test]
fn pentago_with_rotations() {
    play("pentago.game", "al5d", 6, 200);
}

/// Reversi: every outflanked disc is carried through the board's turn-over
/// station and back (the world turns it only because it went through), and
/// the world's discs show the colours the rules say after every move.
#[test]
fn reversi_with_flips_through_the_turn_over_station() {
    play("reversi6.game", "al5d", 7, 200);
}
