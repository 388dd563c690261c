"""Firmware traces (seed 000 §3.3): read, decode, save and export.

A firmware built with tracing on (``niclab_firmware(... TRACE)``, trace points from
``niclab/fw/trace.h``) keeps a ring of eight-byte records in uncached SRAM. Get them
with ``nic.trace()`` (read now, through the debug back door: no simulated time) or
``niclab.read_trace(path, elf=...)`` for a trace file (format: ``traces/FORMAT.md``).

A :class:`Trace` prints as ``niclab tracedump`` does, one line per record in the
format of the seed's Figure 2::

    e4681e8b: 24: 18ff0c4c mainloop+0014 (178 ns)

(timestamp in hex, value in decimal, raw word, function+offset, time to the NEXT
record). ``.records`` is a NumPy structured array; ``.to_chrome_json()`` writes a
Chrome trace-event file for Perfetto / chrome://tracing, ``.to_csv()`` a CSV file.

Span convention of the Chrome export: a trace value ``v`` in 1..127 opens a span and
``v | 0x80`` closes the most recent open span ``v`` of the same node; the span is
named after the function of its opening trace point and ``[v]``. Values 0 and 128,
unmatched opens and unmatched closes are instants only.
"""

import csv
import json
import os

import numpy as np

from . import _niclab
from .errors import TraceBuildIdMismatch, TraceError

__all__ = ["Trace", "read_trace", "to_chrome_json", "RECORD_DTYPE"]

#: Fields of ``Trace.records``. Times: cycles of the node's core clock since its
#: reset (unwrapped to 64 bits) and nanoseconds (``time_ns``, the node's own clock);
#: ``sim_time_ns`` is the global simulated time, the one axis every node shares (NaN
#: for a trace read from a version-1 file, which has no time axis); ``delta_ns`` is the time to the next
#: record (NaN for the last), ``delta_prev_ns`` the time from the previous one (NaN
#: for the first). ``file``/``line`` are the trace point's source line ("" / 0 without
#: DWARF); ``function`` is "" when no symbol covers ``pc``.
RECORD_DTYPE = np.dtype([
    ("timestamp_cycles", np.uint64),
    ("time_ns", np.float64),
    ("sim_time_ns", np.float64),
    ("value", np.uint8),
    ("pc", np.uint32),
    ("function", object),
    ("offset", np.uint32),
    ("file", object),
    ("line", np.int32),
    ("delta_ns", np.float64),
    ("delta_prev_ns", np.float64),
    ("raw_timestamp", np.uint32),
    ("raw_word", np.uint32),
])

_CSV_FIELDS = ["node", "timestamp_cycles", "time_ns", "sim_time_ns", "value", "pc", "function", "offset", "file", "line",
               "delta_ns"]


