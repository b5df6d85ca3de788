//! The detector node's logic, independent of any transport: one game's
//! [`Detector`] and [`TemporalFilter`], fed camera frames in order; a new
//! game reloads the colour signatures and forgets what was stable.
//!
//! Every frame yields a [`Seen`]: the frame's own reading, the filter's
//! status and what to report — the stable content while the filter is
//! stable, else the frame's content marked unstable — with table positions
//! (cm, arm base frame) of every blob, including those on no location.

use gamebot_rules::Game;
use gamebot_vision::annotate::describe_occlusion;
use gamebot_vision::board_model::VisionBoard;
use gamebot_vision::calib::CameraCalibration;
use gamebot_vision::detect::{Detector, DetectorConfig, Observation};
use gamebot_vision::filter::{FilterConfig, FilterStatus, TemporalFilter};
use gamebot_vision::Mat;
use std::path::PathBuf;
use std::sync::Arc;

/// Errors of the detector core; each names the file or frame concerned.
#[derive(Debug, thiserror::Error)]
pub enum DetectorError {
    /// The game file could not be loaded.
    #[error("detector: game {file}: {source}")]
    Game {
        file: String,
        source: gamebot_rules::LoadError,
    },
    /// The calibration file could not be read.
    #[error("detector: calibration: {source}")]
    Calibration {
        file: PathBuf,
        source: gamebot_vision::VisionError,
    },
    /// Building the detector or reading a frame failed.
    #[error("detector: {0}")]
    Vision(#[from] gamebot_vision::VisionError),
}

/// Settings of the detector core.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectorSettings {
    /// Camera calibration file (`config/camera/*.yaml`); `None` = the ideal top-down camera.
    pub calibration: Option<PathBuf>,
    /// 1 = full resolution, 2 = half (faster).
    pub downscale: u32,
    /// Consecutive agreeing frames for a stable observation.
    pub stable_frames: usize,
}

impl Default for DetectorSettings {
    fn default() -> Self {
        DetectorSettings {
            calibration: None,
            downscale: DetectorConfig::default().downscale,
            stable_frames: FilterConfig::default().k,
        }
    }
}

/// One piece as reported: location (if any), class, image and table position.
#[derive(Clone, Debug, PartialEq)]
pub struct SeenPiece {
    /// Camera location name; empty for a blob on no location.
    pub location: String,
    pub element_type: String,
    pub element_state: i32,
    /// Blob centre in image pixels and its area (px²).
    pub image: (f64, f64),
    pub area: f64,
    /// Blob centre on the table (cm, arm base frame).
    pub table_cm: [f64; 2],
    pub confidence: f32,
}

/// What one frame gives.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The filter's verdict on this frame.
    pub status: FilterStatus,
    /// Whether `pieces` / `classes` are a stable observation.
    pub stable: bool,
    /// The class on every camera location (stable content when stable).
    pub classes: Vec<Option<usize>>,
    /// Occupied locations.
    pub pieces: Vec<SeenPiece>,
    /// Blobs on no location.
    pub unassigned: Vec<SeenPiece>,
    /// The occlusion cue of this frame, described (empty when clear).
    pub occlusion: String,
    /// This frame's raw reading (for the annotated image).
    pub frame: Observation,
}

/// The detector of one game.
pub struct DetectorCore {
    settings: DetectorSettings,
    calibration: Option<CameraCalibration>,
    game_file: String,
    game: Arc<Game>,
    detector: Detector,
    filter: TemporalFilter,
}

impl DetectorCore {
    /// Loads the calibration and the game and builds the detector.
    pub fn new(game_file: &str, settings: DetectorSettings) -> Result<DetectorCore, DetectorError> {
        let calibration =
            match &settings.calibration {
                None => None,
                Some(p) => Some(CameraCalibration::load(p).map_err(|source| {
                    DetectorError::Calibration {
                        file: p.clone(),
                        source,
                    }
                })?),
            };
        let game = load_game(game_file)?;
        let detector = build(&game, calibration.as_ref(), &settings)?;
        Ok(DetectorCore {
            filter: TemporalFilter::new(filter_config(&settings)),
            settings,
            calibration,
            game_file: game_file.to_string(),
            game,
            detector,
        })
    }

    /// Follows another game (or a new game of the same file): reloads the
    /// signatures and forgets what was stable. A file that does not load
    /// leaves the old game in place.
    pub fn load(&mut self, game_file: &str) -> Result<(), DetectorError> {
        let game = load_game(game_file)?;
        self.detector = build(&game, self.calibration.as_ref(), &self.settings)?;
        self.game = game;
        self.game_file = game_file.to_string();
        self.filter.reset();
        Ok(())
    }

    /// Forgets the stable observation (e.g. a new game of the same file).
    pub fn reset(&mut self) {
        self.filter.reset();
    }

