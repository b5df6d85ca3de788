//! Accuracy evaluation on synthetic frames: random reachable positions of a
//! game, rendered with noise, blur, lighting and offsets, detected, and
//! compared with the renderer's ground truth. Used by the accuracy test and
//! by `gamebot bench vision`.

use gamebot_rules::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::calib::BoardConfig;
use crate::camera::CameraModel;
use crate::detect::{Detector, DetectorConfig, Observation};
use crate::error::{Result, VisionError};
use crate::render::{scene_from_state, RenderOptions, RenderedFrame, Renderer};

/// Counts from comparing detections with ground truth on relevant locations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accuracy {
    pub frames: usize,
    /// Relevant location observations compared.
    pub locations: usize,
    /// Of those, how many matched the truth exactly (type and state, or empty).
    pub correct: usize,
    /// Truly empty relevant locations, and how many were reported occupied.
    pub empty: usize,
    pub false_pieces: usize,
    /// Occupied relevant locations reported empty.
    pub missed: usize,
    /// Occupied relevant locations reported with the wrong type/state.
    pub confused: usize,
    /// Unoccluded frames the detector flagged as occluded.
    pub false_occlusions: usize,
}

impl Accuracy {
    /// Fraction of correct location observations.
    pub fn rate(&self) -> f64 {
        if self.locations == 0 {
            1.0
        } else {
            self.correct as f64 / self.locations as f64
        }
    }

    /// Fraction of truly empty locations reported occupied.
    pub fn false_piece_rate(&self) -> f64 {
        if self.empty == 0 {
            0.0
        } else {
            self.false_pieces as f64 / self.empty as f64
        }
    }

    /// Adds another tally.
    pub fn add(&mut self, o: &Accuracy) {
        self.frames += o.frames;
        self.locations += o.locations;
        self.correct += o.correct;
        self.empty += o.empty;
        self.false_pieces += o.false_pieces;
        self.missed += o.missed;
        self.confused += o.confused;
        self.false_occlusions += o.false_occlusions;
    }

    /// Scores one frame.
    pub fn score(&mut self, detector: &Detector, frame: &RenderedFrame, obs: &Observation) {
        self.frames += 1;
        if obs.occlusion.is_some() && !frame.truth.occluded {
            self.false_occlusions += 1;
        }
        for (i, loc) in detector.board().locations.iter().enumerate() {
            if !loc.relevant {
                continue;
            }
            let want = frame.truth.locations[i];
            let got = obs.locations[i].class;
            self.locations += 1;
            if want == got {
                self.correct += 1;
            }
            match (want, got) {
                (None, Some(_)) => self.false_pieces += 1,
                (Some(_), None) => self.missed += 1,
                (Some(a), Some(b)) if a != b => self.confused += 1,
                _ => {}
            }
            if want.is_none() {
                self.empty += 1;
            }
        }
    }
}

/// A random position reachable from the start: up to `max_moves` random legal moves.
pub fn random_position(game: &Game, rng: &mut ChaCha8Rng, max_moves: usize) -> Result<State> {
    let mut state = game.initial_state();
    let n = rng.gen_range(0..=max_moves);
    for _ in 0..n {
        if state.is_over() {
            break;
        }
        let moves = game
            .legal_moves(&state)
            .map_err(|e| VisionError::Board(format!("{}: {e}", game.file)))?;
        if moves.is_empty() {
            break;
        }
        let m = &moves[rng.gen_range(0..moves.len())];
        let mut next = state.clone();
        if game.apply(&mut next, m).is_err() {
            break;
        }
        state = next;
    }
    Ok(state)
}

/// Renders `n` frames of random reachable positions.
pub fn random_frames(
    game: &Game,
    renderer: &Renderer,
    opts: &RenderOptions,
    n: usize,
    seed: u64,
) -> Result<Vec<RenderedFrame>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let state = random_position(game, &mut rng, 60)?;
            renderer.render(&scene_from_state(game, &state), opts, rng.gen())
        })
        .collect()
}

/// Renders `frames` random positions of `game` with `opts` and scores the detector.
pub fn evaluate_game(
    game: &Game,
    board_cfg: &BoardConfig,
    opts: &RenderOptions,
    det_cfg: &DetectorConfig,
    frames: usize,
    seed: u64,
) -> Result<Accuracy> {
    let renderer = Renderer::from_game(game, board_cfg, CameraModel::default())?;
    let mut det = Detector::new(renderer.board().clone(), None, det_cfg.clone())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acc = Accuracy::default();
    for _ in 0..frames {
        let state = random_position(game, &mut rng, 60)?;
        let scene = scene_from_state(game, &state);
        let f = renderer.render(&scene, opts, rng.gen())?;
        let obs = det.detect(&f.image)?;
        acc.score(&det, &f, &obs);
    }
    Ok(acc)
}
