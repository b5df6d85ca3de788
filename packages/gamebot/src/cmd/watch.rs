//! `gamebot watch --game GAME [--camera DEVICE | --source PATH]` or
//! `gamebot watch --sim GAME` — prints, live, what the detector sees (every
//! time the stable view changes, and when a hand or the arm covers the
//! board) and which move the referee would infer from it. The tool a person
//! uses to set up lighting and calibration: make a move on the board and
//! see whether it is read right.
//!
//! With `--sim`, the simulated world (`gamebot_sim`) plays the board and a
//! simulated person makes a random legal move every few seconds.
//! The position followed starts at the game's start (or after `--moves`)
//! and advances with every move inferred without doubt.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use gamebot_nodes::camera_core::{CameraCore, CameraSpec, Tick};
use gamebot_nodes::detector_core::{DetectorCore, DetectorSettings};
use gamebot_nodes::move_inference::{class_name, infer, Inference, InferenceConfig};
use gamebot_rules::{physical_actions, Game, PhysicalAction, State};
use gamebot_sim::{HandAction, HandTarget, World, WorldConfig};
use gamebot_vision::filter::FilterStatus;
use gamebot_vision::source::CaptureSettings;
use rand::{Rng, SeedableRng};

use crate::common::{load_game, move_list};

#[derive(clap::Args)]
pub struct Args {
    /// Game file to watch with a camera.
    #[arg(long, required_unless_present = "sim")]
    pub game: Option<String>,
    /// Camera: V4L2 index (0) or device path (/dev/video2) or video file.
    #[arg(long, conflicts_with = "sim")]
    pub camera: Option<String>,
    /// Replay an image file or a folder of images instead of a camera.
    #[arg(long, conflicts_with_all = ["sim", "camera"])]
    pub source: Option<PathBuf>,
    /// Watch the simulated world of this game, with a simulated person moving.
    #[arg(long)]
    pub sim: Option<String>,
    /// Camera calibration (config/camera/*.yaml); `--sim` uses the simulation's.
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Moves already played (whitespace separated `element:from->to`).
    #[arg(long)]
    pub moves: Option<String>,
    /// Consecutive agreeing frames for a stable view.
    #[arg(long, default_value_t = 3)]
    pub stable: usize,
    /// Stop after this many frames (0 = until Ctrl-C).
    #[arg(long, default_value_t = 0)]
    pub frames: u64,
    /// Frames per second.
    #[arg(long, default_value_t = 10.0)]
    pub fps: f64,
    /// `--sim`: seed of the simulated person's moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A simulated table and the person using it.
struct Sim {
    world: World,
    rng: rand_chacha::ChaCha8Rng,
    /// The position the person's hand has made (ahead of what is inferred).
    truth: State,
    next_move_at: Duration,
}

impl Sim {
    /// Steps the world one frame; starts a random legal move of the person when due.
    fn frame(&mut self, game: &Game) -> Result<gamebot_vision::Mat> {
        let period = self.world.frame_period();
        self.world.step(period)?;
        if !self.world.hand_busy()
            && self.world.time() >= self.next_move_at
            && !self.truth.is_over()
        {
            let legal = game.legal_moves(&self.truth)?;
            if !legal.is_empty() {
                let mv = &legal[self.rng.gen_range(0..legal.len())];
                let mut next = self.truth.clone();
                game.apply(&mut next, mv)?;
                let acts: Vec<HandAction> = physical_actions(game, &self.truth, &next)?
                    .into_iter()
                    .map(|a| match a {
                        PhysicalAction::Transfer { element, from, to } => HandAction::Transfer {
                            element: game.elements[element as usize].name.clone(),
                            from: game.locations[from as usize].name.clone(),
                            to: HandTarget::Location(game.locations[to as usize].name.clone()),
                        },
                        PhysicalAction::Flip { element, .. } => HandAction::Flip {
                            element: game.elements[element as usize].name.clone(),
                        },
                    })
                    .collect();
                println!("(the simulated person plays {})", game.move_text(mv));
                let d = self.world.human_move(&acts)?;
                self.truth = next;
                self.next_move_at = self.world.time() + d + Duration::from_secs(3);
            }
        }
        Ok(self.world.render()?.image)
    }
}

pub fn run(a: Args) -> Result<i32> {
    let file = a
        .sim
        .clone()
        .or(a.game.clone())
        .ok_or_else(|| anyhow!("give --game (with --camera/--source) or --sim GAME"))?;
    let game = load_game(&file)?;
    let mut position = game.initial_state();
    for (i, m) in move_list(a.moves.as_deref(), None)?.iter().enumerate() {
        let mv = game
            .find_move(&position, m)
            .map_err(|e| anyhow!("--moves, move {}: {e}", i + 1))?;
        game.apply(&mut position, &mv)?;
    }
    let mut sim = match &a.sim {
        Some(_) => Some(Sim {
            world: World::new(
                &game,
                &position,
                WorldConfig {
                    seed: a.seed,
                    // The arm folded out of the camera's view.
                    rest_pose: Some(vec![0.0, 0.6, 1.3, 0.0, 0.0]),
                    ..Default::default()
                },
            )?,
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(a.seed),
            truth: position.clone(),
            next_move_at: Duration::from_secs(2),
        }),
        None => None,
    };
    let calibration = match (&a.calibration, &sim) {
        (Some(c), _) => Some(c.clone()),
        (None, Some(s)) => Some(s.world.config().camera.clone()),
        (None, None) => None,
    };
    let mut det = DetectorCore::new(
        &file,
        DetectorSettings {
            calibration,
            stable_frames: a.stable,
            ..DetectorSettings::default()
        },
    )?;
    let mut camera = match (&a.camera, &a.source, &sim) {
        (_, _, Some(_)) => None,
        (cam, src, None) => Some(CameraCore::new(CameraSpec::from_params(
            cam.as_deref().unwrap_or("0"),
            &src.as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            CaptureSettings {
                fps: a.fps,
                ..CaptureSettings::default()
            },
        ))),
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    {
        let s = stop.clone();
        ctrlc::set_handler(move || s.store(true, std::sync::atomic::Ordering::SeqCst))?;
    }
    let period = Duration::from_secs_f64(1.0 / a.fps.clamp(0.1, 240.0));
    let cfg = InferenceConfig::default();
    let board = det.board().clone();
    let mut last_shown: Option<Vec<Option<usize>>> = None;
    let mut covered = false;
    let mut frames = 0u64;
    let mut next_at = Instant::now();
    println!("watching {} — Ctrl-C to stop", game.name);
    while !stop.load(std::sync::atomic::Ordering::SeqCst) && (a.frames == 0 || frames < a.frames) {
        // Display pacing for a person watching (a CLI, not a node).
        let now = Instant::now();
        if now < next_at {
            std::thread::sleep(next_at - now);
        }
        next_at += period;
        let frame = match (&mut sim, &mut camera) {
            (Some(s), _) => s.frame(&game)?,
            (None, Some(c)) => match c.next(Instant::now()) {
                Tick::Frame(f) => f,
                Tick::Lost { reason, retry_at } => {
                    println!(
                        "camera lost: {reason}; retrying in {:?}",
                        retry_at.saturating_duration_since(Instant::now())
                    );
                    next_at = retry_at;
                    continue;
                }
                Tick::Reopened => {
                    println!("camera is back");
                    continue;
                }
                Tick::Wait(at) => {
                    next_at = at;
                    continue;
                }
            },
            (None, None) => unreachable!("a camera or the simulation"),
        };
        frames += 1;
        let seen = det.process(&frame, "watch")?;
        match &seen.status {
            FilterStatus::Occluded(_) => {
                if !covered {
                    println!("covered: {}", seen.occlusion);
                    covered = true;
                }
                continue;
            }
            FilterStatus::Settling { .. } => continue,
            FilterStatus::Stable { .. } => covered = false,
        }
        if last_shown.as_ref() == Some(&seen.classes) {
            continue;
        }
        last_shown = Some(seen.classes.clone());
        let occupied: Vec<String> = board
            .locations
            .iter()
            .enumerate()
            .filter(|(i, l)| l.relevant && seen.classes[*i].is_some())
            .map(|(i, l)| format!("{}={}", l.name, class_name(&board, seen.classes[i])))
            .collect();
        println!(
            "frame {frames}: stable view: {}",
            if occupied.is_empty() {
                "empty board".into()
            } else {
                occupied.join(" ")
            }
        );
        if !seen.unassigned.is_empty() {
            for p in &seen.unassigned {
                println!(
                    "  {} on no location at ({:.1}, {:.1}) cm",
                    p.element_type, p.table_cm[0], p.table_cm[1]
                );
            }
        }
        match infer(&game, &board, &position, &seen.classes, &cfg)? {
            Inference::Unchanged => println!(
                "  = the position followed (player {} to move)",
                position.player()
            ),
            Inference::Unique(c) => {
                println!(
                    "  the referee would play: {}{}",
                    c.text(),
                    if c.complete() {
                        ""
                    } else {
                        " (turn not finished)"
                    }
                );
                position = c.representative().state.clone();
            }
            Inference::Ambiguous(cs) => println!(
                "  ambiguous: {} — the referee would ask to finish the move",
                cs.iter().map(|c| c.text()).collect::<Vec<_>>().join(" | ")
            ),
            Inference::Illegal { changes } => println!(
                "  not a legal move of player {}: {}",
                position.player(),
                changes
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    Ok(0)
}
