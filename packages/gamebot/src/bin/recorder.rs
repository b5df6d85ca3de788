//! `recorder` — records the game graph into rosbag2 (MCAP) bags and writes
//! every finished or abandoned game to the game database, as a ROS 2 node
//! (DDS). Run inside `scripts/netns-run` on machines that must not send
//! anything off the host.
//!
//! `recorder --ros-args -p dir:=bags -p split:=game -p db:=games.sqlite3 -p image_rate_hz:=2.0`
//!
//! Parameters: `dir` (where bags go; `none`: no bags), `split` (`game` or
//! `session`), `db` (database; `none`: no games), `source`, `arm`,
//! `image_rate_hz`, `compressed_images`, `flush_period_s`.

#![forbid(unsafe_code)]

use gamebot_record::recorder_node::{self, RecorderConfig};
use gamebot_ros::dds::DdsContext;
use gamebot_ros::{logging, RosArgs, Shutdown};

fn main() -> anyhow::Result<()> {
    let args = RosArgs::from_env()?;
    let options = args.node_options("recorder")?;
    logging::init(&options);
    let stop = Shutdown::new();
    let s = stop.clone();
    ctrlc::set_handler(move || s.request())?;
    let level = options.log_level.unwrap_or(gamebot_ros::LogLevel::Info);
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options)?;
    logging::attach_rosout(&node, level)?;
    let result =
        RecorderConfig::declare(&node).and_then(|config| recorder_node::run(&node, &stop, config));
    logging::detach_rosout();
    let summary = result?;
    tracing::info!(
        bags = summary.bags.len(),
        games = summary.games_written,
        messages = summary.messages,
        "recorder stopped"
    );
    Ok(())
}
