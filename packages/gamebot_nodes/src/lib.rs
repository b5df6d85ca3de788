//! # gamebot_nodes
//!
//! The logic of the gamebot nodes, written once: each node is a pure "core"
//! (no transport; unit-testable) plus an adapter that runs it on any
//! [`gamebot_ros::Bus`] — the in-process bus (`gamebot play`, graph tests) or
//! DDS (the `referee` and `planner` executables, real ROS 2 nodes).
//!
//! - [`referee_core`] / [`referee_node`]: the authoritative game — whose turn,
//!   validation of submitted moves, physical actions of each move, game over;
//!   publishes `/game/state` (transient-local) and `/game/events`, serves
//!   `/referee/submit_move` and `/referee/new_game`, asks `/planner/plan_move`.
//! - [`planner_core`] / [`planner_node`]: stateless move planning as the
//!   `/planner/plan_move` action, with feedback and cancel.

#![forbid(unsafe_code)]

pub mod dds_main;
pub mod planner_core;
pub mod planner_node;
pub mod referee_core;
pub mod referee_node;

/// Topic, service and action names of the graph (absolute, remappable with `-r`),
/// with their QoS: the ones of [`gamebot_ros::graph`], which `docs/ARCHITECTURE.md`
/// tabulates, so nodes and docs cannot drift apart.
pub mod names {
    pub use gamebot_ros::graph::{
        GAME_EVENTS, GAME_EVENTS_QOS, GAME_STATE, GAME_STATE_QOS, NEW_GAME, PLAN_MOVE, SUBMIT_MOVE,
    };
}

/// Errors of running a node.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    #[error(transparent)]
    Bus(#[from] gamebot_ros::BusError),
    #[error(transparent)]
    Param(#[from] gamebot_ros::ParamError),
    #[error(transparent)]
    Referee(#[from] referee_core::RefereeError),
}
