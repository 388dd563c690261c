"""Teaching labs (notebooks/labs/): each sets up its firmware, knows its reference
solution, and checks the student's work with asserts whose messages say what to look at.

    >>> lab = niclab.labs.TracePointLab("work")   # copies the C Portals firmware into work/
    >>> ...                                        # the student edits work/ptl_trace/tx.c
    >>> lab.check()                                # LabCheckFailed with a hint, or a summary

Every lab ships its reference solution (``lab.apply_reference_solution()``), which the
tests apply before running the notebook; without it, the lab's self-check fails.
"""

from pathlib import Path

from . import sdk
from .experiments import run

__all__ = ["LabCheckFailed", "TracePointLab", "CachesLab", "VerySmallMessagesLab", "solutions_wanted"]


class LabCheckFailed(AssertionError):
    """A self-check did not pass; the message says what was expected and where to look."""


def _expect(condition, message):
    if not condition:
        raise LabCheckFailed(message)


def solutions_wanted():
    """True when NICLAB_LAB_SOLUTIONS=1: the notebooks then apply the reference solutions
    (the tests do; a student leaves it unset)."""
    import os
    return os.environ.get("NICLAB_LAB_SOLUTIONS") == "1"


ONE_POINT = dict(sizes=[8], warmup=2, repeats=4)


class _PortalsCopyLab:
    """A lab on a copy of the C Portals firmware in `workdir`/`name`."""

    name = ""

    def __init__(self, workdir="."):
        self.dir = Path(workdir).resolve() / self.name
        if not self.dir.exists():
            sdk.new(self.name, self.dir, source="portals")
            self.prepare()
        self.elf = None

    def prepare(self):
        """Changes made to the copy before the student sees it."""

    def source(self, file):
        return (self.dir / file).read_text()

    def edit(self, file, old, new):
        text = self.source(file)
        if old not in text:
            raise LabCheckFailed(f"{file} does not contain the text the reference solution replaces; "
                                 f"start the lab again in a fresh directory")
        (self.dir / file).write_text(text.replace(old, new, 1))

    def build(self, trace=False):
        """Build the copy (`niclab fw build DIR`); the ELF."""
        self.elf = sdk.build_project(self.dir, trace=trace)
        return self.elf


class TracePointLab(_PortalsCopyLab):
    """Lab 1: add a trace point to the Portals firmware, rebuild, and measure what it costs
    a message and the LogP signature (seed 000 §3.3: a trace point costs 16 cycles)."""

    name = "ptl_trace"
    VALUE = 42
    _AT = "    uint32_t id = cmd[PTL_TX_PENDING];\n    trace_val(id);\n"

    def apply_reference_solution(self):
        self.edit("tx.c", self._AT, self._AT + f"    trace_val({self.VALUE});  /* lab 1: the added trace point */\n")

    def measure(self):
        """Ping-pong and LogP signature of the built-in traced image and of the copy."""
        elf = self.build(trace=True)
        self.base = run("pingpong", firmware="portals_traced", **ONE_POINT)
        self.mine = run("pingpong", firmware=elf, trace=True, **ONE_POINT)
        self.base_logp = run("logp_signature", firmware="portals_traced")
        self.mine_logp = run("logp_signature", firmware=elf)
        return self.mine

    def check(self):
        """The added point recorded its value in tx_command, and cost each message a little."""
        _expect(self.elf is not None, "run lab.measure() first")
        records = [r for t in self.mine.traces for r in t.records]
        hits = [r for r in records if int(r["value"]) == self.VALUE]
        _expect(hits, f"no trace record with value {self.VALUE}: add `trace_val({self.VALUE});` as the first "
                      f"statement after `trace_val(id);` in tx_command (tx.c), then run lab.measure() again")
        _expect(all(r["function"] == "tx_command" for r in hits),
                f"the records of value {self.VALUE} come from {sorted({r['function'] for r in hits})}, "
                f"not tx_command: put the trace point in tx_command (tx.c)")
        cost_us = float(self.mine.latency_us[0] - self.base.latency_us[0])
        _expect(0 < cost_us < 0.2, f"one more trace point per message should cost a few tens of ns of latency; "
                                    f"measured {cost_us * 1000:.1f} ns: is it inside a loop?")
        d_os = self.mine_logp.fit["o_s_us"] - self.base_logp.fit["o_s_us"]
        _expect(d_os >= 0, f"the sender's overhead o_s fell by {-d_os * 1000:.1f} ns with an extra trace point: "
                           f"did the build pick up your copy?")
        return {"records": len(hits), "latency_cost_ns": cost_us * 1000, "o_s_change_ns": d_os * 1000}


