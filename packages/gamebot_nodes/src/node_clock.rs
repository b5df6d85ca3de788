//! The standard `use_sim_time` parameter: a node's time source.
//!
//! Every node executable declares `use_sim_time` (bool, default false) as
//! ROS 2 nodes do. False: the node's clock is the system clock. True: it is
//! simulation time, the latest `/clock` message (`rosgraph_msgs/msg/Clock`,
//! published by `sim_world` or, in Gazebo, bridged from gz-sim) — a
//! [`Clock::external`] set by a thread that blocks on the `/clock`
//! subscription. What runs on the node clock: the driver's motion timing and
//! joint-state period (`ssc32_bridge`), the arm controller's retry pauses,
//! the referee's arm, camera and restart timeouts. What stays on the wall
//! clock by design: the planner's thinking budget (computation, not world
//! time) and liveness checks between processes (a planner's heartbeat).

use crate::NodeError;
use gamebot_interfaces::builtin_interfaces::Time;
use gamebot_ros::{graph, Bus, RecvTimeoutError, Shutdown};
use gamebot_ssc32::Clock;
use std::time::Duration;

/// The parameter's name, as every ROS 2 node has it.
pub const USE_SIM_TIME: &str = "use_sim_time";

/// Declares `use_sim_time` on `bus` and returns its value: for the nodes
/// that keep no time of their own (the planner: its budget is thinking time;
/// the detector: its observations carry their image's stamp; `sim_world`: it
/// is the time source and stamps everything with simulation time).
pub fn declare_use_sim_time<B: Bus>(bus: &B) -> Result<bool, NodeError> {
    Ok(bus.parameters().declare_bool(
        USE_SIM_TIME,
        false,
        "take time from /clock (rosgraph_msgs/msg/Clock) instead of the system clock",
    )?)
}

/// Declares `use_sim_time` on `bus` and returns the node's clock: `wall` when
/// false, else an external clock following `/clock`.
/// With `use_sim_time` it returns once the first `/clock` arrived (or fails
/// when `shutdown` is requested meanwhile).
pub fn node_clock<B: Bus>(bus: &B, wall: Clock, shutdown: &Shutdown) -> Result<Clock, NodeError> {
    if !declare_use_sim_time(bus)? {
        return Ok(wall);
    }
    let clock = Clock::external();
    let sub = bus.subscription_on(&graph::CLOCK)?;
    let setter = clock.setter().expect("an external clock has a setter");
    // The thread ends once the node dropped every clone of its clock, or the
    // transport closed.
    std::thread::Builder::new()
        .name("use_sim_time".into())
        .spawn(move || {
            while setter.alive() {
                match sub.recv_timeout(Duration::from_millis(500)) {
                    Ok(m) => {
                        setter.set(Duration::from_nanos(m.clock.as_nanos().max(0) as u64));
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Closed) => break,
                }
            }
        })
        .map_err(|e| NodeError::Config(format!("cannot start the /clock thread: {e}")))?;
    // As a ROS 2 node's clock, time has not started before the first
    // /clock: a node that ran meanwhile would take the jump from 0 to the
    // simulation's time for time passing (a trajectory "already late").
    let mut waited = 0u32;
    while !clock.wait_started(Duration::from_millis(250)) {
        if shutdown.is_requested() {
            return Err(NodeError::Config(
                "stopped while waiting for the first /clock (use_sim_time)".into(),
            ));
        }
        waited += 1;
        if waited % 20 == 1 {
            tracing::info!("use_sim_time: waiting for the first message on /clock");
        }
    }
    tracing::info!("use_sim_time: the node's time is /clock");
    Ok(clock)
}

/// A message stamp on `clock`: simulation time for an external (`/clock`)
/// clock, the system time otherwise (the scaled clock of the in-process
/// simulation keeps wall stamps, as a node without `use_sim_time` does).
pub fn stamp(clock: &Clock) -> Time {
    if clock.is_external() {
        Time::from_nanos(clock.now().as_nanos().min(i64::MAX as u128) as i64)
    } else {
        Time::now()
    }
}
