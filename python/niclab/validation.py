"""Validation: the simulated system against the published results of its seed papers.

The preset's parameters come from hardware facts (or are marked as assumptions); the
published end-to-end results are never used to set them. They live with each system
(``cpp/src/systems/<name>/published.json``: value, unit, source), and
``validate(system)`` runs the experiments the papers ran and puts each published
value next to the simulated one, with the difference in percent.

Sources: seed 001 (Brightwell et al., Portals 3.3 on the Cray XT3, NetPIPE Portals
module, §6 and Figures 4-7) and seed 000 (Pedretti & Hudson, SeaStar firmware,
§5.1-5.3 and Figures 5-6).
"""

from dataclasses import dataclass, field

import numpy as np

from . import _niclab
from .experiments import run

_MB8 = 8 << 20
# Small messages, where seed 000 reads its latency savings off Figures 5 and 6.
_SMALL = [1, 2, 4, 8, 12, 16, 32, 64, 128, 256, 512, 1024]
_VERY_SMALL = [1, 2, 3, 4, 6, 8, 12]  # NetPIPE's sizes up to the 12-byte inline payload


@dataclass
class Check:
    """One published figure against its simulated counterpart."""

    quantity: str
    source: str
    published: float
    simulated: float
    unit: str
    bound: str = ""  # "above" / "below": the paper gives a bound ("over 60 MB/s"), not a value
    key: str = ""    # the published entry's key (published.json)
    # The paper predicts this figure for something it had not measured (seed 000 §5.2's
    # accelerated-mode latency): a prediction check, not a measurement.
    prediction: bool = False

    @property
    def published_text(self):
        sign = {"above": "> ", "below": "< "}.get(self.bound, "")
        return f"{sign}{self.published:.4g} {self.unit}" + (" (predicted)" if self.prediction else "")

    @property
    def difference_percent(self):
        """(simulated - published) / published, in percent."""
        return 100.0 * (self.simulated - self.published) / self.published


def published(system):
    """The published results `system` is checked against: {key: entry}, each entry a
    dict with quantity, source, value and unit (from the system's published.json)."""
    return {e["key"]: e for e in _niclab.published(system)}


def begin(system, progress=None):
    """A validation's start: its empty table, its progress callback (a no-op without
    one) and `system`'s published results."""
    return Validation(system), progress or (lambda text: None), published(system)


def check(published_entries, key, simulated):
    """The ``Check`` of published result `key` against `simulated`."""
    e = published_entries[key]
    return Check(e["quantity"], e["source"], float(e["value"]), float(simulated), e["unit"], e.get("bound", ""), key,
                 e.get("kind") == "prediction")


def merged_set(own, overrides):
    """A validation run's `set`: the parameters a sensitivity analysis perturbs
    (`overrides`) under the run's own settings, which define the row and win."""
    out = dict(overrides or {})
    out.update(own or {})
    return out or None


@dataclass
class Validation:
    """The validation table and the experiment results it was computed from."""

    system: str
    checks: list = field(default_factory=list)
    results: dict = field(default_factory=dict)
    sensitivity: object = None  # a niclab.sensitivity.Sensitivity once analysed

    def table(self):
        """The table as aligned text (what ``niclab validate`` prints); with a sensitivity
        analysis, a last column names the parameters each row depends on most."""
        head = ("quantity", "source", "published", "simulated", "difference")
        rows = [head + (("most sensitive to (elasticity)",) if self.sensitivity else ())]
        for c in self.checks:
            row = (c.quantity, c.source, c.published_text, f"{c.simulated:.4g} {c.unit}", f"{c.difference_percent:+.1f} %")
            if self.sensitivity:
                row += (self.sensitivity.describe(c.key),)
            rows.append(row)
        n = len(rows[0])
        widths = [max(len(r[i]) for r in rows) for i in range(n)]
        left = {0, 1, 5}
        lines = []
        for k, r in enumerate(rows):
            lines.append("  ".join(s.ljust(w) if i in left else s.rjust(w) for i, (s, w) in enumerate(zip(r, widths))).rstrip())
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines) + "\n"

    def to_dict(self):
        """The checks as plain data (JSON-ready), with the sensitivity analysis if made."""
        d = {"system": self.system,
             "checks": [dict(key=c.key, quantity=c.quantity, source=c.source, published=c.published,
                             simulated=c.simulated, unit=c.unit, bound=c.bound, prediction=c.prediction,
                             difference_percent=c.difference_percent) for c in self.checks]}
        if self.sensitivity:
            d["sensitivity"] = self.sensitivity.to_dict()
        return d


