//! Several nodes in one process: one in-process bus, one thread per node,
//! one shutdown.
//!
//! [`NodeGroup`] is what every embedded graph is built on (`gamebot play
//! --sim`'s [`crate::sim_robot::SimRobot`], `gamebot calibrate
//! board-to-arm`'s [`crate::board_registration::Rig`]). Invariants:
//! - a node whose body returns an error requests the group's shutdown, so
//!   one failed node stops the whole graph and [`NodeGroup::stop`] returns
//!   its error, naming it;
//! - observers ([`NodeGroup::spawn_observer`]: the recorder, the `/rosout`
//!   sink) get their shutdown only after every other node thread has been
//!   joined, so they receive everything the nodes published;
//! - dropping the group stops and joins every thread.
//!
//! [`start_arm`] adds the hardware side every such graph needs:
//! `ssc32_bridge` on a serial port and the `arm_controller` above it.

use crate::ssc32_bridge::{self, BridgeConfig};
use crate::NodeError;
use gamebot_ros::inproc::{InProcBus, InProcNode};
use gamebot_ros::{Bus, NodeOptions, Shutdown};
use std::thread::JoinHandle;

/// A node thread and its name.
struct NodeThread {
    name: String,
    handle: JoinHandle<Result<(), NodeError>>,
    /// An observer: stopped after the other nodes.
    observer: bool,
}

/// Nodes on one in-process bus, each on its own thread.
pub struct NodeGroup {
    bus: InProcBus,
    stop: Shutdown,
    /// The shutdown of the observers, requested once every other node has ended.
    observers_stop: Shutdown,
    threads: Vec<NodeThread>,
}

impl Default for NodeGroup {
    fn default() -> Self {
        Self::new()
    }
}

impl NodeGroup {
    /// An empty group on a new in-process bus.
    pub fn new() -> NodeGroup {
        NodeGroup {
            bus: InProcBus::new(),
            stop: Shutdown::new(),
            observers_stop: Shutdown::new(),
            threads: Vec::new(),
        }
    }

    /// Starts a node: `body` runs on its own thread with the node and the
    /// group's shutdown. A node that fails stops the whole group (its error
    /// is returned by [`NodeGroup::stop`]).
    pub fn spawn<F>(&mut self, options: NodeOptions, body: F) -> Result<(), NodeError>
    where
        F: FnOnce(&InProcNode, &Shutdown) -> Result<(), NodeError> + Send + 'static,
    {
        self.start_node(options, body, false)
    }

    /// Starts a node that watches the others (the recorder, the `/rosout`
    /// sink): like [`NodeGroup::spawn`], but its shutdown comes only after
    /// every other node has ended, so it receives everything they published.
    pub fn spawn_observer<F>(&mut self, options: NodeOptions, body: F) -> Result<(), NodeError>
    where
        F: FnOnce(&InProcNode, &Shutdown) -> Result<(), NodeError> + Send + 'static,
    {
        self.start_node(options, body, true)
    }

    fn start_node<F>(
        &mut self,
        options: NodeOptions,
        body: F,
        observer: bool,
    ) -> Result<(), NodeError>
    where
        F: FnOnce(&InProcNode, &Shutdown) -> Result<(), NodeError> + Send + 'static,
    {
        let name = options.name.clone();
        let node = self.bus.node(options)?;
        let stop = self.stop.clone();
        let own = if observer {
            self.observers_stop.clone()
        } else {
            self.stop.clone()
        };
        let handle = std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || {
                let r = body(&node, &own);
                match &r {
                    Err(e) => {
                        tracing::error!("node {} failed: {e}", node.name());
                        stop.request();
                    }
                    // A node that ends on its own (the referee at game over,
                    // when told to) is named; the group notices it through
                    // `any_stopped` and names it in `stopped_nodes`.
                    Ok(()) if !own.is_requested() => {
                        tracing::info!("node {} ended on its own", node.name());
                    }
                    Ok(()) => {}
                }
                r
            })
            .map_err(|e| NodeError::Config(format!("cannot start a thread for {name}: {e}")))?;
        self.threads.push(NodeThread {
            name,
            handle,
            observer,
        });
        Ok(())
    }

    /// The in-process bus (for clients: a test, the CLI).
    pub fn bus(&self) -> &InProcBus {
        &self.bus
    }

    /// The shutdown every node (but the observers) watches.
    pub fn shutdown(&self) -> &Shutdown {
        &self.stop
    }

    /// Whether a node has stopped (failed, or the group is shutting down).
    pub fn any_stopped(&self) -> bool {
        self.threads.iter().any(|t| t.handle.is_finished())
    }

    /// The names of the nodes that have stopped, in the order they were started.
    pub fn stopped_nodes(&self) -> Vec<&str> {
        self.threads
            .iter()
            .filter(|t| t.handle.is_finished())
            .map(|t| t.name.as_str())
            .collect()
    }

    /// Stops every node and returns the first node error, naming the node.
    pub fn stop(mut self) -> Result<(), NodeError> {
        self.join_all()
    }

    fn join_all(&mut self) -> Result<(), NodeError> {
        self.stop.request();
        // The nodes first, then the observers (which drain what they sent).
        let (observers, nodes): (Vec<NodeThread>, Vec<NodeThread>) =
            self.threads.drain(..).partition(|t| t.observer);
        let mut first = join(nodes);
        self.observers_stop.request();
        let observed = join(observers);
        if first.is_ok() {
            first = observed;
        }
        first
    }
}

