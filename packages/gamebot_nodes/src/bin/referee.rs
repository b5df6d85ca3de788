//! `referee` — the gamebot referee as a ROS 2 node (DDS). Run inside
//! `scripts/netns-run` on machines that must not send anything off the host.
//!
//! `referee --ros-args -p game_file:=games/connect4.game -p player_kinds:="[human, 'ai:mcts:time=1s']"`

use anyhow::Result;
use gamebot_ros::dds::DdsContext;
use gamebot_ros::{logging, RosArgs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn main() -> Result<()> {
    let args = RosArgs::from_env()?;
    let options = args.node_options("referee")?;
    logging::init(&options);
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    ctrlc::set_handler(move || s.store(true, Ordering::Relaxed))?;
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options)?;
    let once = args.user_args.iter().any(|a| a == "--once");
    gamebot_nodes::referee_node::run(&node, &stop, once)?;
    Ok(())
}