class Trace:
    """The trace records of one node, oldest first, decoded with a firmware ELF's symbols.

    ``elf``: the firmware that recorded the trace (path), or None to decode without
    symbols. An ELF of another build raises TraceBuildIdMismatch naming both build
    ids; with ``force=True`` it is used anyway and the trace is marked ``unreliable``.
    """

    def __init__(self, raw, elf=None, *, force=False):
        self._raw = raw
        self.elf = os.fspath(elf) if elf is not None else None
        self.force = force
        self.unreliable = False
        self.elf_build_id = None
        self._records = None
        if self.elf is not None:
            self.elf_build_id = _niclab.elf_build_id(self.elf)
            if self.elf_build_id != raw.build_id:
                if not force:
                    err = TraceBuildIdMismatch(
                        f"the trace was recorded with firmware build id {raw.build_id} but {self.elf} has build id "
                        f"{self.elf_build_id}: symbols would be wrong (decode anyway with --force / force=True)")
                    err.trace_build_id, err.elf_build_id = raw.build_id, self.elf_build_id
                    raise err
                self.unreliable = True

    # ---- header -------------------------------------------------------------------

    @property
    def node_id(self):
        """Node the trace was read from."""
        return self._raw.node_id

    @property
    def build_id(self):
        """Build id of the firmware that recorded the trace."""
        return self._raw.build_id

    @property
    def clock_mhz(self):
        """Core clock of the node, MHz."""
        return self._raw.clock_hz / 1e6

    @property
    def epoch_ps(self):
        """Global simulated time (ps) at which the core's cycle counter was 0, or None
        (a version-1 trace file): ``sim_time_ns = epoch + cycles x period``."""
        return self._raw.epoch_ps

    @property
    def total_count(self):
        """Trace points the firmware executed (its count register)."""
        return self._raw.total_count

    @property
    def lost(self):
        """Records overwritten in the ring before they were read."""
        return self._raw.lost

    # ---- records ------------------------------------------------------------------

    @property
    def records(self):
        """The records as a NumPy structured array (dtype ``RECORD_DTYPE``)."""
        if self._records is None:
            cols = self._raw.columns(self.elf, self.force)
            out = np.empty(len(self._raw), dtype=RECORD_DTYPE)
            for name in RECORD_DTYPE.names:
                if RECORD_DTYPE[name] == object:
                    out[name] = np.array(cols[name] + [None], dtype=object)[:-1]  # keep str, not arrays
                else:
                    out[name] = cols[name]
            self._records = out
        return self._records

    def __len__(self):
        return len(self._raw)

    def __iter__(self):
        return iter(self.records)

    def __getitem__(self, i):
        return self.records[i]

    def format(self, *, source=False, function=None, value=None, last=None):
        """The tracedump text: one line per record (Figure 2 of seed 000).

        ``source`` appends file:line; ``function`` / ``value`` keep only matching
        records; ``last`` keeps the last N of those. Deltas stay those of the whole
        trace. An unreliable trace (ELF of another build) starts with a ``#`` line
        saying so.
        """
        for name, v, low, high in (("value", value, 0, 255), ("last", last, 0, None)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < low or (high and v > high)):
                bound = f"{low}..{high}" if high else f">= {low}"
                raise TraceError(f"{name}: expected an integer {bound}, got {v!r}")
        if function is not None and not isinstance(function, str):
            raise TraceError(f"function: expected a function name, got {function!r}")
        text = self._raw.format(self.elf, self.force, source, function, value, last)
        return self._unreliable_header() + text

    def _unreliable_header(self):
        if not self.unreliable:
            return ""
        return (f"# UNRELIABLE: trace recorded by firmware build {self.build_id}, decoded with "
                f"{self.elf} (build {self.elf_build_id}); symbols may be wrong\n")

    def __str__(self):
        return self.format()

    def __repr__(self):
        return (f"<niclab.Trace node {self.node_id}: {len(self)} records, {self.lost} lost, "
                f"firmware {self.build_id[:12]}{' UNRELIABLE' if self.unreliable else ''}>")

    # ---- files and exporters ------------------------------------------------------

    def save(self, path):
        """Write the trace file (traces/FORMAT.md); reading it back gives the same records."""
        self._raw.save(os.fspath(path))

    def to_csv(self, path):
        """Write the records as CSV: a header line, then one row per record (times in ns)."""
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(_CSV_FIELDS)
            for r in self.records:
                w.writerow([self.node_id, int(r["timestamp_cycles"]), f"{r['time_ns']:.3f}",
                            "" if np.isnan(r["sim_time_ns"]) else f"{r['sim_time_ns']:.3f}", int(r["value"]),
                            f"0x{int(r['pc']):08x}", r["function"], int(r["offset"]), r["file"], int(r["line"]),
                            "" if np.isnan(r["delta_ns"]) else f"{r['delta_ns']:.3f}"])

    def chrome_events(self):
        """Chrome trace events (dicts) of this trace: see to_chrome_json."""
        return json.loads(_chrome_text([self]))["traceEvents"]

    def to_chrome_json(self, path):
        """Write Chrome trace-event JSON (Perfetto UI, chrome://tracing).

        One track per node (pid = node id, tid 0), an instant event per record named
        function+offset with args value, pc and source, and a duration event per span
        (module docstring: value v opens, v | 0x80 closes). Timestamps are
        microseconds of global simulated time, so several nodes' traces line up (a
        version-1 trace file without a time axis falls back to its core's own clock).
        """
        to_chrome_json([self], path)


def _chrome_text(traces):
    # The core's writer (cpp/src/trace/chrome_json.cpp), shared with the GUI's export.
    return _niclab.chrome_trace([(t._raw, t.elf, t.force) for t in traces])


def to_chrome_json(traces, path):
    """Write one Chrome trace-event JSON file holding several nodes' traces.

    ``traces``: a Trace or a list of them (one track per node). Times are global
    simulated time in microseconds, one axis for every node (``otherData.time_axis``
    says "simulated"; "per-node core clock" if any trace comes from a version-1 file).
    """
    if isinstance(traces, Trace):
        traces = [traces]
    text = _chrome_text(list(traces))
    with open(path, "w") as f:
        f.write(text)


def read_trace(path, elf=None, *, force=False):
    """Read a trace file (traces/FORMAT.md) and decode it with the firmware ELF `elf`.

    Raises TraceFormatError (with ``offset``) for a truncated or corrupt file and
    TraceBuildIdMismatch if `elf` is not the build that recorded it (unless
    ``force=True``: then the trace is marked ``unreliable``).
    """
    return Trace(_niclab.load_trace(os.fspath(path)), elf, force=force)
