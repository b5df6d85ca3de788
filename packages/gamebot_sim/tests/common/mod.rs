//! Shared pieces of the world tests: the game, the world, a driver on the
//! emulated port, and kinematics plans sent as SSC-32U group moves.

#![allow(dead_code)]

use std::time::Duration;

use gamebot_kinematics::{
    Action, Arm, Board, LocationInput, ResolvedLocation, RobotPosition, Trajectory,
};
use gamebot_rules::model::RobotSpec;
use gamebot_rules::{Game, State};
use gamebot_sim::{World, WorldConfig};
use gamebot_ssc32::{Channel, Driver, DriverConfig, Pulse, TrajectoryPoint};

pub fn game(name: &str) -> Game {
    Game::load(format!(
        "{}/../../games/{name}.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

pub fn world(game: &Game, state: &State, arm: &str, faults: &str, seed: u64) -> World {
    World::new(
        game,
        state,
        WorldConfig {
            arm: arm.into(),
            faults: faults.parse().unwrap(),
            seed,
            ..WorldConfig::default()
        },
    )
    .unwrap()
}

pub fn driver(world: &World) -> Driver {
    Driver::open(
        DriverConfig::new(world.serial_path().to_str().unwrap())
            .baud(world.baud())
            .clock(world.clock().clone()),
    )
    .unwrap()
}

/// A game location resolved for the arm, optionally raised by `dz_cm`.
pub fn resolve(arm: &mut Arm, game: &Game, name: &str, dz_cm: f64) -> ResolvedLocation {
    let l = &game.locations[game.location_by_name(name).unwrap() as usize];
    let robot = l.robot.map(|r| match r {
        RobotSpec::Cartesian(p) => RobotPosition::Cartesian([p[0], p[1], p[2] + dz_cm]),
        RobotSpec::Angles(a) => RobotPosition::Angles(a),
    });
    let board = Board::load_named("a4").unwrap();
    let home = arm.home().to_vec();
    arm.resolve_location(
        &LocationInput {
            name: name.into(),
            robot,
            point: l.point.map(|p| [p.x as f64, p.y as f64]),
        },
        Some(&board),
        &home,
    )
    .unwrap()
}

/// The trajectory sampled every `dt` seconds as timed group moves.
pub fn points(arm: &Arm, traj: &Trajectory, dt: f64) -> Vec<TrajectoryPoint> {
    let n = arm.dof();
    traj.sample_every(dt)
        .into_iter()
        .map(|(t, q, _)| {
            let pulses = arm.pulses(&q[..n], Some(q[n]), "").unwrap();
            TrajectoryPoint {
                pulses: pulses
                    .iter()
                    .map(|p| {
                        (
                            Channel::new(p.channel as u32).unwrap(),
                            Pulse::new(p.pulse_us.round() as u32).unwrap(),
                        )
                    })
                    .collect(),
                time_from_start: Duration::from_secs_f64(t),
            }
        })
        .collect()
}

/// Plans `actions` from the park pose (gripper open) and runs them on the
/// emulated controller, then brings the world up to date.
pub fn run(world: &mut World, drv: &mut Driver, arm: &mut Arm, actions: &[Action<'_>]) {
    let park = arm.park().to_vec();
    let open = arm.config().gripper.open;
    let traj = arm.plan(&park, open, actions).unwrap();
    let pts = points(arm, &traj, 0.05);
    drv.run_trajectory(&pts).unwrap();
    world.update().unwrap();
}

/// Horizontal and vertical distance (m) of a piece from a location's surface point.
pub fn error_to(world: &World, game: &Game, element: &str, location: &str) -> (f64, f64) {
    let p = world
        .pieces()
        .into_iter()
        .find(|p| p.name == element)
        .unwrap();
    let at = world
        .location_position(game.location_by_name(location).unwrap())
        .unwrap();
    (
        (p.position[0] - at[0]).hypot(p.position[1] - at[1]),
        (p.position[2] - at[2]).abs(),
    )
}

/// The element on a location in the state.
pub fn element_on(game: &Game, state: &State, location: &str) -> String {
    let l = game.location_by_name(location).unwrap();
    let e = state.content(l).unwrap();
    game.elements[e as usize].name.clone()
}
