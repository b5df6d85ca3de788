//! `ros2msg` schema text for the MCAP file: a type's `.msg` definition, then
//! for each type it uses (recursively, each once) a line of 80 `=`, a line
//! `MSG: pkg/Name` and that type's definition — the layout rosbag2 writes and
//! ROS 2 readers (rosbags, the `mcap` ros2 decoder, Foxglove) parse.
//!
//! The definitions are gamebot's own `msg/` files and the standard ROS 2
//! definitions transcribed in `gamebot_interfaces/testdata/ros/`, compiled in.
//! Action feedback messages (`pkg/action/Name_FeedbackMessage`), which ROS 2
//! generates rather than reads from a file, are assembled from the action's
//! `.action` file.

use gamebot_interfaces::idl::{self, BaseType, InterfaceKind};

use crate::RecordError;

/// The separator line between definitions (80 `=`).
pub const SEPARATOR: &str =
    "================================================================================";

/// The `.msg` text of a message type given by its full name (`pkg/msg/Name`).
pub fn message_text(full_name: &str) -> Option<&'static str> {
    Some(match full_name {
        "gamebot_interfaces/msg/BoardObservation" => include_str!("../../gamebot_interfaces/msg/BoardObservation.msg"),
        "gamebot_interfaces/msg/GameEvent" => include_str!("../../gamebot_interfaces/msg/GameEvent.msg"),
        "gamebot_interfaces/msg/GameState" => include_str!("../../gamebot_interfaces/msg/GameState.msg"),
        "gamebot_interfaces/msg/LocationState" => include_str!("../../gamebot_interfaces/msg/LocationState.msg"),
        "gamebot_interfaces/msg/Move" => include_str!("../../gamebot_interfaces/msg/Move.msg"),
        "gamebot_interfaces/msg/ObservedPiece" => include_str!("../../gamebot_interfaces/msg/ObservedPiece.msg"),
        "gamebot_interfaces/msg/PhysicalAction" => include_str!("../../gamebot_interfaces/msg/PhysicalAction.msg"),
        "action_msgs/msg/GoalInfo" => include_str!("../../gamebot_interfaces/testdata/ros/action_msgs/msg/GoalInfo.msg"),
        "action_msgs/msg/GoalStatus" => include_str!("../../gamebot_interfaces/testdata/ros/action_msgs/msg/GoalStatus.msg"),
        "action_msgs/msg/GoalStatusArray" => include_str!("../../gamebot_interfaces/testdata/ros/action_msgs/msg/GoalStatusArray.msg"),
        "builtin_interfaces/msg/Duration" => include_str!("../../gamebot_interfaces/testdata/ros/builtin_interfaces/msg/Duration.msg"),
        "builtin_interfaces/msg/Time" => include_str!("../../gamebot_interfaces/testdata/ros/builtin_interfaces/msg/Time.msg"),
        "control_msgs/msg/GripperCommand" => include_str!("../../gamebot_interfaces/testdata/ros/control_msgs/msg/GripperCommand.msg"),
        "control_msgs/msg/JointComponentTolerance" => include_str!("../../gamebot_interfaces/testdata/ros/control_msgs/msg/JointComponentTolerance.msg"),
        "control_msgs/msg/JointTolerance" => include_str!("../../gamebot_interfaces/testdata/ros/control_msgs/msg/JointTolerance.msg"),
        "diagnostic_msgs/msg/DiagnosticArray" => include_str!("../../gamebot_interfaces/testdata/ros/diagnostic_msgs/msg/DiagnosticArray.msg"),
        "diagnostic_msgs/msg/DiagnosticStatus" => include_str!("../../gamebot_interfaces/testdata/ros/diagnostic_msgs/msg/DiagnosticStatus.msg"),
        "diagnostic_msgs/msg/KeyValue" => include_str!("../../gamebot_interfaces/testdata/ros/diagnostic_msgs/msg/KeyValue.msg"),
        "geometry_msgs/msg/Point" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Point.msg"),
        "geometry_msgs/msg/Pose" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Pose.msg"),
        "geometry_msgs/msg/Quaternion" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Quaternion.msg"),
        "geometry_msgs/msg/Transform" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Transform.msg"),
        "geometry_msgs/msg/TransformStamped" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/TransformStamped.msg"),
        "geometry_msgs/msg/Twist" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Twist.msg"),
        "geometry_msgs/msg/Vector3" => include_str!("../../gamebot_interfaces/testdata/ros/geometry_msgs/msg/Vector3.msg"),
        "rcl_interfaces/msg/Log" => include_str!("../../gamebot_interfaces/testdata/ros/rcl_interfaces/msg/Log.msg"),
        "rosgraph_msgs/msg/Clock" => include_str!("../../gamebot_interfaces/testdata/ros/rosgraph_msgs/msg/Clock.msg"),
        "sensor_msgs/msg/CameraInfo" => include_str!("../../gamebot_interfaces/testdata/ros/sensor_msgs/msg/CameraInfo.msg"),
        "sensor_msgs/msg/CompressedImage" => include_str!("../../gamebot_interfaces/testdata/ros/sensor_msgs/msg/CompressedImage.msg"),
        "sensor_msgs/msg/Image" => include_str!("../../gamebot_interfaces/testdata/ros/sensor_msgs/msg/Image.msg"),
        "sensor_msgs/msg/JointState" => include_str!("../../gamebot_interfaces/testdata/ros/sensor_msgs/msg/JointState.msg"),
        "sensor_msgs/msg/RegionOfInterest" => include_str!("../../gamebot_interfaces/testdata/ros/sensor_msgs/msg/RegionOfInterest.msg"),
        "std_msgs/msg/ColorRGBA" => include_str!("../../gamebot_interfaces/testdata/ros/std_msgs/msg/ColorRGBA.msg"),
        "std_msgs/msg/Header" => include_str!("../../gamebot_interfaces/testdata/ros/std_msgs/msg/Header.msg"),
        "std_msgs/msg/String" => include_str!("../../gamebot_interfaces/testdata/ros/std_msgs/msg/String.msg"),
        "tf2_msgs/msg/TFMessage" => include_str!("../../gamebot_interfaces/testdata/ros/tf2_msgs/msg/TFMessage.msg"),
        "trajectory_msgs/msg/JointTrajectory" => include_str!("../../gamebot_interfaces/testdata/ros/trajectory_msgs/msg/JointTrajectory.msg"),
        "trajectory_msgs/msg/JointTrajectoryPoint" => include_str!("../../gamebot_interfaces/testdata/ros/trajectory_msgs/msg/JointTrajectoryPoint.msg"),
        "trajectory_msgs/msg/MultiDOFJointTrajectory" => include_str!("../../gamebot_interfaces/testdata/ros/trajectory_msgs/msg/MultiDOFJointTrajectory.msg"),
        "trajectory_msgs/msg/MultiDOFJointTrajectoryPoint" => include_str!("../../gamebot_interfaces/testdata/ros/trajectory_msgs/msg/MultiDOFJointTrajectoryPoint.msg"),
        "unique_identifier_msgs/msg/UUID" => include_str!("../../gamebot_interfaces/testdata/ros/unique_identifier_msgs/msg/UUID.msg"),
        "visualization_msgs/msg/Marker" => include_str!("../../gamebot_interfaces/testdata/ros/visualization_msgs/msg/Marker.msg"),
        "visualization_msgs/msg/MarkerArray" => include_str!("../../gamebot_interfaces/testdata/ros/visualization_msgs/msg/MarkerArray.msg"),
        "visualization_msgs/msg/MeshFile" => include_str!("../../gamebot_interfaces/testdata/ros/visualization_msgs/msg/MeshFile.msg"),
        "visualization_msgs/msg/UVCoordinate" => include_str!("../../gamebot_interfaces/testdata/ros/visualization_msgs/msg/UVCoordinate.msg"),
        _ => return None,
    })
}

