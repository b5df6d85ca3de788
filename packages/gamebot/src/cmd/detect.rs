//! `gamebot detect --game GAME (--image FILE | --camera N | --device PATH) [--out annotated.png] [--json]`
//! — runs the piece detector and prints what every relevant location shows.

use std::path::PathBuf;

use anyhow::{bail, Result};
use gamebot_vision::annotate::{annotate, report, ObservationReport};
use gamebot_vision::board_model::VisionBoard;
use gamebot_vision::calib::CameraCalibration;
use gamebot_vision::detect::{Detector, DetectorConfig, Observation};
use gamebot_vision::filter::{FilterConfig, FilterStatus, TemporalFilter};
use gamebot_vision::source::{
    read_image, write_image, CameraDevice, CameraSource, CaptureSettings, FrameSource,
};
use gamebot_vision::Mat;

use crate::common::load_game;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["image", "camera", "device"])))]
pub struct Args {
    /// Game file (colour signatures and camera locations).
    #[arg(long)]
    pub game: String,
    /// Detect in an image file.
    #[arg(long)]
    pub image: Option<PathBuf>,
    /// Detect from camera /dev/videoN until the view is stable.
    #[arg(long, value_parser = crate::limits::CAMERA_INDEX)]
    pub camera: Option<i32>,
    /// Detect from a camera device path (or video file) until the view is stable.
    #[arg(long)]
    pub device: Option<PathBuf>,
    /// Camera calibration (config/camera/*.yaml); default: the image is the game's camera= frame.
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Write the annotated image here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print JSON: {"locations":{"<location>":"<type>"|null,...},"unmatched":[...],...}.
    #[arg(long)]
    pub json: bool,
    /// Camera: consecutive agreeing frames needed.
    #[arg(long, default_value_t = 3, value_parser = crate::limits::STABLE)]
    pub stable: usize,
    /// Camera: give up after this many frames.
    #[arg(long, default_value_t = 60, value_parser = crate::limits::FRAMES)]
    pub frames: usize,
    /// Process at full resolution instead of half.
    #[arg(long)]
    pub full_resolution: bool,
}

fn format_report(r: &ObservationReport, json: bool) -> Result<String> {
    use std::fmt::Write as _;
    if json {
        return Ok(serde_json::to_string(r)? + "\n");
    }
    let mut out = String::new();
    for (name, d) in &r.details {
        match &d.element_type {
            Some(t) => writeln!(
                out,
                "{name}: {t} (state {}) {:.2}",
                d.state.unwrap_or(1),
                d.confidence
            )?,
            None => writeln!(out, "{name}: empty {:.2}", d.confidence)?,
        }
    }
    for u in &r.unmatched {
        writeln!(
            out,
            "unmatched: {} (state {}) at {:.1},{:.1} area {:.0}",
            u.element_type, u.state, u.x, u.y, u.area
        )?;
    }
    if let Some(o) = &r.occluded {
        writeln!(out, "occluded: {o}")?;
    }
    Ok(out)
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn write_stdout(text: &str) -> Result<()> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

pub fn run(a: Args) -> Result<i32> {
    let game = load_game(&a.game)?;
    let board = VisionBoard::from_game(&game)?;
    if board.signatures.is_empty() {
        bail!(
            "{}: the game has no [REALBOARD ELEMENT TYPES]; nothing to detect",
            a.game
        );
    }
    let calibration = a
        .calibration
        .as_ref()
        .map(CameraCalibration::load)
        .transpose()?;
    let config = DetectorConfig {
        downscale: if a.full_resolution { 1 } else { 2 },
        ..DetectorConfig::default()
    };
    let mut det = Detector::new(board, calibration.as_ref(), config)?;

    let (frame, obs): (Mat, Observation) = if let Some(path) = &a.image {
        let frame = read_image(path)?;
        let obs = det.detect_named(&frame, &path.display().to_string())?;
        (frame, obs)
    } else {
        let device = match (&a.camera, &a.device) {
            (Some(i), _) => CameraDevice::Index(*i),
            (None, Some(p)) => CameraDevice::Path(p.clone()),
            (None, None) => unreachable!("clap requires one input"),
        };
        let (w, h) = det.frame_size();
        let mut src = CameraSource::open(
            device,
            CaptureSettings {
                width: w,
                height: h,
                ..CaptureSettings::default()
            },
        )?;
        let mut filter = TemporalFilter::new(FilterConfig {
            k: a.stable,
            ..FilterConfig::default()
        });
        let mut last_status = None;
        let mut found = None;
        for _ in 0..a.frames {
            let frame = src.next_frame()?;
            let obs = det.detect_named(&frame, &src.name())?;
            let status = filter.push(obs.clone());
            if let FilterStatus::Stable { .. } = status {
                found = Some((frame, obs));
                break;
            }
            last_status = Some(status);
        }
        match found {
            Some(x) => x,
            None => {
                eprintln!(
                    "error: {}: no stable view in {} frames (last: {:?})",
                    src.name(),
                    a.frames,
                    last_status
                );
                return Ok(1);
            }
        }
    };
    let r = report(det.board(), &obs);
    write_stdout(&format_report(&r, a.json)?)?;
    if let Some(out) = &a.out {
        write_image(out, &annotate(&frame, &det, &obs)?)?;
    }
    Ok(0)
}
