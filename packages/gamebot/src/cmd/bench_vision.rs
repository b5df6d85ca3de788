//! `gamebot bench vision [GAME...]` — detector frames/s at 640×480 on one
//! core, and accuracy on rendered random positions (normal and heavy
//! degradation), how many frames with the arm over a location are flagged as
//! occluded, and how many clear frames are flagged wrongly.

use std::time::{Duration, Instant};

use anyhow::Result;
use gamebot_vision::accuracy::{random_frames, Accuracy};
use gamebot_vision::calib::BoardConfig;
use gamebot_vision::camera::CameraModel;
use gamebot_vision::detect::{Detector, DetectorConfig};
use gamebot_vision::render::{RenderOptions, Renderer};
use serde::Serialize;

use crate::common::load_game;

#[derive(clap::Args)]
pub struct Args {
    /// Game files (default: every games/*.game with camera signatures).
    games: Vec<String>,
    /// Rendered frames per game and degradation level for the accuracy figures.
    #[arg(long, default_value_t = 200, value_parser = crate::limits::FRAMES)]
    frames: usize,
    /// Timing duration per game and resolution, seconds.
    #[arg(long, default_value_t = 2.0, value_parser = crate::limits::SECONDS)]
    seconds: f64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// OpenCV worker threads (1 = single core, the figure the target refers to).
    #[arg(long, default_value_t = 1, value_parser = crate::limits::CV_THREADS)]
    threads: i32,
    /// Print JSON rows instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    game: String,
    signatures: usize,
    fps_half: f64,
    fps_full: f64,
    accuracy: f64,
    false_pieces: f64,
    accuracy_heavy: f64,
    false_pieces_heavy: f64,
    occlusions_caught: f64,
    false_occlusions: f64,
    occluded_frames: usize,
    locations: usize,
}

/// Frames per second of `det` cycling over `frames` for `seconds`.
fn time_detector(det: &mut Detector, frames: &[gamebot_vision::Mat], seconds: f64) -> Result<f64> {
    for f in frames.iter().take(4) {
        det.detect(f)?; // warm-up: buffer allocation
    }
    let start = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    let mut n = 0usize;
    while start.elapsed() < budget {
        for f in frames {
            det.detect(f)?;
            n += 1;
        }
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

pub fn run(a: Args) -> Result<i32> {
    gamebot_vision::set_opencv_threads(a.threads)?;
    let games = crate::common::game_files_or_all(&a.games)?;
    let board_cfg = BoardConfig::default();
    let heavy = RenderOptions {
        noise_sigma: 8.0,
        blur_sigma: 1.5,
        light_gradient: 0.2,
        piece_offset_cm: 0.3,
        ..RenderOptions::default()
    };
    let arm = RenderOptions {
        arm: true,
        ..RenderOptions::default()
    };
    let mut rows = Vec::new();
    let mut total = Accuracy::default();
    let mut total_heavy = Accuracy::default();
    for path in &games {
        let game = load_game(path)?;
        if game.realboard.is_empty() {
            continue;
        }
        let renderer = Renderer::from_game(&game, &board_cfg, CameraModel::default())?;
        let half = DetectorConfig::default();
        let full = DetectorConfig {
            downscale: 1,
            ..DetectorConfig::default()
        };
        let mut det = Detector::new(renderer.board().clone(), None, half.clone())?;
        let mut det_full = Detector::new(renderer.board().clone(), None, full)?;

        let normal = random_frames(
            &game,
            &renderer,
            &RenderOptions::default(),
            a.frames,
            a.seed,
        )?;
        let images: Vec<_> = normal.iter().take(32).map(|f| f.image.clone()).collect();
        let fps_half = time_detector(&mut det, &images, a.seconds)?;
        let fps_full = time_detector(&mut det_full, &images, a.seconds)?;

        let mut acc = Accuracy::default();
        for f in &normal {
            let obs = det.detect(&f.image)?;
            acc.score(&det, f, &obs);
        }
        let mut acc_heavy = Accuracy::default();
        for f in random_frames(&game, &renderer, &heavy, a.frames, a.seed + 1)? {
            let obs = det.detect(&f.image)?;
            acc_heavy.score(&det, &f, &obs);
        }
        let arm_frames = random_frames(&game, &renderer, &arm, a.frames.min(100), a.seed + 2)?;
        // Not every arm pose hides a location; the renderer's ground truth says which do.
        let (mut occluded, mut caught) = (0usize, 0usize);
        for f in &arm_frames {
            if f.truth.occluded {
                occluded += 1;
                if det.detect(&f.image)?.occlusion.is_some() {
                    caught += 1;
                }
            }
        }
        total.add(&acc);
        total_heavy.add(&acc_heavy);
        rows.push(Row {
            game: game.name.clone(),
            signatures: renderer.board().signatures.len(),
            fps_half,
            fps_full,
            accuracy: acc.rate(),
            false_pieces: acc.false_piece_rate(),
            accuracy_heavy: acc_heavy.rate(),
            false_pieces_heavy: acc_heavy.false_piece_rate(),
            occlusions_caught: caught as f64 / occluded.max(1) as f64,
            false_occlusions: acc.false_occlusions as f64 / acc.frames.max(1) as f64,
            occluded_frames: occluded,
            locations: acc.locations,
        });
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(0);
    }
    outln!(
        "| game | sigs | fps (half-res) | fps (full-res) | accuracy | false pieces | accuracy (heavy) | false pieces (heavy) | occlusions caught | false occlusions |"
    );
    outln!("|---|---|---|---|---|---|---|---|---|---|");
    for r in &rows {
        outln!(
            "| {} | {} | {:.0} | {:.0} | {:.2} % | {:.3} % | {:.2} % | {:.3} % | {:.0} % of {} | {:.1} % |",
            r.game,
            r.signatures,
            r.fps_half,
            r.fps_full,
            r.accuracy * 100.0,
            r.false_pieces * 100.0,
            r.accuracy_heavy * 100.0,
            r.false_pieces_heavy * 100.0,
            r.occlusions_caught * 100.0,
            r.occluded_frames,
            r.false_occlusions * 100.0
        );
    }
    outln!(
        "| **all** | | | | {:.3} % ({} of {}) | {:.3} % | {:.3} % | {:.3} % | | |",
        total.rate() * 100.0,
        total.correct,
        total.locations,
        total.false_piece_rate() * 100.0,
        total_heavy.rate() * 100.0,
        total_heavy.false_piece_rate() * 100.0
    );
    outln!(
        "\n{} frames per game and level, OpenCV threads {}, seed {}",
        a.frames,
        a.threads,
        a.seed
    );
    Ok(0)
}
