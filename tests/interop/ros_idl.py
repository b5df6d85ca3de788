"""Builds Cyclone DDS (Python) IDL types from ROS 2 .msg files.

The types are generated at run time from the same definition files the Rust
mirrors are checked against (packages/gamebot_interfaces/{msg,srv,action} and
the transcribed standard ones in packages/gamebot_interfaces/testdata/ros),
with the DDS type names ROS 2 uses (``pkg::msg::dds_::Name_``), so a Cyclone
reader matches a gamebot writer exactly as a ROS 2 node would.
"""

import re
from pathlib import Path

from cyclonedds.idl import make_idl_struct
from cyclonedds.idl import types as t

PRIMITIVES = {
    "bool": bool,
    "byte": t.uint8,
    "char": t.uint8,
    "int8": t.int8,
    "uint8": t.uint8,
    "int16": t.int16,
    "uint16": t.uint16,
    "int32": t.int32,
    "uint32": t.uint32,
    "int64": t.int64,
    "uint64": t.uint64,
    "float32": t.float32,
    "float64": t.float64,
    "string": str,
}

FIELD_RE = re.compile(r"^(?P<type>[A-Za-z0-9_/<=]+)(?P<array>\[(?:<=)?\d*\])?\s+(?P<name>[a-z][a-z0-9_]*)(?:\s+.*)?$")


def parse_msg(text):
    """Returns [(field_name, base_type, array_suffix)] of a .msg text, constants skipped."""
    fields = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 1)
        if len(parts) == 2 and "=" in parts[1].split()[0]:
            continue  # a constant: TYPE NAME=VALUE
        m = FIELD_RE.match(line)
        if not m:
            raise ValueError(f"cannot parse field line: {raw!r}")
        fields.append((m.group("name"), m.group("type"), m.group("array") or ""))
    return fields


class Registry:
    """Finds .msg files by package and builds their IdlStruct classes on demand."""

    def __init__(self, roots):
        self.files = {}
        for root in roots:
            for f in Path(root).glob("**/msg/*.msg"):
                self.files[(f.parent.parent.name, f.stem)] = f
        self.built = {}

    def get(self, package, name):
        key = (package, name)
        if key in self.built:
            return self.built[key]
        if key not in self.files:
            raise KeyError(f"no definition for {package}/{name}")
        annotations = {}
        for fname, ftype, array in parse_msg(self.files[key].read_text()):
            annotations[fname] = self._field_type(package, ftype, array)
        typename = f"{package}::msg::dds_::{name}_"
        cls = make_idl_struct(f"{package}__{name}", typename, annotations)
        self.built[key] = cls
        return cls

    def _field_type(self, package, ftype, array):
        if ftype.startswith("string<="):
            base = t.bounded_str[int(ftype[len("string<="):])]
        elif ftype in PRIMITIVES:
            base = PRIMITIVES[ftype]
        else:
            pkg, _, nm = ftype.rpartition("/")
            base = self.get(pkg or package, nm)
        if not array:
            return base
        inner = array[1:-1]
        if inner == "":
            return t.sequence[base]
        if inner.startswith("<="):
            return t.sequence[base, int(inner[2:])]
        return t.array[base, int(inner)]


def service_types(registry, package, name, srv_root, header):
    """(Request, Response) IdlStruct classes of ``srv/<name>.srv`` with the
    given header fields first, named as ROS 2 names them on DDS
    (``pkg::srv::dds_::Name_Request_`` / ``_Response_``).

    ``header`` is the per-request id the RMW puts in front of the payload:
    rmw_cyclonedds writes a 64-bit client id and a 64-bit sequence number.
    """
    text = (Path(srv_root) / "srv" / f"{name}.srv").read_text()
    parts = text.split("\n---")
    if len(parts) != 2:
        raise ValueError(f"{name}.srv: expected one '---' separator")
    out = []
    for part, suffix in zip(parts, ["Request", "Response"]):
        annotations = dict(header)
        for fname, ftype, array in parse_msg(part):
            annotations[fname] = registry._field_type(package, ftype, array)
        typename = f"{package}::srv::dds_::{name}_{suffix}_"
        out.append(make_idl_struct(f"{package}__{name}_{suffix}", typename, annotations))
    return tuple(out)


CYCLONE_REQUEST_HEADER = {"client_id": t.uint64, "sequence": t.int64}