/// The `.action` text of an action type (`pkg/action/Name`).
pub fn action_text(full_name: &str) -> Option<&'static str> {
    Some(match full_name {
        "gamebot_interfaces/action/PlanMove" => {
            include_str!("../../gamebot_interfaces/action/PlanMove.action")
        }
        "gamebot_interfaces/action/ExecuteMove" => {
            include_str!("../../gamebot_interfaces/action/ExecuteMove.action")
        }
        _ => return None,
    })
}

/// One definition: its text and the package relative names resolve in.
struct Definition {
    text: String,
    package: String,
}

/// Splits an interface file's text at its `---` lines.
fn parts(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.lines() {
        if line.trim() == "---" {
            out.push(String::new());
        } else {
            let last = out.last_mut().expect("never empty");
            last.push_str(line);
            last.push('\n');
        }
    }
    out
}

/// The definition of any type we can describe: a `.msg` file, a part of an
/// action (`pkg/action/Name_Goal|_Result|_Feedback`) or an action's
/// generated feedback message (`pkg/action/Name_FeedbackMessage`).
fn definition(full_name: &str) -> Option<Definition> {
    let (package, kind, name) = gamebot_interfaces::split_type_name(full_name)?;
    if kind == "msg" {
        return message_text(full_name).map(|t| Definition {
            text: t.to_string(),
            package: package.to_string(),
        });
    }
    if kind != "action" {
        return None;
    }
    let (base, suffix) = name.rsplit_once('_')?;
    let file = action_text(&format!("{package}/action/{base}"))?;
    let text = match suffix {
        "FeedbackMessage" => {
            format!("unique_identifier_msgs/UUID goal_id\n{package}/{base}_Feedback feedback\n")
        }
        "Goal" => parts(file).into_iter().next()?,
        "Result" => parts(file).into_iter().nth(1)?,
        "Feedback" => parts(file).into_iter().nth(2)?,
        _ => return None,
    };
    Some(Definition {
        text,
        package: package.to_string(),
    })
}

