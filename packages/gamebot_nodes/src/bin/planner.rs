//! `planner` — the gamebot planner as a ROS 2 node (DDS): the
//! `/planner/plan_move` action. Run inside `scripts/netns-run` here.
//!
//! `planner --ros-args -p strategy:=alphabeta:time=1s`

use anyhow::Result;
use gamebot_ros::dds::DdsContext;
use gamebot_ros::{logging, RosArgs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn main() -> Result<()> {
    let args = RosArgs::from_env()?;
    let options = args.node_options("planner")?;
    logging::init(&options);
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    ctrlc::set_handler(move || s.store(true, Ordering::Relaxed))?;
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options)?;
    gamebot_nodes::planner_node::run(&node, &stop)?;
    Ok(())
}
