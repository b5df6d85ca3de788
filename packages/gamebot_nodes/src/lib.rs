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
//! - [`bridge_core`] / [`ssc32_bridge`]: the SSC-32U driver node serving the
//!   standard `FollowJointTrajectory` and `GripperCommand` actions.
//! - [`arm_core`] / [`arm_controller`]: `/arm/execute` as pick-and-place steps.
//! - [`board_registration`]: board-to-arm registration through the arm
//!   controller's manual-control services (`gamebot calibrate board-to-arm`).
//! - [`sim_world`]: the simulated table (`gamebot_sim`) as a node: camera,
//!   `/clock`, the emulated SSC-32U, the simulated person's hand.
//! - [`gazebo_hand_core`] / [`gazebo_hand`]: the simulated person's moves in
//!   Gazebo — `/sim/human_move` carried out with Gazebo's set-pose service.
//! - [`sim_robot`] / [`sim_game`]: the whole simulated robot in one process,
//!   and one game of it judged by the world (`gamebot play --sim`).

#![forbid(unsafe_code)]

pub mod arm_controller;
pub mod arm_core;
pub mod board_registration;
pub mod bridge_core;
pub mod camera_core;
pub mod camera_node;
pub mod dds_main;
pub mod detector_core;
pub mod detector_node;
pub mod flip_station;
pub mod gazebo_hand;
pub mod gazebo_hand_core;
pub mod move_inference;
pub mod move_parts;
pub mod node_clock;
pub mod node_group;
pub mod planner_core;
pub mod planner_node;
pub mod referee_core;
pub mod referee_eyes;
pub mod referee_markers;
pub mod referee_node;
pub mod sim_execute;
pub mod sim_game;
pub mod sim_robot;
pub mod sim_world;
pub mod ssc32_bridge;
pub mod stack_order;

/// Errors of running a node.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The transport failed (names the topic, service or action).
    #[error(transparent)]
    Bus(#[from] gamebot_ros::BusError),
    /// A parameter is missing a valid value (names node, parameter and value).
    #[error(transparent)]
    Param(#[from] gamebot_ros::ParamError),
    /// The referee could not load or play its game.
    #[error(transparent)]
    Referee(#[from] referee_core::RefereeError),
    /// A configuration file (arm, board, game) could not be used.
    #[error("{0}")]
    Config(String),
}
