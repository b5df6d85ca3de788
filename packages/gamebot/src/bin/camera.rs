//! `camera` — publishes `/camera/image_raw` and `/camera/camera_info` from a
//! V4L2 camera, a video file or image files (DDS). Run inside
//! `scripts/netns-run` on machines that must not send anything off the host.
//!
//! `camera --ros-args -p device:=/dev/video0 -p fps:=15.0`
//! `camera --ros-args -p source:=frames/ -p fps:=5.0`

#![forbid(unsafe_code)]

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::camera()
}
