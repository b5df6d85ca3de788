//! `gamebot replay BAG [--publish --rate R [--ros]]` — prints the game in a
//! recorded bag (moves, who made them, events, timings); with `--publish`
//! plays the bag back onto the bus (in-process, or over DDS with `--ros`)
//! with `/clock`.

use gamebot_record::replay::{describe, publish, read_bag};
use gamebot_ros::Shutdown;

#[derive(clap::Args)]
pub struct Args {
    /// The bag directory (or its .mcap file).
    bag: std::path::PathBuf,
    /// Play the messages back onto the bus.
    #[arg(long)]
    publish: bool,
    /// Playback speed (2 = twice as fast).
    #[arg(long, default_value_t = 1.0, requires = "publish")]
    rate: f64,
    /// Publish over ROS 2 (DDS) instead of the in-process bus.
    #[arg(long, requires = "publish")]
    ros: bool,
}

pub fn run(a: Args) -> anyhow::Result<i32> {
    let bag = read_bag(&a.bag)?;
    print!("{}", describe(&bag)?);
    if !a.publish {
        return Ok(0);
    }
    let stop = Shutdown::new();
    let s = stop.clone();
    ctrlc::set_handler(move || s.request())?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!(
        "publishing {} messages at {}x{}",
        bag.messages.len(),
        a.rate,
        if a.ros { " over DDS" } else { "" }
    ));
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let summary = if a.ros {
        let ctx = gamebot_ros::dds::DdsContext::from_env()?;
        let node = ctx.node(gamebot_ros::NodeOptions::new("gamebot_replay"))?;
        publish(&node, &bag, a.rate, &stop)?
    } else {
        let bus = gamebot_ros::inproc::InProcBus::new();
        let node = bus.node(gamebot_ros::NodeOptions::new("gamebot_replay"))?;
        publish(&node, &bag, a.rate, &stop)?
    };
    bar.finish_and_clear();
    println!(
        "published {} messages and {} /clock ticks",
        summary.messages, summary.clock_ticks
    );
    Ok(0)
}
