"""The data paths of seed 004 §5.5 as shape checks: Fig. 5.10's fragment sweep
(pipelined store-and-forward, §5.5.3 L1431-1447) and Fig. 5.12's cut-through variants
(§5.5.5 L1461-1469). The thesis gives no numbers for either figure, only what they show,
so the checks are its sentences; nothing here sets a parameter.

Fig. 5.10: "the fragmentation size for the communication library was varied from 256
bytes to nearly 64 KB", P3-550 hosts with LANai 4 and LANai 9 cards, AM and RM, host-to-
host bandwidth against message size (L1431). The ``grim_pipelined`` image with
``grim.pipelined_fragment_bytes`` swept; the "best" fragment is the one with the highest
mean ping-pong bandwidth over 4 KB..1 MB messages (the thesis says "best results" without
a metric: assumption).

Fig. 5.12: RM-P, "a fixed cut-through injection size of 1 KB, and a pipeline fragment
size of 4 KB" (L1469), each optimization enabled separately. The ``grim_cutthrough``
image does both; its sender's cut-through is off when the library moves the back count
once a fragment (``grim.cut_through_segment_bytes`` = the fragment), so the runs are:
neither (``grim_pipelined``, 4 KB fragments), receiver only (segments of 4 KB), both
(segments of 1 KB). The receiver's gain is receiver-only over neither, the sender's is
both over receiver-only: the sender's gain given the receiver's."""

from .experiments import run
from .validation import begin, check, merged_set

_NIS = (("l4", "grim-lanai4"), ("l9", "grim-lanai9"))  # the P3-550 hosts (L1431, L1463)
MESSAGE_SIZES = [4096, 16384, 65536, 262144, 1 << 20]
FRAGMENTS = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 63 * 1024]
# The fragment whose onset of fragmentation the AM/RM dip check looks at: §5.5.3's best
# sizes (L1443: 2-4 KB LANai 4, 1-2 KB LANai 9; the upper end, as the presets' setting).
DIP_FRAGMENT = {"l4": 4096, "l9": 2048}
CUT_THROUGH = {"fragment": 4096, "segment": 1024}


def _bandwidths(preset, transport, firmware, sizes, settings):
    r = run("pingpong", preset=preset, transport=transport, sizes=sizes, firmware=firmware, set=settings)
    return r, [float(b) for b in r["bandwidth_mb_s"]]


def fragment_sweep(preset, transport, overrides=None, fragments=FRAGMENTS, sizes=MESSAGE_SIZES):
    """Fig. 5.10: {fragment bytes: mean ping-pong bandwidth (MB/s) over `sizes`} on the
    pipelined image."""
    out = {}
    for f in fragments:
        _, bw = _bandwidths(preset, transport, "grim_pipelined", sizes,
                            merged_set({"grim.pipelined_fragment_bytes": f}, overrides))
        out[f] = sum(bw) / len(bw)
    return out


def fragmentation_onset(preset, transport, fragment, overrides=None):
    """Bandwidth of a message a quarter fragment past `fragment` (two fragments, the
    second short) over a one-fragment message's, on the pipelined image."""
    _, (one, two) = _bandwidths(preset, transport, "grim_pipelined", [fragment, fragment + fragment // 4],
                                merged_set({"grim.pipelined_fragment_bytes": fragment}, overrides))
    return two / one


def cut_through_variants(preset, overrides=None, sizes=MESSAGE_SIZES):
    """Fig. 5.12: {"neither" | "receiver" | "both": mean RM-P ping-pong bandwidth over `sizes`}."""
    frag, seg = CUT_THROUGH["fragment"], CUT_THROUGH["segment"]
    runs = {"neither": ("grim_pipelined", {"grim.pipelined_fragment_bytes": frag}),
            "receiver": ("grim_cutthrough", {"grim.cut_through_fragment_bytes": frag, "grim.cut_through_segment_bytes": frag}),
            "both": ("grim_cutthrough", {"grim.cut_through_fragment_bytes": frag, "grim.cut_through_segment_bytes": seg})}
    out = {}
    for name, (firmware, own) in runs.items():
        _, bw = _bandwidths(preset, "rm-p", firmware, sizes, merged_set(own, overrides))
        out[name] = sum(bw) / len(bw)
    return out


def validate_grim_datapaths(progress=None, overrides=None):
    """Fig. 5.10's and Fig. 5.12's sentences as checks on the LANai 4 and LANai 9 (P3)."""
    v, say, pub = begin("grim", progress)
    for k, preset in _NIS:
        for transport, tag in (("am", "am"), ("rm-p", "rm")):
            say(f"fragment sweep, {transport} on {preset} (grim_pipelined)")
            sweep = fragment_sweep(preset, transport, overrides)
            v.results[f"fig5_10_{k}_{tag}"] = sweep
            v.checks.append(check(pub, f"fig5_10_best_fragment_{k}_{tag}", max(sweep, key=sweep.get) / 1024))
        am = fragmentation_onset(preset, "am", DIP_FRAGMENT[k], overrides)
        rm = fragmentation_onset(preset, "rm-p", DIP_FRAGMENT[k], overrides)
        v.checks.append(check(pub, f"fig5_10_am_dip_{k}", am))
        v.checks.append(check(pub, f"fig5_10_rm_over_am_{k}", rm / am))
        say(f"cut-through variants, rm-p on {preset}")
        ct = cut_through_variants(preset, overrides)
        v.results[f"fig5_12_{k}"] = ct
        receiver, sender = ct["receiver"] / ct["neither"], ct["both"] / ct["receiver"]
        v.checks.append(check(pub, f"fig5_12_receiver_gain_{k}", receiver))
        v.checks.append(check(pub, f"fig5_12_sender_gain_{k}", sender))
        v.checks.append(check(pub, f"fig5_12_receiver_over_sender_{k}", receiver / sender))
    return v
