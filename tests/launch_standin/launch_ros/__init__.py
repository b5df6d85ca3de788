"""Stand-in of `launch_ros` (tests only; see tests/launch_standin/README.md)."""
