//! `gamebot bench eyes` — the detector node and the referee's camera loop:
//!
//! 1. detector node on the in-process bus, OpenCV on one thread: 640×480
//!    frames of the simulated world published one at a time; latency from
//!    publishing the image to receiving its `/board/observation` (wall), and
//!    frames/s of that sequential loop;
//! 2. the person's move to the referee: the simulated person makes random
//!    legal moves (`camera` players), frames published in lockstep (each
//!    frame's observation awaited before the world steps on); sim time from
//!    the hand's last touch of a piece to the referee's state showing the move;
//! 3. the camera's position error: every piece an observation reports while
//!    nothing is carried, against the world's nearest piece of its type
//!    (horizontal distance, mm) — what a re-seat threshold must stay above.

use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use gamebot_interfaces::msg::GameState;
use gamebot_interfaces::std_msgs::Header;
use gamebot_nodes::detector_node::{self, mat_to_image};
use gamebot_nodes::referee_node;
use gamebot_ros::inproc::InProcBus;
use gamebot_ros::{graph, Bus, NodeOptions, ParamValue, Shutdown};
use gamebot_rules::{physical_actions, PhysicalAction};
use gamebot_sim::{HandAction, HandTarget, World, WorldConfig};
use rand::{Rng, SeedableRng};

use crate::common::load_game;

