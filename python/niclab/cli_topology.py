"""The command line's --topology: the network a run builds, as a system spec's
"topology" object (an unknown kind's error lists the kinds; README, "A cluster").

Written either as that object in JSON, or shorter as ``KIND[:KEY=VALUE...]``, where a
value ``27x16x24`` is a list of whole numbers and any other is JSON (or text). Red
Storm's machine, a 27 x 16 x 24 mesh closed into a torus in z:

    --topology 'mesh:dims=27x16x24:wrap=[false,false,true]'

The core checks the keys and values and names the one that is wrong
(``topology.dims``); this only turns the text into the object."""

import argparse
import json
import re

_DIMS = re.compile(r"\d+(x\d+)+")


def _value(text):
    if _DIMS.fullmatch(text):
        return [int(d) for d in text.split("x")]
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_topology(text):
    """The topology object of a --topology argument (argparse's type)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            spec = json.loads(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(f"not a JSON object: {e}") from None
        if not isinstance(spec, dict):
            raise argparse.ArgumentTypeError("not a JSON object")
        return spec
    kind, *pairs = text.split(":")
    if not kind:
        raise argparse.ArgumentTypeError(f"wants KIND[:KEY=VALUE...], e.g. torus:dims=4x4x4 (got {text!r})")
    spec = {"kind": kind}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"wants KEY=VALUE after {kind}:, e.g. dims=4x4x4 (got {pair!r})")
        spec[key] = _value(value)
    return spec


def topology_text(spec):
    """A topology object written as --topology takes it (the short form where it has one)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        return json.dumps(spec, separators=(",", ":"))

    def value(v):
        if isinstance(v, list) and len(v) > 1 and all(isinstance(d, int) and not isinstance(d, bool) for d in v):
            return "x".join(str(d) for d in v)
        return json.dumps(v, separators=(",", ":"))

    return ":".join([spec["kind"]] + [f"{k}={value(v)}" for k, v in spec.items() if k != "kind"])
