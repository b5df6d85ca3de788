"""The whole robot in the built-in simulation, every node a separate ROS 2 process.

    ros2 launch gamebot sim.launch.py game:=games/connect4.game \
        robot:=alphabeta:time=1s opponent:=camera arm:=al5d record:=true

sim_world runs the simulated table (arm on an emulated SSC-32U behind the pty
symlink `port`, camera frames, /clock); ssc32_bridge drives that pty; the
detector watches the rendered camera; the referee, planner and arm_controller
play. All nodes use the simulation clock. `opponent` is `camera` (a person:
the referee learns the move from the camera) or `ai:<strategy>`. The robot is
player 1 unless `robot_player:=2`. Parameters not given here come from
config/sim.yaml.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration, PythonExpression
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    share = get_package_share_directory("gamebot")
    params = os.path.join(share, "config", "sim.yaml")
    game = LaunchConfiguration("game")
    robot = LaunchConfiguration("robot")
    opponent = LaunchConfiguration("opponent")
    arm = LaunchConfiguration("arm")
    port = LaunchConfiguration("port")
    camera = LaunchConfiguration("camera")
    # The referee's player kinds: the robot plays `ai:<robot>`, the opponent is
    # a person seen by the camera (`camera`) or an AI; the arm makes the AI's
    # moves and the camera confirms them (`arm`, `camera`).
    kinds = PythonExpression([
        "(lambda r, o: [r, o] if '", LaunchConfiguration("robot_player"), "' == '1' else [o, r])(",
        "'ai:", robot, "', 'camera' if '", opponent, "' == 'camera' else '", opponent, "')",
    ])
    sim_time = {"use_sim_time": True}
    return LaunchDescription([
        DeclareLaunchArgument("game", default_value=os.path.join(share, "games", "tictactoe.game"),
                              description="rule file of the game"),
        DeclareLaunchArgument("robot", default_value="mcts:time=1s",
                              description="strategy of the arm's player"),
        DeclareLaunchArgument("opponent", default_value="camera",
                              description="camera (a person, seen by the camera) or ai:<strategy>"),
        DeclareLaunchArgument("robot_player", default_value="1", description="the arm's player: 1 or 2"),
        DeclareLaunchArgument("arm", default_value="al5d", description="arm name (config/arms/) or YAML path"),
        DeclareLaunchArgument("port", default_value="/tmp/gamebot-sim-ssc32",
                              description="symlink to the emulated SSC-32U's pty (sim_world makes it)"),
        DeclareLaunchArgument("camera", default_value=os.path.join(share, "config", "camera", "sim.yaml"),
                              description="camera calibration file"),
        DeclareLaunchArgument("record", default_value="false", description="true: record a bag (recorder)"),
        DeclareLaunchArgument("web", default_value="true",
                              description="true: the web UI on http://127.0.0.1:8080 (board, camera, moves; a person's clicks)"),
        DeclareLaunchArgument("speed", default_value="1.0",
                              description="real-time factor of the simulation (1 = watchable)"),
        Node(package="gamebot", executable="sim_world", name="sim_world", output="screen",
             parameters=[params, {"game_file": game, "arm": arm, "camera": camera, "link": port,
                                  "speed": ParameterValue(LaunchConfiguration("speed"), value_type=float)}]),
        Node(package="gamebot", executable="ssc32_bridge", name="ssc32_bridge", output="screen",
             parameters=[params, {"port": port, "arm": arm}]),
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
             parameters=[params, sim_time], condition=IfCondition(LaunchConfiguration("record"))),
        Node(package="gamebot", executable="web", name="web", output="screen",
             parameters=[params, {"games_dir": os.path.join(share, "games")}],
             condition=IfCondition(LaunchConfiguration("web"))),
    ])
