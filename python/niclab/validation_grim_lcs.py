"""Fig. 4.10 of seed 004 (§4.3.4 L1113-1121, App. A L2257-2259): the time the sending NI
takes to scan its outgoing logical channels when none holds a message, on the LANai 4
and the LANai 9, against the number of LCs. Read from the C firmware's own trace points
on the modelled core (``grim_lcscan_traced``: GRIM_TP_SCAN at the scan's start,
GRIM_TP_SCAN_EMPTY where it found nothing, firmware/grim/lc_send.c), never fitted.

The images scan at most ``GRIM_MAX_LCS`` = 8 LCs, so N = 1 and 8 are checks; the
thesis's N = 16 and 32 stay published references (grim_fw.h says why). The thesis also
says that "sending is affected by the LC count; receiving is not" (L1113): the receiving
NI's decode-to-ACK time (Tables 5.1-5.2's steps) is reported beside each scan."""

from .system import System
from .validation import begin, check, merged_set
from .validation_grim import ni_step_times

SCAN_FIRMWARE = "grim_lcscan_traced"
SCAN_LCS = (1, 8)  # the N of Fig. 4.10 the firmware can be configured with
# Trace values of firmware/grim/grim.h (GRIM_TP_SCAN, GRIM_TP_SCAN_EMPTY).
_TP_SCAN, _TP_SCAN_EMPTY = 34, 35


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


class _Traces:
    """What ``ni_step_times`` reads: a run's traces (one per NI)."""

    def __init__(self, traces):
        self.traces = traces


def scan_run(preset, lcs, overrides=None, messages=6):
    """A 4-byte AM ping-pong between the LC 0 endpoints of two nodes configured with
    `lcs` LCs, every one of them opened (enabled, empty), on the scan image. Returns
    (empty scans in us, {"recv": the receiving NI's decode-to-ACK in us})."""
    own = {"grim.lcs": lcs}
    s = System({"preset": preset, "nodes": 2, "firmware": SCAN_FIRMWARE, "set": merged_set(own, overrides)})
    eps = [[s.grim(node, lc) for lc in range(lcs)] for node in (0, 1)]
    a, b = eps[0][0], eps[1][0]
    a.handler("scan")
    b.handler("scan")
    for k in range(messages):
        a.am_send(1, "scan", [k], b"ping")
        b.wait(1)
        b.am_send(0, "scan", [k], b"pong")
        a.wait(1)
    s.run(for_us=200)  # the last ACKs and the passes after them
    traces = [s.nic(node).trace() for node in (0, 1)]
    spans = []
    for t in traces:
        values, times = list(t.records["value"]), list(t.records["sim_time_ns"])
        spans += [(times[i + 1] - times[i]) / 1000.0 for i in range(len(values) - 1)
                  if values[i] == _TP_SCAN and values[i + 1] == _TP_SCAN_EMPTY]
    _, recv = ni_step_times(_Traces(traces))
    return spans, {"recv": recv}


def lc_scan_table(overrides=None):
    """{(card, N): (empty scan us, receiving NI decode-to-ACK us)} for the LANai 4 and 9
    and N in ``SCAN_LCS``."""
    out = {}
    for card, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        for n in SCAN_LCS:
            spans, other = scan_run(preset, n, overrides)
            out[(card, n)] = (_median(spans), other["recv"])
    return out


def validate_grim_lcs(progress=None, overrides=None):
    """Fig. 4.10's scan times for N = 1 and 8 on the LANai 4 and 9 as checks."""
    v, say, pub = begin("grim", progress)
    say("LC scans (Fig. 4.10) on grim-lanai4 and grim-lanai9")
    table = lc_scan_table(overrides)
    for (card, n), (scan, recv) in table.items():
        v.checks.append(check(pub, f"fig410_scan_{n}_{card}", scan))
        say(f"LANai {card[1]}, {n} LC(s): empty scan {scan:.3g} us; receiving NI decode to ACK {recv:.4g} us (L1113: not affected)")
    return v
