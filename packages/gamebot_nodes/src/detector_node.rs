//! The detector node: camera images in, board observations out.
//!
//! Subscribes to `/camera/image_raw` and the latched `/game/state` (it
//! follows the game the referee plays: another file or a new game number
//! reloads the signatures and forgets what was stable); runs
//! [`DetectorCore`] on every frame and publishes `/board/observation` for
//! every frame (stable flag, occlusion cue, pieces on locations and blobs on
//! none, with table positions), and every `annotate_every`-th frame an
//! annotated image on `/detector/image_annotated`. Sleeps on one
//! [`WaitSet`] (the two subscriptions and the shutdown request).
//!
//! Parameters: `game_file` (until a game state arrives), `calibration`
//! (`config/camera/*.yaml`, empty = ideal top-down camera), `downscale`
//! (1 or 2), `stable_frames`, `annotate_every` (0 = never).

use crate::detector_core::{DetectorCore, DetectorSettings, Seen, SeenPiece};
use crate::NodeError;
use gamebot_interfaces::geometry_msgs::Point;
use gamebot_interfaces::msg::{BoardObservation, GameState, ObservedPiece};
use gamebot_interfaces::sensor_msgs::Image;
use gamebot_interfaces::std_msgs::Header;
use gamebot_ros::wait::TryRecvError;
use gamebot_ros::{graph, Bus, Shutdown, WaitSet};
use gamebot_vision::source::{bgr_bytes, mat_from_bgr};
use gamebot_vision::Mat;
use std::path::PathBuf;

/// Converts a `sensor_msgs/Image` (`bgr8` or `rgb8`, any row padding) to a BGR frame.
pub fn image_to_mat(msg: &Image) -> Result<Mat, String> {
    let (w, h) = (msg.width as usize, msg.height as usize);
    let rgb = match msg.encoding.as_str() {
        "bgr8" => false,
        "rgb8" => true,
        other => return Err(format!("encoding `{other}` (expected bgr8 or rgb8)")),
    };
    let step = msg.step as usize;
    if w == 0 || h == 0 || step < 3 * w || msg.data.len() < step * h {
        return Err(format!(
            "{}x{} image with step {} has {} bytes",
            w,
            h,
            step,
            msg.data.len()
        ));
    }
    let mut data = Vec::with_capacity(3 * w * h);
    for row in msg.data.chunks(step).take(h) {
        if rgb {
            for px in row[..3 * w].chunks(3) {
                data.extend_from_slice(&[px[2], px[1], px[0]]);
            }
        } else {
            data.extend_from_slice(&row[..3 * w]);
        }
    }
    mat_from_bgr(w as i32, h as i32, &data).map_err(|e| e.to_string())
}

/// A BGR frame as a `bgr8` `sensor_msgs/Image`.
pub fn mat_to_image(frame: &Mat, header: Header) -> Result<Image, String> {
    let (w, h) = gamebot_vision::source::frame_size(frame);
    let data = bgr_bytes(frame).map_err(|e| e.to_string())?;
    Ok(Image {
        header,
        height: h as u32,
        width: w as u32,
        encoding: "bgr8".into(),
        is_bigendian: 0,
        step: 3 * w as u32,
        data,
    })
}

fn piece_msg(p: &SeenPiece) -> ObservedPiece {
    ObservedPiece {
        location: p.location.clone(),
        element_type: p.element_type.clone(),
        element_state: p.element_state,
        u: p.image.0 as f32,
        v: p.image.1 as f32,
        area: p.area as f32,
        confidence: p.confidence,
        position: Point {
            x: p.table_cm[0] / 100.0,
            y: p.table_cm[1] / 100.0,
            z: 0.0,
        },
    }
}

/// The observation message of one frame.
pub fn observation_msg(core: &DetectorCore, seen: &Seen, header: Header) -> BoardObservation {
    BoardObservation {
        header,
        game_name: core.game().name.clone(),
        pieces: seen.pieces.iter().map(piece_msg).collect(),
        unassigned: seen.unassigned.iter().map(piece_msg).collect(),
        stable: seen.stable,
        occlusion: seen.occlusion.clone(),
    }
}

