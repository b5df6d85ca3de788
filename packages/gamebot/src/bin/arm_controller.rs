//! The `arm_controller` ROS 2 node (see `gamebot_nodes::arm_controller`).

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::arm_controller()
}