class CachesLab:
    """Lab 2: turn the caches off and explain the latency with the counters and the
    breakdown (seed 000 §5.1)."""

    def measure(self):
        self.on = run("pingpong", firmware="portals", breakdown=True, counters=True, **ONE_POINT)
        self.off = run("pingpong", firmware="portals_nocache", breakdown=True, counters=True, **ONE_POINT)
        return self.on, self.off

    def reference_answers(self):
        """(firmware_extra_us, share): the firmware's extra time on one round trip's critical
        path with the caches off, and its share of the round trip's increase."""
        fw = lambda r: r.breakdown().by_part()["firmware"]
        extra = fw(self.off) - fw(self.on)
        return extra, extra / (self.off.breakdown().total_us - self.on.breakdown().total_us)

    def check(self, firmware_extra_us, share):
        _expect(firmware_extra_us is not None and share is not None,
                "set firmware_extra_us (from the two breakdowns: by_part()['firmware']) and share (that over the "
                "increase of the round trip, breakdown().total_us)")
        extra, ref_share = self.reference_answers()
        _expect(abs(firmware_extra_us - extra) < 0.01,
                f"firmware_extra_us = {firmware_extra_us:.3f}: compare the firmware part of the caches-off and "
                f"caches-on breakdowns (one round trip each)")
        _expect(abs(share - ref_share) < 0.01, f"share = {share:.3f}: divide by the round trips' difference")
        icache = self.on.counters[0]["core.icache_misses"], self.off.counters[0]["core.icache_accesses"]
        _expect(icache[1] == 0, "the caches-off image still used its I-cache?")
        return {"firmware_extra_us": extra, "share": ref_share, "icache_misses_on": icache[0]}


class VerySmallMessagesLab(_PortalsCopyLab):
    """Lab 3: the very-small-message path (seed 000 §5.2) is cut out of a copy of the
    firmware and switched off in its config.h; put it back, switch it on, and measure
    the saving on an 8-byte put."""

    name = "ptl_vsmall"
    _HOLE = "        /* lab 3: the very-small-message path goes here (seed 000 §5.2) */\n"
    _ON = "#define PTL_VSMALL 1\n"
    _OFF = "#define PTL_VSMALL 0  /* lab 3: switch the path on once rx_events has it */\n"

    @staticmethod
    def _cut(text):
        """(before, the path's #if PTL_VSMALL block, after) of the built-in rx.c."""
        start = text.index("#if PTL_VSMALL\n")
        end = text.index("#endif\n", start) + len("#endif\n")
        return text[:start], text[start:end], text[end:]

    def prepare(self):
        before, _, after = self._cut(self.source("rx.c"))
        (self.dir / "rx.c").write_text(before + self._HOLE + after)
        # Off, so the host library does not put payloads inside headers for a firmware
        # that cannot complete them (ss_nal.cpp reads the features word).
        self.edit("config.h", self._ON, self._OFF)

    def apply_reference_solution(self):
        # The built-in firmware's own path, taken from its source (not left in the lab's copy).
        self.edit("rx.c", self._HOLE, self._cut((sdk._portals_dir() / "rx.c").read_text())[1])
        self.edit("config.h", self._OFF, self._ON)

    def measure(self):
        elf = self.build()
        self.mine = run("pingpong", firmware=elf, sizes=[8, 256], warmup=2, repeats=4, counters=True)
        self.with_path = run("pingpong", firmware="portals", **ONE_POINT)
        self.without = run("pingpong", firmware="portals_novsmall", **ONE_POINT)
        return self.mine

    def check(self):
        _expect(self.elf is not None, "run lab.measure() first")
        mine = float(self.mine.latency_us[0])
        best, worst = float(self.with_path.latency_us[0]), float(self.without.latency_us[0])
        saving = (worst - mine) / (worst - best)
        _expect(saving > 0.8, f"an 8-byte put takes {mine:.3f} us: without the path {worst:.3f} us, with the "
                              f"built-in one {best:.3f} us. A header-only message (length <= PTL_HDR_BYTES) is "
                              f"complete when its event arrives: free its slot with an END deposit and post "
                              f"PTL_EV_NEW_MSG_COMPLETE instead of PTL_EV_NEW_MSG (rx_events in rx.c), and set "
                              f"PTL_VSMALL to 1 in config.h so the host sends such messages")
        return {"latency_us": mine, "saving_us": worst - mine, "share_of_builtin_saving": saving}
