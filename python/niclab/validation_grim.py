"""Validation of GRIM on Myrinet (seed 004, Ulmer's thesis): Table 5.4's AM, RM-V and
RM-P rows -- minimum latency and maximum bandwidth over 4 B to 2 MB, ping-pong, half
the round trip (L1249-1251) -- for the four host/NI configurations, each its own preset
(``grim-lanai4``, ``grim-lanai9``: the P3 on 32b/33 MHz PCI; ``grim-lanai4-p4`` on
32b/33 MHz, ``grim-lanai9-p4`` on 64b/66 MHz). Table 5.1's sending steps, Table 5.1 +
5.2's receiving steps and Table 5.3's remote memory steps come from the firmware's
trace points (``grim_traced``). Table 8.1's sockets row and Fig. 8.10's shape come from
the sockets emulation (``validation_grim_sockets``); Table 5.6's comparison with GM from
GRIM run as GM's benchmarks run (``validation_grim_gm``); Fig. 5.8's store-and-forward
bandwidth (``validation_grim_sf``); Fig. 5.10's fragment sweep and
Fig. 5.12's cut-through variants as the thesis describes them (``validation_grim_datapaths``).
The presets come from App. A's component figures and marked assumptions, never from
these rows.

Table 5.4 runs the ``grim_cutthrough`` firmware: the thesis's final runs had "all
performance optimizations enabled" (§5.6 L1479), i.e. the cut-through data path of
§5.5.4-5.5.5 with its tuned fragment and segment sizes (the presets'
``grim.cut_through_*``). ``firmware=`` runs the rows on another image (``grim``:
store-and-forward, ``grim_pipelined``) to compare. The step checks (Tables 5.1-5.3)
time single small messages, which every data path handles whole: they run
``grim_traced``."""

from .experiments import run
from .system import System
from .validation import _at, begin, check, merged_set

# Table 5.4's sweep (L1479): 4 B to 2 MB; the maximum is taken over these sizes.
_LATENCY_SIZE = 4
_BANDWIDTH_SIZES = [65536, 262144, 1 << 20, 2 << 20]
_ROWS = (("p3_l4", "grim-lanai4"), ("p3_l9", "grim-lanai9"), ("p4_l4", "grim-lanai4-p4"), ("p4_l9", "grim-lanai9-p4"))
# The data path of Table 5.4's runs (see above).
TABLE_5_4_FIRMWARE = "grim_cutthrough"


def validate_grim(progress=None, overrides=None, rows=None, firmware=TABLE_5_4_FIRMWARE):
    """Table 5.4's AM, RM-V and RM-P rows on the presets of the thesis's four configurations
    (``rows``: a subset of their keys, e.g. ``["p3_l9"]``), on ``firmware``."""
    v, say, pub = begin("grim", progress)
    for key, preset in _ROWS:
        if rows is not None and key not in rows:
            continue
        for transport, tag in (("am", "am"), ("rm-v", "rmv"), ("rm-p", "rmp")):
            say(f"{transport} ping-pong on {preset} ({firmware})")
            lat = run("pingpong", preset=preset, transport=transport, sizes=[_LATENCY_SIZE], firmware=firmware,
                      set=merged_set(None, overrides))
            lat.label = f"{preset} {transport} latency"
            bw = run("pingpong", preset=preset, transport=transport, sizes=_BANDWIDTH_SIZES, repeats=2, firmware=firmware,
                     set=merged_set(None, overrides))
            bw.label = f"{preset} {transport} bandwidth"
            v.results[f"{key}_{tag}_latency"] = lat
            v.results[f"{key}_{tag}_bandwidth"] = bw
            v.checks.append(check(pub, f"{key}_{tag}_latency", _at(lat, _LATENCY_SIZE, "latency_us")))
            v.checks.append(check(pub, f"{key}_{tag}_bandwidth", max(_at(bw, s, "bandwidth_mb_s") for s in _BANDWIDTH_SIZES)))
    if rows is None:
        from .validation_grim_mc import validate_grim_multicast  # §8.1: Fig. 8.7's checks, §8.1.6's copy rates
        from .validation_grim_sockets import validate_grim_sockets  # §8.3: Table 8.1, Fig. 8.10
        from .validation_grim_gm import validate_grim_gm  # §5.7.2: Table 5.6, GRIM run as GM's benchmarks run
        from .validation_grim_datapaths import validate_grim_datapaths  # §5.5: Figs. 5.10 and 5.12
        from .validation_grim_lcs import validate_grim_lcs  # §4.3.4: Fig. 4.10's LC scan
        from .validation_grim_sf import validate_grim_store_forward  # §5.5.1: Fig. 5.8
        for part in (validate_grim_steps(progress, overrides), validate_grim_rm_steps(progress, overrides),
                     validate_grim_lcs(progress, overrides), validate_grim_store_forward(progress, overrides),
                     validate_grim_datapaths(progress, overrides),
                     validate_grim_multicast(progress, overrides), validate_grim_sockets(progress, overrides),
                     validate_grim_gm(progress, overrides)):
            v.checks += part.checks
            v.results.update(part.results)
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
    v, say, pub = begin("grim", progress)
    for k, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        say(f"traced am ping-pong on {preset}")
        r = run("pingpong", preset=preset, transport="am", sizes=[4], repeats=4, firmware="grim_traced", trace=True,
                set=merged_set(None, overrides))
        send, recv = ni_step_times(r)
        v.results[f"t51_{k}"] = r
        v.checks.append(check(pub, f"t51_send_{k}", send))
        v.checks.append(check(pub, f"t51_t52_recv_{k}", recv))
    return v


