//! `gamebot reach GAME --arm ARM [--png FILE]` — can the arm serve every location of a game?

use anyhow::anyhow;
use gamebot_kinematics::{write_map_png, Arm, Board, LocationInput, Marker, RobotPosition};
use gamebot_rules::model::RobotSpec;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    game: PathBuf,
    /// Arm: a name under config/arms/ or a path to an arm YAML.
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// Board placement (config/boards/NAME.yaml) mapping point= pixels for locations without robot=.
    #[arg(long, default_value = "a4")]
    board: String,
    /// Also draw a PNG map of the reachable table area, the board and the locations.
    #[arg(long)]
    png: Option<PathBuf>,
    /// Cell size of the PNG map in cm (default 0.5 with a closed-form solver, 1 otherwise).
    #[arg(long, value_parser = crate::limits::STEP_CM)]
    step_cm: Option<f64>,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let game = gamebot_rules::Game::load(&a.game).map_err(|e| anyhow!("{e}"))?;
    let mut arm = Arm::load_named(&a.arm)?;
    let board = Board::load_named(&a.board)?;
    let inputs: Vec<LocationInput> = game
        .locations
        .iter()
        .map(|l| LocationInput {
            name: l.name.clone(),
            robot: l.robot.map(|r| match r {
                RobotSpec::Cartesian(p) => RobotPosition::Cartesian(p),
                RobotSpec::Angles(v) => RobotPosition::Angles(v),
            }),
            point: l.point.map(|p| [f64::from(p.x), f64::from(p.y)]),
        })
        .collect();
    let results = arm.resolve_locations(&inputs, Some(&board));
    // writeln! rather than println!: a closed pipe (`| head`) is an error, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "game {} ({} locations), arm {}, board {}",
        game.name,
        inputs.len(),
        arm.name(),
        board.name
    )?;
    writeln!(
        out,
        "{:<14} {:<12} {:>22} {:>5} {:>5} {:>8}  joint angles at (deg)",
        "location", "source", "point (cm)", "above", "at", "err_mm"
    )?;
    let mut markers = Vec::new();
    let mut bad = 0;
    for (inp, r) in inputs.iter().zip(&results) {
        match r {
            Ok(l) => {
                let angles: Vec<String> =
                    l.at.iter()
                        .map(|q| format!("{:.1}", q.to_degrees()))
                        .collect();
                writeln!(
                    out,
                    "{:<14} {:<12} {:>22} {:>5} {:>5} {:>8.4}  {}",
                    l.name,
                    l.source.as_str(),
                    format!(
                        "{:.1},{:.1},{:.1}",
                        l.point_m[0] * 100.0,
                        l.point_m[1] * 100.0,
                        l.point_m[2] * 100.0
                    ),
                    "yes",
                    "yes",
                    l.above_error_m.max(l.at_error_m) * 1000.0,
                    angles.join(" ")
                )?;
                markers.push(Marker {
                    name: l.name.clone(),
                    x_m: l.point_m[0],
                    y_m: l.point_m[1],
                    ok: true,
                });
            }
            Err(e) => {
                bad += 1;
                let (above, at) = match e {
                    gamebot_kinematics::LocationError::Unreachable { which: "at", .. } => {
                        ("yes", "NO")
                    }
                    _ => ("NO", "NO"),
                };
                // Where the arm was asked to go: through the board's placement.
                let point = match (inp.robot, inp.point) {
                    (Some(RobotPosition::Cartesian(p)), _) => Some(board.to_arm_cm(p)),
                    (None, Some([u, v])) => Some(board.to_arm_cm(board.pixel_to_table_cm(u, v))),
                    _ => None,
                };
                let shown = point.map_or("-".to_string(), |p| {
                    format!("{:.1},{:.1},{:.1}", p[0], p[1], p[2])
                });
                writeln!(
                    out,
                    "{:<14} {:<12} {:>22} {:>5} {:>5} {:>8}  {e}",
                    inp.name, "-", shown, above, at, "-"
                )?;
                if let Some(p) = point {
                    markers.push(Marker {
                        name: inp.name.clone(),
                        x_m: p[0] / 100.0,
                        y_m: p[1] / 100.0,
                        ok: false,
                    });
                }
            }
        }
    }
    writeln!(
        out,
        "{} of {} locations reachable above and at the board",
        inputs.len() - bad,
        inputs.len()
    )?;
    if let Some(png) = &a.png {
        let step = a.step_cm.unwrap_or(if arm.closed_form_status().is_ok() {
            0.5
        } else {
            1.0
        }) / 100.0;
        let z = board.pixels.surface_z_cm / 100.0;
        let map = arm.reach_map((-0.32, 0.32), (-0.06, 0.40), step, z);
        let title = format!(
            "{} / {}: {} of {} reachable",
            game.name,
            arm.name(),
            inputs.len() - bad,
            inputs.len()
        );
        write_map_png(png, &map, Some(&board), &markers, &title)
            .map_err(|e| anyhow!("{}: cannot write PNG: {e}", png.display()))?;
        writeln!(out, "map written to {}", png.display())?;
    }
    Ok(if bad > 0 { 1 } else { 0 })
}