/// Joins the threads; the first node error.
fn join(threads: Vec<NodeThread>) -> Result<(), NodeError> {
    let mut first = Ok(());
    for t in threads {
        let r = match t.handle.join() {
            Ok(r) => r,
            Err(_) => Err(NodeError::Config(format!("node {} panicked", t.name))),
        };
        if first.is_ok() {
            first = r;
        }
    }
    first
}

impl Drop for NodeGroup {
    fn drop(&mut self) {
        let _ = self.join_all();
    }
}

/// Starts `ssc32_bridge` (with `config`: its port, baud, clock) and the
/// `arm_controller` above it for arm `arm_name` (a name under
/// `config/arms/` or a YAML path). `sim_time`: the controller keeps the
/// simulation clock from `/clock`.
pub fn start_arm(
    group: &mut NodeGroup,
    arm_name: &str,
    config: BridgeConfig,
    sim_time: bool,
) -> Result<(), NodeError> {
    let arm = ssc32_bridge::load_arm(arm_name)?;
    group.spawn(NodeOptions::new("ssc32_bridge"), move |node, stop| {
        ssc32_bridge::run_with(node, stop, &arm, config)
    })?;
    let arm = ssc32_bridge::load_arm(arm_name)?;
    group.spawn(NodeOptions::new("arm_controller"), move |node, stop| {
        crate::arm_controller::run_with(node, stop, arm, sim_time)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamebot_ros::WaitSet;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Blocks until `stop` is requested.
    fn wait_for(stop: &Shutdown) {
        let mut w = WaitSet::new();
        w.add(stop);
        while !stop.is_requested() {
            w.wait_until(None);
        }
    }

    #[test]
    fn a_failing_node_stops_the_group_and_its_error_names_it() {
        let mut g = NodeGroup::new();
        g.spawn(NodeOptions::new("waits"), |_, stop| {
            wait_for(stop);
            Ok(())
        })
        .unwrap();
        g.spawn(NodeOptions::new("fails"), |_, _| {
            Err(NodeError::Config("fails: broken".into()))
        })
        .unwrap();
        // The failure requested the shutdown, so the waiting node ends too.
        wait_for(g.shutdown());
        let e = g.stop().unwrap_err().to_string();
        assert!(e.contains("fails: broken"), "{e}");
    }

    #[test]
    fn a_node_that_ends_on_its_own_is_named() {
        let mut g = NodeGroup::new();
        g.spawn(NodeOptions::new("waits"), |_, stop| {
            wait_for(stop);
            Ok(())
        })
        .unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        g.spawn(NodeOptions::new("ends"), move |_, _| {
            drop(tx);
            Ok(())
        })
        .unwrap();
        // The channel closes when the node's body returns; its thread is
        // finished a moment later.
        let _ = rx.recv();
        while !g.any_stopped() {
            std::thread::yield_now();
        }
        assert_eq!(g.stopped_nodes(), vec!["ends"]);
        // An end without an error does not stop the others.
        assert!(!g.shutdown().is_requested());
        g.stop().unwrap();
    }

    #[test]
    fn observers_stop_only_after_every_other_node_has_ended() {
        let mut g = NodeGroup::new();
        let node_done = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(AtomicBool::new(false));
        let (d, s) = (node_done.clone(), seen.clone());
        g.spawn_observer(NodeOptions::new("observer"), move |_, stop| {
            wait_for(stop);
            s.store(d.load(Ordering::SeqCst), Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
        g.spawn(NodeOptions::new("slow"), move |_, stop| {
            wait_for(stop);
            std::thread::sleep(std::time::Duration::from_millis(50));
            node_done.store(true, Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
        g.stop().unwrap();
        assert!(seen.load(Ordering::SeqCst), "the observer stopped first");
    }
}
