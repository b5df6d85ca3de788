"""gamebot in Gazebo (Harmonic) with ros2_control (ROS 2 Jazzy):

    ros2 launch gamebot gazebo.launch.py game:=games/tictactoe.game [gui:=false] [headless:=true]

1. `gamebot gazebo world` writes the SDF world of the game (table, board
   sheet and location marks, every piece at its initial location, the camera
   at the calibrated pose); when it has finished:
2. `gz sim` runs it (`gui:=false` runs the server only; `headless:=true`
   renders the camera without a display);
3. robot_state_publisher publishes the arm's description from the xacro with
   `hardware:=gazebo` (the gz_ros2_control plugin and the controllers of
   config/controllers*.yaml); ros_gz_sim `create` spawns it from
   /robot_description; once spawned, the controller manager's spawner loads
   joint_state_broadcaster, joint_trajectory_controller and gripper_controller;
4. ros_gz_bridge bridges /clock, the camera (config/gz_bridge.yaml) and the
   pieces' DetachableJoint attach/detach topics (the world's bridge file,
   written by `gamebot gazebo world --bridge` beside the world);
5. the detector, referee, planner and arm_controller run on the simulation
   clock, exactly as above the ssc32_bridge: the driver boundary is the same
   FollowJointTrajectory and GripperCommand actions. The arm_controller runs
   with `gazebo_grip`: it attaches the piece the gripper closed on and
   detaches it when it opens (friction grasps of small pieces are unreliable
   in Gazebo);
6. gazebo_hand serves /sim/human_move (the simulated person's moves, e.g.
   the web UI's clicks): it reads where every piece model is from the world's
   pose info (bridged by the world's bridge file) and moves the models with
   Gazebo's set-pose service, which a second parameter_bridge bridges on its
   command line (`SERVICE@ROS_TYPE`; the YAML form of service entries is not
   relied on).
"""

import os
import tempfile

from ament_index_python.packages import get_package_prefix, get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess, RegisterEventHandler
from launch.conditions import IfCondition, UnlessCondition
from launch.event_handlers import OnProcessExit
from launch.substitutions import Command, LaunchConfiguration, PythonExpression
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


# The world `gamebot gazebo world` writes (gamebot_gazebo::WORLD_NAME).
WORLD = "gamebot"
SET_POSE = f"/world/{WORLD}/set_pose"


