"""Validation of GRIM's multicast by NI recycling (seed 004 §8.1; digest-004 §2.8).

Figs 8.7-8.8 print no numbers: their checks are qualitative (L2095-2097): on four and
eight P4-1.7 hosts with LANai 4 cards (preset ``grim-lanai4-p4``) the native multicast
"require[s] less overhead to inject but ha[s] higher round-trip timings than the
unicast operations". Each is a ratio to 1 here: native / unicast injection time (below
1) and native / unicast round trip (above 1), for the largest of a few message sizes
and for the smallest.

§8.1.6 measured the cards' on-card memory copy at 19 MB/s (LANai 4) and 66 MB/s
(LANai 9) (L2085). The firmware's copy into the multicast queue runs on the modelled
core, so its rate is a result: ``copy_rate`` reads it from the trace points around
the copy (``GRIM_TP_MC_COPY`` .. ``GRIM_TP_MC_COPIED``, firmware/grim/grim.h) at an
interior NI, as the marginal rate between a small and a large message."""

from .experiments import run
from .system import System
from .validation import Check, Validation, check, merged_set, published

# Trace values of firmware/grim/grim.h.
_TP_MC_COPY, _TP_MC_COPIED = 23, 24
# Fig. 8.7's runs: P4-1.7 with LANai 4 (L2095).
FIG_8_7_PRESET = "grim-lanai4-p4"
FIG_8_7_SIZES = [4, 16384]


def copy_spans(trace):
    """(start ns, us) of each on-card copy into the multicast queue in `trace`."""
    values, times = list(trace.records["value"]), list(trace.records["sim_time_ns"])
    out = []
    for i, v in enumerate(values):
        if v == _TP_MC_COPY:
            j = next((k for k in range(i + 1, len(values)) if values[k] == _TP_MC_COPIED), None)
            if j is not None:
                out.append((times[i], (times[j] - times[i]) / 1000.0))
    return out


def copy_rate(preset, small=1024, large=60000, overrides=None):
    """The on-card copy rate (MB/s) of the multicast queue on `preset`: node 0 injects a
    `small` and a `large` multicast into the tree {1, 2} (node 1 the root: it copies each
    for its child), traced firmware; (large - small) bytes / (large - small) copy time.
    Returns (rate, {bytes: us})."""
    spec = {"preset": preset, "nodes": 3, "firmware": "grim_traced"}
    if overrides:
        spec["set"] = dict(overrides)
    s = System(spec)
    nodes = [s.grim(n) for n in range(3)]
    for n in nodes:
        n.handler("copy")
    tree = nodes[0].multicast.find_tree("validate.copy")
    nodes[1].multicast.subscribe(tree)
    nodes[2].multicast.subscribe(tree)
    us = {}
    for size in (small, large):
        since = s.now_us * 1000.0
        nodes[0].multicast.send_mc(tree, "copy", [size], bytes(size))
        nodes[2].wait(1)
        nodes[1].wait(1)
        spans = [d for t, d in copy_spans(s.nic(1).trace()) if t >= since]
        us[size] = spans[0]
    # The copy moves the 32-byte header and the payload (whole words).
    rate = (large - small) / (us[large] - us[small])
    return rate, us


def validate_grim_multicast(progress=None, overrides=None):
    """Figs 8.7's qualitative checks (4 and 8 hosts, P4 + LANai 4) and §8.1.6's copy rates."""
    v = Validation("grim")
    say = progress or (lambda text: None)
    pub = published("grim")

    def ratio(key, simulated, label):
        e = pub[key]
        v.checks.append(Check(f"{e['quantity']}, {label}", e["source"], 1.0, simulated, "x", e.get("bound", ""), key))

    for hosts in (4, 8):
        say(f"multicast benchmark on {hosts} hosts ({FIG_8_7_PRESET})")
        r = run("multicast", preset=FIG_8_7_PRESET, nodes=hosts, groups=[hosts], sizes=FIG_8_7_SIZES, repeats=2,
                set=merged_set(None, overrides))
        r.label = f"{FIG_8_7_PRESET} multicast, {hosts} hosts"
        v.results[f"mc_{hosts}"] = r
        c = r.columns
        for i, size in enumerate(c["bytes"]):
            label = f"{hosts} hosts, {int(size)} B"
            ratio(f"mc_inject_below_unicast_{hosts}", c["native_inject_us"][i] / c["unicast_inject_us"][i], label)
            ratio(f"mc_rtt_above_unicast_{hosts}", c["native_rtt_us"][i] / c["unicast_rtt_us"][i], label)
    for key, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        say(f"traced multicast copies on {preset}")
        rate, _ = copy_rate(preset, overrides=overrides)
        v.checks.append(check(pub, f"mc_copy_rate_{key}", rate))
    return v