/// The nested types a definition uses, as written in `MSG:` lines
/// (`pkg/Name`), in order of first use.
fn dependencies(def: &Definition, full_name: &str) -> Result<Vec<String>, RecordError> {
    let bad = |message: String| RecordError::Schema {
        type_name: full_name.to_string(),
        message,
    };
    // Parse as a message of the right package; the name only has to be valid.
    let spec = idl::parse_interface(
        InterfaceKind::Message,
        &def.package,
        "Schema",
        &def.text,
        full_name,
    )
    .map_err(|e| bad(e.to_string()))?;
    let mut out = vec![];
    for f in spec.parts.iter().flat_map(|p| p.fields.iter()) {
        if let BaseType::Named { package, name } = &f.ty.base {
            let n = format!("{package}/{name}");
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    Ok(out)
}

/// The full name of a dependency written `pkg/Name`: a message, or for the
/// parts of an action (`Name_Feedback` ...) the action's generated type.
fn dependency_full_name(short: &str) -> String {
    let (package, name) = short.split_once('/').unwrap_or(("", short));
    let msg = format!("{package}/msg/{name}");
    if message_text(&msg).is_some() {
        return msg;
    }
    format!("{package}/action/{name}")
}

/// The `ros2msg` schema of `full_name` (`pkg/msg/Name` or an action's
/// `pkg/action/Name_FeedbackMessage`): its definition, then every type it
/// depends on, each once, after a separator and a `MSG: pkg/Name` line.
pub fn ros2msg_schema(full_name: &str) -> Result<String, RecordError> {
    let root = definition(full_name).ok_or_else(|| RecordError::Schema {
        type_name: full_name.to_string(),
        message: "no definition known for this type".to_string(),
    })?;
    let mut out = root.text.clone();
    // A generated feedback message names the action's feedback part, which
    // the .msg parser does not take as a type name: its two fields are known.
    let mut queue = match full_name.strip_suffix("_FeedbackMessage") {
        Some(base) => {
            let (package, _, name) = gamebot_interfaces::split_type_name(base).unwrap_or_default();
            vec![
                "unique_identifier_msgs/UUID".to_string(),
                format!("{package}/{name}_Feedback"),
            ]
        }
        None => dependencies(&root, full_name)?,
    };
    let mut done: Vec<String> = vec![];
    while let Some(dep) = (!queue.is_empty()).then(|| queue.remove(0)) {
        if done.contains(&dep) {
            continue;
        }
        let full = dependency_full_name(&dep);
        let def = definition(&full).ok_or_else(|| RecordError::Schema {
            type_name: full_name.to_string(),
            message: format!("uses {dep}, whose definition is not known"),
        })?;
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(SEPARATOR);
        out.push('\n');
        out.push_str(&format!("MSG: {dep}\n"));
        out.push_str(&def.text);
        queue.extend(dependencies(&def, &full)?);
        done.push(dep);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_schema_lists_time_after_separator() {
        let s = ros2msg_schema("std_msgs/msg/Header").unwrap();
        let expected = format!(
            "{}\n{SEPARATOR}\nMSG: builtin_interfaces/Time\n{}",
            message_text("std_msgs/msg/Header").unwrap().trim_end(),
            message_text("builtin_interfaces/msg/Time").unwrap()
        );
        assert_eq!(s, expected);
    }

    #[test]
    fn game_state_has_every_dependency_once() {
        let s = ros2msg_schema("gamebot_interfaces/msg/GameState").unwrap();
        assert!(s.starts_with(message_text("gamebot_interfaces/msg/GameState").unwrap()));
        for dep in [
            "std_msgs/Header",
            "builtin_interfaces/Time",
            "gamebot_interfaces/LocationState",
        ] {
            assert_eq!(
                s.matches(&format!("MSG: {dep}\n")).count(),
                1,
                "{dep} in\n{s}"
            );
        }
        assert_eq!(s.matches(SEPARATOR).count(), s.matches("\nMSG: ").count());
    }

    #[test]
    fn feedback_message_includes_uuid_and_feedback_part() {
        let s = ros2msg_schema("gamebot_interfaces/action/PlanMove_FeedbackMessage").unwrap();
        assert!(s.starts_with("unique_identifier_msgs/UUID goal_id\n"));
        assert!(s.contains("MSG: unique_identifier_msgs/UUID\n"));
        assert!(s.contains("MSG: gamebot_interfaces/PlanMove_Feedback\n"));
        assert!(s.contains("MSG: gamebot_interfaces/Move\n"));
        assert!(s.contains("uint32 depth"));
    }

    #[test]
    fn unknown_type_is_an_error_naming_it() {
        let e = ros2msg_schema("nope_msgs/msg/Nothing").unwrap_err();
        assert!(e.to_string().contains("nope_msgs/msg/Nothing"), "{e}");
    }
}