def generate_launch_description():
    share = get_package_share_directory("gamebot")
    gamebot = os.path.join(get_package_prefix("gamebot"), "lib", "gamebot", "gamebot")
    game = LaunchConfiguration("game")
    arm = LaunchConfiguration("arm")
    camera = LaunchConfiguration("camera")
    world = LaunchConfiguration("world_file")
    bridge = LaunchConfiguration("bridge_file")
    robot = LaunchConfiguration("robot")
    opponent = LaunchConfiguration("opponent")
    sim_time = {"use_sim_time": True}
    xacro_file = PythonExpression(["'", os.path.join(share, "urdf", ""), "' + '", arm, "' + '.urdf.xacro'"])
    controllers = PythonExpression([
        "'", os.path.join(share, "config", "controllers"), "' + ('' if '", arm, "' == 'al5d' else '.' + '",
        arm, "') + '.yaml'",
    ])
    description = ParameterValue(
        Command(["xacro ", xacro_file, " hardware:=gazebo controllers:=", controllers]), value_type=str)
    kinds = PythonExpression([
        "(lambda r, o: [r, o] if '", LaunchConfiguration("robot_player"), "' == '1' else [o, r])(",
        "'ai:", robot, "', 'camera' if '", opponent, "' == 'camera' else '", opponent, "')",
    ])

    make_world = ExecuteProcess(
        cmd=[gamebot, "gazebo", "world", game, "--arm", arm, "--board", LaunchConfiguration("board"),
             "--camera", camera, "--output", world, "--bridge", bridge,
             "--bridge-base", os.path.join(share, "config", "gz_bridge.yaml")],
        name="gazebo_world", output="screen")
    gz_gui = ExecuteProcess(cmd=["gz", "sim", "-r", world], name="gz_sim", output="screen",
                            condition=UnlessCondition(PythonExpression([
                                "'", LaunchConfiguration("headless"), "' == 'true' or '",
                                LaunchConfiguration("gui"), "' == 'false'"])))
    gz_server = ExecuteProcess(cmd=["gz", "sim", "-r", "-s", "--headless-rendering", world],
                               name="gz_sim_server", output="screen",
                               condition=IfCondition(PythonExpression([
                                   "'", LaunchConfiguration("headless"), "' == 'true' or '",
                                   LaunchConfiguration("gui"), "' == 'false'"])))
    spawn = Node(package="ros_gz_sim", executable="create", name="spawn_arm", output="screen",
                 arguments=["-world", WORLD, "-name", "gamebot", "-topic", "/robot_description"])
    controllers_up = Node(package="controller_manager", executable="spawner", name="spawner", output="screen",
                          arguments=["joint_state_broadcaster", "joint_trajectory_controller", "gripper_controller",
                                     "--controller-manager", "/controller_manager"])
    return LaunchDescription([
        DeclareLaunchArgument("game", default_value=os.path.join(share, "games", "tictactoe.game"),
                              description="rule file of the game"),
        DeclareLaunchArgument("arm", default_value="al5d", description="al5d or desk6 (urdf/<arm>.urdf.xacro)"),
        DeclareLaunchArgument("board", default_value="a4", description="board placement (config/boards/)"),
        DeclareLaunchArgument("camera", default_value=os.path.join(share, "config", "camera", "sim.yaml"),
                              description="camera calibration: the Gazebo camera is put at its pose"),
        DeclareLaunchArgument("world_file", default_value=os.path.join(tempfile.gettempdir(), "gamebot_world.sdf"),
                              description="where the generated SDF world is written"),
        DeclareLaunchArgument("bridge_file",
                              default_value=os.path.join(tempfile.gettempdir(), "gamebot_gz_bridge.yaml"),
                              description="where the world's generated ros_gz_bridge file is written"),
        DeclareLaunchArgument("gui", default_value="true", description="false: run the Gazebo server only"),
        DeclareLaunchArgument("headless", default_value="false", description="true: render without a display"),
        DeclareLaunchArgument("robot", default_value="mcts:time=1s", description="strategy of the arm's player"),
        DeclareLaunchArgument("opponent", default_value="camera",
                              description="camera (a person, seen by the camera) or ai:<strategy>"),
        DeclareLaunchArgument("robot_player", default_value="1", description="the arm's player: 1 or 2"),
        DeclareLaunchArgument("web", default_value="true",
                              description="true: the web UI on http://127.0.0.1:8080 (board, camera, moves; a person's clicks)"),
        make_world,
        RegisterEventHandler(OnProcessExit(target_action=make_world, on_exit=[
            gz_gui,
            gz_server,
            Node(package="robot_state_publisher", executable="robot_state_publisher",
                 name="robot_state_publisher", output="screen",
                 parameters=[{"robot_description": description, "use_sim_time": True}]),
            spawn,
            Node(package="ros_gz_bridge", executable="parameter_bridge", name="gz_bridge", output="screen",
                 parameters=[{"config_file": bridge, "use_sim_time": True}]),
            # Gazebo's set-pose service for gazebo_hand (ros_gz_interfaces/srv/SetEntityPose).
            Node(package="ros_gz_bridge", executable="parameter_bridge", name="gz_service_bridge",
                 output="screen", arguments=[SET_POSE + "@ros_gz_interfaces/srv/SetEntityPose"],
                 parameters=[{"use_sim_time": True}]),
        ])),
        RegisterEventHandler(OnProcessExit(target_action=spawn, on_exit=[controllers_up])),
        Node(package="gamebot", executable="detector", name="detector", output="screen",
             parameters=[sim_time, {"calibration": camera}]),
        Node(package="gamebot", executable="referee", name="referee", output="screen",
             parameters=[sim_time, {"game_file": game, "player_kinds": kinds,
                                    "arm": True, "camera": True}]),
        Node(package="gamebot", executable="planner", name="planner", output="screen",
             parameters=[sim_time, {"strategy": robot}]),
        Node(package="gamebot", executable="arm_controller", name="arm_controller", output="screen",
             # robot_state_publisher publishes /tf from the controllers' /joint_states.
             # The gripped piece is attached through the world's DetachableJoint topics.
             parameters=[sim_time, {"arm": arm, "publish_tf": False, "gazebo_grip": True,
                                    "game_file": game}]),
        # The simulated person's moves (/sim/human_move) through Gazebo's set-pose
        # service; the layout is rebuilt from the same inputs as the world.
        Node(package="gamebot", executable="gazebo_hand", name="gazebo_hand", output="screen",
             parameters=[sim_time, {"game_file": game, "arm": arm, "board": LaunchConfiguration("board"),
                                    "camera": camera, "world": WORLD}]),
        # The web UI: a person's clicks become /sim/human_move requests (gazebo_hand).
        Node(package="gamebot", executable="web", name="web", output="screen",
             parameters=[{"games_dir": os.path.join(share, "games")}],
             condition=IfCondition(LaunchConfiguration("web"))),
    ])
