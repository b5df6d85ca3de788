//! `referee` — the gamebot referee as a ROS 2 node (DDS). Run inside
//! `scripts/netns-run` on machines that must not send anything off the host.
//!
//! `referee --ros-args -p game_file:=games/connect4.game -p player_kinds:="[human, 'ai:mcts:time=1s']"`

#![forbid(unsafe_code)]

fn main() -> anyhow::Result<()> {
    gamebot_nodes::dds_main::referee()
}