# Trace values of firmware/grim/grim.h for Table 5.3 (GRIM_TP_*).
_TP_DELIVERED, _TP_SEARCH, _TP_HIT, _TP_MISS, _TP_REQUESTED, _TP_FILLED, _TP_LOCK = 10, 15, 16, 17, 18, 19, 20


def _spans(trace, first, then, since_ns):
    """Times (us) from each record `first` at or after `since_ns` to the next `then`."""
    values, times = list(trace.records["value"]), list(trace.records["sim_time_ns"])
    out = []
    for i, v in enumerate(values):
        if v == first and times[i] >= since_ns:
            j = next((k for k in range(i + 1, len(values)) if values[k] == then), None)
            if j is not None:
                out.append((times[j] - times[i]) / 1000.0)
    return out


def rm_steps(preset, overrides=None):
    """Table 5.3's steps (L1378-1387) at the receiving NI of three RM-V writes from node 0
    to node 1 on `preset` with the traced firmware: 4 B into contiguous registered memory
    (static entries hit; cached lock), 4 B into page-pinned memory (payload and lock
    miss: the driver's interrupt), 64,572 B over 17 pinned pages. {step: us}."""
    spec = {"preset": preset, "nodes": 2, "firmware": "grim_traced"}
    if overrides:
        spec["set"] = dict(overrides)
    s = System(spec)
    a, b = s.grim(0), s.grim(1)
    src = a.malloc_pinned(70000)
    a.write(src, bytes(range(256)) * 273)
    dst, notify = b.malloc_pinned(70000), b.malloc_pinned(4)
    pages, lock = b.pin_pages(80000), b.pin_pages(4)
    out = {}

    def write(target, nbytes, word, value):
        since = s.now_us * 1000.0
        a.rm_write_v(1, target, src, nbytes, word, value)
        b.wait_word(word, value)
        s.run(for_us=200)  # the NI's steps after the word landed (ACK, last trace points)
        return since

    t = write(dst, 4, notify, 1)
    tr = s.nic(1).trace()
    out["search, hit"] = _spans(tr, _TP_SEARCH, _TP_HIT, t)[0]
    out["DMA payload, 4 B"] = _spans(tr, _TP_HIT, _TP_DELIVERED, t)[0]
    out["lock, cached"] = _spans(tr, _TP_DELIVERED, _TP_LOCK, t)[0]
    t = write(pages, 4, lock, 2)
    tr = s.nic(1).trace()
    out["search, miss"] = _spans(tr, _TP_SEARCH, _TP_MISS, t)[0]
    out["DMA translation request"] = _spans(tr, _TP_MISS, _TP_REQUESTED, t)[0]
    out["host interrupt + translation, 1 page"] = _spans(tr, _TP_REQUESTED, _TP_FILLED, t)[0]
    out["lock, non-cached"] = _spans(tr, _TP_DELIVERED, _TP_LOCK, t)[0]
    t = write(pages + 1000, 64572, notify, 3)
    tr = s.nic(1).trace()
    out["host interrupt + translation, 17 pages"] = _spans(tr, _TP_REQUESTED, _TP_FILLED, t)[0]
    return out


_RM_STEP_KEYS = {"search, hit": "t53_search_hit", "search, miss": "t53_search_miss", "DMA translation request": "t53_dma_request",
                 "host interrupt + translation, 1 page": "t53_host_1page", "host interrupt + translation, 17 pages": "t53_host_17pages",
                 "DMA payload, 4 B": "t53_payload_4b", "lock, cached": "t53_lock_cached", "lock, non-cached": "t53_lock_uncached"}


def validate_grim_rm_steps(progress=None, overrides=None):
    """Table 5.3's remote memory steps on the LANai 4 and 9 (P3-550), from the trace points
    of the C firmware (``grim_traced``) and the driver's translation ISR."""
    v, say, pub = begin("grim", progress)
    for k, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        say(f"traced RM-V writes on {preset}")
        steps = rm_steps(preset, overrides)
        for name, key in _RM_STEP_KEYS.items():
            v.checks.append(check(pub, f"{key}_{k}", steps[name]))
    return v
