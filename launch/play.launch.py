"""Referee + planner: play a game as ROS 2 nodes.

    ros2 launch gamebot play.launch.py game:=games/connect4.game \
        white:=human black:=ai:alphabeta:time=1s

`white`/`black` are the kinds of players 1 and 2 (`human` or `ai:<strategy>`);
one-player games use only `white`. Parameters not given here come from
config/nodes.yaml.
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration, PythonExpression
from launch_ros.actions import Node
from ament_index_python.packages import get_package_share_directory


def generate_launch_description():
    share = get_package_share_directory("gamebot")
    params = os.path.join(share, "config", "nodes.yaml")
    game = LaunchConfiguration("game")
    white = LaunchConfiguration("white")
    black = LaunchConfiguration("black")
    one_player = LaunchConfiguration("one_player")
    kinds = PythonExpression([
        "['", white, "'] if '", one_player, "' == 'true' else ['", white, "', '", black, "']"
    ])
    return LaunchDescription([
        DeclareLaunchArgument("game", default_value=os.path.join(share, "games", "tictactoe.game"),
                              description="rule file of the game"),
        DeclareLaunchArgument("white", default_value="human", description="player 1: human or ai:<strategy>"),
        DeclareLaunchArgument("black", default_value="ai:mcts:time=1s", description="player 2: human or ai:<strategy>"),
        DeclareLaunchArgument("one_player", default_value="false", description="true for one-player games"),
        DeclareLaunchArgument("strategy", default_value="mcts:time=1s", description="planner default strategy"),
        DeclareLaunchArgument("planner", default_value="true", description="start the planner node"),
        Node(package="gamebot", executable="referee", name="referee", output="screen",
             parameters=[params, {"game_file": game, "player_kinds": kinds}]),
        Node(package="gamebot", executable="planner", name="planner", output="screen",
             parameters=[params, {"strategy": LaunchConfiguration("strategy")}],
             condition=IfCondition(LaunchConfiguration("planner"))),
    ])