    pub fn game_file(&self) -> &str {
        &self.game_file
    }
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }
    pub fn board(&self) -> &VisionBoard {
        self.detector.board()
    }
    pub fn detector(&self) -> &Detector {
        &self.detector
    }

    /// Processes one frame; `source` names it in errors (a wrong frame size).
    pub fn process(&mut self, frame: &Mat, source: &str) -> Result<Seen, DetectorError> {
        let obs = self.detector.detect_named(frame, source)?;
        let status = self.filter.push(obs.clone());
        let stable = matches!(status, FilterStatus::Stable { .. });
        let shown = if stable {
            self.filter.stable().cloned().unwrap_or_else(|| obs.clone())
        } else {
            obs.clone()
        };
        let board = self.detector.board();
        let piece = |blob: usize, location: String, confidence: f32| {
            let b = &shown.blobs[blob];
            let class = &board.classes[b.class];
            SeenPiece {
                location,
                element_type: class.name.clone(),
                element_state: class.state,
                image: b.image,
                area: b.area,
                table_cm: board.mapping.to_table_cm(b.board.0, b.board.1),
                confidence,
            }
        };
        let pieces = shown
            .locations
            .iter()
            .filter_map(|l| {
                let blob = l.blob?;
                l.class?;
                Some(piece(
                    blob,
                    board.locations[l.index].name.clone(),
                    l.confidence,
                ))
            })
            .collect();
        let unassigned = shown
            .unmatched
            .iter()
            .map(|&b| piece(b, String::new(), 1.0))
            .collect();
        let occlusion = match &status {
            FilterStatus::Occluded(o) => describe_occlusion(o),
            _ => String::new(),
        };
        Ok(Seen {
            classes: shown.locations.iter().map(|l| l.class).collect(),
            status,
            stable,
            pieces,
            unassigned,
            occlusion,
            frame: obs,
        })
    }
}

fn load_game(file: &str) -> Result<Arc<Game>, DetectorError> {
    Game::load(file)
        .map(Arc::new)
        .map_err(|source| DetectorError::Game {
            file: file.to_string(),
            source,
        })
}

fn filter_config(s: &DetectorSettings) -> FilterConfig {
    FilterConfig {
        k: s.stable_frames.max(1),
        ..FilterConfig::default()
    }
}

fn build(
    game: &Game,
    calibration: Option<&CameraCalibration>,
    settings: &DetectorSettings,
) -> Result<Detector, DetectorError> {
    let board = VisionBoard::from_game(game)?;
    let config = DetectorConfig {
        downscale: settings.downscale.clamp(1, 2),
        ..DetectorConfig::default()
    };
    Ok(Detector::new(board, calibration, config)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_vision::render::{scene_from_state, RenderOptions, Renderer};

    fn games() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games"))
    }

    #[test]
    fn frames_become_stable_observations_and_a_new_game_resets() {
        let file = games().join("tictactoe.game");
        let file = file.to_str().unwrap();
        let mut core = DetectorCore::new(file, DetectorSettings::default()).unwrap();
        let g = core.game().clone();
        let mut st = g.initial_state();
        let m = g
            .find_move(&st, &g.move_text(&g.legal_moves(&st).unwrap()[4]))
            .unwrap();
        g.apply(&mut st, &m).unwrap();
        let cfg = gamebot_vision::calib::BoardConfig::load(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../config/boards/a4.yaml"
        ))
        .unwrap();
        let r = Renderer::from_game(&g, &cfg, Default::default()).unwrap();
        let f = r
            .render(&scene_from_state(&g, &st), &RenderOptions::clean(), 1)
            .unwrap();
        let mut last = None;
        for i in 0..3 {
            let s = core.process(&f.image, "test frame").unwrap();
            assert_eq!(s.stable, i == 2, "frame {i}: {:?}", s.status);
            last = Some(s);
        }
        let s = last.unwrap();
        assert_eq!(s.classes, f.truth.locations);
        let to = &g.locations[m.to as usize].name;
        let on = s.pieces.iter().find(|p| &p.location == to).unwrap();
        assert_eq!(on.element_type, "cross");
        // The cell's table position is its robot= point (cm).
        let Some(gamebot_rules::RobotSpec::Cartesian(want)) = g.locations[m.to as usize].robot
        else {
            panic!("cells have robot= points")
        };
        assert!(
            (on.table_cm[0] - want[0]).abs() < 0.5 && (on.table_cm[1] - want[1]).abs() < 0.5,
            "{:?} vs {want:?}",
            on.table_cm
        );
        core.load(file).unwrap();
        assert!(!core.process(&f.image, "test frame").unwrap().stable);
        let e = core.load("games/nope.game").unwrap_err().to_string();
        assert!(e.contains("nope.game"), "{e}");
        let e = core
            .process(&Mat::default(), "empty frame")
            .unwrap_err()
            .to_string();
        assert!(e.contains("empty frame"), "{e}");
    }
}
