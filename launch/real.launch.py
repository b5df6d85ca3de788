"""The real robot: USB camera, SSC-32U arm, and the nodes that play.

    ros2 launch gamebot real.launch.py game:=games/tictactoe.game \
        camera:=config/camera/mine.yaml port:=/dev/ttyUSB0 arm:=al5d

The camera node reads `device` (default /dev/video0); `camera` is the
calibration file `gamebot calibrate` wrote; ssc32_bridge opens `port`. The
referee learns the person's moves from the camera. `record:=true` also starts
the recorder. Parameters not given here come from config/real.yaml.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration, PythonExpression
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory("gamebot")
    params = os.path.join(share, "config", "real.yaml")
    game = LaunchConfiguration("game")
    robot = LaunchConfiguration("robot")
    opponent = LaunchConfiguration("opponent")
    arm = LaunchConfiguration("arm")
    camera = LaunchConfiguration("camera")
    kinds = PythonExpression([
        "(lambda r, o: [r, o] if '", LaunchConfiguration("robot_player"), "' == '1' else [o, r])(",
        "'ai:", robot, "', 'camera' if '", opponent, "' == 'camera' else '", opponent, "')",
    ])
    return LaunchDescription([
        DeclareLaunchArgument("game", default_value=os.path.join(share, "games", "tictactoe.game"),
                              description="rule file of the game"),
        DeclareLaunchArgument("robot", default_value="mcts:time=1s",
                              description="strategy of the arm's player"),
        DeclareLaunchArgument("opponent", default_value="camera",
                              description="camera (a person, seen by the camera) or ai:<strategy>"),
        DeclareLaunchArgument("robot_player", default_value="1", description="the arm's player: 1 or 2"),
        DeclareLaunchArgument("arm", default_value="al5d", description="arm name (config/arms/) or YAML path"),
        DeclareLaunchArgument("port", default_value="/dev/ttyUSB0", description="serial device of the SSC-32U"),
        DeclareLaunchArgument("device", default_value="/dev/video0", description="camera device"),
        DeclareLaunchArgument("camera", default_value=os.path.join(share, "config", "camera", "sim.yaml"),
                              description="camera calibration file (gamebot calibrate)"),
        DeclareLaunchArgument("record", default_value="false", description="true: record a bag (recorder)"),
        DeclareLaunchArgument("web", default_value="true",
                              description="true: the web UI on http://127.0.0.1:8080 (board, camera, moves; a person's clicks)"),
        Node(package="gamebot", executable="camera", name="camera", output="screen",
             parameters=[params, {"device": LaunchConfiguration("device"), "calibration": camera}]),
        Node(package="gamebot", executable="ssc32_bridge", name="ssc32_bridge", output="screen",
             parameters=[params, {"port": LaunchConfiguration("port"), "arm": arm}]),
        Node(package="gamebot", executable="detector", name="detector", output="screen",
             parameters=[params, {"calibration": camera}]),
        Node(package="gamebot", executable="referee", name="referee", output="screen",
             parameters=[params, {"game_file": game, "player_kinds": kinds,
                                  "arm": True, "camera": True}]),
        Node(package="gamebot", executable="planner", name="planner", output="screen",
             parameters=[params, {"strategy": robot}]),
        Node(package="gamebot", executable="arm_controller", name="arm_controller", output="screen",
             parameters=[params, {"arm": arm}]),
        Node(package="gamebot", executable="recorder", name="recorder", output="screen",
             parameters=[params], condition=IfCondition(LaunchConfiguration("record"))),
        Node(package="gamebot", executable="web", name="web", output="screen",
             parameters=[params, {"games_dir": os.path.join(share, "games")}],
             condition=IfCondition(LaunchConfiguration("web"))),
    ])
