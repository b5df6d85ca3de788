//! `gamebot render --game GAME [--moves "M1 M2 ..."] --out frame.png [...]` —
//! writes a synthetic camera frame of the position reached by the moves.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use gamebot_vision::calib::BoardConfig;
use gamebot_vision::camera::CameraModel;
use gamebot_vision::render::{scene_from_state, RenderOptions, Renderer};
use serde::Serialize;

use crate::common::{apply_text, load_game, move_list};

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    #[arg(long)]
    pub game: String,
    /// Moves to apply first, separated by whitespace (`element:from->to`, as `gamebot legal` prints).
    #[arg(long)]
    pub moves: Option<String>,
    /// Read the moves from a file instead, one per line.
    #[arg(long)]
    pub moves_file: Option<String>,
    /// Output image (.png, .jpg, ...).
    #[arg(long)]
    pub out: PathBuf,
    /// Gaussian noise sigma in grey levels.
    #[arg(long, default_value_t = 4.0, value_parser = crate::limits::NOISE)]
    pub noise: f64,
    /// Gaussian blur sigma in pixels.
    #[arg(long, default_value_t = 0.8, value_parser = crate::limits::BLUR)]
    pub blur: f64,
    /// Lighting gradient amplitude (0.12 = ±12 %).
    #[arg(long, default_value_t = 0.12, value_parser = crate::limits::LIGHT)]
    pub light: f64,
    /// Maximum random piece offset from the location centre, cm.
    #[arg(long, default_value_t = 0.2, value_parser = crate::limits::OFFSET)]
    pub offset: f64,
    /// No noise, blur, lighting gradient or offsets.
    #[arg(long)]
    pub clean: bool,
    /// Draw an arm reaching over the board.
    #[arg(long)]
    pub arm: bool,
    /// Draw the board's ArUco calibration markers.
    #[arg(long)]
    pub markers: bool,
    /// Random seed (noise, offsets, lighting, arm pose).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board file (pixel mapping, sheet, markers); default: the A4 convention.
    #[arg(long)]
    pub board: Option<PathBuf>,
    /// Camera pose `x,y,z,yaw,pitch,roll` (cm, degrees); default 0,18,50,0,0,0 (straight down).
    #[arg(long)]
    pub pose: Option<String>,
    /// Focal length in pixels (default 1000: 20 px/cm at 50 cm).
    #[arg(long, value_parser = crate::limits::FOCAL)]
    pub focal: Option<f64>,
    /// Also write the ground truth as JSON to this file.
    #[arg(long)]
    pub truth: Option<PathBuf>,
}

/// Parses `x,y,z,yaw,pitch,roll` into a camera.
pub fn camera_from(pose: Option<&str>, focal: Option<f64>) -> Result<CameraModel> {
    let mut cam = CameraModel::default();
    if let Some(p) = pose {
        let v: Vec<f64> = p
            .split(',')
            .map(|s| s.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .with_context(|| format!("--pose `{p}`: expected six numbers x,y,z,yaw,pitch,roll"))?;
        if v.len() != 6 || v.iter().any(|x| !x.is_finite()) {
            bail!("--pose `{p}`: expected six numbers x,y,z,yaw,pitch,roll");
        }
        cam.position = [v[0], v[1], v[2]];
        cam.yaw_deg = v[3];
        cam.pitch_deg = v[4];
        cam.roll_deg = v[5];
    }
    if let Some(f) = focal {
        if !(f > 0.0 && f.is_finite()) {
            bail!("--focal {f}: must be a positive number of pixels");
        }
        cam.fx = f;
        cam.fy = f;
    }
    Ok(cam)
}

/// Loads a board file or the default A4 board.
pub fn board_from(path: Option<&PathBuf>) -> Result<BoardConfig> {
    match path {
        Some(p) => Ok(BoardConfig::load(p)?),
        None => Ok(BoardConfig::default()),
    }
}

#[derive(Serialize)]
struct TruthPiece {
    location: String,
    element_type: Option<String>,
    state: Option<i32>,
    x: f64,
    y: f64,
    covered: bool,
}

#[derive(Serialize)]
struct Truth {
    locations: std::collections::BTreeMap<String, Option<String>>,
    pieces: Vec<TruthPiece>,
    occluded: bool,
}

pub fn run(a: Args) -> Result<i32> {
    let game = load_game(&a.game)?;
    let moves = move_list(a.moves.as_deref(), a.moves_file.as_deref())?;
    let mut state = game.initial_state();
    for (i, m) in moves.iter().enumerate() {
        if let Err(e) = apply_text(&game, &mut state, i + 1, m) {
            eprintln!("error: {e:#}");
            return Ok(2);
        }
    }
    let board = board_from(a.board.as_ref())?;
    let camera = camera_from(a.pose.as_deref(), a.focal)?;
    let renderer = Renderer::from_game(&game, &board, camera)?;
    let mut opts = if a.clean {
        RenderOptions::clean()
    } else {
        RenderOptions {
            noise_sigma: a.noise,
            blur_sigma: a.blur,
            light_gradient: a.light,
            piece_offset_cm: a.offset,
            ..RenderOptions::default()
        }
    };
    opts.arm = a.arm;
    opts.markers = a.markers;
    let frame = renderer.render(&scene_from_state(&game, &state), &opts, a.seed)?;
    gamebot_vision::source::write_image(&a.out, &frame.image)?;

    let vb = renderer.board();
    let class_name = |c: Option<usize>| c.map(|c| vb.classes[c].name.clone());
    if let Some(path) = &a.truth {
        let truth = Truth {
            locations: vb
                .locations
                .iter()
                .enumerate()
                .filter(|(_, l)| l.relevant)
                .map(|(i, l)| (l.name.clone(), class_name(frame.truth.locations[i])))
                .collect(),
            pieces: frame
                .truth
                .pieces
                .iter()
                .map(|p| TruthPiece {
                    location: game.locations[p.location as usize].name.clone(),
                    element_type: class_name(p.class),
                    state: p.class.map(|c| vb.classes[c].state),
                    x: (p.image.0 * 10.0).round() / 10.0,
                    y: (p.image.1 * 10.0).round() / 10.0,
                    covered: p.covered,
                })
                .collect(),
            occluded: frame.truth.occluded,
        };
        std::fs::write(path, serde_json::to_string_pretty(&truth)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let visible = frame.truth.locations.iter().filter(|c| c.is_some()).count();
    eprintln!(
        "{}: {} pieces, {} on camera locations, {}x{}{}",
        a.out.display(),
        frame.truth.pieces.len(),
        visible,
        camera.width,
        camera.height,
        if opts.arm { ", arm over the board" } else { "" }
    );
    Ok(0)
}
