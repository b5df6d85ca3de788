"""Loads a launch file through the stand-in and records what it would start.

    python3 tests/launch_standin/standin.py launch/sim.launch.py game:=... [--prefix DIR]

prints the recording as JSON. `record()` is the library entry point.
"""

import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from launch import LaunchDescription  # noqa: E402
from launch.actions import DeclareLaunchArgument, ExecuteProcess, RegisterEventHandler  # noqa: E402
from launch.event_handlers import OnProcessExit  # noqa: E402
from launch.substitutions import perform  # noqa: E402
from launch_ros.actions import Node  # noqa: E402


class Context:
    def __init__(self, configurations):
        self.configurations = dict(configurations)
        self.commands = []


class LaunchError(Exception):
    pass


def _load(path):
    spec = importlib.util.spec_from_file_location("gamebot_launch_" + os.path.basename(path).split(".")[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, "generate_launch_description"):
        raise LaunchError(f"{path}: no generate_launch_description()")
    ld = module.generate_launch_description()
    if not isinstance(ld, LaunchDescription):
        raise LaunchError(f"{path}: generate_launch_description() did not return a LaunchDescription")
    return ld


def record(path, arguments=None, prefix=None, share=None):
    """The nodes and processes `path` starts with `arguments` (name -> text).

    Returns {"arguments": {name: {"default", "description"}}, "configurations",
    "entities": [...], "commands": [...]}; each entity has `after` (the name of
    the process whose exit starts it, or None)."""
    if prefix:
        os.environ["GAMEBOT_STANDIN_PREFIX"] = prefix
    if share:
        os.environ["GAMEBOT_STANDIN_SHARE"] = share
    ld = _load(path)
    arguments = dict(arguments or {})
    declared = {}
    context = Context({})
    # Arguments given on the command line apply before anything is evaluated.
    context.configurations.update(arguments)
    entities = []

    def visit(actions, after):
        for a in actions:
            if a.condition is not None and not a.condition.evaluate(context):
                continue
            if isinstance(a, DeclareLaunchArgument):
                declared[a.name] = {"default": perform(a.default_value, context), "description": a.description}
                if a.name not in context.configurations:
                    if a.default_value is None:
                        raise LaunchError(f"{path}: argument '{a.name}' has no default and was not given")
                    context.configurations[a.name] = perform(a.default_value, context)
                if a.choices and context.configurations[a.name] not in a.choices:
                    raise LaunchError(f"{path}: argument '{a.name}' must be one of {a.choices}")
            elif isinstance(a, (Node, ExecuteProcess)):
                rec = a.record(context)
                rec["after"] = after
                rec["_action"] = a
                entities.append(rec)
            elif isinstance(a, RegisterEventHandler):
                h = a.event_handler
                if not isinstance(h, OnProcessExit):
                    raise LaunchError(f"{path}: unsupported event handler {type(h).__name__}")
                pending.append(h)
            else:
                raise LaunchError(f"{path}: unsupported action {type(a).__name__}")

    pending = []
    visit(ld.entities, None)
    # Event handlers run after every directly started entity is known.
    done = set()
    while pending:
        h = pending.pop(0)
        target = next((e for e in entities if e["_action"] is h.target_action), None)
        if target is None:
            raise LaunchError(f"{path}: an OnProcessExit handler targets an action that is never started")
        if id(h) in done:
            continue
        done.add(id(h))
        visit(h.on_exit, target["name"])
    unknown = set(arguments) - set(declared)
    if unknown:
        raise LaunchError(f"{path}: arguments not declared by the launch file: {sorted(unknown)}")
    for e in entities:
        del e["_action"]
    return {"arguments": declared, "configurations": context.configurations, "entities": entities,
            "commands": context.commands}


def main(argv):
    prefix = None
    if "--prefix" in argv:
        i = argv.index("--prefix")
        prefix = argv[i + 1]
        del argv[i:i + 2]
    path, rest = argv[0], argv[1:]
    args = dict(a.split(":=", 1) for a in rest)
    print(json.dumps(record(path, args, prefix=prefix), indent=2, default=str))


if __name__ == "__main__":
    main(sys.argv[1:])
