"""Validation of GRIM on Myrinet (seed 004, Ulmer's thesis): Table 5.4's AM and RM-P
rows -- minimum latency and maximum bandwidth over 4 B to 2 MB, ping-pong, half the
round trip (L1249-1251) -- for the four host/NI configurations, each its own preset
(``grim-lanai4``, ``grim-lanai9``: the P3 on 32b/33 MHz PCI; ``grim-lanai4-p4`` on
32b/33 MHz, ``grim-lanai9-p4`` on 64b/66 MHz). Table 5.1's sending steps and Table 5.1 +
5.2's receiving steps come from the firmware's trace points (``grim_traced``). RM-V and
sockets (Table 8.1) are not modelled yet (``cpp/src/systems/grim/STATUS.md``).
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
    if rows is None:
        steps = validate_grim_steps(progress, overrides)
        v.checks += steps.checks
        v.results.update(steps.results)
    return v


# Trace values of firmware/grim/grim.h (GRIM_TP_*).
_TP_DETECT, _TP_SENT, _TP_DECODE, _TP_SEQUENCE, _TP_ACK_DONE = 1, 4, 5, 6, 9


def ni_step_times(result):
    """Mean sending-NI time (detect to transmission started and scoreboard updated) and
    receiving-NI time (decode of a data message to its ACK on the wire), in us, from the
    traces of a run with ``firmware="grim_traced"``."""
    send, recv = [], []
    for t in result.traces:
        r = t.records
        values, times = list(r["value"]), list(r["sim_time_ns"])
        for i, v in enumerate(values):
            if v == _TP_DETECT and values[i:i + 4] == [1, 2, 3, 4]:
                send.append(times[i + 3] - times[i])
            # A data message: its decode is followed by the sequence check (an ACK's is not).
            if v == _TP_DECODE and i + 1 < len(values) and values[i + 1] == _TP_SEQUENCE:
                j = next((k for k in range(i + 1, len(values)) if values[k] == _TP_ACK_DONE), None)
                if j is not None and _TP_DECODE not in values[i + 1:j]:
                    recv.append(times[j] - times[i])
    mean = lambda xs: sum(xs) / len(xs) / 1000.0 if xs else float("nan")
    return mean(send), mean(recv)


# Neighbouring trace points and the step of Tables 5.1-5.2 between them.
STEPS = {(1, 2): "detect new message (found to header read)", (2, 3): "set values in message", (3, 4): "insert in scoreboard",
         (5, 6): "decode and begin processing", (6, 7): "verify sequencing information", (7, 14): "destination capacity check",
         (14, 10): "DMA message to host", (10, 11): "increment queue pointer and DMA it to host",
         (8, 9): "ACK/NACK generation"}


def ni_steps(result):
    """Median time of each step of Tables 5.1-5.2 (``STEPS``), in us, from the traces of a
    run with ``firmware="grim_traced"``: {step name: us}."""
    spans = {k: [] for k in STEPS}
    for t in result.traces:
        values, times = list(t.records["value"]), list(t.records["sim_time_ns"])
        for i in range(len(values) - 1):
            if (values[i], values[i + 1]) in spans:
                spans[(values[i], values[i + 1])].append(times[i + 1] - times[i])
    return {STEPS[k]: float(sorted(v)[len(v) // 2]) / 1000.0 for k, v in spans.items() if v}


def validate_grim_steps(progress=None, overrides=None):
    """Table 5.1's sending steps and Table 5.1 + 5.2's receiving steps on the LANai 4 and 9,
    from the trace points of the C firmware (``grim_traced``) on a 4-byte AM ping-pong."""
    v = Validation("grim")
    say = progress or (lambda text: None)
    pub = published("grim")
    for k, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        say(f"traced am ping-pong on {preset}")
        r = run("pingpong", preset=preset, transport="am", sizes=[4], repeats=4, firmware="grim_traced", trace=True,
                set=merged_set(None, overrides))
        send, recv = ni_step_times(r)
        v.results[f"t51_{k}"] = r
        v.checks.append(check(pub, f"t51_send_{k}", send))
        v.checks.append(check(pub, f"t51_t52_recv_{k}", recv))
    return v
