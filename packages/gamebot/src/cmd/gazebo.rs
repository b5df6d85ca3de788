//! `gamebot gazebo world GAME` — the Gazebo (Harmonic) world of a game as
//! SDF (see `gamebot_gazebo` and docs/gazebo.md). The world written is
//! parsed back and checked before the command succeeds.

use std::path::PathBuf;

use anyhow::Context;
use gamebot_gazebo::{check_sdf, TableWorld, WorldSpec};

/// The Gazebo subcommands.
#[derive(clap::Subcommand)]
pub enum Action {
    /// Write the SDF world of a game: table, board sheet with its location
    /// marks, every piece at its initial location, the camera at the
    /// calibrated pose, and the world systems.
    World(WorldArgs),
}

/// Options of `gamebot gazebo world`.
#[derive(clap::Args)]
pub struct WorldArgs {
    /// The game file.
    game: String,
    /// Arm name (config/arms/) or arm YAML path.
    #[arg(long, default_value = "al5d")]
    arm: String,
    /// Board placement: a name under config/boards/ or a YAML path.
    #[arg(long, default_value = "a4")]
    board: String,
    /// Camera calibration file; the camera sensor is put at its pose.
    #[arg(long, default_value = "config/camera/sim.yaml")]
    camera: PathBuf,
    /// Where to write the SDF (default: standard output).
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Also write the world's ros_gz_bridge file here: config/gz_bridge.yaml
    /// plus every piece's DetachableJoint attach/detach topics.
    #[arg(long)]
    bridge: Option<PathBuf>,
    /// The static bridge entries the generated bridge file starts with.
    #[arg(long, default_value = "config/gz_bridge.yaml")]
    bridge_base: PathBuf,
}

pub fn run(action: Action) -> anyhow::Result<i32> {
    match action {
        Action::World(a) => world(a).map(|()| 0),
    }
}

fn world(a: WorldArgs) -> anyhow::Result<()> {
    let game = crate::common::load_game(&a.game)?;
    let spec = WorldSpec {
        arm: a.arm,
        board: a.board,
        camera: a.camera,
    };
    let world = TableWorld::build(&game, &spec).with_context(|| format!("world of {}", a.game))?;
    let sdf = world.to_sdf()?;
    let origin = a
        .output
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "<stdout>".into());
    check_sdf(&origin, &sdf, &world)?;
    match &a.output {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            std::fs::write(path, &sdf).with_context(|| format!("writing {}", path.display()))?;
            eprintln!(
                "{}: {} pieces, {} location marks, camera at {:?} m",
                path.display(),
                world.pieces.len(),
                world.marks.len(),
                world.camera.pose.xyz
            );
        }
        None => print!("{sdf}"),
    }
    if let Some(path) = &a.bridge {
        let base = gamebot_input::read_text(&a.bridge_base)?;
        let text = gamebot_gazebo::bridge_yaml(&base, &world);
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        eprintln!(
            "{}: the bridge of {} and {} grip topics",
            path.display(),
            a.bridge_base.display(),
            2 * world.pieces.len()
        );
    }
    Ok(())
}
