//! The simulated robot in one process: the nodes of the graph on one
//! in-process bus, each on its own thread, sharing one simulation clock.
//!
//! [`SimRobot::start`] builds the world ([`crate::sim_world`]) and starts the
//! hardware side: `sim_world`, `ssc32_bridge` on the emulated SSC-32U's pty
//! (the world's clock, so simulated motion keeps simulated time) and
//! `arm_controller`. Whoever embeds it adds the rest with
//! [`SimRobot::spawn`] (`gamebot play --sim`: detector, referee, planner, web,
//! recorder; `gamebot sim execute`: nothing — it sends `ExecuteMove` goals
//! itself). Nothing here touches the network.
//!
//! The nodes run in a [`NodeGroup`]: stopping ([`SimRobot::stop`], or
//! dropping it) requests the shared [`Shutdown`] and joins every thread
//! (the observers last); the world's pty and its temporary symlink
//! directory go with the world.

use crate::node_group::{start_arm, NodeGroup};
use crate::sim_world::{self, WorldProbe};
use crate::ssc32_bridge::{self, BridgeConfig};
use crate::NodeError;
use gamebot_kinematics::Arm;
use gamebot_ros::inproc::{InProcBus, InProcNode};
use gamebot_ros::{NodeOptions, Shutdown};
use gamebot_rules::Game;
use gamebot_sim::WorldConfig;
use gamebot_ssc32::Clock;
use std::path::PathBuf;
use std::sync::Arc;

/// The running simulated robot.
pub struct SimRobot {
    nodes: NodeGroup,
    probe: WorldProbe,
    clock: Clock,
    serial: PathBuf,
    game: Arc<Game>,
    places: Vec<(String, Option<[f64; 3]>)>,
    arm: String,
    flip_station: Option<gamebot_kinematics::FlipStation>,
}

impl SimRobot {
    /// Builds the world for `game_file` and starts `sim_world`,
    /// `ssc32_bridge` and `arm_controller` on a new in-process bus.
    pub fn start(game_file: &str, world: WorldConfig) -> Result<SimRobot, NodeError> {
        let arm_name = world.arm.clone();
        let (game, world) = sim_world::build_world(game_file, world)?;
        let places = game
            .locations
            .iter()
            .map(|l| (l.name.clone(), world.location_position_by_name(&l.name)))
            .collect();
        let flip_station = world.board().flip_station;
        let clock = world.clock().clone();
        let serial = world.serial_path().to_path_buf();
        let baud = world.baud();
        let mut robot = SimRobot {
            nodes: NodeGroup::new(),
            probe: WorldProbe::new(),
            clock: clock.clone(),
            serial: serial.clone(),
            game: game.clone(),
            places,
            arm: arm_name.clone(),
            flip_station,
        };
        let probe = robot.probe.clone();
        let file = game_file.to_string();
        robot.spawn(NodeOptions::new("sim_world"), move |node, stop| {
            sim_world::run_with(node, stop, world, game, &file, probe)
        })?;
        let mut config = BridgeConfig::new(serial.to_string_lossy().to_string());
        config.clock = clock;
        config.baud = baud;
        // The emulator runs on a thread of this process (see `read_timeout`).
        config.read_timeout = std::time::Duration::from_secs(5);
        start_arm(&mut robot.nodes, &arm_name, config, true)?;
        Ok(robot)
    }

    /// Starts another node on the robot's bus: `body` runs on its own thread
    /// with the node and the shared shutdown. A node that fails stops the
    /// whole robot (its error is returned by [`SimRobot::stop`]).
    pub fn spawn<F>(&mut self, options: NodeOptions, body: F) -> Result<(), NodeError>
    where
        F: FnOnce(&InProcNode, &Shutdown) -> Result<(), NodeError> + Send + 'static,
    {
        self.nodes.spawn(options, body)
    }

    /// Starts a node that watches the others (the recorder, the `/rosout`
    /// sink): like [`SimRobot::spawn`], but its shutdown comes only after
    /// every other node has ended, so it receives everything they published
    /// (the final `/game/state` after the last move).
    pub fn spawn_observer<F>(&mut self, options: NodeOptions, body: F) -> Result<(), NodeError>
    where
        F: FnOnce(&InProcNode, &Shutdown) -> Result<(), NodeError> + Send + 'static,
    {
        self.nodes.spawn_observer(options, body)
    }

    /// The in-process bus (for clients: the test, the CLI).
    pub fn bus(&self) -> &InProcBus {
        self.nodes.bus()
    }

    /// The shutdown every node watches.
    pub fn shutdown(&self) -> &Shutdown {
        self.nodes.shutdown()
    }

    /// The world as it really is (not as any node believes it).
    pub fn probe(&self) -> &WorldProbe {
        &self.probe
    }

    /// The simulation clock (shared by the world, the emulator and the driver).
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The emulated SSC-32U's pty symlink.
    pub fn serial_path(&self) -> &std::path::Path {
        &self.serial
    }

    /// The game the world was laid out for.
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    /// The arm's name or YAML path.
    pub fn arm_name(&self) -> &str {
        &self.arm
    }

    /// Where each location of the game lies on the table (m, `base_link`,
    /// board surface), in game order; `None` for places with no position.
    pub fn places(&self) -> &[(String, Option<[f64; 3]>)] {
        &self.places
    }

    /// The board's turn-over station, if it has one.
    pub fn flip_station(&self) -> Option<&gamebot_kinematics::FlipStation> {
        self.flip_station.as_ref()
    }

    /// The position of location `name`.
    pub fn place(&self, name: &str) -> Option<[f64; 3]> {
        self.places
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, p)| *p)
    }

    /// Whether a node has stopped (failed, or the robot is shutting down).
    pub fn any_stopped(&self) -> bool {
        self.nodes.any_stopped()
    }

    /// The names of the nodes that have stopped.
    pub fn stopped_nodes(&self) -> Vec<&str> {
        self.nodes.stopped_nodes()
    }

    /// Stops every node and returns the first node error, naming the node.
    /// (Dropping the robot stops and joins them too.)
    pub fn stop(self) -> Result<(), NodeError> {
        self.nodes.stop()
    }
}

/// Loads an arm by name or path (for embedders that need its joint names).
pub fn load_arm(name: &str) -> Result<Arm, NodeError> {
    ssc32_bridge::load_arm(name)
}
