//! `gamebot bench KIND` — the project's benchmarks. Each kind lives in its own module.

use clap::Subcommand;

/// The benchmark families.
#[derive(Subcommand)]
pub enum Kind {
    /// Rule engine: random playouts/s, positions/s, branching factor per game.
    Rules(super::bench_rules::Args),
    /// GDL reasoner: the same measures for GDL games (same as `gamebot gdl bench`).
    Gdl(super::gdl::BenchArgs),
    /// SSC-32U: command round-trip latency over a pty, emulator timing accuracy.
    Ssc32(super::bench_ssc32::Args),
    /// AI: alpha-beta nodes/s, MCTS playouts/s on 1 and N threads with the speed-up, cancel latency.
    Ai(super::bench_ai::Args),
    /// Vision: detector frames/s at 640x480 on one core, accuracy on rendered positions.
    Vision(super::bench_vision::Args),
    /// Kinematics: IK solves/s and success rate per arm and solver over a 30x30 cm board.
    Ik(super::bench_ik::Args),
    /// Node runtime: idle wake-ups of the referee and planner, SubmitMove round trip, cancel latency.
    Graph(super::bench_graph::Args),
    /// Eyes: detector node frames/s and image -> observation latency; person's touch -> move played.
    Eyes(super::bench_eyes::Args),
    /// Arm in simulation: sim seconds per transfer (adjacent, across, supply to far corner), planning time, /joint_states rate.
    Arm(super::bench_arm::Args),
}

pub fn run(kind: Kind) -> anyhow::Result<i32> {
    match kind {
        Kind::Rules(a) => super::bench_rules::run(a),
        Kind::Gdl(a) => super::gdl::run(super::gdl::Action::Bench(a)),
        Kind::Ssc32(a) => super::bench_ssc32::run(a),
        Kind::Ai(a) => super::bench_ai::run(a),
        Kind::Vision(a) => super::bench_vision::run(a),
        Kind::Ik(a) => super::bench_ik::run(a),
        Kind::Graph(a) => super::bench_graph::run(a),
        Kind::Eyes(a) => super::bench_eyes::run(a),
        Kind::Arm(a) => super::bench_arm::run(a),
    }
}
