//! `gamebot ik --arm ARM X Y Z` — inverse kinematics for one target with the gripper vertical.

use anyhow::Context;
use clap::ValueEnum;
use gamebot_kinematics::{Arm, IkError, SolverChoice};
use std::collections::BTreeMap;

/// Which solver to run.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Solver {
    /// Closed form where the arm's structure allows it, numeric otherwise.
    Auto,
    /// The geometric closed form (AL5D-type arms only).
    ClosedForm,
    /// Levenberg–Marquardt on the URDF chain.
    Numeric,
}

#[derive(clap::Args)]
pub struct Args {
    /// Arm: a name under config/arms/ or a path to an arm YAML.
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// Target x in metres (arm base frame: x right).
    #[arg(allow_negative_numbers = true, value_parser = crate::limits::METRES)]
    x: f64,
    /// Target y in metres (forward, towards the board).
    #[arg(allow_negative_numbers = true, value_parser = crate::limits::METRES)]
    y: f64,
    /// Target z in metres (up; 0 = table).
    #[arg(allow_negative_numbers = true, value_parser = crate::limits::METRES)]
    z: f64,
    /// Solver to use.
    #[arg(long, value_enum, default_value = "auto")]
    solver: Solver,
    /// Seed pose: comma-separated joint values in radians (default: the home pose).
    #[arg(long, allow_hyphen_values = true)]
    seed: Option<String>,
    /// Print JSON: {"joints":{..},"pulses":{..},"error_mm":..,"solver":".."}.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let mut arm = Arm::load_named(&a.arm)?;
    let seed: Vec<f64> = match &a.seed {
        Some(s) => s
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .with_context(|| format!("--seed: bad number {v:?}"))
            })
            .collect::<anyhow::Result<_>>()?,
        None => arm.home().to_vec(),
    };
    let choice = match a.solver {
        Solver::Auto => SolverChoice::Auto,
        Solver::ClosedForm => SolverChoice::ClosedForm,
        Solver::Numeric => SolverChoice::Numeric,
    };
    let sol = match arm.solve([a.x, a.y, a.z], &seed, choice) {
        Ok(s) => s,
        Err(e @ (IkError::Unreachable { .. } | IkError::NonFinite { .. })) => {
            eprintln!("error: arm {}: {e}", arm.name());
            return Ok(2);
        }
        Err(e) => return Err(e.into()),
    };
    let pulses = arm.pulses(&sol.q, None, "")?;
    if a.json {
        let joints: BTreeMap<&str, f64> = arm
            .joints()
            .iter()
            .map(|j| j.name.as_str())
            .zip(sol.q.iter().copied())
            .collect();
        let pulses: BTreeMap<String, f64> = pulses
            .iter()
            .map(|p| (p.channel.to_string(), p.pulse_us))
            .collect();
        let out = serde_json::json!({
            "joints": joints,
            "pulses": pulses,
            "error_mm": sol.position_error_m * 1000.0,
            "solver": sol.solver.as_str(),
        });
        outln!("{out}");
        return Ok(0);
    }
    outln!(
        "arm {}: target ({:.4}, {:.4}, {:.4}) m, gripper vertical, solver {}",
        arm.name(),
        a.x,
        a.y,
        a.z,
        sol.solver.as_str()
    );
    outln!(
        "{:<16} {:>10} {:>10} {:>8} {:>9}",
        "joint",
        "deg",
        "rad",
        "channel",
        "pulse_us"
    );
    for ((j, q), p) in arm.joints().iter().zip(&sol.q).zip(&pulses) {
        outln!(
            "{:<16} {:>10.3} {:>10.5} {:>8} {:>9.1}",
            j.name,
            q.to_degrees(),
            q,
            p.channel,
            p.pulse_us
        );
    }
    outln!(
        "position error {:.4} mm, tool axis {:.4} deg from vertical",
        sol.position_error_m * 1000.0,
        sol.axis_error_rad.to_degrees()
    );
    Ok(0)
}
