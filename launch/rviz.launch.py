"""RViz beside any of the robot launches (real, sim, gazebo):

    ros2 launch gamebot rviz.launch.py [use_sim_time:=true]

Shows the arm (RobotModel from /robot_description, published latched by the
arm_controller or by robot_state_publisher under Gazebo), TF, the referee's
markers (/visualization_marker_array), the simulated world (/sim/markers),
the camera and the detector's annotated image (config/gamebot.rviz).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def generate_launch_description():
    share = get_package_share_directory("gamebot")
    return LaunchDescription([
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="true beside sim.launch.py and gazebo.launch.py"),
        DeclareLaunchArgument("config", default_value=os.path.join(share, "config", "gamebot.rviz"),
                              description="RViz configuration"),
        Node(package="rviz2", executable="rviz2", name="rviz2", output="screen",
             arguments=["-d", LaunchConfiguration("config")],
             parameters=[{"use_sim_time": ParameterValue(LaunchConfiguration("use_sim_time"), value_type=bool)}]),
    ])
