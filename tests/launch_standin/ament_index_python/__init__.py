"""Stand-in of ament_index_python (tests only; see tests/launch_standin/README.md)."""
