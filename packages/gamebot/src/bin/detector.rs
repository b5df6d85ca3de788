//! `detector` — turns camera images into `/board/observation` for the game
//! the referee plays (DDS). Run inside `scripts/netns-run` on machines that
//! must not send anything off the host.
//!
//! `detector --ros-args -p calibration:=config/camera/sim.yaml`

#![forbid(unsafe_code)]

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::detector()
}
