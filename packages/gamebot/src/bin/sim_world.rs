//! The `sim_world` ROS 2 node (see `gamebot_nodes::sim_world`).

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::sim_world()
}
