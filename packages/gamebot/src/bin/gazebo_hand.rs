//! The `gazebo_hand` ROS 2 node: the simulated person's moves in Gazebo
//! (`/sim/human_move` through Gazebo's set-pose service; see
//! `gamebot_nodes::gazebo_hand`).

#![forbid(unsafe_code)]

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::gazebo_hand()
}
