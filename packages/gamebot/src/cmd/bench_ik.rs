//! `gamebot bench ik` — IK solves/s and success rates per arm and solver over targets spread
//! across a 30 × 30 cm board in front of the arm, at grasp and approach height.

use gamebot_kinematics::{Arm, SolverChoice};
use serde::Serialize;
use std::time::Instant;

/// Options of `gamebot bench ik`.
#[derive(clap::Args)]
pub struct Args {
    /// Arms to measure (names under config/arms/ or YAML paths).
    #[arg(long, value_delimiter = ',', default_value = "al5d,desk6")]
    arms: Vec<String>,
    /// Grid spacing of the board targets, in cm.
    #[arg(long, default_value_t = 1.0, value_parser = crate::limits::STEP_CM)]
    step_cm: f64,
    /// Timed passes over the targets (the closed form is fast; more passes steady it).
    #[arg(long, default_value_t = 20, value_parser = crate::limits::PASSES)]
    closed_form_passes: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    arm: String,
    solver: &'static str,
    /// "home": every solve seeded from the home pose; "warm": from the previous target's solution.
    seed: &'static str,
    targets: usize,
    /// Targets known to be reachable (closed form where available, else solved by any numeric run).
    reachable: usize,
    /// Reachable targets solved within 0.1 mm and 0.5 degrees.
    solved: usize,
    success_pct: f64,
    mean_us: f64,
    p50_us: f64,
    p99_us: f64,
    solves_per_s: f64,
    /// Mean time to give up on an unreachable target (numeric: all restarts), if any.
    reject_mean_us: Option<f64>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Targets on the board: x in [-15, 15] cm, y in [3, 33] cm, at grasp and approach height.
fn targets(arm: &Arm, step_cm: f64) -> Vec<[f64; 3]> {
    let n = (30.0 / step_cm).floor() as usize + 1;
    let mut out = Vec::new();
    for h in [arm.config().grasp_height_m, arm.config().approach_height_m] {
        for j in 0..n {
            for i in 0..n {
                let x = -0.15 + i as f64 * step_cm / 100.0;
                let y = 0.03 + j as f64 * step_cm / 100.0;
                // Serpentine order, so the warm-started run moves between neighbours.
                let x = if j % 2 == 1 { -x } else { x };
                out.push([x, y, h]);
            }
        }
    }
    out
}

fn verified(arm: &mut Arm, q: &[f64], t: &[f64; 3]) -> bool {
    let (p, axis) = arm.tool_point_axis(q);
    let err = ((p.x - t[0]).powi(2) + (p.y - t[1]).powi(2) + (p.z - t[2]).powi(2)).sqrt();
    err < 1e-4 && axis.z <= -(0.5f64.to_radians().cos()) && arm.check_limits(q, "").is_ok()
}

fn row(
    arm: &Arm,
    solver: &'static str,
    seed: &'static str,
    n: usize,
    reachable: &[bool],
    ok: &[bool],
    times: &[f64],
) -> Row {
    let mut ts: Vec<f64> = times
        .iter()
        .zip(reachable)
        .filter(|(_, r)| **r)
        .map(|(t, _)| *t)
        .collect();
    let rejects: Vec<f64> = times
        .iter()
        .zip(reachable)
        .filter(|(_, r)| !**r)
        .map(|(t, _)| *t)
        .collect();
    ts.sort_by(f64::total_cmp);
    let nr = reachable.iter().filter(|r| **r).count();
    let solved = ok.iter().zip(reachable).filter(|(o, r)| **o && **r).count();
    let mean = ts.iter().sum::<f64>() / ts.len().max(1) as f64;
    Row {
        arm: arm.name().to_string(),
        solver,
        seed,
        targets: n,
        reachable: nr,
        solved,
        success_pct: 100.0 * solved as f64 / nr.max(1) as f64,
        mean_us: mean,
        p50_us: percentile(&ts, 0.5),
        p99_us: percentile(&ts, 0.99),
        solves_per_s: 1e6 / mean,
        reject_mean_us: (!rejects.is_empty())
            .then(|| rejects.iter().sum::<f64>() / rejects.len() as f64),
    }
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let mut rows = Vec::new();
    for name in &a.arms {
        let mut arm = Arm::load_named(name)?;
        let ts = targets(&arm, a.step_cm);
        let n = ts.len();
        let home = arm.home().to_vec();
        let mut reachable = vec![false; n];
        let has_cf = arm.closed_form_status().is_ok();
        if has_cf {
            // Closed form: timed without the FK check, then every answer verified by FK.
            let mut times = vec![0.0; n];
            let mut sols = vec![None; n];
            for _ in 0..a.closed_form_passes.max(1) {
                for (i, t) in ts.iter().enumerate() {
                    let t0 = Instant::now();
                    let r = arm.solve_closed_form_unverified(*t, &home);
                    times[i] += t0.elapsed().as_secs_f64() * 1e6;
                    sols[i] = r.ok();
                }
            }
            for t in times.iter_mut() {
                *t /= a.closed_form_passes.max(1) as f64;
            }
            let mut ok = vec![false; n];
            for (i, s) in sols.iter().enumerate() {
                if let Some(q) = s {
                    ok[i] = verified(&mut arm, q, &ts[i]);
                    reachable[i] = true;
                }
            }
            rows.push(row(&arm, "closed-form", "home", n, &reachable, &ok, &times));
        }
        let mut runs = Vec::new();
        for seed_mode in ["home", "warm"] {
            let mut times = vec![0.0; n];
            let mut ok = vec![false; n];
            let mut prev = home.clone();
            for (i, t) in ts.iter().enumerate() {
                let seed = if seed_mode == "home" {
                    home.clone()
                } else {
                    prev.clone()
                };
                let t0 = Instant::now();
                let r = arm.solve(*t, &seed, SolverChoice::Numeric);
                times[i] = t0.elapsed().as_secs_f64() * 1e6;
                if let Ok(s) = r {
                    ok[i] = verified(&mut arm, &s.q, t);
                    prev = s.q;
                }
            }
            runs.push((seed_mode, ok, times));
        }
        if !has_cf {
            // No exact oracle: a target counts as reachable when any numeric run solved it.
            for (_, ok, _) in &runs {
                for (r, o) in reachable.iter_mut().zip(ok) {
                    *r |= *o;
                }
            }
        }
        for (seed_mode, ok, times) in &runs {
            rows.push(row(&arm, "numeric", seed_mode, n, &reachable, ok, times));
        }
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(0);
    }
    outln!(
        "{:<7} {:<12} {:<5} {:>7} {:>9} {:>7} {:>9} {:>9} {:>9} {:>9} {:>10} {:>11}",
        "arm",
        "solver",
        "seed",
        "targets",
        "reachable",
        "solved",
        "success%",
        "mean_us",
        "p50_us",
        "p99_us",
        "solves/s",
        "reject_us"
    );
    for r in &rows {
        outln!(
            "{:<7} {:<12} {:<5} {:>7} {:>9} {:>7} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>10.0} {:>11}",
            r.arm,
            r.solver,
            r.seed,
            r.targets,
            r.reachable,
            r.solved,
            r.success_pct,
            r.mean_us,
            r.p50_us,
            r.p99_us,
            r.solves_per_s,
            r.reject_mean_us
                .map_or("-".to_string(), |v| format!("{v:.0}"))
        );
    }
    Ok(0)
}
