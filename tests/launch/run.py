"""Starts what a launch file declares (as recorded by the launch stand-in) and
plays one game over DDS. Run through tests/launch/run (inside scripts/netns-run).

Each recorded gamebot node is started as `BIN/<executable> --ros-args
-r __node:=<name> [-r from:=to ...] --params-file <file>`, the parameter
file holding exactly the parameters the launch file gives the node (as
launch_ros does). Nodes of other packages cannot run here and are listed as
skipped; a launch file that declares any makes the run fail.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "launch_standin"))
import standin  # noqa: E402

OBSERVER_PY = os.path.join(REPO, "tests", "interop", ".venv", "bin", "python")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="directory of the built gamebot executables")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds for the whole game")
    ap.add_argument("--allow-missing", action="store_true",
                    help="start the executables that exist and skip the others (a partial run, reported as such)")
    ap.add_argument("launch", nargs="?", default="launch/sim.launch.py")
    ap.add_argument("args", nargs="*", help="launch arguments name:=value")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="gamebot-launch-run-")
    args = {"game": os.path.join(REPO, "games", "tictactoe.game"), "robot": "random",
            "opponent": "ai:random", "port": os.path.join(tmp, "ssc32"), "speed": "20"}
    args.update(dict(x.split(":=", 1) for x in a.args))
    rec = standin.record(os.path.join(REPO, a.launch), args, prefix=os.path.join(REPO, "target"), share=REPO)
    os.environ.setdefault("ROS_DOMAIN_ID", "31")
    procs = []
    failed = []
    try:
        for e in rec["entities"]:
            if e["kind"] != "node" or e["package"] != "gamebot":
                failed.append(f"cannot run {e.get('package')}/{e.get('executable') or e.get('cmd')} here")
                continue
            exe = os.path.join(a.bin, e["executable"])
            if not os.access(exe, os.X_OK):
                failed.append(f"{e['executable']}: not built ({exe} missing)")
                continue
            params = os.path.join(tmp, e["name"] + ".yaml")
            with open(params, "w") as f:
                yaml.safe_dump({e["name"]: {"ros__parameters": e["parameters"]}}, f)
            cmd = [exe] + e["arguments"] + ["--ros-args", "-r", f"__node:={e['name']}"]
            for src, dst in e["remappings"]:
                cmd += ["-r", f"{src}:={dst}"]
            cmd += ["--params-file", params]
            log = open(os.path.join(tmp, e["name"] + ".log"), "w")
            print("launch run: " + " ".join(cmd), flush=True)
            procs.append((e["name"], subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)))
        if failed:
            for f in failed:
                print("launch run: " + f, file=sys.stderr)
            if not a.allow_missing:
                return 1
            print("launch run: PARTIAL: the executables above were skipped (--allow-missing)", file=sys.stderr)
        referee = next(e for e in rec["entities"] if e.get("executable") == "referee")
        game = referee["parameters"]["game_file"]
        obs = subprocess.run([OBSERVER_PY, os.path.join(REPO, "tests", "launch", "observe.py"),
                              "--game", game, "--timeout", str(a.timeout),
                              "--gamebot", os.path.join(a.bin, "gamebot")])
        for name, p in procs:
            if p.poll() is not None:
                print(f"launch run: {name} exited early with {p.returncode}", file=sys.stderr)
                obs = obs if obs.returncode else subprocess.CompletedProcess([], 1)
        if failed and obs.returncode == 0:
            print("launch run: PARTIAL: the game finished, but without the skipped executables", file=sys.stderr)
            return 3
        return obs.returncode
    finally:
        for _, p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 10
        for name, p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                print(f"launch run: {name} did not stop on SIGINT", file=sys.stderr)
        for name, _ in procs:
            path = os.path.join(tmp, name + ".log")
            lines = open(path, errors="replace").read().splitlines()
            print(f"--- {name} (last lines of its log) ---")
            print("\n".join(lines[-8:]))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
