//! The transport of the gamebot node graph.
//!
//! Node logic is written once against the [`Bus`] trait — typed topics with
//! [`Qos`], services, and actions with feedback and cancel — and runs on
//! either backend:
//!
//! - [`inproc::InProcBus`]: every node in one process, channels, no network,
//!   deterministic (delivery order is creation order). Used by `gamebot play`
//!   and graph tests.
//! - [`dds::DdsContext`] (feature `dds`): real ROS 2 nodes over DDS via the
//!   pure-Rust `ros2-client`, interoperable with C++/Python ROS 2 nodes.
//!   Honours `ROS_DOMAIN_ID` and `ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`.
//!
//! Both backends give the same handles ([`Publisher`], [`Subscription`],
//! [`ServiceServer`], [`ServiceClient`], [`ActionServer`], [`ActionClient`]),
//! which receive through blocking queues, so node code uses plain threads.
//! Command-line handling (`--ros-args`), parameters and rosout logging are in
//! [`args`], [`params`] and [`logging`].

#![forbid(unsafe_code)]

pub mod action;
pub mod args;
pub mod graph;
pub mod handles;
pub mod inproc;
pub mod logging;
pub mod names;
pub mod params;
pub mod qos;
mod queue;
pub mod wait;

#[cfg(feature = "dds")]
pub mod dds;

pub use action::{
    ActionClient, ActionServer, ActiveGoal, ClientGoal, GoalEvent, GoalId, GoalOutcome, GoalStatus,
    IncomingGoal,
};
pub use args::{LogLevel, NodeOptions, RosArgs};
pub use gamebot_interfaces::{RosAction, RosMessage, RosService};
pub use handles::{Publisher, ServiceClient, ServiceRequest, ServiceServer, Subscription};
pub use params::{ParamError, ParamValue, Parameters};
pub use qos::{Durability, Qos, Reliability};
pub use wait::{
    Notifier, Receiver, RecvTimeoutError, Sender, Shutdown, Timer, TryRecvError, WaitSet, Waitable,
    Wake,
};

use std::time::Duration;

/// The cause of a [`BusError::Dds`]: the middleware's own error, shared so
/// that a goal's outcome (which every waiter may read) stays cloneable.
pub type DdsCause = std::sync::Arc<dyn std::error::Error + Send + Sync>;

/// A middleware error that has only a textual form (some `ros2-client`
/// errors implement `Debug` only).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DdsMessage(pub String);

/// Transport errors. Each names the topic, service, action or setting concerned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BusError {
    /// A node, namespace, topic, service or action name is not valid.
    #[error("invalid name `{name}`: {reason}")]
    InvalidName {
        /// The name as given.
        name: String,
        /// Why it is invalid.
        reason: String,
    },
    /// Nothing answered in time.
    #[error("{what}: no answer within {after:?}")]
    Timeout {
        /// E.g. `service /referee/submit_move`.
        what: String,
        /// How long we waited.
        after: Duration,
    },
    /// The peer went away before answering.
    #[error("{what}: the other side went away")]
    Disconnected {
        /// E.g. `service /referee/submit_move`.
        what: String,
    },
    /// A second server for a name on the in-process bus.
    #[error("{what}: a server already exists in this process")]
    Duplicate {
        /// E.g. `service /referee/new_game`.
        what: String,
    },
    /// The same topic is already used with another message type.
    #[error("topic {topic}: used with type {existing}, cannot also use {requested}")]
    TypeMismatch {
        /// Topic.
        topic: String,
        /// Type already in use.
        existing: String,
        /// Type asked for.
        requested: String,
    },
    /// The action server rejected the goal.
    #[error("action {action}: goal rejected")]
    GoalRejected {
        /// Action name.
        action: String,
    },
    /// This client still has a goal whose result has not arrived.
    #[error("action {action}: the previous goal of this client has no result yet (one goal at a time per client)")]
    GoalInFlight {
        /// Action name.
        action: String,
    },
    /// An operation on a goal that is already finished.
    #[error("action {action}: goal already finished")]
    GoalFinished {
        /// Action name.
        action: String,
    },
    /// An error from the DDS layer.
    #[error("DDS: {what}")]
    Dds {
        /// What was attempted.
        what: String,
        /// The middleware's error.
        #[source]
        source: DdsCause,
    },
    /// A bad environment variable (`ROS_DOMAIN_ID`, ...).
    #[error("environment variable {var}={value:?}: {reason}")]
    Env {
        /// Variable.
        var: String,
        /// Its value.
        value: String,
        /// Why it is not usable.
        reason: String,
    },
    /// A bad parameter (boxed: it is large and rare).
    #[error(transparent)]
    Param(Box<ParamError>),
}

