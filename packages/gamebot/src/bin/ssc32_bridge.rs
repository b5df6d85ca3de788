//! The `ssc32_bridge` ROS 2 node (see `gamebot_nodes::ssc32_bridge`).

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::ssc32_bridge()
}
