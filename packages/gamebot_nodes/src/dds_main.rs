//! Entry points of the DDS executables (`referee`, `planner`): parse
//! `--ros-args`, start logging, join the DDS domain and run the node until
//! Ctrl-C. The executables themselves (in the `gamebot` package, so that
//! `ros2 run gamebot referee` finds them) only call these.

use crate::NodeError;
use gamebot_ros::dds::{DdsContext, DdsNode};
use gamebot_ros::{logging, RosArgs, Shutdown};

/// Runs the referee node. The user argument `--once` stops it when the game ends.
pub fn referee() -> anyhow::Result<()> {
    run_node("referee", |node, stop, args| {
        let once = args.user_args.iter().any(|a| a == "--once");
        crate::referee_node::run(node, stop, once)
    })
}

/// Runs the planner node (the `/planner/plan_move` action server).
pub fn planner() -> anyhow::Result<()> {
    run_node("planner", |node, stop, _| {
        crate::planner_node::run(node, stop)
    })
}

/// Runs the SSC-32U driver node (parameters `port`, `baud`, `arm`).
pub fn ssc32_bridge() -> anyhow::Result<()> {
    run_node("ssc32_bridge", |node, stop, _| {
        crate::ssc32_bridge::run(node, stop)
    })
}

/// Runs the arm controller node (parameters `arm`, `publish_tf`).
pub fn arm_controller() -> anyhow::Result<()> {
    run_node("arm_controller", |node, stop, _| {
        crate::arm_controller::run(node, stop)
    })
}

/// Runs the camera node (parameters `device`, `source`, `width`, `height`, `fps`, `calibration`).
pub fn camera() -> anyhow::Result<()> {
    run_node("camera", |node, stop, _| {
        crate::camera_node::run(node, stop)
    })
}

/// Runs the detector node (parameters `game_file`, `calibration`, `downscale`, `stable_frames`).
pub fn detector() -> anyhow::Result<()> {
    run_node("detector", |node, stop, _| {
        crate::detector_node::run(node, stop)
    })
}

/// Runs the simulated world (parameters `game_file`, `arm`, `board`, `camera`,
/// `link`, `speed`, `faults`, `seed`, `render_rate_hz`).
pub fn sim_world() -> anyhow::Result<()> {
    run_node("sim_world", |node, stop, _| {
        crate::sim_world::run(node, stop)
    })
}

/// Runs the simulated person's hand in Gazebo (parameters `game_file`,
/// `arm`, `board`, `camera`, `world`).
pub fn gazebo_hand() -> anyhow::Result<()> {
    run_node("gazebo_hand", |node, stop, _| {
        crate::gazebo_hand::run(node, stop)
    })
}

fn run_node(
    default_name: &str,
    body: impl FnOnce(&DdsNode, &Shutdown, &RosArgs) -> Result<(), NodeError>,
) -> anyhow::Result<()> {
    let args = RosArgs::from_env()?;
    let options = args.node_options(default_name)?;
    logging::init(&options);
    let stop = Shutdown::new();
    let s = stop.clone();
    ctrlc::set_handler(move || s.request())?;
    let level = options.log_level.unwrap_or(gamebot_ros::LogLevel::Info);
    let ctx = DdsContext::from_env()?;
    let node = ctx.node(options)?;
    // Every node executable is a full ROS 2 citizen: its log records go to /rosout too.
    logging::attach_rosout(&node, level)?;
    let result = body(&node, &stop, &args);
    logging::detach_rosout();
    result?;
    Ok(())
}
