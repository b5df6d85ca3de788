//! One module per `gamebot` subcommand.

pub mod bench;
pub mod bench_ai;
pub mod bench_graph;
pub mod bench_ik;
pub mod bench_rules;
pub mod bench_ssc32;
pub mod bench_vision;
pub mod calibrate;
pub mod check;
pub mod detect;
pub mod gdl;
pub mod ik;
pub mod legal;
pub mod play;
pub mod play_web;
pub mod reach;
pub mod render;
pub mod selfplay;
pub mod solve;
pub mod ssc32;
pub mod state;
pub mod tournament;
