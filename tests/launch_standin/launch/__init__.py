"""Stand-in of the ROS 2 `launch` package (tests only; see tests/launch_standin/README.md)."""

from launch.launch_description import LaunchDescription  # noqa: F401
