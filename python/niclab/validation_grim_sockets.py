"""Table 8.1's GRIM Sockets row (seed 004 §8.3.4, L2175-2180) and the shape of Fig. 8.10
(L2171) against the sockets emulation (``cpp/src/systems/grim/sockets.hpp``), as checks:
nothing here sets a parameter.

§8.3.4's benchmark opens a connection between two hosts and moves a block back and
forth over a range of sizes: the ``pingpong`` experiment over the ``sockets`` transport,
latency at 4 B (as Table 5.4) and the largest bandwidth (block / half the round trip) of
the sweep. Both columns use LANai 4 cards: the P3-550 is ``grim-lanai4``, the P4-1.7
``grim-lanai4-p4`` (both 32b/33 MHz PCI).

Firmware: ``grim`` (store-and-forward, 63 KB fragments). Fig. 8.10's dip comes where
"GRIM begins fragmenting transmissions" at "approximately 64 KB" (L2171): the library
fragmented at ~64 KB, i.e. not with the cut-through configuration's 16 KB LANai 4
fragments of §5.5.5 (whose dip would be at 16 KB)."""

from .experiments import run
from .validation import _at, begin, check, merged_set

SOCKETS_FIRMWARE = "grim"
LATENCY_SIZE = 4
# Fig. 8.10's range around the fragment size (63 KB = 64,512 B) and up to Table 5.4's 2 MB.
FRAGMENT = 63 * 1024
SIZES = [4096, 16384, 32768, FRAGMENT, FRAGMENT + 1024, 131072, 262144, 1 << 20, 2 << 20]
ROWS = (("p3", "grim-lanai4"), ("p4", "grim-lanai4-p4"))


def sweep(preset, transport, sizes, overrides=None, firmware=SOCKETS_FIRMWARE):
    """A ping-pong sweep of `transport` on `preset` (the §8.3.4 benchmark for ``sockets``)."""
    r = run("pingpong", preset=preset, transport=transport, sizes=sizes, repeats=2, firmware=firmware, set=merged_set(None, overrides))
    r.label = f"{preset} {transport} ({firmware})"
    return r


def validate_grim_sockets(progress=None, overrides=None, rows=None):
    """Table 8.1's GRIM Sockets latency and bandwidth on the P3 and P4 with LANai 4 cards,
    and Fig. 8.10's shape: bandwidth rising to the fragment size, dipping just past it,
    and below the AM curve."""
    v, say, pub = begin("grim", progress)
    for key, preset in ROWS:
        if rows is not None and key not in rows:
            continue
        say(f"sockets ping-pong on {preset} ({SOCKETS_FIRMWARE})")
        lat = sweep(preset, "sockets", [LATENCY_SIZE], overrides)
        bw = sweep(preset, "sockets", SIZES, overrides)
        say(f"am ping-pong on {preset} ({SOCKETS_FIRMWARE}), for Fig. 8.10's comparison")
        am = sweep(preset, "am", SIZES, overrides)
        v.results[f"sockets_{key}_latency"] = lat
        v.results[f"sockets_{key}_bandwidth"] = bw
        v.results[f"sockets_{key}_am"] = am
        b = {s: _at(bw, s, "bandwidth_mb_s") for s in SIZES}
        a = {s: _at(am, s, "bandwidth_mb_s") for s in SIZES}
        v.checks.append(check(pub, f"sockets_{key}_latency", _at(lat, LATENCY_SIZE, "latency_us")))
        v.checks.append(check(pub, f"sockets_{key}_bandwidth", max(b.values())))
        v.checks.append(check(pub, f"fig8_10_rise_{key}", b[FRAGMENT] / b[4096]))
        v.checks.append(check(pub, f"fig8_10_dip_{key}", b[FRAGMENT + 1024] / b[FRAGMENT]))
        v.checks.append(check(pub, f"fig8_10_below_am_{key}", max(b[s] / a[s] for s in SIZES)))
    return v
