"""Structural checks of the launch files and the ROS 2 / Gazebo / RViz
configuration, without ROS or Gazebo (see docs/gazebo.md):

1. every launch file, run through the launch stand-in (tests/launch_standin)
   with its defaults and with argument variants: each gamebot executable it
   starts is a binary of the `gamebot` package (installed by colcon into
   lib/gamebot; with --install, present there), each parameter it sets is one
   the node declares (read from the node's Rust code), each file it names
   exists; other packages' executables are the known ROS/Gazebo ones;
2. urdf/*.urdf.xacro expanded with xacro (PyPI): hardware:=ssc32 gives the
   plain URDF's kinematics exactly, gazebo/mock add the right ros2_control
   system, and a bad value fails;
3. config/controllers*.yaml: joints equal the URDF's;
4. config/gz_bridge.yaml: keys, ROS/Gazebo type pairs, directions, and the
   ROS topics with their types in gamebot_ros::graph;
5. config/gamebot.rviz: display classes known, every topic in
   gamebot_ros::graph with the display's message type, fixed frame a URDF link;
6. the SDF that `gamebot gazebo world` writes, parsed here independently:
   every piece on a `robot=x,y,z` location at those coordinates in metres,
   names unique, the camera topics equal to the bridge's Gazebo topics, the
   world's pose info bridged (GZ_TO_ROS); gazebo.launch.py starts gazebo_hand
   for that world on the simulation clock and bridges its set-pose service.

    tests/launch/check [--structure] [--install PREFIX] [--gamebot PATH]

--structure runs only 2, 3, 4 and 6 (without the launch files and the RViz
configuration).

Exit 1 with one line per problem.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import yaml

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "launch_standin"))
import standin  # noqa: E402

problems = []
checks = 0


def problem(msg):
    problems.append(msg)


def ok(cond, msg):
    global checks
    checks += 1
    if not cond:
        problem(msg)
    return cond


# ---------------------------------------------------------------- the Rust side

def graph_names():
    """Topic/service/action name -> ROS type, from gamebot_ros/src/graph.rs."""
    text = open(os.path.join(REPO, "packages/gamebot_ros/src/graph.rs")).read()
    types = {}
    for m in re.finditer(r"use gamebot_interfaces::(\w+)::(?:\{([^}]*)\}|(\w+)(?: as (\w+))?);", text):
        module = m.group(1)
        items = m.group(2).split(",") if m.group(2) else [m.group(3) + (" as " + m.group(4) if m.group(4) else "")]
        kind = {"action": "action", "srv": "srv", "msg": "msg"}.get(module)
        for item in items:
            item = item.strip()
            if not item:
                continue
            parts = item.split(" as ")
            rust, alias = parts[0].strip(), parts[-1].strip()
            if kind:
                ros = f"gamebot_interfaces/{kind}/{rust}"
            elif module == "control_msgs" and rust.endswith("Action"):
                ros = f"control_msgs/action/{rust[:-len('Action')]}"
            elif module == "control_msgs":
                ros = f"control_msgs/action/{rust}"
            else:
                ros = f"{module}/msg/{rust}"
            types[alias] = ros
    names = {}
    for m in re.finditer(r"pub const \w+: (Topic|Service|Action)<(\w+)>\s*=\s*\w+::new\(\s*\"([^\"]+)\"", text):
        ros = types.get(m.group(2), m.group(2))
        if m.group(1) == "Service":
            # A service of a standard package (ros_gz_interfaces) is pkg/srv/Name.
            ros = ros.replace("/msg/", "/srv/")
        names[m.group(3)] = (m.group(1), ros)
    return names


DECLARE = re.compile(r"declare_(?:string_array|string|int|double|bool|parsed|choice)\s*(?:::<[^>]*>)?\(\s*\"([A-Za-z_][A-Za-z0-9_.]*)\"")


def declared_params():
    """Executable -> set of parameter names its node declares, read from the
    code: dds_main.rs maps each executable to its node module(s)."""
    nodes_src = os.path.join(REPO, "packages/gamebot_nodes/src")
    dds_main = open(os.path.join(nodes_src, "dds_main.rs")).read()
    out = {}
    for m in re.finditer(r"run_node\(\s*\"(\w+)\"(.*?)\n\}", dds_main, re.S):
        exe, body = m.group(1), m.group(2)
        files = set()
        for mod in re.findall(r"crate::(\w+)::", body):
            for f in [os.path.join(nodes_src, mod + ".rs")] + glob.glob(os.path.join(nodes_src, mod, "*.rs")):
                if os.path.isfile(f):
                    files.add(f)
        names = set()
        for f in files:
            text = open(f).read()
            names |= set(DECLARE.findall(text))
            # The standard `use_sim_time`, declared through gamebot_nodes::node_clock.
            if re.search(r"node_clock::(node_clock|declare_use_sim_time)\(", text):
                names.add("use_sim_time")
        # Parameters every node has (gamebot_ros) and those of the modules the node's code calls.
        out[exe] = names
    # Executables with their own main (the recorder): the node modules of the
    # gamebot crates their source names.
    for bin_rs in glob.glob(os.path.join(REPO, "packages/gamebot/src/bin/*.rs")):
        exe = os.path.basename(bin_rs)[:-3]
        if exe in out:
            continue
        text = open(bin_rs).read()
        if "dds_main::" in text:
            continue
        names = set()
        for crate, mod in set(re.findall(r"\b(gamebot_\w+)::(\w+)", text)):
            f = os.path.join(REPO, "packages", crate, "src", mod + ".rs")
            if not os.path.isfile(f):
                # An item of the crate's root (`gamebot_web::WebConfig`).
                f = os.path.join(REPO, "packages", crate, "src", "lib.rs")
            if os.path.isfile(f):
                names |= set(DECLARE.findall(open(f).read()))
        if names:
            out[exe] = names
    ros_src = os.path.join(REPO, "packages/gamebot_ros/src")
    common = set()
    for f in glob.glob(os.path.join(ros_src, "*.rs")):
        for m in re.finditer(r"declare_\w+\(\s*\"(use_sim_time)\"", open(f).read()):
            common.add(m.group(1))
    for exe in out:
        out[exe] |= common
    return out


def gamebot_binaries():
    """Binaries of the gamebot package (cargo-ament-build installs each to lib/gamebot)."""
    bins = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(REPO, "packages/gamebot/src/bin/*.rs"))}
    toml = open(os.path.join(REPO, "packages/gamebot/Cargo.toml")).read()
    bins |= set(re.findall(r"\[\[bin\]\]\s*name\s*=\s*\"(\w+)\"", toml))
    bins.add("gamebot")
    return bins


# Executables of other packages the launch files may start (ROS 2 Jazzy, Gazebo Harmonic).
EXTERNAL_NODES = {
    ("rviz2", "rviz2"),
    ("robot_state_publisher", "robot_state_publisher"),
    ("ros_gz_sim", "create"),
    ("ros_gz_bridge", "parameter_bridge"),
    ("controller_manager", "spawner"),
}
EXTERNAL_COMMANDS = {"gz"}


# ---------------------------------------------------------------- 1. launch files

VARIANTS = {
    "sim.launch.py": [{}, {"record": "true", "opponent": "ai:random", "robot_player": "2"},
                      {"game": "games/connect4.game", "arm": "desk6"}],
    "real.launch.py": [{}, {"record": "true", "port": "/dev/ttyACM0", "opponent": "ai:alphabeta"}],
    "gazebo.launch.py": [{}, {"gui": "false"}, {"headless": "true", "arm": "desk6"}],
    "rviz.launch.py": [{}, {"use_sim_time": "true"}],
    "play.launch.py": [{}, {"planner": "false"}],
}
REQUIRED_ARGS = {
    "sim.launch.py": {"game", "robot", "opponent", "arm", "port", "camera", "record"},
    "real.launch.py": {"game", "robot", "opponent", "arm", "port", "camera", "record"},
    "gazebo.launch.py": {"game", "gui", "headless"},
}


def looks_like_file(v):
    return isinstance(v, str) and v.startswith("/") and re.search(r"\.(ya?ml|game|rviz|xacro|urdf|sdf)$", v)


def check_launch(prefix, share, install):
    declared = declared_params()
    bins = gamebot_binaries()
    seen_exes = set()
    for path in sorted(glob.glob(os.path.join(share, "launch", "*.launch.py"))):
        base = os.path.basename(path)
        variants = VARIANTS.get(base)
        if not ok(variants is not None, f"{base}: no argument variants in tests/launch/check.py (add them)"):
            variants = [{}]
        for args in variants:
            args = {k: (os.path.join(share, v) if k == "game" else v) for k, v in args.items()}
            label = f"{base} {' '.join(f'{k}:={v}' for k, v in args.items())}".strip()
            try:
                rec = standin.record(path, args, prefix=prefix, share=share)
            except Exception as e:  # the launch file itself is broken
                problem(f"{label}: {type(e).__name__}: {e}")
                continue
            need = REQUIRED_ARGS.get(base, set())
            ok(need <= set(rec["arguments"]), f"{label}: arguments {sorted(need - set(rec['arguments']))} missing")
            for e in rec["entities"]:
                if e["kind"] == "process":
                    exe = e["cmd"][0]
                    if exe in EXTERNAL_COMMANDS:
                        continue
                    gamebot = os.path.join(prefix, "lib", "gamebot", "gamebot")
                    ok(exe == gamebot, f"{label}: process {exe} is neither the gamebot CLI nor a known command")
                    if install:
                        ok(os.access(exe, os.X_OK), f"{label}: {exe} is not installed")
                    args = e["cmd"][1:]
                    for i, a in enumerate(args):
                        written = i > 0 and args[i - 1] in ("--output", "-o", "--bridge")
                        if looks_like_file(a) and not written:
                            ok(os.path.isfile(a), f"{label}: {e['name']}: file {a} does not exist")
                    continue
                pkg, exe, name = e["package"], e["executable"], e["name"]
                if pkg != "gamebot":
                    ok((pkg, exe) in EXTERNAL_NODES, f"{label}: {pkg}/{exe} is not a known ROS package executable")
                    continue
                seen_exes.add(exe)
                if not ok(exe in bins, f"{label}: executable {exe} is not a binary of packages/gamebot "
                                       f"(colcon would not install lib/gamebot/{exe})"):
                    continue
                if install:
                    ok(os.access(os.path.join(prefix, "lib", "gamebot", exe), os.X_OK),
                       f"{label}: lib/gamebot/{exe} is not installed")
                names = declared.get(exe)
                if not ok(names is not None, f"{label}: {exe}: no node entry point in gamebot_nodes/src/dds_main.rs"):
                    continue
                for p in sorted(e["parameters"]):
                    ok(p in names, f"{label}: node {name} ({exe}) sets parameter `{p}`, which it does not declare "
                                   f"(declared: {', '.join(sorted(names))})")
                for f in e["param_files"]:
                    ok(os.path.isfile(f), f"{label}: {name}: parameter file {f} does not exist")
                for p, v in e["parameters"].items():
                    if looks_like_file(v):
                        ok(os.path.isfile(v), f"{label}: {name}: {p} = {v} does not exist")
            if base == "gazebo.launch.py":
                check_gazebo_hand(label, rec)
            for c in rec["commands"]:
                for word in c.split():
                    word = word.split(":=", 1)[-1]
                    if looks_like_file(word):
                        ok(os.path.isfile(word), f"{label}: command `{c}`: {word} does not exist")
    return seen_exes


# The world `gamebot gazebo world` writes (gamebot_gazebo::WORLD_NAME).
GZ_WORLD = "gamebot"
SERVICE_BRIDGE = re.compile(r"^(/[\w/]+)@(\w+/srv/\w+)$")


def check_gazebo_hand(label, rec):
    """gazebo.launch.py: gazebo_hand runs on the simulation clock for the
    world of the SDF, and a parameter_bridge bridges that world's set-pose
    service on its command line with the service type of gamebot_ros::graph."""
    graph = graph_names()
    hands = [e for e in rec["entities"] if e["kind"] != "process" and e["package"] == "gamebot"
             and e["executable"] == "gazebo_hand"]
    if not ok(len(hands) == 1, f"{label}: gazebo_hand is started {len(hands)} times, not once"):
        return
    params = hands[0]["parameters"]
    ok(params.get("use_sim_time") is True, f"{label}: gazebo_hand does not run with use_sim_time")
    world = params.get("world", GZ_WORLD)
    ok(world == GZ_WORLD, f"{label}: gazebo_hand's world {world} is not the generated world {GZ_WORLD}")
    for p in ("game_file", "camera"):
        ok(p in params, f"{label}: gazebo_hand is not given the world's {p}")
    services = {}
    for e in rec["entities"]:
        if e["kind"] == "process" or (e["package"], e["executable"]) != ("ros_gz_bridge", "parameter_bridge"):
            continue
        for a in e.get("arguments", []):
            m = SERVICE_BRIDGE.match(str(a))
            if ok(m is not None or not str(a).startswith("/"),
                  f"{label}: {e['name']}: bridge argument {a} is not SERVICE@pkg/srv/Type"):
                if m:
                    services[m.group(1)] = m.group(2)
    name = f"/world/{world}/set_pose"
    ok(services.get(name) == "ros_gz_interfaces/srv/SetEntityPose",
       f"{label}: no parameter_bridge bridges {name} as ros_gz_interfaces/srv/SetEntityPose (bridged: {services})")
    ok(graph.get(name) == ("Service", "ros_gz_interfaces/srv/SetEntityPose"),
       f"{label}: {name} is not a ros_gz_interfaces/srv/SetEntityPose service of gamebot_ros::graph "
       f"(graph has {graph.get(name)})")
    ok(graph.get("/sim/human_move", ("",))[0] == "Service", f"{label}: /sim/human_move is not in gamebot_ros::graph")


# ---------------------------------------------------------------- 2./3. URDF, xacro, controllers

def urdf_kinematics(root):
    joints = {}
    for j in root.findall("joint"):
        def attr(tag, key, default=None):
            el = j.find(tag)
            return el.get(key, default) if el is not None else default
        joints[j.get("name")] = (
            j.get("type"), attr("parent", "link"), attr("child", "link"),
            tuple(float(x) for x in (attr("origin", "xyz", "0 0 0")).split()),
            tuple(float(x) for x in (attr("origin", "rpy", "0 0 0")).split()),
            tuple(float(x) for x in (attr("axis", "xyz", "1 0 0")).split()),
            tuple(attr("limit", k) for k in ("lower", "upper", "effort", "velocity")),
            attr("mimic", "joint"),
        )
    links = sorted(link.get("name") for link in root.findall("link"))
    return joints, links


def movable(root):
    return [j.get("name") for j in root.findall("joint")
            if j.get("type") in ("revolute", "prismatic", "continuous") and j.find("mimic") is None]


def check_xacro(xacro_bin):
    arms = sorted(os.path.basename(p)[:-len(".urdf.xacro")] for p in glob.glob(os.path.join(REPO, "urdf", "*.urdf.xacro")))
    ok(set(arms) >= {"al5d", "desk6"}, f"urdf: xacro files for al5d and desk6 expected, found {arms}")
    for arm in arms:
        xacro_file = os.path.join(REPO, "urdf", arm + ".urdf.xacro")
        plain = ET.parse(os.path.join(REPO, "urdf", arm + ".urdf")).getroot()
        controllers = os.path.join(REPO, "config", "controllers.yaml" if arm == "al5d" else f"controllers.{arm}.yaml")
        ok(os.path.isfile(controllers), f"{arm}: {controllers} missing")
        arm_yaml = yaml.safe_load(open(os.path.join(REPO, "config", "arms", arm + ".yaml")))
        gripper = arm_yaml["gripper"]["joint"]
        expanded = {}
        for hw in ("ssc32", "gazebo", "mock"):
            r = subprocess.run([xacro_bin, xacro_file, f"hardware:={hw}", f"controllers:={controllers}"],
                               capture_output=True, text=True)
            if not ok(r.returncode == 0, f"{arm}.urdf.xacro hardware:={hw}: xacro failed: {r.stderr.strip()}"):
                continue
            expanded[hw] = ET.fromstring(r.stdout)
        r = subprocess.run([xacro_bin, xacro_file, "hardware:=bogus", f"controllers:={controllers}"],
                           capture_output=True, text=True)
        ok(r.returncode != 0 and "bogus" in r.stderr, f"{arm}.urdf.xacro: hardware:=bogus is not rejected")
        if len(expanded) < 3:
            continue
        kin = urdf_kinematics(plain)
        for hw, root in expanded.items():
            ok(urdf_kinematics(root) == kin, f"{arm}.urdf.xacro hardware:={hw}: kinematics differ from {arm}.urdf")
            ok(root.get("name") == plain.get("name"), f"{arm}.urdf.xacro: robot name differs")
        ok(expanded["ssc32"].find("ros2_control") is None and expanded["ssc32"].find("gazebo") is None,
           f"{arm}.urdf.xacro hardware:=ssc32 adds Gazebo/ros2_control parts")
        arm_joints = [j for j in movable(plain) if j != gripper]
        for hw, plugin in (("gazebo", "gz_ros2_control/GazeboSimSystem"), ("mock", "mock_components/GenericSystem")):
            rc = expanded[hw].find("ros2_control")
            if not ok(rc is not None, f"{arm}.urdf.xacro hardware:={hw}: no <ros2_control>"):
                continue
            ok(rc.findtext("hardware/plugin") == plugin, f"{arm} {hw}: hardware plugin is not {plugin}")
            rj = [j.get("name") for j in rc.findall("joint")]
            ok(rj == arm_joints + [gripper], f"{arm} {hw}: ros2_control joints {rj} != URDF {arm_joints + [gripper]}")
            for j in rc.findall("joint"):
                ok([c.get("name") for c in j.findall("command_interface")] == ["position"],
                   f"{arm} {hw}: joint {j.get('name')} has no single position command interface")
        gz = expanded["gazebo"].find("gazebo/plugin")
        ok(gz is not None and gz.get("filename") == "gz_ros2_control-system"
           and gz.get("name") == "gz_ros2_control::GazeboSimROS2ControlPlugin"
           and gz.findtext("parameters") == controllers,
           f"{arm} gazebo: gz_ros2_control plugin missing or not pointing at {controllers}")
        ok(expanded["mock"].find("gazebo") is None, f"{arm} mock: has Gazebo parts")
        check_controllers(arm, controllers, arm_joints, gripper)


def check_controllers(arm, path, arm_joints, gripper):
    c = yaml.safe_load(open(path))
    cm = c.get("controller_manager", {}).get("ros__parameters", {})
    types = {k: v.get("type") for k, v in cm.items() if isinstance(v, dict)}
    ok(types.get("joint_trajectory_controller") == "joint_trajectory_controller/JointTrajectoryController",
       f"{path}: joint_trajectory_controller type")
    ok(types.get("gripper_controller") == "position_controllers/GripperActionController",
       f"{path}: gripper_controller is not a position_controllers/GripperActionController")
    ok(types.get("joint_state_broadcaster") == "joint_state_broadcaster/JointStateBroadcaster",
       f"{path}: joint_state_broadcaster missing")
    jtc = c.get("joint_trajectory_controller", {}).get("ros__parameters", {})
    ok(jtc.get("joints") == arm_joints, f"{path}: joints {jtc.get('joints')} != {arm}'s URDF joints {arm_joints}")
    ok(jtc.get("command_interfaces") == ["position"], f"{path}: command interfaces are not [position]")
    grip = c.get("gripper_controller", {}).get("ros__parameters", {})
    ok(grip.get("joint") == gripper, f"{path}: gripper joint {grip.get('joint')} != {gripper}")
    # The action names the arm_controller uses follow from the controller names.
    graph = graph_names()
    for action in ("/joint_trajectory_controller/follow_joint_trajectory", "/gripper_controller/gripper_cmd"):
        ok(graph.get(action, ("",))[0] == "Action", f"{action} is not an action of gamebot_ros::graph")


# ---------------------------------------------------------------- 4. bridge

BRIDGE_PAIRS = {
    "rosgraph_msgs/msg/Clock": "gz.msgs.Clock",
    "sensor_msgs/msg/Image": "gz.msgs.Image",
    "sensor_msgs/msg/CameraInfo": "gz.msgs.CameraInfo",
    "std_msgs/msg/Empty": "gz.msgs.Empty",
    "sensor_msgs/msg/JointState": "gz.msgs.Model",
    "tf2_msgs/msg/TFMessage": "gz.msgs.Pose_V",
}
BRIDGE_KEYS = {"ros_topic_name", "gz_topic_name", "topic_name", "ros_type_name", "gz_type_name",
               "subscriber_queue", "publisher_queue", "lazy", "direction"}


GRIP_TOPIC = re.compile(r"^/gamebot/grip/piece_[A-Za-z0-9_-]+/(attach|detach)$")


def check_bridge(path=None):
    """config/gz_bridge.yaml, or a world's generated bridge file (which may
    also bridge the pieces' DetachableJoint topics, ROS to Gazebo)."""
    path = path or os.path.join(REPO, "config", "gz_bridge.yaml")
    entries = yaml.safe_load(open(path))
    graph = graph_names()
    gz_topics = {}
    if not ok(isinstance(entries, list) and entries, f"{path}: not a non-empty list"):
        return gz_topics
    for i, e in enumerate(entries):
        where = f"{path}: entry {i + 1}"
        ok(set(e) <= BRIDGE_KEYS, f"{where}: unknown keys {sorted(set(e) - BRIDGE_KEYS)}")
        has_pair = "ros_topic_name" in e and "gz_topic_name" in e
        ok(has_pair != ("topic_name" in e), f"{where}: give ros_topic_name + gz_topic_name, or topic_name")
        ros_topic = e.get("ros_topic_name", e.get("topic_name"))
        gz_topic = e.get("gz_topic_name", e.get("topic_name"))
        rt, gt = e.get("ros_type_name"), e.get("gz_type_name")
        ok(BRIDGE_PAIRS.get(rt) == gt, f"{where}: {rt} <-> {gt} is not a ros_gz_bridge type pair")
        ok(e.get("direction", "BIDIRECTIONAL") in ("BIDIRECTIONAL", "GZ_TO_ROS", "ROS_TO_GZ"),
           f"{where}: direction {e.get('direction')}")
        for q in ("subscriber_queue", "publisher_queue"):
            if q in e:
                ok(isinstance(e[q], int) and e[q] > 0, f"{where}: {q} must be a positive integer")
        if "lazy" in e:
            ok(isinstance(e["lazy"], bool), f"{where}: lazy must be a bool")
        if GRIP_TOPIC.match(ros_topic or ""):
            ok(rt == "std_msgs/msg/Empty" and gz_topic == ros_topic and e.get("direction") == "ROS_TO_GZ",
               f"{where}: grip topic {ros_topic} must be std_msgs/msg/Empty, ROS_TO_GZ, same name in Gazebo")
            gz_topics[ros_topic] = gz_topic
            continue
        if (ros_topic or "").endswith("/pose/info"):
            ok(rt == "tf2_msgs/msg/TFMessage" and gz_topic == ros_topic and e.get("direction") == "GZ_TO_ROS",
               f"{where}: pose info {ros_topic} must be tf2_msgs/msg/TFMessage, GZ_TO_ROS, same name in Gazebo")
        kind_type = graph.get(ros_topic)
        ok(kind_type == ("Topic", rt), f"{where}: ROS topic {ros_topic} with {rt} is not in gamebot_ros::graph "
                                       f"(graph has {kind_type})")
        gz_topics[ros_topic] = gz_topic
    return gz_topics


