//! `planner` — the gamebot planner as a ROS 2 node (DDS): the
//! `/planner/plan_move` action. Run inside `scripts/netns-run` here.
//!
//! `planner --ros-args -p strategy:=alphabeta:time=1s`

#![forbid(unsafe_code)]

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::planner()
}
