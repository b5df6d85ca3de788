//! `gamebot calibrate --image FILE --board config/boards/X.yaml --out config/camera/Y.yaml [--points "u,v ..."]`
//! — computes the image → table homography from the board's ArUco markers,
//! or from image points of the board's reference points, and saves it.
//!
//! `gamebot calibrate board-to-arm --board FILE --arm NAME --port PORT [--out FILE]`
//! — registers the board with the arm: the person jogs the tool tip onto the
//! board's marks (keys on a terminal, line commands otherwise), the fitted
//! placement is saved into the board file (see `board_to_arm.rs`).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use gamebot_vision::calib::{
    calibrate_from_aruco, calibrate_from_points, find_markers, parse_points, BoardConfig,
};
use gamebot_vision::source::{frame_size, read_image};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    pub what: Option<What>,
    /// Camera image showing the board.
    #[arg(long, required = true)]
    pub image: Option<PathBuf>,
    /// Board file (config/boards/*.yaml): pixel mapping, markers, reference points.
    #[arg(long, required = true)]
    pub board: Option<PathBuf>,
    /// Where to write the calibration (config/camera/*.yaml).
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Image pixels `u,v u,v ...` of the board's calibration points, in order
    /// (default: the sheet corners top-left, top-right, bottom-right, bottom-left).
    /// Without this, the ArUco markers are used.
    #[arg(long)]
    pub points: Option<String>,
}

/// Other calibrations.
#[derive(clap::Subcommand)]
pub enum What {
    /// Register the board with the arm: jog the tool tip onto the board's
    /// marks, fit where the sheet really lies, save it into the board file.
    BoardToArm(super::board_to_arm::Args),
}

pub fn run(a: Args) -> Result<i32> {
    if let Some(What::BoardToArm(b)) = a.what {
        return super::board_to_arm::run(b);
    }
    let (Some(board_path), Some(image_path), Some(out)) = (a.board, a.image, a.out) else {
        bail!("calibrate: --image, --board and --out are needed (or a subcommand: board-to-arm)");
    };
    let board = BoardConfig::load(&board_path)
        .with_context(|| format!("board file {}", board_path.display()))?;
    let image = read_image(&image_path)?;
    let size = frame_size(&image);
    let mut cal = match &a.points {
        Some(text) => {
            let img = parse_points(text)?;
            let refs = &board.calibration_points;
            if img.len() != refs.len() {
                let names: Vec<&str> = refs.iter().map(|r| r.name.as_str()).collect();
                bail!(
                    "--points: {} points given, the board has {} reference points ({})",
                    img.len(),
                    refs.len(),
                    names.join(", ")
                );
            }
            let table: Vec<(f64, f64)> = refs.iter().map(|r| (r.cm[0], r.cm[1])).collect();
            calibrate_from_points(&img, &table, &board.camera_mapping, size, "points")?
        }
        None => {
            let found = find_markers(&image, &board.aruco)?;
            eprintln!(
                "markers found: {:?}{}",
                found.iter().map(|m| m.id).collect::<Vec<_>>(),
                if board.aruco_from_file {
                    ""
                } else {
                    " (default marker layout)"
                }
            );
            calibrate_from_aruco(&image, &board, Some(&board_path))?
        }
    };
    cal.board = board_path.display().to_string();
    cal.save(&out)?;
    outln!(
        "{}: {} from {} points, reprojection error rms {:.3} px, max {:.3} px",
        out.display(),
        cal.method,
        cal.points,
        cal.reprojection_rms_px,
        cal.reprojection_max_px
    );
    Ok(0)
}
