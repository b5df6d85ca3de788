//! # gamebot_nodes
//!
//! The logic of the gamebot nodes, written once: each node is a pure "core"
//! (no transport; unit-testable) plus an adapter that connects it to the
//! `Bus` of `gamebot_ros`.
//!
//! - [`referee_core`]: the authoritative game — whose turn, validation of
//!   submitted moves, physical actions of each move, game over.
//! - [`planner_core`]: stateless move planning: rebuild the position from the
//!   game file and move history, run a strategy, report progress.

pub mod planner_core;
pub mod referee_core;
