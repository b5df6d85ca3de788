//! Rust mirrors of gamebot's ROS 2 interfaces (`msg/`, `srv/`, `action/` of
//! this package) and of the standard ROS 2 messages the node graph uses.
//!
//! Every mirror is a plain serde struct whose fields have the same names, the
//! same order and the same wire types as its `.msg` definition, so that CDR
//! encoding it gives the bytes a C++ or Python ROS 2 node expects. Each struct
//! carries its full ROS name both in [`RosMessage::TYPE_NAME`] and as its serde
//! container name; `tests/mirror.rs` traces every struct through serde and
//! compares it with the parsed definition files.
//!
//! Module layout follows ROS: [`std_msgs`], [`geometry_msgs`], ... for the
//! standard types, and [`msg`], [`srv`], [`action`] for gamebot's own.

#![forbid(unsafe_code)]

pub mod idl;

mod gamebot;
mod standard;

pub use gamebot::{action, msg, srv};
pub use standard::{
    action_msgs, builtin_interfaces, control_msgs, diagnostic_msgs, geometry_msgs, rcl_interfaces,
    ros_gz_interfaces, rosgraph_msgs, sensor_msgs, std_msgs, tf2_msgs, trajectory_msgs,
    unique_identifier_msgs, visualization_msgs,
};

use serde::{de::DeserializeOwned, Serialize};

/// A message type with a ROS 2 definition.
pub trait RosMessage:
    Serialize + DeserializeOwned + Clone + Default + std::fmt::Debug + Send + Sync + 'static
{
    /// Full ROS name: `package/msg/Name` (service and action parts:
    /// `package/srv/Name_Request`, `package/action/Name_Goal`, ...).
    const TYPE_NAME: &'static str;
}

/// A service type: a request and a response message.
pub trait RosService: Send + Sync + 'static {
    /// Full ROS name, `package/srv/Name`.
    const TYPE_NAME: &'static str;
    /// `Name_Request`.
    type Request: RosMessage;
    /// `Name_Response`.
    type Response: RosMessage;
}

/// An action type: goal, result and feedback messages.
pub trait RosAction: Send + Sync + 'static {
    /// Full ROS name, `package/action/Name`.
    const TYPE_NAME: &'static str;
    /// `Name_Goal`.
    type Goal: RosMessage;
    /// `Name_Result`.
    type Result: RosMessage;
    /// `Name_Feedback`.
    type Feedback: RosMessage;
    /// `package/action/Name_FeedbackMessage`, the type of
    /// [`FeedbackMessage<Self>`].
    const FEEDBACK_MESSAGE_TYPE_NAME: &'static str;
}

/// An action's feedback as it travels on `<action>/_action/feedback`
/// (`package/action/Name_FeedbackMessage`, a type ROS 2 generates for every
/// action): the goal's id and the feedback. Anyone may subscribe to it (a
/// recorder, a UI), not only the goal's client.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub struct FeedbackMessage<A: RosAction> {
    /// The goal.
    pub goal_id: unique_identifier_msgs::UUID,
    /// Its feedback.
    pub feedback: A::Feedback,
}

impl<A: RosAction> Clone for FeedbackMessage<A> {
    fn clone(&self) -> Self {
        FeedbackMessage {
            goal_id: self.goal_id.clone(),
            feedback: self.feedback.clone(),
        }
    }
}

impl<A: RosAction> Default for FeedbackMessage<A> {
    fn default() -> Self {
        FeedbackMessage {
            goal_id: Default::default(),
            feedback: Default::default(),
        }
    }
}

impl<A: RosAction> std::fmt::Debug for FeedbackMessage<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FeedbackMessage")
            .field("goal_id", &self.goal_id)
            .field("feedback", &self.feedback)
            .finish()
    }
}

impl<A: RosAction> PartialEq for FeedbackMessage<A>
where
    A::Feedback: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.goal_id == other.goal_id && self.feedback == other.feedback
    }
}

impl<A: RosAction> RosMessage for FeedbackMessage<A> {
    const TYPE_NAME: &'static str = A::FEEDBACK_MESSAGE_TYPE_NAME;
}

/// Splits a full ROS type name `package/kind/Name` into its three parts.
pub fn split_type_name(full: &str) -> Option<(&str, &str, &str)> {
    let mut it = full.splitn(3, '/');
    let (p, k, n) = (it.next()?, it.next()?, it.next()?);
    (!p.is_empty() && !k.is_empty() && !n.is_empty() && !n.contains('/')).then_some((p, k, n))
}

/// The DDS type name ROS 2 uses for a full ROS type name:
/// `std_msgs/msg/Header` -> `std_msgs::msg::dds_::Header_`.
pub fn dds_type_name(full: &str) -> String {
    match split_type_name(full) {
        Some((p, k, n)) => format!("{p}::{k}::dds_::{n}_"),
        None => full.replace('/', "::"),
    }
}

/// Receives every mirrored type; see [`visit_all`].
pub trait TypeVisitor {
    /// A message type (including service and action parts).
    fn message<T: RosMessage>(&mut self);
    /// A service type.
    fn service<S: RosService>(&mut self);
    /// An action type.
    fn action<A: RosAction>(&mut self);
}

/// Calls the visitor for every type this crate mirrors, so tests and tools can
/// enumerate them without a hand-kept list of their own.
pub fn visit_all<V: TypeVisitor>(v: &mut V) {
    standard::visit(v);
    gamebot::visit(v);
}

/// Defines a mirror struct with its serde container name and [`RosMessage`] impl.
macro_rules! ros_message {
    (
        $(#[$meta:meta])*
        $full:literal => pub struct $name:ident { $( $(#[$fmeta:meta])* pub $field:ident : $fty:ty ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename = $full)]
        pub struct $name { $( $(#[$fmeta])* pub $field : $fty ),* }

        impl $crate::RosMessage for $name {
            const TYPE_NAME: &'static str = $full;
        }
    };
}
pub(crate) use ros_message;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dds_names() {
        assert_eq!(
            dds_type_name("std_msgs/msg/Header"),
            "std_msgs::msg::dds_::Header_"
        );
        assert_eq!(
            dds_type_name("gamebot_interfaces/srv/SubmitMove_Request"),
            "gamebot_interfaces::srv::dds_::SubmitMove_Request_"
        );
        assert_eq!(split_type_name("a/b"), None);
        assert_eq!(split_type_name("a/msg/B/c"), None);
    }
}
