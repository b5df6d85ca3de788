//! One module per `gamebot` subcommand.

pub mod bench;
pub mod bench_rules;
pub mod check;
pub mod legal;
pub mod play;
pub mod selfplay;
pub mod state;
