"""Independent DDS peer for the interop test (Eclipse Cyclone DDS, Python).

Subscribes to /interop/state published by gamebot's Rust node, decodes every
field of the gamebot_interfaces/msg/GameState with types generated from the
.msg files, checks each against the values the Rust side sent, then publishes
a gamebot_interfaces/msg/GameEvent on /interop/event and waits for the Rust
node's acknowledgement on /interop/ack. Exit status 0 means both directions
worked. Run inside scripts/netns-run (see tests/interop/run).
"""

import math
import os
import sys
import time
from pathlib import Path

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration

import ros_idl

ROOT = Path(__file__).resolve().parents[2]
REG = ros_idl.Registry([ROOT / "packages/gamebot_interfaces", ROOT / "packages/gamebot_interfaces/testdata/ros"])
GameState = REG.get("gamebot_interfaces", "GameState")
GameEvent = REG.get("gamebot_interfaces", "GameEvent")
Move = REG.get("gamebot_interfaces", "Move")
PhysicalAction = REG.get("gamebot_interfaces", "PhysicalAction")
Point = REG.get("geometry_msgs", "Point")
Header = REG.get("std_msgs", "Header")
Time = REG.get("builtin_interfaces", "Time")
StdString = REG.get("std_msgs", "String")
LocationState = REG.get("gamebot_interfaces", "LocationState")

# ROS 2 encodes samples as XCDR1 (plain CDR), as rmw implementations do.
XCDR1 = Policy.DataRepresentation(use_cdrv0_representation=True)
LATCHED = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.TransientLocal,
              Policy.History.KeepLast(1), XCDR1)
RELIABLE = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.Volatile,
               Policy.History.KeepLast(10), XCDR1)


def expected_state():
    """The same values as known_state() in packages/gamebot_ros/src/bin/probe.rs."""
    return GameState(
        header=Header(stamp=Time(sec=1_700_000_000, nanosec=123_456_789), frame_id="board"),
        game_name="tictactoe",
        game_file="games/tictactoe.txt",
        game_number=3,
        move_history=["x1:supply_x->a1", "o1:supply_o->b2"],
        players=["white", "black"],
        player_kinds=["human", "mcts:iterations=500"],
        current_player=1,
        winner=-1,
        scores=[0, -2],
        board=[
            LocationState(location="a1", location_type="square", relevant=True, element="x1",
                          element_type="x", element_state=1, owner=1),
            LocationState(location="b2", location_type="square", relevant=True, element="o1",
                          element_type="o", element_state=2, owner=2),
            LocationState(location="c3", location_type="square", relevant=False, element="",
                          element_type="", element_state=0, owner=0),
        ],
        legal_moves=["x2:supply_x->a2", "x2:supply_x->c3"],
        phase=1,
        state_hash=0x0123_4567_89AB_CDEF,
    )


def event_to_send():
    """The same values as known_event() in probe.rs."""
    return GameEvent(
        header=Header(stamp=Time(sec=42, nanosec=7), frame_id="cyclone"),
        kind=1,
        game_number=3,
        ply=2,
        player=1,
        move=Move(element="x2", from_location="supply_x", to_location="c3", text="x2:supply_x->c3"),
        actions=[
            PhysicalAction(kind=0, element="x2", element_type="x", from_location="supply_x", to_location="c3",
                           from_state=1, to_state=1, from_position=Point(x=0.135, y=0.09, z=0.0),
                           to_position=Point(x=0.05, y=0.23, z=-0.0025),
                           neighbours=[Point(x=0.16, y=0.09, z=0.0), Point(x=0.05, y=0.26, z=-0.0025)]),
            PhysicalAction(kind=1, element="o1", element_type="o", from_location="b2", to_location="b2",
                           from_state=2, to_state=1, from_position=Point(x=0.0, y=0.0, z=0.0),
                           to_position=Point(x=0.0, y=0.0, z=0.0), neighbours=[]),
        ],
        winner=-1,
        message="from Python: é漢",
    )


def compare(path, got, want, problems):
    """Field-by-field comparison, recording each difference with its path."""
    if hasattr(want, "__dataclass_fields__"):
        for name in want.__dataclass_fields__:
            compare(f"{path}.{name}", getattr(got, name), getattr(want, name), problems)
    elif isinstance(want, (list, tuple)):
        if len(got) != len(want):
            problems.append(f"{path}: length {len(got)} != {len(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            compare(f"{path}[{i}]", g, w, problems)
    elif isinstance(want, float):
        if not math.isclose(got, want, rel_tol=0, abs_tol=0):
            problems.append(f"{path}: {got!r} != {want!r}")
    elif got != want:
        problems.append(f"{path}: {got!r} != {want!r}")


def main():
    domain = int(os.environ.get("ROS_DOMAIN_ID", "0"))
    dp = DomainParticipant(domain)
    state_reader = DataReader(dp, Topic(dp, "rt/interop/state", GameState), qos=LATCHED)
    ack_reader = DataReader(dp, Topic(dp, "rt/interop/ack", StdString), qos=LATCHED)
    event_writer = DataWriter(dp, Topic(dp, "rt/interop/event", GameEvent), qos=RELIABLE)

    deadline = time.monotonic() + 60
    state = None
    while state is None and time.monotonic() < deadline:
        for s in state_reader.take(N=1):
            state = s
        time.sleep(0.05)
    if state is None:
        print("FAIL: no GameState from the Rust node on /interop/state", file=sys.stderr)
        return 1
    problems = []
    compare("GameState", state, expected_state(), problems)
    fields = len(GameState.__dataclass_fields__)
    if problems:
        print("FAIL: GameState decoded with differences:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    print(f"ok cyclonedds decoded GameState from Rust: all {fields} top-level fields and nested ones match")

    ev = event_to_send()
    while time.monotonic() < deadline:
        event_writer.write(ev)
        for a in ack_reader.take(N=1):
            print(f"ok Rust node acknowledged the GameEvent from cyclonedds: {a.data!r}")
            return 0
        time.sleep(0.2)
    print("FAIL: no acknowledgement on /interop/ack", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