# ---------------------------------------------------------------- 5. rviz

RVIZ_TYPES = {
    "rviz_default_plugins/MarkerArray": "visualization_msgs/msg/MarkerArray",
    "rviz_default_plugins/Image": "sensor_msgs/msg/Image",
    "rviz_default_plugins/RobotModel": "std_msgs/msg/String",
    "rviz_default_plugins/TF": None,
    "rviz_default_plugins/Grid": None,
}


def check_rviz():
    path = os.path.join(REPO, "config", "gamebot.rviz")
    doc = yaml.safe_load(open(path))
    vm = doc.get("Visualization Manager", {})
    graph = graph_names()
    ok(vm.get("Class") == "", f"{path}: Visualization Manager Class must be empty")
    frame = vm.get("Global Options", {}).get("Fixed Frame")
    ok(frame == "base_link", f"{path}: fixed frame {frame} is not base_link")
    links = {link.get("name") for link in ET.parse(os.path.join(REPO, "urdf", "al5d.urdf")).getroot().findall("link")}
    ok(frame in links, f"{path}: fixed frame {frame} is not a link of the URDF")
    classes = set()
    for d in vm.get("Displays", []):
        cls = d.get("Class")
        classes.add(cls)
        if not ok(cls in RVIZ_TYPES, f"{path}: display {d.get('Name')}: unknown class {cls}"):
            continue
        topic = None
        if cls == "rviz_default_plugins/RobotModel":
            ok(d.get("Description Source") == "Topic", f"{path}: RobotModel must read the description from a topic")
            topic = d.get("Description Topic", {}).get("Value")
            ok(d.get("Description Topic", {}).get("Durability Policy") == "Transient Local",
               f"{path}: RobotModel's topic must be Transient Local (latched /robot_description)")
        elif RVIZ_TYPES[cls]:
            topic = d.get("Topic", {}).get("Value")
        if RVIZ_TYPES[cls]:
            ok(graph.get(topic) == ("Topic", RVIZ_TYPES[cls]),
               f"{path}: display {d.get('Name')}: topic {topic} with {RVIZ_TYPES[cls]} is not in gamebot_ros::graph")
    for needed in ("rviz_default_plugins/RobotModel", "rviz_default_plugins/TF", "rviz_default_plugins/MarkerArray",
                   "rviz_default_plugins/Image"):
        ok(needed in classes, f"{path}: no {needed} display")
    ok("Window Geometry" in doc and "Panels" in doc, f"{path}: Panels / Window Geometry missing")


