//! CDR decoding of every message type the nodes subscribe to (topics,
//! service requests, action goals): DDS input comes from the network.
#![no_main]
use byteorder::{BigEndian, LittleEndian};
use gamebot_interfaces as i;
use libfuzzer_sys::fuzz_target;

fn decode<T: serde::de::DeserializeOwned>(data: &[u8], big: bool) {
    let _ = if big {
        cdr_encoding::from_bytes::<T, BigEndian>(data).map(|_| ())
    } else {
        cdr_encoding::from_bytes::<T, LittleEndian>(data).map(|_| ())
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let big = sel & 0x80 != 0;
    match sel & 0x7f {
        0 => decode::<i::msg::GameState>(rest, big),
        1 => decode::<i::msg::GameEvent>(rest, big),
        2 => decode::<i::msg::BoardObservation>(rest, big),
        3 => decode::<i::sensor_msgs::Image>(rest, big),
        4 => decode::<i::sensor_msgs::CameraInfo>(rest, big),
        5 => decode::<i::sensor_msgs::JointState>(rest, big),
        6 => decode::<i::trajectory_msgs::JointTrajectory>(rest, big),
        7 => decode::<i::std_msgs::String>(rest, big),
        8 => decode::<i::tf2_msgs::TFMessage>(rest, big),
        9 => decode::<i::rcl_interfaces::Log>(rest, big),
        10 => decode::<i::diagnostic_msgs::DiagnosticArray>(rest, big),
        11 => decode::<i::rosgraph_msgs::Clock>(rest, big),
        12 => decode::<i::visualization_msgs::MarkerArray>(rest, big),
        13 => decode::<i::srv::SubmitMoveRequest>(rest, big),
        14 => decode::<i::srv::NewGameRequest>(rest, big),
        15 => decode::<i::srv::MoveToolRequest>(rest, big),
        16 => decode::<i::srv::SetGripperRequest>(rest, big),
        17 => decode::<i::srv::HumanMoveRequest>(rest, big),
        18 => decode::<i::srv::SimFaultRequest>(rest, big),
        19 => decode::<i::srv::GoToPoseRequest>(rest, big),
        20 => decode::<i::action::PlanMoveGoal>(rest, big),
        21 => decode::<i::action::ExecuteMoveGoal>(rest, big),
        22 => decode::<i::control_msgs::FollowJointTrajectoryGoal>(rest, big),
        23 => decode::<i::control_msgs::GripperCommandGoal>(rest, big),
        24 => decode::<i::action_msgs::CancelGoalRequest>(rest, big),
        _ => {}
    }
});
