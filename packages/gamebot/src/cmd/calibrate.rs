//! `gamebot calibrate --image FILE --board config/boards/X.yaml --out config/camera/Y.yaml [--points "u,v ..."]`
//! — computes the image → table homography from the board's ArUco markers,
//! or from image points of the board's reference points, and saves it.

use std::path::PathBuf;

use anyhow::{bail, Result};
use gamebot_vision::calib::{
    calibrate_from_aruco, calibrate_from_points, find_markers, parse_points, BoardConfig,
};
use gamebot_vision::source::{frame_size, read_image};

#[derive(clap::Args)]
pub struct Args {
    /// Camera image showing the board.
    #[arg(long)]
    pub image: PathBuf,
    /// Board file (config/boards/*.yaml): pixel mapping, markers, reference points.
    #[arg(long)]
    pub board: PathBuf,
    /// Where to write the calibration (config/camera/*.yaml).
    #[arg(long)]
    pub out: PathBuf,
    /// Image pixels `u,v u,v ...` of the board's calibration points, in order
    /// (default: the sheet corners top-left, top-right, bottom-right, bottom-left).
    /// Without this, the ArUco markers are used.
    #[arg(long)]
    pub points: Option<String>,
}

pub fn run(a: Args) -> Result<i32> {
    let board = BoardConfig::load(&a.board)?;
    let image = read_image(&a.image)?;
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
            calibrate_from_aruco(&image, &board, Some(&a.board))?
        }
    };
    cal.board = a.board.display().to_string();
    cal.save(&a.out)?;
    outln!(
        "{}: {} from {} points, reprojection error rms {:.3} px, max {:.3} px",
        a.out.display(),
        cal.method,
        cal.points,
        cal.reprojection_rms_px,
        cal.reprojection_max_px
    );
    Ok(0)
}
