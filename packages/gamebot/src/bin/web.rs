//! `web` — the gamebot web UI as a ROS 2 node (DDS): serves the page on
//! `addr` (default 127.0.0.1:8080) and prints its URL.
//!
//! `web --ros-args -p addr:=127.0.0.1:0`

#![forbid(unsafe_code)]

use gamebot_ros::dds::DdsContext;
use gamebot_ros::{logging, LogLevel, RosArgs, Shutdown};

fn main() -> anyhow::Result<()> {
    let args = RosArgs::from_env()?;
    let options = args.node_options("web")?;
    logging::init(&options);
    let stop = Shutdown::new();
    let s = stop.clone();
    ctrlc::set_handler(move || s.request())?;
    let level = options.log_level.unwrap_or(LogLevel::Info);
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options)?;
    logging::attach_rosout(&node, level)?;
    let result = gamebot_web::WebConfig::declare(&node)
        .map_err(anyhow::Error::from)
        .and_then(|cfg| gamebot_web::run(&node, &stop, cfg).map_err(anyhow::Error::from));
    logging::detach_rosout();
    result?;
    Ok(())
}