# ---------------------------------------------------------------- 6. SDF

def game_robot_positions(game_file):
    """location name -> (x, y, z) cm from `robot=x,y,z` lines (a plain reading of the game file)."""
    out, current = {}, None
    in_locations = False
    for line in open(game_file):
        s = line.strip()
        if s.startswith("["):
            in_locations = s.upper() == "[LOCATIONS]"
            current = None
            continue
        if not in_locations:
            continue
        m = re.match(r"name\s*=\s*(\S+)", s)
        if m:
            current = m.group(1)
        m = re.match(r"robot\s*=\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$", s)
        if m and current:
            out[current] = tuple(float(x) for x in m.groups())
    return out


def check_sdf(gamebot, gz_topics):
    game_file = os.path.join(REPO, "games", "tictactoe.game")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "world.sdf")
        bridge = os.path.join(tmp, "bridge.yaml")
        r = subprocess.run([gamebot, "gazebo", "world", game_file, "--output", out, "--bridge", bridge,
                            "--camera", os.path.join(REPO, "config/camera/sim.yaml")],
                           capture_output=True, text=True, cwd=REPO)
        if not ok(r.returncode == 0, f"gamebot gazebo world failed: {r.stderr.strip()}"):
            return
        root = ET.parse(out).getroot()
        world_topics = check_bridge(bridge)
    # The world's bridge: every static entry, and each piece's DetachableJoint topics.
    for ros_topic, gz_topic in gz_topics.items():
        ok(world_topics.get(ros_topic) == gz_topic, f"world bridge: {ros_topic} missing or changed")
    ok(root.tag == "sdf" and root.get("version") == "1.9", "SDF: root is not <sdf version=1.9>")
    world = root.find("world")
    models = world.findall("model")
    names = [m.get("name") for m in models]
    ok(len(names) == len(set(names)), "SDF: model names are not unique")
    positions = game_robot_positions(game_file)
    ok(len(positions) >= 9, f"tictactoe.game: only {len(positions)} robot= locations read")
    pieces = [m for m in models if m.get("name").startswith("piece_")]
    ok(len(pieces) > 0, "SDF: no pieces")
    locations_seen = 0
    for m in pieces:
        joint = m.find("plugin[@name='gz::sim::systems::DetachableJoint']")
        if ok(joint is not None, f"SDF: piece {m.get('name')} has no DetachableJoint"):
            for key in ("attach_topic", "detach_topic"):
                t = joint.findtext(key)
                ok(world_topics.get(t) == t, f"world bridge: {m.get('name')}'s {key} {t} is not bridged")
        x, y, z = (float(v) for v in m.findtext("pose").split()[:3])
        length = float(m.findtext("link/collision/geometry/cylinder/length"))
        bottom = (x * 100, y * 100, (z - length / 2) * 100)
        match = [n for n, p in positions.items() if all(abs(a - b) < 1e-4 for a, b in zip(p, bottom))]
        if ok(match, f"SDF: piece {m.get('name')} at {bottom} cm is on no robot= location of the game"):
            locations_seen += 1
    sensor = world.find("model[@name='camera']/link/sensor[@type='camera']")
    if ok(sensor is not None, "SDF: no camera sensor"):
        ok(sensor.findtext("topic") == gz_topics.get("/camera/image_raw"),
           "SDF: camera topic differs from the bridge's Gazebo topic for /camera/image_raw")
        ok(sensor.findtext("camera/camera_info_topic") == gz_topics.get("/camera/camera_info"),
           "SDF: camera info topic differs from the bridge's Gazebo topic for /camera/camera_info")
        ok(sensor.findtext("camera/image/width") == "640" and sensor.findtext("camera/image/height") == "480",
           "SDF: camera image is not 640x480")
        z = float(world.find("model[@name='camera']").findtext("pose").split()[2])
        ok(0.1 < z < 2.0, f"SDF: camera height {z} is not in metres above the table")
    poses = f"/world/{world.get('name')}/pose/info"
    ok(world_topics.get(poses) == poses, f"world bridge: the world's pose info {poses} is not bridged (gazebo_hand)")
    clock = gz_topics.get("/clock", "")
    ok(clock == f"/world/{world.get('name')}/clock", f"bridge: /clock is bridged from {clock}, not the world's clock")
    plugins = {p.get("name") for p in world.findall("plugin")}
    for s in ("Physics", "Sensors", "UserCommands", "SceneBroadcaster"):
        ok(f"gz::sim::systems::{s}" in plugins, f"SDF: world system {s} missing")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--install", help="colcon install prefix of gamebot (install/gamebot)")
    ap.add_argument("--gamebot", help="the gamebot CLI binary")
    ap.add_argument("--structure", action="store_true",
                    help="only the xacro, controllers, bridge and SDF checks (no launch files, no .rviz)")
    ap.add_argument("--xacro", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".venv", "bin", "xacro"))
    a = ap.parse_args()
    if a.install:
        prefix, share = a.install, os.path.join(a.install, "share", "gamebot")
    else:
        # The repository laid out like the install: share/gamebot/{launch,config,urdf,games} = the repo's folders.
        prefix, share = os.path.join(REPO, "target", "launch-standin-prefix"), REPO
    exes = set() if a.structure else check_launch(prefix, share, bool(a.install))
    if not a.install:
        check_xacro(a.xacro)
        gz_topics = check_bridge()
        if not a.structure:
            check_rviz()
        if a.gamebot:
            check_sdf(a.gamebot, gz_topics)
    for p in problems:
        print("launch check: " + p, file=sys.stderr)
    print(f"launch check: {checks} checks, {len(problems)} problems; gamebot executables started by the launch "
          f"files: {', '.join(sorted(exes))}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
