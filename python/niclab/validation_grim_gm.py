"""GM-style comparison runs: Table 5.6 (seed 004 §5.7.2, L1514-1540) compares GRIM with
Myricom's GM "using the same hardware", GM measured by "GM's internal benchmarking
programs" (L1514). GM itself is not modelled (its firmware is not in the seed); what a
researcher can do is run GRIM the way GM's benchmarks measure a message layer and put
it beside GM's published figures:

- **latency**: half the round trip of a small-message ping-pong (4 B, as Table 5.4);
- **bandwidth**: the sustained one-way data rate, one host sending messages of a size
  back to back and the other receiving them (Myricom's GM performance pages describe
  their bandwidth test this way), i.e. the ``stream`` experiment, not Table 5.4's
  ping-pong bandwidth (a block over half the round trip, L1251).

GRIM runs RM-P, the column Table 5.6 reports (its GRIM figures are Table 5.4's RM-P
row, L1529-1536), on the firmware of Table 5.4 (``grim_cutthrough``, all optimizations
on). The checks are the thesis's conclusion, "in all of these tests the performance of
GRIM was observed as being slightly better than that of GM" (L1538): GRIM's latency
over GM's below 1, GRIM's bandwidth over GM's above 1, per host/NI row."""

from .experiments import run
from .validation import begin, check, merged_set
from .validation_grim import _ROWS, TABLE_5_4_FIRMWARE

LATENCY_SIZE = 4
# Table 5.4's sweep (4 B to 2 MB, L1479); the one-way rate is the largest over these.
STREAM_SIZES = [65536, 262144, 1 << 20, 2 << 20]
TRANSPORT = "rm-p"


def gm_style(preset, transport=TRANSPORT, overrides=None, firmware=TABLE_5_4_FIRMWARE):
    """GRIM on `preset` measured as GM's benchmarks measure: {"latency_us": half the round
    trip of a 4-byte ping-pong, "bandwidth_mb_s": the largest one-way streaming rate over
    64 KB..2 MB, "results": the two experiment results}."""
    settings = merged_set(None, overrides)
    lat = run("pingpong", preset=preset, transport=transport, sizes=[LATENCY_SIZE], firmware=firmware, set=settings)
    lat.label = f"{preset} {transport} latency (GM's method)"
    bw = run("stream", preset=preset, transport=transport, sizes=STREAM_SIZES, firmware=firmware, set=settings)
    bw.label = f"{preset} {transport} one-way rate (GM's method)"
    return {"latency_us": float(lat["latency_us"][0]), "bandwidth_mb_s": float(max(bw["bandwidth_mb_s"])),
            "results": (lat, bw)}


def validate_grim_gm(progress=None, overrides=None, rows=None):
    """Table 5.6's comparison, GRIM measured by GM's method against GM's published figures."""
    v, say, pub = begin("grim", progress)
    for key, preset in _ROWS:
        if rows is not None and key not in rows:
            continue
        say(f"GM-style {TRANSPORT} runs on {preset} ({TABLE_5_4_FIRMWARE})")
        g = gm_style(preset, overrides=overrides)
        v.results[f"gm_style_{key}_latency"], v.results[f"gm_style_{key}_bandwidth"] = g["results"]
        v.checks.append(check(pub, f"t5_6_{key}_latency_vs_gm", g["latency_us"] / pub[f"{key}_gm_latency"]["value"]))
        v.checks.append(check(pub, f"t5_6_{key}_bandwidth_vs_gm", g["bandwidth_mb_s"] / pub[f"{key}_gm_bandwidth"]["value"]))
    return v
