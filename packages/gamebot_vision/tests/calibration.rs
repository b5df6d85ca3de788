//! Calibration on rendered frames from a tilted, shifted camera: ArUco
//! markers and listed points recover the true homography, and detection
//! through the calibration finds the pieces.

use gamebot_rules::Game;
use gamebot_vision::accuracy::{random_frames, Accuracy};
use gamebot_vision::calib::{
    calibrate_from_aruco, calibrate_from_points, BoardConfig, CameraCalibration,
};
use gamebot_vision::camera::CameraModel;
use gamebot_vision::detect::{Detector, DetectorConfig};
use gamebot_vision::render::{RenderOptions, Renderer, Scene};
use gamebot_vision::VisionError;

fn game(name: &str) -> Game {
    Game::load(format!(
        "{}/../../games/{name}.game",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The ideal camera, and two mounted a little off: other heights, focal
/// lengths, tilts and turns, each re-aimed at the board centre.
fn tilted() -> Vec<CameraModel> {
    let cams = vec![
        CameraModel::default(),
        CameraModel {
            position: [0.0, 0.0, 52.0],
            yaw_deg: 3.0,
            pitch_deg: 4.0,
            roll_deg: -3.0,
            ..CameraModel::default()
        }
        .aimed_at(0.5, 18.3),
        CameraModel {
            position: [0.0, 0.0, 48.0],
            yaw_deg: -4.0,
            pitch_deg: -3.0,
            roll_deg: 4.0,
            fx: 940.0,
            fy: 940.0,
            ..CameraModel::default()
        }
        .aimed_at(-0.4, 17.8),
    ];
    // Precondition: every marker is in view.
    for c in &cams {
        for m in &BoardConfig::default().aruco.markers {
            for p in m.corners_cm() {
                let (u, v) = c.project([p[0], p[1], 0.0]).unwrap();
                assert!(
                    u > 5.0 && v > 5.0 && u < 635.0 && v < 475.0,
                    "{c:?}: marker {} at {u},{v}",
                    m.id
                );
            }
        }
    }
    cams
}

/// Largest distance (image px) between where the true camera and the
/// calibration put table points spread over the sheet.
fn max_error(cam: &CameraModel, cal: &CameraCalibration) -> f64 {
    let truth = cam.plane_homography(0.0);
    let est = cal.image_to_table_cm.inverse().unwrap();
    let mut worst: f64 = 0.0;
    for i in 0..=10 {
        for j in 0..=10 {
            let (x, y) = (-14.0 + 2.8 * i as f64, 8.0 + 2.0 * j as f64);
            let a = truth.apply(x, y).unwrap();
            let b = est.apply(x, y).unwrap();
            worst = worst.max(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt());
        }
    }
    worst
}

#[test]
fn aruco_calibration_recovers_the_homography() {
    let g = game("tictactoe");
    let board = BoardConfig::default();
    for (k, cam) in tilted().into_iter().enumerate() {
        let r = Renderer::from_game(&g, &board, cam).unwrap();
        let opts = RenderOptions {
            markers: true,
            ..RenderOptions::default()
        };
        let f = r.render(&Scene::default(), &opts, 5 + k as u64).unwrap();
        let cal = calibrate_from_aruco(&f.image, &board, None).unwrap();
        let err = max_error(&cam, &cal);
        println!(
            "camera {k}: max error {err:.3} px, rms reprojection {:.3} px",
            cal.reprojection_rms_px
        );
        assert_eq!(cal.points, 16);
        assert!(err < 1.0, "camera {k}: {err} px");
        assert!(cal.reprojection_max_px < 1.0);
    }
}

#[test]
fn point_calibration_recovers_the_homography() {
    let board = BoardConfig::default();
    for cam in tilted() {
        let h = cam.plane_homography(0.0);
        // Clicked sheet corners, each off by up to 0.4 px.
        let jitter = [(0.3, -0.2), (-0.4, 0.1), (0.2, 0.4), (-0.1, -0.3)];
        let table: Vec<(f64, f64)> = board
            .calibration_points
            .iter()
            .map(|p| (p.cm[0], p.cm[1]))
            .collect();
        let img: Vec<(f64, f64)> = table
            .iter()
            .zip(jitter)
            .map(|(&(x, y), (dx, dy))| {
                let (u, v) = h.apply(x, y).unwrap();
                (u + dx, v + dy)
            })
            .collect();
        let cal = calibrate_from_points(&img, &table, &board.camera_mapping, (640, 480), "points")
            .unwrap();
        let err = max_error(&cam, &cal);
        assert!(err < 1.0, "{err} px");
    }
}

#[test]
fn detection_through_calibration_on_tilted_cameras() {
    let g = game("checkers");
    let board = BoardConfig::default();
    for (k, cam) in tilted().into_iter().enumerate().skip(1) {
        let r = Renderer::from_game(&g, &board, cam).unwrap();
        let mopts = RenderOptions {
            markers: true,
            ..RenderOptions::default()
        };
        let f = r.render(&Scene::default(), &mopts, 1).unwrap();
        let cal = calibrate_from_aruco(&f.image, &board, None).unwrap();
        let mut det =
            Detector::new(r.board().clone(), Some(&cal), DetectorConfig::default()).unwrap();
        let mut acc = Accuracy::default();
        for fr in random_frames(&g, &r, &RenderOptions::default(), 60, 40 + k as u64).unwrap() {
            let obs = det.detect(&fr.image).unwrap();
            acc.score(&det, &fr, &obs);
        }
        println!(
            "camera {k}: accuracy {:.4} over {} locations",
            acc.rate(),
            acc.locations
        );
        assert!(acc.rate() >= 0.995, "camera {k}: {:.4}", acc.rate());
        assert_eq!(acc.false_pieces, 0);
    }
}

#[test]
fn calibration_fails_clearly_without_markers() {
    let g = game("tictactoe");
    let board = BoardConfig::default();
    let r = Renderer::from_game(&g, &board, CameraModel::default()).unwrap();
    let f = r
        .render(&Scene::default(), &RenderOptions::default(), 1)
        .unwrap();
    match calibrate_from_aruco(&f.image, &board, None) {
        Err(VisionError::Calibration(m)) => assert!(m.contains("found 0 of the board's 4"), "{m}"),
        other => panic!(
            "expected a calibration error, got {:?}",
            other.map(|c| c.points)
        ),
    }
}