def half_bandwidth_size(result, peak=None):
    """The message size (B) at which a sweep first reaches half of `peak` (MB/s; default:
    its bandwidth at the largest size), interpolated linearly in log(size) between the
    measured sizes. NaN when it never does."""
    size, bw = np.asarray(result["size"], float), np.asarray(result["bandwidth_mb_s"], float)
    half = (bw[-1] if peak is None else peak) / 2
    above = np.nonzero(bw >= half)[0]
    if len(above) == 0:
        return float("nan")
    i = above[0]
    if i == 0:
        return float(size[0])
    t = (half - bw[i - 1]) / (bw[i] - bw[i - 1])
    return float(np.exp(np.log(size[i - 1]) + t * (np.log(size[i]) - np.log(size[i - 1]))))


def _at(result, size, column):
    sizes = list(result["size"])
    return float(result[column][sizes.index(size)])


def _mean_saving(slow, fast, sizes):
    """Mean one-way latency saving (us) of `fast` over `slow` across `sizes`."""
    return float(np.mean([_at(slow, n, "latency_us") - _at(fast, n, "latency_us") for n in sizes]))


# The firmware the papers measured: it had no go-back-N (seed 000 §4.3.3: it panicked
# on exhaustion), so the comparison runs the build without it; the default image's
# recovery protocol costs its own interrupt on a ping-pong (README, go-back-N).
SEASTAR_FIRMWARE = "portals_nogbn"
# Seed 000 §5.2 predicts accelerated mode's "small message latency": measured at 0, 1 and 8 B.
_ACCEL_SIZES = (0, 1, 8)


def validate_seastar(progress=None, overrides=None):
    """Run seed 001's NetPIPE Portals tests and seed 000's firmware-option comparisons on
    the two-node SeaStar, with the firmware the papers measured (``SEASTAR_FIRMWARE``
    and its §5 option builds), and return the ``Validation`` table.

    ``progress(text)`` is called before each experiment (for a progress display).
    Takes some tens of seconds of wall time: the sweeps go up to 8 MB. `overrides`
    (preset key -> value) apply to every run: a sensitivity analysis perturbs them.
    """
    v = Validation("seastar")
    say = progress or (lambda text: None)

    def sweep(key, experiment, option="", **options):
        firmware = f"{SEASTAR_FIRMWARE}_{option}" if option else SEASTAR_FIRMWARE
        say(f"{experiment} {options.get('op', 'put')} on {firmware}")
        v.results[key] = run(experiment, firmware=firmware, set=merged_set(None, overrides), **options)
        v.results[key].label = f"{firmware} {options.get('op', 'put')} {experiment}"
        return v.results[key]

    pp = sweep("pingpong", "pingpong", max_size=_MB8)
    get = sweep("get", "pingpong", op="get", sizes=[1])
    # Streaming: the sizes around half bandwidth and the peak.
    stream = sweep("stream", "stream", max_size=65536)
    stream_peak = sweep("stream_8mb", "stream", sizes=[_MB8])
    bidir = sweep("bidir", "bidir", sizes=[_MB8])
    # seed 000's firmware options: latency over small messages (NetPIPE sizes up to
    # 1 KB) and, separately, the bandwidth asymptote at 8 MB.
    nocache = sweep("nocache", "pingpong", "nocache", max_size=1024)
    icache = sweep("icache", "pingpong", "icache", max_size=1024)
    novsmall = sweep("novsmall", "pingpong", "novsmall", max_size=12)
    # §5.2's prediction for accelerated mode, on the same firmware with an accelerated
    # process (portals_nogbn_accel) and the accelerated transport.
    accel = sweep("accel", "pingpong", "accel", sizes=list(_ACCEL_SIZES), transport="portals_accel")
    nowt = sweep("nowt", "pingpong", "nowt", max_size=1024)
    peaks = {key: sweep(f"{key}_8mb", "pingpong", key, sizes=[_MB8]) for key in ("nocache", "icache")}
    stream_half = half_bandwidth_size(stream, peak=_at(stream_peak, _MB8, "bandwidth_mb_s"))
    savings = [_at(nocache, n, "latency_us") - _at(pp, n, "latency_us") for n in _SMALL]
    pub = published("seastar")

    def add(key, simulated):
        v.checks.append(check(pub, key, simulated))

    add("put_latency_1b", _at(pp, 1, "latency_us"))
    add("get_latency_1b", _at(get, 1, "latency_us"))
    add("put_bandwidth_8mb", _at(pp, _MB8, "bandwidth_mb_s"))
    add("put_half_bandwidth", half_bandwidth_size(pp))
    add("stream_half_bandwidth", stream_half)
    add("bidir_bandwidth_8mb", _at(bidir, _MB8, "bandwidth_mb_s"))
    add("cache_saving_least", min(savings))
    add("cache_saving_most", max(savings))
    add("nocache_bandwidth_8mb", _at(peaks["nocache"], _MB8, "bandwidth_mb_s"))
    add("icache_bandwidth_8mb", _at(peaks["icache"], _MB8, "bandwidth_mb_s"))
    add("vsmall_saving", _mean_saving(novsmall, pp, _VERY_SMALL))
    add("wt_saving", _mean_saving(nowt, pp, _SMALL))
    add("accel_put_latency_small", sum(_at(accel, n, "latency_us") for n in _ACCEL_SIZES) / len(_ACCEL_SIZES))
    return v


