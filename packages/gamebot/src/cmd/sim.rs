//! `gamebot sim execute` — moves carried out physically by the simulated
//! robot (the real `arm_controller` and `ssc32_bridge` on the emulated
//! SSC-32U's pty, in one process on the in-process bus), judged by the world.

use anyhow::Context;
use gamebot_nodes::sim_execute::{execute_moves, ExecuteReport, Tolerance};
use gamebot_nodes::sim_robot::SimRobot;
use gamebot_sim::{FaultSpec, WorldConfig};
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// The simulation subcommands.
#[derive(clap::Subcommand)]
pub enum Action {
    /// Play the given moves physically in the simulated world and print what
    /// the arm did and where the pieces ended up.
    Execute(ExecuteArgs),
}

/// Options of `gamebot sim execute`.
#[derive(clap::Args)]
pub struct ExecuteArgs {
    /// Rule file of the game.
    game: PathBuf,
    /// Moves from the initial position, `element:from->to`, separated by spaces.
    #[arg(long, default_value = "")]
    moves: String,
    /// Arm: a name under config/arms/ (al5d, desk6) or a YAML path.
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// Faults to inject, e.g. `slip=0.05,place_sigma_mm=2` (see `gamebot sim execute --help-faults`).
    #[arg(long, default_value = "")]
    faults: String,
    /// Real-time factor of the simulation clock.
    #[arg(long, default_value_t = 20.0, value_parser = crate::limits::SIM_SPEED)]
    speed: f64,
    /// Seed of the world's random draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object (else a short text report).
    #[arg(long)]
    json: bool,
    /// Print the fault options and exit.
    #[arg(long)]
    help_faults: bool,
}

/// Runs a `gamebot sim` subcommand.
pub fn run(action: Action) -> anyhow::Result<i32> {
    match action {
        Action::Execute(a) => execute(a),
    }
}

fn execute(a: ExecuteArgs) -> anyhow::Result<i32> {
    if a.help_faults {
        print!("{}", gamebot_sim::faults::help());
        return Ok(0);
    }
    let faults: FaultSpec = if a.faults.trim().is_empty() {
        FaultSpec::none()
    } else {
        a.faults.parse().context("--faults")?
    };
    let game = a.game.to_string_lossy().to_string();
    let robot = SimRobot::start(
        &game,
        WorldConfig {
            arm: a.arm.clone(),
            faults,
            seed: a.seed,
            real_time_factor: Some(a.speed),
            // Nobody looks at the camera here.
            render_rate_hz: 0.5,
            ..WorldConfig::default()
        },
    )
    .with_context(|| format!("starting the simulated robot for {game}"))?;
    let moves: Vec<String> = a.moves.split_whitespace().map(str::to_string).collect();
    let report = execute_moves(&robot, &moves, Tolerance::default())?;
    robot.stop()?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&to_json(&report))?);
    } else {
        for m in &report.moves {
            let ok = m.actions.iter().all(|x| x.ok) && m.problems.is_empty();
            outln!(
                "{:<28} {} {:>6.2} s  max error {:>4.1} mm",
                m.text,
                if ok { "ok  " } else { "FAIL" },
                m.arm_seconds,
                m.max_error_mm
            );
            for x in m.actions.iter().filter(|x| !x.ok) {
                outln!("    {} {}: {}", x.kind, x.element, x.error);
            }
            for p in &m.problems {
                outln!("    world: {p}");
            }
        }
    }
    Ok(if report.ok() { 0 } else { 1 })
}

fn xyz(p: [f64; 3]) -> Value {
    json!([p[0], p[1], p[2]])
}

fn to_json(r: &ExecuteReport) -> Value {
    let moves: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            let actions: Vec<Value> = m
                .actions
                .iter()
                .map(|x| {
                    json!({
                        "kind": x.kind,
                        "element": x.element,
                        "from": x.from,
                        "to": x.to,
                        "from_position": xyz(x.from_position),
                        "to_position": xyz(x.to_position),
                        "grasp_joints": x.grasp_joints,
                        "release_joints": x.release_joints,
                        "ok": x.ok,
                        "error": x.error,
                    })
                })
                .collect();
            json!({
                "move": m.text,
                "actions": actions,
                "arm_seconds": m.arm_seconds,
                "max_error_mm": m.max_error_mm,
                "problems": m.problems,
            })
        })
        .collect();
    let pieces: Map<String, Value> = r.pieces.iter().map(|(k, v)| (k.clone(), xyz(*v))).collect();
    json!({
        "game": r.game,
        "arm": r.arm,
        "moves": moves,
        "pieces": pieces,
    })
}
