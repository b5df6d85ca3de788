import os

import yaml

from launch.actions import Action
from launch.substitutions import Substitution, perform
from launch_ros.parameter_descriptions import ParameterValue


def _flatten(prefix, value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def _yaml_value(text):
    """How launch_ros turns a substituted parameter text into a value (YAML rules)."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _value(v, context):
    if isinstance(v, ParameterValue):
        return v.evaluate(context)
    if isinstance(v, (Substitution, list)) and not (
            isinstance(v, list) and all(not isinstance(x, Substitution) for x in v)):
        return _yaml_value(perform(v, context))
    if isinstance(v, dict):
        return {k: _value(x, context) for k, x in v.items()}
    return v


class Node(Action):
    def __init__(self, *, executable, package=None, name=None, namespace=None, output=None,
                 parameters=None, remappings=None, arguments=None, ros_arguments=None, condition=None,
                 **kwargs):
        super().__init__(condition)
        self.package = package
        self.executable = executable
        self.name = name
        self.namespace = namespace
        self.parameters = parameters or []
        self.remappings = remappings or []
        self.arguments = arguments or []

    def record(self, context):
        name = perform(self.name, context) or perform(self.executable, context)
        params = {}
        files = []
        for p in self.parameters:
            if isinstance(p, dict):
                flat = {}
                _flatten("", {k: _value(v, context) for k, v in p.items()}, flat)
                params.update(flat)
                continue
            path = perform(p, context)
            files.append(path)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"node {name}: parameter file {path} does not exist")
            with open(path) as f:
                doc = yaml.safe_load(f) or {}
            for key, block in doc.items():
                if key in ("/**", name, "/" + name, "**"):
                    flat = {}
                    _flatten("", (block or {}).get("ros__parameters", {}) or {}, flat)
                    params.update(flat)
        return {
            "kind": "node",
            "package": perform(self.package, context),
            "executable": perform(self.executable, context),
            "name": name,
            "namespace": perform(self.namespace, context),
            "parameters": params,
            "param_files": files,
            "remappings": [(perform(a, context), perform(b, context)) for a, b in self.remappings],
            "arguments": [perform(a, context) for a in self.arguments],
        }
