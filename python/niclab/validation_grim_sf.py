"""Fig. 5.8 of seed 004 (§5.5.1 L1407-1415): one message at a time, store-and-forward,
P3-550 hosts, 4 B to nearly 64 KB -- the maximum AM bandwidth, 39 MB/s on the LANai 4
and 43 MB/s on the LANai 9, below the three stages' serial limit of 46.75 MB/s
(L1407). Run on the ``grim`` image, GRIM's store-and-forward data path (the thesis's
§5.5.1 before pipelining and cut-through), as a ping-pong of single messages below the
MTU, so nothing is fragmented. Remote memory "yielded nearly identical results"
(L1415): RM-P is reported beside AM, over the same sizes."""

from .experiments import run
from .validation import _at, begin, check, merged_set

SF_FIRMWARE = "grim"
# Fig. 5.8's x axis runs from 4 B to "nearly 64 KB": the largest here is one message
# under GRIM's MTU of 64,572 B.
_SIZES = [4096, 16384, 32768, 49152, 64512]


def validate_grim_store_forward(progress=None, overrides=None):
    """Fig. 5.8's AM maxima on the LANai 4 and LANai 9 (P3), and RM-P's beside them."""
    v, say, pub = begin("grim", progress)
    for k, preset in (("l4", "grim-lanai4"), ("l9", "grim-lanai9")):
        for transport in ("am", "rm-p"):
            say(f"store-and-forward {transport} ping-pong on {preset} ({SF_FIRMWARE})")
            r = run("pingpong", preset=preset, transport=transport, sizes=_SIZES, repeats=2, firmware=SF_FIRMWARE,
                    set=merged_set(None, overrides))
            r.label = f"{preset} {transport} store-and-forward"
            tag = "am" if transport == "am" else "rmp"
            v.results[f"sf_{tag}_{k}"] = r
            v.checks.append(check(pub, f"sf_{tag}_bandwidth_{k}", max(_at(r, s, "bandwidth_mb_s") for s in _SIZES)))
    return v