#[derive(clap::Args)]
pub struct Args {
    /// Game file.
    #[arg(long, default_value = "games/tictactoe.game")]
    pub game: String,
    /// Frames for the detector latency measurement.
    #[arg(long, default_value_t = 200)]
    pub frames: usize,
    /// Person's moves for the move-latency measurement.
    #[arg(long, default_value_t = 20)]
    pub moves: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Horizontal distances (mm) from each piece an observation reports to the
/// world's nearest resting piece of the same type, with whether the piece
/// was reported on a relevant location (the board, not a supply).
fn position_errors(
    game: &gamebot_rules::Game,
    o: &gamebot_interfaces::msg::BoardObservation,
    world: &[gamebot_sim::PieceInfo],
) -> Vec<(bool, f64)> {
    o.pieces
        .iter()
        .chain(&o.unassigned)
        .filter_map(|p| {
            let relevant = game
                .location_by_name(&p.location)
                .is_some_and(|l| game.is_relevant(l));
            world
                .iter()
                .filter(|w| !w.held && w.element_type == p.element_type)
                .map(|w| {
                    1000.0 * (w.position[0] - p.position.x).hypot(w.position[1] - p.position.y)
                })
                .min_by(f64::total_cmp)
                .map(|d| (relevant, d))
        })
        .collect()
}

fn stats(v: &[f64]) -> (f64, f64, f64, f64) {
    let n = v.len().max(1) as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (mean, sd, min, max)
}

pub fn run(a: Args) -> Result<i32> {
    gamebot_vision::set_opencv_threads(1)?;
    let game = load_game(&a.game)?;
    let mut truth = game.initial_state();
    let mut world = World::new(
        &game,
        &truth,
        WorldConfig {
            seed: a.seed,
            rest_pose: Some(vec![0.0, 0.6, 1.3, 0.0, 0.0]),
            ..Default::default()
        },
    )?;
    let calibration = world.config().camera.display().to_string();
    let bus = InProcBus::new();
    let me = bus.node(NodeOptions::new("bench"))?;
    let images = me.publisher_on(&graph::CAMERA_IMAGE)?;
    let obs = me.subscription_on(&graph::BOARD_OBSERVATION)?;
    let states = me.subscription_on(&graph::GAME_STATE)?;
    let detector = bus.node(
        NodeOptions::new("detector")
            .param("game_file", ParamValue::String(a.game.clone()))
            .param("calibration", ParamValue::String(calibration))
            .param("annotate_every", ParamValue::Integer(0)),
    )?;
    let referee = bus.node(
        NodeOptions::new("referee")
            .param("game_file", ParamValue::String(a.game.clone()))
            .param(
                "player_kinds",
                ParamValue::StringArray(vec!["camera".into(); game.player_count()]),
            )
            .param("camera", ParamValue::Bool(true)),
    )?;
    let stop = Shutdown::new();
    let result = std::thread::scope(|s| -> Result<()> {
        let st1 = stop.clone();
        s.spawn(move || detector_node::run(&detector, &st1));
        let st2 = stop.clone();
        s.spawn(move || referee_node::run(&referee, &st2, false));
        let out = (|| -> Result<()> {
            // One frame through the detector; returns the wall latency.
            // (With nothing carried, the observation's position errors go to `errors`.)
            let mut errors: Vec<(bool, f64)> = Vec::new();
            let mut send = |world: &mut World| -> Result<f64> {
                world.step(world.frame_period())?;
                let f = world.render()?;
                let img = mat_to_image(&f.image, Header::default()).map_err(|e| anyhow!(e))?;
                let t = Instant::now();
                images.publish(&img)?;
                let o = obs
                    .recv_timeout(Duration::from_secs(10))
                    .map_err(|_| anyhow!("no observation within 10 s"))?;
                let latency = t.elapsed().as_secs_f64();
                let pieces = world.pieces();
                if !world.hand_busy() && pieces.iter().all(|p| !p.held) {
                    errors.extend(position_errors(&game, &o, &pieces));
                }
                Ok(latency)
            };
            // Warm up, then measure.
            for _ in 0..5 {
                send(&mut world)?;
            }
            let t0 = Instant::now();
            let mut lat = Vec::new();
            for _ in 0..a.frames {
                lat.push(send(&mut world)? * 1000.0);
            }
            let total = t0.elapsed().as_secs_f64();
            let (m, sd, lo, hi) = stats(&lat);
            println!(
                "detector node, 640x480, 1 OpenCV thread: {} frames, {:.1} frames/s; image -> observation {m:.1} ms (sd {sd:.1}, min {lo:.1}, max {hi:.1})",
                a.frames,
                a.frames as f64 / total
            );
            // The person's moves.
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(a.seed);
            let mut plies = 0usize;
            let mut delays = Vec::new();
            let mut last_state: Option<GameState> = None;
            while delays.len() < a.moves {
                if truth.is_over() {
                    break;
                }
                let legal = game.legal_moves(&truth)?;
                let mv = &legal[rng.gen_range(0..legal.len())];
                let mut next = truth.clone();
                game.apply(&mut next, mv)?;
                let acts: Vec<HandAction> = physical_actions(&game, &truth, &next)?
                    .into_iter()
                    .map(|x| match x {
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
                world.human_move(&acts)?;
                let mut last_touch = world.time();
                while world.hand_busy() {
                    send(&mut world)?;
                    if world.pieces().iter().any(|p| p.held) {
                        last_touch = world.time();
                    }
                }
                truth = next;
                plies += 1;
                let mut played_at = None;
                for _ in 0..100 {
                    send(&mut world)?;
                    // The referee answers an observation within its own loop: give it a moment.
                    if let Ok(s) = states.recv_timeout(Duration::from_millis(50)) {
                        last_state = Some(s);
                    }
                    for s in states.drain() {
                        last_state = Some(s);
                    }
                    if last_state
                        .as_ref()
                        .is_some_and(|s| s.move_history.len() >= plies)
                    {
                        played_at = Some(world.time());
                        break;
                    }
                }
                let at = played_at.ok_or_else(|| anyhow!("move {plies} was not played"))?;
                delays.push((at - last_touch).as_secs_f64());
            }
            let (m, sd, lo, hi) = stats(&delays);
            println!(
                "person's last touch -> move played (sim time, 10 frames/s): {} moves, mean {m:.2} s (sd {sd:.2}, min {lo:.2}, max {hi:.2})",
                delays.len()
            );
            for (what, board_only) in [("all pieces", false), ("on the board", true)] {
                let mut e: Vec<f64> = errors
                    .iter()
                    .filter(|(r, _)| *r || !board_only)
                    .map(|(_, d)| *d)
                    .collect();
                e.sort_by(f64::total_cmp);
                let p = |q: f64| {
                    e.get(((e.len() as f64 - 1.0) * q).round() as usize)
                        .copied()
                        .unwrap_or(f64::NAN)
                };
                let (m, sd, _, hi) = stats(&e);
                println!(
                    "camera position error, {what} (seen piece vs the world's nearest of its type, resting): {} readings, mean {m:.2} mm (sd {sd:.2}), median {:.2}, p95 {:.2}, p99 {:.2}, max {hi:.2}",
                    e.len(),
                    p(0.5),
                    p(0.95),
                    p(0.99)
                );
            }
            Ok(())
        })();
        stop.request();
        out
    });
    result?;
    Ok(0)
}
