"""Validation of GRIM on Myrinet (seed 004, Ulmer's thesis): Table 5.4's AM and RM-P
rows -- minimum latency and maximum bandwidth over 4 B to 2 MB, ping-pong, half the
round trip (L1249-1251) -- for the four host/NI configurations, each its own preset
(``grim-lanai4``, ``grim-lanai9``: the P3 on 32b/33 MHz PCI; ``grim-lanai4-p4`` on
32b/33 MHz, ``grim-lanai9-p4`` on 64b/66 MHz). RM-V, sockets (Table 8.1) and the
per-step costs of Table 5.1 are not modelled yet (``cpp/src/systems/grim/STATUS.md``).
The presets come from App. A's component figures and marked assumptions, never from
these rows."""

from .experiments import run
from .validation import Validation, _at, check, merged_set, published

# Table 5.4's sweep (L1479): 4 B to 2 MB; the maximum is taken over these sizes.
_LATENCY_SIZE = 4
_BANDWIDTH_SIZES = [65536, 262144, 1 << 20, 2 << 20]
_ROWS = (("p3_l4", "grim-lanai4"), ("p3_l9", "grim-lanai9"), ("p4_l4", "grim-lanai4-p4"), ("p4_l9", "grim-lanai9-p4"))


def validate_grim(progress=None, overrides=None, rows=None):
    """Table 5.4's AM and RM-P rows on the presets of the thesis's four configurations
    (``rows``: a subset of their keys, e.g. ``["p3_l9"]``)."""
    v = Validation("grim")
    say = progress or (lambda text: None)
    pub = published("grim")
    for key, preset in _ROWS:
        if rows is not None and key not in rows:
            continue
        for transport, tag in (("am", "am"), ("rm-p", "rmp")):
            say(f"{transport} ping-pong on {preset}")
            lat = run("pingpong", preset=preset, transport=transport, sizes=[_LATENCY_SIZE], set=merged_set(None, overrides))
            lat.label = f"{preset} {transport} latency"
            bw = run("pingpong", preset=preset, transport=transport, sizes=_BANDWIDTH_SIZES, repeats=2,
                     set=merged_set(None, overrides))
            bw.label = f"{preset} {transport} bandwidth"
            v.results[f"{key}_{tag}_latency"] = lat
            v.results[f"{key}_{tag}_bandwidth"] = bw
            v.checks.append(check(pub, f"{key}_{tag}_latency", _at(lat, _LATENCY_SIZE, "latency_us")))
            v.checks.append(check(pub, f"{key}_{tag}_bandwidth", max(_at(bw, s, "bandwidth_mb_s") for s in _BANDWIDTH_SIZES)))
    return v
