"""Independent observer of a launched game (Cyclone DDS, Python): waits for
/game/state to reach game over, then checks the final position against the
rule engine's replay of the move history (`gamebot state`).

    observe.py --game GAME_FILE --gamebot PATH [--timeout S]
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))

from cyclonedds.core import Policy, Qos  # noqa: E402
from cyclonedds.domain import DomainParticipant  # noqa: E402
from cyclonedds.sub import DataReader  # noqa: E402
from cyclonedds.topic import Topic  # noqa: E402
from cyclonedds.util import duration  # noqa: E402
from pathlib import Path  # noqa: E402

import ros_idl  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
IFACES = ROOT / "packages/gamebot_interfaces"
REG = ros_idl.Registry([IFACES, IFACES / "testdata/ros"])
GameState = REG.get("gamebot_interfaces", "GameState")
XCDR1 = Policy.DataRepresentation(use_cdrv0_representation=True)
LATCHED = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.TransientLocal,
              Policy.History.KeepLast(1), XCDR1)
PHASE_GAME_OVER = 3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", required=True)
    ap.add_argument("--gamebot", required=True)
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    dp = DomainParticipant(int(os.environ.get("ROS_DOMAIN_ID", "0")))
    reader = DataReader(dp, Topic(dp, "rt/game/state", GameState, qos=LATCHED), qos=LATCHED)
    deadline = time.monotonic() + a.timeout
    last, plies = None, 0
    while time.monotonic() < deadline:
        for s in reader.take(N=10):
            last = s
            if len(s.move_history) != plies:
                plies = len(s.move_history)
                print(f"observe: ply {plies}: {s.move_history[-1]}", flush=True)
            if s.phase == PHASE_GAME_OVER:
                return check(a, s)
        time.sleep(0.05)
    print(f"observe: FAIL: no game over within {a.timeout} s; last state: "
          f"{list(last.move_history) if last else 'none'}", file=sys.stderr)
    return 1


def check(a, s):
    moves = list(s.move_history)
    r = subprocess.run([a.gamebot, "state", a.game, "--moves", " ".join(moves)], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"observe: FAIL: the rule engine rejects the history {moves}: {r.stderr}", file=sys.stderr)
        return 1
    replay = json.loads(r.stdout)
    problems = []
    if not replay.get("terminal"):
        problems.append(f"the replay of {moves} is not a finished game")
    if replay.get("winner") != s.winner:
        problems.append(f"winner {s.winner} differs from the replay's {replay.get('winner')}")
    want = {(loc, el) for el, loc in replay["locations"].items()}
    got = {(l.location, l.element) for l in s.board if l.element}
    if want != got:
        problems.append(f"final board differs from the replay: only in /game/state {sorted(got - want)}, "
                        f"only in the replay {sorted(want - got)}")
    if not moves:
        problems.append("no moves were played")
    if problems:
        for p in problems:
            print("observe: FAIL: " + p, file=sys.stderr)
        return 1
    print(f"observe: game over after {len(moves)} plies, winner {s.winner}; final position equals the replay")
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