def validate_startx(progress=None, overrides=None):
    """Seed 002's checks on the two-node StarT-X (SUN E5000s, Arctic fat tree, JAM):
    Table 1's three rows from the LogP signature run as §6.1.1 runs it (high priority,
    fixed path over two router stages, polling JAM primitives), footnote 5's g = o_r,
    RDMA one-way bandwidth (Fig. 6(a)) and the exchange against it (Fig. 6(b)), and the
    JAM RPC latency of the smallest transfer (§6.2).

    Table 1's message sizes include the 8-byte header (digest A-S2): a 16-byte message
    is 8 payload bytes, a 64-byte one 56. B_s and B_r are the paper's own derivation,
    message size / overhead."""
    v, say, pub = begin("startx", progress)

    def add(key, simulated):
        v.checks.append(check(pub, key, simulated))

    def exp(key, experiment, transport, **options):
        say(f"{experiment} over {transport} on the StarT-X")
        r = run(experiment, system="startx", transport=transport, set=merged_set(None, overrides), **options)
        r.label = f"startx {transport} {experiment}"
        v.results[key] = r
        return r

    for row, transport, payload, message in (("a", "pio", 8, 16), ("b", "pio", 56, 64), ("c", "pio64", 56, 64)):
        sig = exp(f"table1_{row}", "logp_signature", transport, size=payload)
        f = sig.fit
        add(f"table1_{row}_o_s", f["o_s_us"])
        add(f"table1_{row}_b_s", message / f["o_s_us"])
        add(f"table1_{row}_o_r", f["o_r_us"])
        add(f"table1_{row}_b_r", message / f["o_r_us"])
        add(f"table1_{row}_rtt_half", f["rtt_us"] / 2)
        add(f"table1_{row}_l", f["L_us"])
        if row == "a":
            add("logp_gap_equals_o_r", f["g_us"] / f["o_r_us"])
    block = [_RDMA_BLOCK]
    one_way = exp("rdma", "pingpong", "rdma", sizes=block)
    exchange = exp("rdma_exchange", "bidir", "rdma", sizes=block)
    add("rdma_one_way_bandwidth", _at(one_way, _RDMA_BLOCK, "bandwidth_mb_s"))
    rdma_bw = _at(one_way, _RDMA_BLOCK, "bandwidth_mb_s")

    def ratio(key, simulated, bound=""):
        # A qualitative published result, shown as a ratio to 1 (its quantity and source as published).
        e = pub[key]
        v.checks.append(Check(e["quantity"] + ", 1 MB", e["source"], 1.0, simulated, "x", bound, key))

    ratio("rdma_exchange_below_one_way", _at(exchange, _RDMA_BLOCK, "bandwidth_mb_s") / rdma_bw, "below")
    rpc = exp("rpc", "pingpong", "rpc", sizes=[1])
    add("jam_rpc_latency_smallest", _at(rpc, 1, "latency_us"))
    rpc_large = exp("rpc_large", "pingpong", "rpc", sizes=block)
    ratio("jam_rpc_large_approaches_rdma", _at(rpc_large, _RDMA_BLOCK, "bandwidth_mb_s") / rdma_bw)
    return v


_RDMA_BLOCK = 1 << 20  # "large data blocks" (L61): 1 MB, well past the knee of Fig. 6


def _systems():
    """{system: its validation}. The other systems' validations live in their own modules,
    which build on this one's Check and Validation: imported here, at the first call, so
    that importing any of them first (``from niclab.validation_dsnic import ...``) works."""
    from .validation_dsnic import validate_dsnic
    from .validation_grim import validate_grim  # seed 004: GRIM on Myrinet
    from .validation_t9000 import validate_t9000
    return {"seastar": validate_seastar, "startx": validate_startx, "t9000": validate_t9000, "dsnic": validate_dsnic,
            "grim": validate_grim}


def validated_systems():
    """The systems that have a validation, in the registry's order."""
    return [s["name"] for s in _niclab.systems() if s["name"] in _systems()]


def validate(system="seastar", progress=None, overrides=None):
    """The validation table of `system` (see ``validated_systems()``); `overrides`
    (preset key -> value) change the preset of every run (``niclab.sensitivity``)."""
    systems = _systems()
    if system not in systems:
        raise ValueError(f"no validation for {system!r} (there is: {', '.join(systems)})")
    # A KeyError in a validation is its own bug, not "no validation".
    return systems[system](progress, overrides)
