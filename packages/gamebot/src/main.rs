//! `gamebot` — the command line of the gamebot project.
//!
//! Each subcommand lives in its own module under `cmd/`; this file only
//! declares them and dispatches. Exit codes: 0 success, 1 a reported problem
//! (lint errors, unreachable locations), 2 bad input (illegal move, bad target).

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};

#[macro_use]
mod out;
mod board_text;
mod cmd;
mod common;
mod limits;

#[derive(Parser)]
#[command(
    name = "gamebot",
    version,
    about = "A robot that plays board games: rules, AI, arm, vision, ROS 2"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lint game files; prints `file:line:col: message` per problem.
    Check(cmd::check::Args),
    /// Print the legal moves after a sequence of moves.
    Legal(cmd::legal::Args),
    /// Print the state after a sequence of moves as JSON.
    State(cmd::state::Args),
    /// Random-vs-random games with statistics.
    Selfplay(cmd::selfplay::Args),
    /// Play a game in the terminal.
    Play(cmd::play::Args),
    /// Solve a one-player puzzle with bfs, dfs or astar.
    Solve(cmd::solve::Args),
    /// Round-robin tournament between strategies, with Elo ratings.
    Tournament(cmd::tournament::Args),
    /// Benchmarks (rules, ...).
    #[command(subcommand)]
    Bench(cmd::bench::Kind),
    /// SSC-32U servo controller: emulator on a pty, probe, send a command.
    #[command(subcommand)]
    Ssc32(cmd::ssc32::Action),
    /// Detect the pieces in a camera image (or a live camera) and print the observation.
    Detect(cmd::detect::Args),
    /// Render a synthetic camera frame of a position.
    Render(cmd::render::Args),
    /// Calibrate the camera against the board (ArUco markers or listed points).
    Calibrate(cmd::calibrate::Args),
    /// Inverse kinematics for one target (metres, arm base frame) with the gripper vertical.
    Ik(cmd::ik::Args),
    /// Check that an arm reaches every location of a game; optional PNG map.
    Reach(cmd::reach::Args),
    /// The GDL front-end: check, legal, selfplay, play, bench, GGP player.
    #[command(subcommand)]
    Gdl(cmd::gdl::Action),
    /// The simulated robot: carry out moves physically in the simulated world.
    #[command(subcommand)]
    Sim(cmd::sim::Action),
    /// Live: what the detector sees and which move the referee would infer (camera or simulation).
    Watch(cmd::watch::Args),
    /// Print the game in a recorded bag; --publish plays it back onto the bus.
    Replay(cmd::replay::Args),
    /// Statistics over the game database: per game and per player, Elo.
    Stats(cmd::stats::Args),
    /// Gazebo (Harmonic): write the SDF world of a game.
    #[command(subcommand)]
    Gazebo(cmd::gazebo::Action),
}

fn main() {
    let cli = Cli::parse();
    init_tracing(matches!(cli.command, Command::Play(_)));
    let result = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Legal(a) => cmd::legal::run(a),
        Command::State(a) => cmd::state::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Bench(k) => cmd::bench::run(k),
        Command::Ssc32(a) => cmd::ssc32::run(a),
        Command::Detect(a) => cmd::detect::run(a),
        Command::Render(a) => cmd::render::run(a),
        Command::Calibrate(a) => cmd::calibrate::run(a),
        Command::Ik(a) => cmd::ik::run(a),
        Command::Reach(a) => cmd::reach::run(a),
        Command::Gdl(a) => cmd::gdl::run(a),
        Command::Sim(a) => cmd::sim::run(a),
        Command::Watch(a) => cmd::watch::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::Gazebo(a) => cmd::gazebo::run(a),
    };
    // Whatever is still buffered must reach the reader; a reader that went
    // away (closed pipe) is a quiet success, not a panic or a signal.
    let result = result.and_then(|code| {
        use std::io::Write as _;
        std::io::stdout().flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) if out::is_broken_pipe(&e) => std::process::exit(0),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Logs to stderr, filtered by `RUST_LOG` (default `warn`). For `play`, also
/// the `/rosout` layer at info and above: `play --sim --record` attaches it
/// to the in-process bus, so the bag holds the robot's log as a ROS 2
/// system's would (it does nothing while no bus is attached).
fn init_tracing(rosout: bool) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let env = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(env);
    let rosout = rosout.then(|| {
        gamebot_ros::logging::RosoutLayer.with_filter(tracing_subscriber::filter::LevelFilter::INFO)
    });
    tracing_subscriber::registry()
        .with(stderr)
        .with(rosout)
        .init();
}
