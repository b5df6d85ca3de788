"""Reads a gamebot bag with the stock Python readers and checks it.

Usage: check_bag.py BAG_DIR GAMEBOT_BIN [--crashed]

- rosbags: every topic's messages decode with types registered from
  gamebot's .msg files and the standard ROS 2 (Jazzy) definitions; the last
  GameState's move history, replayed by the rule engine (`gamebot state`),
  gives that state; /joint_states and /tf are present and time-ordered;
  metadata.yaml's message counts equal the file's.
- mcap (+ mcap-ros2-support): every message decodes with the schema in the
  file (the ros2msg text gamebot wrote).
With --crashed (a bag whose recorder was killed): only what rosbags can read
is checked, and at least one move must be there.
"""

import json
import subprocess
import re
import sys
from pathlib import Path

from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore, get_types_from_msg
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
MSG_DIR = ROOT / "packages" / "gamebot_interfaces" / "msg"
ACTION_DIR = ROOT / "packages" / "gamebot_interfaces" / "action"

failures = []


def check(cond, what):
    if cond:
        print(f"ok    {what}")
    else:
        print(f"FAIL  {what}")
        failures.append(what)


def typestore():
    store = get_typestore(Stores.ROS2_JAZZY)
    types = {}
    for f in sorted(MSG_DIR.glob("*.msg")):
        types.update(get_types_from_msg(f.read_text(), f"gamebot_interfaces/msg/{f.stem}"))
    # An action's feedback topic carries `<Action>_FeedbackMessage`: the goal's
    # UUID and the third section of the .action file (as rosidl generates them).
    for f in sorted(ACTION_DIR.glob("*.action")):
        sections = f.read_text().split("\n---\n")
        name = f"gamebot_interfaces/action/{f.stem}"
        # A bare type in a .action file is a message of the same package.
        msgs = {m.stem for m in MSG_DIR.glob("*.msg")}
        feedback = "\n".join(
            f"gamebot_interfaces/msg/{line}" if line.split("[")[0].split(" ")[0] in msgs else line
            for line in sections[2].splitlines())
        types.update(get_types_from_msg(feedback, f"{name}_Feedback"))
        types.update(get_types_from_msg(
            f"unique_identifier_msgs/UUID goal_id\n{name}_Feedback feedback\n", f"{name}_FeedbackMessage"))
    store.register(types)
    return store


def main():
    bag = Path(sys.argv[1])
    gamebot = sys.argv[2]
    crashed = "--crashed" in sys.argv[3:]
    store = typestore()

    meta = YAML(typ="safe").load((bag / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    check(meta["version"] == 9 and meta["storage_identifier"] == "mcap", "metadata: version 9, mcap")
    meta_counts = {t["topic_metadata"]["name"]: t["message_count"] for t in meta["topics_with_message_count"]}

    decoded = {}
    times = {}
    undecodable = []
    with Reader(bag) as reader:
        for conn, t, raw in reader.messages():
            try:
                msg = store.deserialize_cdr(raw, conn.msgtype)
            except Exception as e:  # noqa: BLE001 - reported below
                undecodable.append(f"{conn.topic}: {e}")
                continue
            decoded.setdefault(conn.topic, []).append(msg)
            times.setdefault(conn.topic, []).append(t)
        file_counts = {c.topic: c.msgcount for c in reader.connections}
    check(not undecodable, f"rosbags: every message decodes ({undecodable[:3]})")
    check(
        {k: v for k, v in meta_counts.items() if v} == {k: len(v) for k, v in decoded.items()},
        f"metadata.yaml counts equal the messages read: {meta_counts} vs { {k: len(v) for k, v in decoded.items()} }",
    )
    check(file_counts == {k: v for k, v in meta_counts.items() if k in file_counts}, "rosbags' own counts equal metadata.yaml")

    states = decoded.get("/game/state", [])
    check(bool(states), "GameState messages present")
    if crashed:
        moves = max((len(s.move_history) for s in states), default=0)
        check(moves >= 1, f"moves up to the last flush are there ({moves})")
    else:
        for topic in ["/joint_states", "/tf"]:
            msgs = decoded.get(topic, [])
            stamps = [m.header.stamp.sec * 10**9 + m.header.stamp.nanosec for m in msgs] if topic == "/joint_states" else [
                m.transforms[0].header.stamp.sec * 10**9 + m.transforms[0].header.stamp.nanosec for m in msgs
            ]
            check(len(msgs) > 0, f"{topic} present ({len(msgs)})")
            check(times[topic] == sorted(times[topic]) and stamps == sorted(stamps), f"{topic} time-ordered")
        last = states[-1]
        game_file = last.game_file
        out = subprocess.run(
            [gamebot, "state", game_file, "--moves", " ".join(last.move_history)],
            check=True, capture_output=True, text=True,
        ).stdout
        st = json.loads(out)
        check(st["winner"] == last.winner and st["terminal"], f"replayed history: winner {st['winner']} == {last.winner}")
        on_board = {l.element: l.location for l in last.board if l.element}
        check(all(st["locations"][e] == loc for e, loc in on_board.items()), "replayed history gives the recorded board")
        played = sum(1 for e in decoded.get("/game/events", []) if e.kind == 1)  # MOVE_PLAYED
        check(played == len(last.move_history), f"one MOVE_PLAYED event per move ({played})")

        from mcap.reader import make_reader
        from mcap_ros2.decoder import DecoderFactory

        mcap_files = [bag / p for p in meta["relative_file_paths"]]
        n = 0
        per_topic = {}
        with open(mcap_files[0], "rb") as f:
            reader = make_reader(f, decoder_factories=[DecoderFactory()])
            check(reader.get_header().profile == "ros2", "mcap: profile ros2")
            # The ros2 decoder of mcap-ros2-support parses schemas with a
            # .msg-file name check that refuses the names ROS 2 generates for
            # an action's parts (`PlanMove_FeedbackMessage`); those topics
            # are decoded by rosbags above, and skipped here.
            summary = reader.get_summary()
            generated = re.compile(r"/action/[A-Za-z0-9]+_[A-Za-z_]+$")
            skipped = sorted(
                c.topic for c in summary.channels.values()
                if generated.search(summary.schemas[c.schema_id].name)
            )
            topics = [c.topic for c in summary.channels.values() if c.topic not in skipped]
            for schema, channel, message, ros_msg in reader.iter_decoded_messages(topics=topics):
                n += 1
                per_topic[channel.topic] = per_topic.get(channel.topic, 0) + 1
                if channel.topic == "/game/state":
                    last_mcap = ros_msg
        expected = meta["message_count"] - sum(meta_counts.get(t, 0) for t in skipped)
        check(n == expected, f"mcap ros2 decoder: all {n} messages decode (action topics left to rosbags: {skipped})")
        check(list(last_mcap.move_history) == list(last.move_history), "mcap and rosbags agree on the last state")

    if failures:
        print(f"0 passed, {len(failures)} failed")
        sys.exit(1)
    print("bag checks passed")


if __name__ == "__main__":
    main()