impl From<ParamError> for BusError {
    fn from(e: ParamError) -> Self {
        BusError::Param(Box::new(e))
    }
}

/// A node's view of the graph: the one interface node logic is written
/// against. Implemented by [`inproc::InProcNode`] and [`dds::DdsNode`].
///
/// Names are ROS 2 names: relative names resolve against the node's
/// namespace, `~/x` is private to the node, and command-line remaps apply.
pub trait Bus: Send + Sync {
    /// The node's base name.
    fn name(&self) -> &str;
    /// The node's namespace (`/` or `/a/b`).
    fn namespace(&self) -> &str;
    /// `/namespace/name`.
    fn fully_qualified_name(&self) -> String {
        names::fully_qualified(self.namespace(), self.name())
    }
    /// The node's parameters.
    fn parameters(&self) -> &Parameters;
    /// Resolves a topic/service/action name as this node would (expansion, remaps).
    fn resolve(&self, name: &str) -> Result<String, BusError>;

    /// A publisher on `topic`.
    fn publisher<T: RosMessage>(&self, topic: &str, qos: Qos) -> Result<Publisher<T>, BusError>;
    /// A subscription to `topic`; received messages queue up to `qos.depth`.
    fn subscription<T: RosMessage>(
        &self,
        topic: &str,
        qos: Qos,
    ) -> Result<Subscription<T>, BusError>;
    /// A server for service `name`; requests queue until taken.
    fn service_server<S: RosService>(&self, name: &str) -> Result<ServiceServer<S>, BusError>;
    /// A client for service `name`.
    fn service_client<S: RosService>(&self, name: &str) -> Result<ServiceClient<S>, BusError>;
    /// A server for action `name`; goals queue until taken.
    fn action_server<A: RosAction>(&self, name: &str) -> Result<ActionServer<A>, BusError>;
    /// A client for action `name`.
    fn action_client<A: RosAction>(&self, name: &str) -> Result<ActionClient<A>, BusError>;

    /// A publisher on a topic of the graph, with the topic's QoS.
    fn publisher_on<T: RosMessage>(
        &self,
        topic: &graph::Topic<T>,
    ) -> Result<Publisher<T>, BusError> {
        self.publisher(topic.name, topic.qos)
    }
    /// A subscription to a topic of the graph, with the topic's QoS.
    fn subscription_on<T: RosMessage>(
        &self,
        topic: &graph::Topic<T>,
    ) -> Result<Subscription<T>, BusError> {
        self.subscription(topic.name, topic.qos)
    }
    /// A server for a service of the graph.
    fn service_server_on<S: RosService>(
        &self,
        service: &graph::Service<S>,
    ) -> Result<ServiceServer<S>, BusError> {
        self.service_server(service.name)
    }
    /// A client for a service of the graph.
    fn service_client_on<S: RosService>(
        &self,
        service: &graph::Service<S>,
    ) -> Result<ServiceClient<S>, BusError> {
        self.service_client(service.name)
    }
    /// A server for an action of the graph.
    fn action_server_on<A: RosAction>(
        &self,
        action: &graph::Action<A>,
    ) -> Result<ActionServer<A>, BusError> {
        self.action_server(action.name)
    }
    /// A client for an action of the graph.
    fn action_client_on<A: RosAction>(
        &self,
        action: &graph::Action<A>,
    ) -> Result<ActionClient<A>, BusError> {
        self.action_client(action.name)
    }
}

/// Waits until `cond` holds or `timeout` passes, checking every `step`;
/// returns whether it held. For graph conditions that have no wake-up event.
pub(crate) fn poll_until(
    timeout: Duration,
    step: Duration,
    mut cond: impl FnMut() -> bool,
) -> bool {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if cond() {
            return true;
        }
        let now = std::time::Instant::now();
        if now >= deadline {
            return false;
        }
        std::thread::sleep(step.min(deadline - now));
    }
}