/// Runs the detector until `shutdown` is requested.
pub fn run<B: Bus>(bus: &B, shutdown: &Shutdown) -> Result<(), NodeError> {
    let p = bus.parameters();
    // Observations carry their image's stamp: no clock of its own.
    crate::node_clock::declare_use_sim_time(bus)?;
    let game_file = p.declare_string(
        "game_file",
        "games/tictactoe.game",
        "game to look for until /game/state names one",
    )?;
    let calibration = p.declare_string(
        "calibration",
        "",
        "camera calibration file (config/camera/*.yaml); empty = ideal top-down camera",
    )?;
    let downscale = p.declare_int("downscale", 2, 1, 2, "1 = full resolution, 2 = half")? as u32;
    let stable_frames = p.declare_int(
        "stable_frames",
        3,
        1,
        100,
        "consecutive agreeing frames for a stable observation",
    )? as usize;
    let annotate_every = p.declare_int(
        "annotate_every",
        10,
        0,
        1000,
        "publish an annotated image every N frames (0 = never)",
    )? as u64;
    let settings = DetectorSettings {
        calibration: (!calibration.is_empty()).then(|| PathBuf::from(&calibration)),
        downscale,
        stable_frames,
    };
    let mut core =
        DetectorCore::new(&game_file, settings).map_err(|e| NodeError::Config(e.to_string()))?;
    let images = bus.subscription_on(&graph::CAMERA_IMAGE)?;
    let states = bus.subscription_on(&graph::GAME_STATE)?;
    let obs_pub = bus.publisher_on(&graph::BOARD_OBSERVATION)?;
    let annotated = bus.publisher_on(&graph::DETECTOR_IMAGE_ANNOTATED)?;
    let mut ws = WaitSet::new();
    ws.add(&images);
    ws.add(&states);
    ws.add(shutdown);
    tracing::info!(game = %game_file, "detector ready on {}", images.topic());
    let mut game_number = 0u32;
    let mut frames = 0u64;
    let mut bad_frames = 0u64;
    while !shutdown.is_requested() {
        // The game first: frames after a new game must use its signatures.
        loop {
            match states.try_recv() {
                Ok(st) => follow(&mut core, &st, &mut game_number),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            }
        }
        let mut any = false;
        loop {
            let img = match images.try_recv() {
                Ok(img) => img,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Closed) => return Ok(()),
            };
            any = true;
            let frame = match image_to_mat(&img) {
                Ok(f) => f,
                Err(e) => {
                    bad_frames += 1;
                    if bad_frames.is_power_of_two() {
                        tracing::warn!(
                            "{}: unusable image ({bad_frames} so far): {e}",
                            images.topic()
                        );
                    }
                    continue;
                }
            };
            let seen = match core.process(&frame, images.topic()) {
                Ok(s) => s,
                Err(e) => {
                    bad_frames += 1;
                    if bad_frames.is_power_of_two() {
                        tracing::warn!("{e} ({bad_frames} unusable frames so far)");
                    }
                    continue;
                }
            };
            frames += 1;
            let msg = observation_msg(&core, &seen, img.header.clone());
            if let Err(e) = obs_pub.publish(&msg) {
                tracing::warn!("{}: {e}", graph::BOARD_OBSERVATION.name);
            }
            if annotate_every > 0 && frames.is_multiple_of(annotate_every) {
                let out = gamebot_vision::annotate::annotate(&frame, core.detector(), &seen.frame)
                    .map_err(|e| e.to_string())
                    .and_then(|m| mat_to_image(&m, img.header.clone()));
                match out {
                    Ok(m) => {
                        if let Err(e) = annotated.publish(&m) {
                            tracing::warn!("{}: {e}", graph::DETECTOR_IMAGE_ANNOTATED.name);
                        }
                    }
                    Err(e) => tracing::warn!("annotating a frame: {e}"),
                }
            }
        }
        if !any {
            ws.wait_until(None);
        }
    }
    Ok(())
}

/// Follows the referee's game: another file or a new game reloads the signatures.
fn follow(core: &mut DetectorCore, st: &GameState, game_number: &mut u32) {
    if st.game_file.is_empty() {
        return;
    }
    if st.game_file != core.game_file() {
        match core.load(&st.game_file) {
            Ok(()) => tracing::info!(game = %st.game_file, "detector follows the new game"),
            Err(e) => tracing::warn!("{}: {e}", graph::GAME_STATE.name),
        }
    } else if st.game_number != *game_number && *game_number != 0 {
        core.reset();
    }
    *game_number = st.game_number;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_convert_both_ways_and_bad_ones_are_named() {
        let mut data = Vec::new();
        for i in 0..(4 * 2) {
            data.extend_from_slice(&[i as u8, 100, 200]);
        }
        let msg = Image {
            height: 2,
            width: 4,
            encoding: "rgb8".into(),
            step: 12,
            data,
            ..Default::default()
        };
        let m = image_to_mat(&msg).unwrap();
        let back = mat_to_image(&m, Header::default()).unwrap();
        assert_eq!(back.encoding, "bgr8");
        assert_eq!(&back.data[..6], &[200, 100, 0, 200, 100, 1]);
        let bad = Image {
            encoding: "mono16".into(),
            ..msg.clone()
        };
        assert!(image_to_mat(&bad).unwrap_err().contains("mono16"));
        let short = Image {
            data: vec![0; 5],
            ..msg
        };
        assert!(image_to_mat(&short).unwrap_err().contains("5 bytes"));
    }
}
