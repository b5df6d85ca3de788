//! The camera node: publishes `/camera/image_raw` (`bgr8`) and
//! `/camera/camera_info` at `fps` from a [`CameraCore`]. A source that
//! disappears or stops delivering gives a warning naming it and an `INFO`
//! event on `/game/events`, then is reopened with back-off; the node never
//! exits on its own. Paced by deadlines on one [`WaitSet`] (the shutdown
//! request wakes it at once).
//!
//! Parameters: `device` (V4L2 index or path, or a video file), `source`
//! (image file or folder of images for replays; wins over `device`),
//! `width`, `height`, `fps`, `calibration` (`config/camera/*.yaml`: the
//! image size for `camera_info`), `frame_id`.

use crate::camera_core::{CameraCore, CameraSpec, Tick};
use crate::detector_node::mat_to_image;
use crate::NodeError;
use gamebot_interfaces::msg::GameEvent;
use gamebot_interfaces::sensor_msgs::CameraInfo;
use gamebot_interfaces::std_msgs::Header;
use gamebot_ros::{graph, Bus, Shutdown, WaitSet};
use gamebot_vision::source::CaptureSettings;
use std::time::{Duration, Instant};

/// `camera_info` for an image size: no intrinsics known (K = 0 means
/// uncalibrated in ROS); the table homography lives in the calibration file.
pub fn camera_info(width: u32, height: u32, header: Header) -> CameraInfo {
    CameraInfo {
        header,
        height,
        width,
        distortion_model: "plumb_bob".into(),
        d: vec![0.0; 5],
        ..Default::default()
    }
}

/// Runs the camera until `shutdown` is requested.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let p = bus.parameters();
    let device = p.declare_string("device", "0", "V4L2 index, device path or video file")?;
    let source = p.declare_string(
        "source",
        "",
        "image file or folder of images to replay (wins over device)",
    )?;
    let width = p.declare_int("width", 640, 16, 8192, "requested frame width")? as i32;
    let height = p.declare_int("height", 480, 16, 8192, "requested frame height")? as i32;
    let fps = p.declare_double("fps", 10.0, 0.1, 240.0, "frames per second to publish")?;
    let calibration = p.declare_string(
        "calibration",
        "",
        "camera calibration (config/camera/*.yaml) for camera_info; empty = frame size",
    )?;
    let frame_id = p.declare_string("frame_id", "camera", "frame id of the images")?;
    // Frames are taken at the device's pace (wall time); stamped on the node
    // clock (simulation time under `use_sim_time`).
    let clock = crate::node_clock::node_clock(bus, gamebot_ssc32::Clock::real(), shutdown)?;
    let calib = if calibration.is_empty() {
        None
    } else {
        Some(
            gamebot_vision::calib::CameraCalibration::load(&calibration).map_err(|e| {
                NodeError::Config(format!("camera: calibration {calibration}: {e}"))
            })?,
        )
    };
    let spec = CameraSpec::from_params(&device, &source, CaptureSettings { width, height, fps });
    let image_pub = bus.publisher_on(&graph::CAMERA_IMAGE)?;
    let info_pub = bus.publisher_on(&graph::CAMERA_INFO)?;
    let event_pub = bus.publisher_on(&graph::GAME_EVENTS)?;
    let event = |message: String| {
        let msg = GameEvent {
            kind: GameEvent::INFO,
            message,
            ..Default::default()
        };
        if let Err(e) = event_pub.publish(&msg) {
            tracing::warn!("{}: {e}", graph::GAME_EVENTS.name);
        }
    };
    tracing::info!("camera: publishing {} at {fps} Hz", spec.describe());
    let mut core = CameraCore::new(spec);
    let period = Duration::from_secs_f64(1.0 / fps);
    let mut ws = WaitSet::new();
    ws.add(shutdown);
    let mut next_at = Instant::now();
    while !shutdown.is_requested() {
        let now = Instant::now();
        if now < next_at {
            ws.wait_until(Some(next_at));
            continue;
        }
        match core.next(now) {
            Tick::Frame(frame) => {
                let header = Header {
                    stamp: crate::node_clock::stamp(&clock),
                    frame_id: frame_id.clone(),
                };
                match mat_to_image(&frame, header.clone()) {
                    Ok(img) => {
                        let (w, h) = match &calib {
                            Some(c) => (c.image_width as u32, c.image_height as u32),
                            None => (img.width, img.height),
                        };
                        if let Err(e) = image_pub.publish(&img) {
                            tracing::warn!("{}: {e}", graph::CAMERA_IMAGE.name);
                        }
                        if let Err(e) = info_pub.publish(&camera_info(w, h, header)) {
                            tracing::warn!("{}: {e}", graph::CAMERA_INFO.name);
                        }
                    }
                    Err(e) => tracing::warn!("{}: unusable frame: {e}", core.spec().describe()),
                }
                next_at += period;
                if next_at < now {
                    // Fell behind (a slow source): do not burst to catch up.
                    next_at = now + period;
                }
            }
            Tick::Lost { reason, retry_at } => {
                let wait = retry_at.saturating_duration_since(now);
                tracing::warn!("{reason}; reopening in {wait:?}");
                event(format!("camera lost: {reason}"));
                next_at = retry_at;
            }
            Tick::Reopened => {
                tracing::info!("{} is back", core.spec().describe());
                event(format!("{} is back", core.spec().describe()));
            }
            Tick::Wait(at) => next_at = at,
        }
    }
    Ok(())
}
