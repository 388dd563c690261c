"""Experiments from Python: run a registered experiment, get a ``Result``.

    >>> r = niclab.run("pingpong", op="put", max_size=4096)
    >>> r.size, r.latency_us            # NumPy arrays: bytes, microseconds
    >>> r.save("pp.json"); r.save("pp.osu"); niclab.Result.load("pp.json")

The experiments themselves (ping-pong, streaming, bi-directional, LogP signature,
PRTT, Comms1/2, CPU load, ...) are C++ programs in the simulator's ``exp`` layer; this
module only passes the spec and the options over and wraps what comes back. Which
experiments exist, their columns and their options come from the C++ registry
(``list_experiments()``); unknown options are refused there with an ExperimentError
naming the key.

Units everywhere, as the papers: sizes in bytes (B), times in microseconds (us),
bandwidths in MB/s (10^6 bytes per second).
"""

import html
import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from . import _niclab
from .errors import ConfigError, ExperimentError, ExperimentFault, ResultError
from .system import _spec_with_resolved_firmware

__all__ = ["Result", "list_experiments", "run"]

# Text formats Result.save knows, by file-name ending (longest ending first).
_FORMATS_BY_SUFFIX = [(".np.out", "netpipe"), (".out", "netpipe"), (".json", "json"), (".csv", "csv"),
                      (".osu", "osu"), (".txt", "osu")]
_FORMATS = ("json", "csv", "osu", "netpipe")


def list_experiments():
    """The registered experiments, as a list of ``(name, summary)`` tuples in registry order."""
    return list(_niclab.experiments())


_DEFAULT = object()


def system_info(name):
    """The registry's entry for system `name` (dict: name, summary, nic_family,
    default_preset, default_firmware, presets, transports). ``ConfigError`` when unknown."""
    for s in _niclab.systems():
        if s["name"] == name:
            return s
    from .errors import ConfigError
    known = ", ".join(s["name"] for s in _niclab.systems())
    err = ConfigError(f"system: unknown system '{name}' (known: {known})")
    err.key_path = "system"
    raise err


def systems():
    """Every modelled system, as the registry describes it (list of dicts)."""
    return list(_niclab.systems())


MAX_NODES = _niclab.MAX_NODES  # the most nodes a spec may name


def default_firmware_by_size(system):
    """The image a spec of `system` naming none gets, by node count: a list of
    ``(first node count, image or None)``, from 1 node to ``MAX_NODES``. The SeaStar's
    production Portals image has a go-back-N peer table of 2,048 nodes, so a larger
    system gets Red Storm's: ``[(1, "portals"), (2049, "portals_redstorm")]``."""
    system_info(system)  # an unknown name is the registry's error

    def image(nodes):
        return _niclab.default_firmware(system, nodes) or None

    # The core's rule is a step function of the count: halve each range whose ends differ.
    steps, ranges = [(1, image(1))], [(1, MAX_NODES)]
    while ranges:
        lo, hi = ranges.pop()
        if image(lo) == image(hi):
            continue
        if hi == lo + 1:
            steps.append((hi, image(hi)))
            continue
        mid = (lo + hi) // 2
        ranges += [(mid, hi), (lo, mid)]
    return sorted(set(steps))


def parts():
    """Every part a spec can swap into a system that has it (list of dicts: name, part
    kind, description, parameters with their sources), e.g. ``{"bus": "pci-64-66"}``."""
    return list(_niclab.parts())


def run_spec(*, system=None, preset=None, nodes=2, firmware=_DEFAULT, parts=None, set=None, seed=0, topology=None,
             lanes=True):
    """The system spec (dict) ``run`` builds from its keyword arguments."""
    if preset is None:
        preset = system_info(system or "seastar")["default_preset"]
    spec = {"preset": preset, "nodes": nodes, "seed": seed}
    if system is not None:
        spec["system"] = system
    if firmware is _DEFAULT:  # the system's own for this size: Portals on the SeaStar, none on a fixed-function NIU
        # A count that is not one gets a pair's image here, and the spec's check names "nodes".
        size = nodes if isinstance(nodes, int) and not isinstance(nodes, bool) and 0 < nodes < 2**32 else 2
        firmware = _niclab.default_firmware(_niclab.preset_info(preset)["system"], size) or None
    if firmware is not None:
        spec["firmware"] = firmware
    for key, value in (("parts", parts), ("set", set)):
        if value is not None and not isinstance(value, Mapping):
            err = ConfigError(f"{key}: expected a mapping such as {{\"bus\": \"pci-64-66\"}}, not "
                              f"{type(value).__name__} {value!r}")
            err.key_path = key
            raise err
    if parts:
        spec["parts"] = dict(parts)
    if set:
        spec["set"] = dict(set)
    if topology is not None:
        spec["topology"] = topology
    if lanes is not True:  # the core checks the type (ConfigError naming "lanes")
        spec["lanes"] = lanes
    return spec


def run(experiment, *, system=None, preset=None, nodes=2, firmware=_DEFAULT, transport=None, parts=None, set=None,
        seed=0, topology=None, lanes=True, on_point=None, trace=False, counters=False, breakdown=False,
        capture=None, **options):
    """Run the experiment named `experiment` on a freshly built system; return a ``Result``.

    System: `system` (``"seastar"``, ``"startx"``, see ``niclab.systems()``; default the
    preset's), `preset` (default: the system's default preset), `nodes` (count),
    `firmware` (for systems with an embedded core: an image name such as ``"portals"``
    or ``"portals_nocache"``, a path to an ELF, or one per node; default the system's
    own), `parts` (swap a part of the preset: ``{"bus": "pci-64-66"}`` asks what the
    StarT-X would do behind 64-bit/66 MHz PCI; see ``niclab.parts()``), `set` (preset
    parameter overrides, applied after the parts, ``{"core.clock_mhz": 400}``), `seed`,
    `topology` (dict, as in a system spec). `capture`: a pcapng file of the run's packets
    (a path: every node's cables; or ``{"file": path, "nodes": [...], "links": [...]}``,
    see ``System.capture``). `lanes=False` simulates bulk transfers packet by packet through
    the kernel's event heap instead of the fast path (the same results to the picosecond,
    slower; kept to compare, and recorded in ``result.system``).

    `transport` is the host library the experiment runs over (default: the system's
    first; ``"portals"`` on the SeaStar; ``"pio"``, ``"pio64"``, ``"vi"``, ``"vi_tx"``, ``"rdma"``, ``"rdma_excl"``,
    ``"rpc"`` on the StarT-X; ``"vl"``, ``"vl_seq"``, ``"vl2"`` .. ``"vl5"``, ``"vl10"`` (virtual links) on the T9000;
    ``"csp"`` (blocking send), ``"csp_async"`` (non-blocking send) and ``"csp_buffered"`` (buffered
    send) CSP channels on the DSNIC, whose
    packet size is ``set={"dsnic.packet_bytes": N}``, a power of two from 8 to 4096) and ``op`` the operation (``"put"``/``"get"`` for Portals,
    ``"send"`` for two-sided libraries). An unsupported combination raises
    ExperimentError naming what the system offers. Message sizes are payload bytes.

    `options` are the experiment's own (see ``niclab experiments`` and the C++ docs);
    for the message-size sweeps (pingpong, stream, bidir): ``op``,
    ``schedule`` ("netpipe"|"osu"), ``sizes`` (list of bytes), ``min_size`` /
    ``max_size`` (bytes), ``perturbation`` (bytes), ``warmup``, ``repeats``,
    ``min_repeats``, ``max_repeats``, ``repeat_bytes`` (bytes), ``client``, ``server``
    (node ids); stream also ``server_work_us``, host time the server spends on each
    message (a slow consumer: the library's buffers fill and the system's flow control
    shows in ``counters=True``, e.g. GRIM's NACKs and resends). An unknown option or a
    wrong type raises ExperimentError naming the key.

    `on_point(result)` is called after each measured point with the ``Result`` so far
    (rows grow by one each time); returning False stops the run early, keeping the
    points (``result.stopped`` is True). An exception it raises stops the run and is
    re-raised here. Ctrl-C also stops the run cleanly: the points so far are returned
    with ``stopped=True`` and a RuntimeWarning says so. Pressed during a point, it stops
    the simulation there (on the main thread, while SIGINT raises KeyboardInterrupt):
    that point is abandoned, and the observations below are not read.

    `trace=True` keeps every node's firmware trace ring in the Result (``r.traces``,
    one ``niclab.Trace`` per node, its records on the global simulated time axis:
    ``sim_time_ns``); the firmware must be built with tracing (``firmware=
    "portals_traced"``, or ``niclab fw build --trace``), else ExperimentError says so.
    `counters=True` keeps every node's counters (``r.counters``: node -> {name: count}
    for its core, caches, NIC, driver, host CPU and network cables). Both are read
    when the run ends, through the debug back door: they change nothing measured.
    `breakdown=True` (every host-to-host experiment: all but net_throughput) splits one
    timed interval per point into the parts that were busy during it: the last timed
    transfer of the round-trip sweeps (pingpong, bidir, comms1, comms2, cpu_load), the
    whole timed burst of stream, logp_signature's last round trip for L, prtt's last
    PRTT(1,0,s) (``r.breakdown(size)``, ``niclab.breakdown``); the parts sum to its
    time exactly.

    A firmware fault raises ``ExperimentFault`` (a FirmwareFault with ``pc``, ``where``,
    ... and an ExperimentError) whose ``result`` keeps the points measured before it.

    The GIL is released while the simulation runs.
    """
    if not isinstance(experiment, str):
        raise ExperimentError(f"experiment: expected a name such as \"pingpong\", not {type(experiment).__name__} "
                              f"{experiment!r}")
    spec = run_spec(system=system, preset=preset, nodes=nodes, firmware=firmware, parts=parts, set=set, seed=seed,
                    topology=topology, lanes=lanes)
    if transport is not None:
        options["transport"] = transport
    spec = _spec_with_resolved_firmware(spec)
    if capture is not None:
        from .capture import capture_for_experiment
        spec["capture"] = capture_for_experiment(experiment, capture)
    observer = None
    if on_point is not None:
        def observer(exp_result):
            return on_point(Result(exp_result))
    for name, flag in (("trace", trace), ("counters", counters), ("breakdown", breakdown)):
        if not isinstance(flag, bool):
            raise ExperimentError(f"{name}: expected True or False, not {type(flag).__name__} {flag!r}")
    try:
        return Result(_niclab.run_experiment(experiment, spec, dict(options), observer, trace, counters, breakdown))
    except ExperimentFault as e:
        if isinstance(e.result, _niclab.ExpResult):
            e.result = Result(e.result)
        raise


def _is_integral(values):
    finite = values[np.isfinite(values)]
    return finite.size == 0 or bool(np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15))


def _format_column(values):
    """Column values as strings: integers plain, other numbers with 3 decimals (nan as '-')."""
    if _is_integral(values):
        return ["-" if math.isnan(v) else f"{int(v)}" for v in values]
    return ["-" if math.isnan(v) else f"{v:.3f}" for v in values]


class Result:
    """The outcome of one experiment: a table of measured points plus fit and metadata.

    Columns, in order, as NumPy float64 arrays: ``r.columns`` (dict name -> array),
    ``r["latency_us"]`` or ``r.latency_us``; units in ``r.units`` (name -> "B", "us",
    "MB/s", "" for counts). ``r.fit`` holds the fitted model parameters (dict; empty for
    the plain sweeps), ``r.params`` the experiment's options with defaults filled in,
    ``r.system`` the spec with the resolved preset parameters, ``r.firmware`` each
    node's image (path, build id), ``r.seed``, ``r.simulator`` (the niclab version), ``r.stopped`` (True when the run was
    stopped early: the rows are the points done). ``len(r)`` is the number of points.
    """

    def __init__(self, exp_result, label=None):
        if not isinstance(exp_result, _niclab.ExpResult):
            raise TypeError("Result wraps a niclab._niclab.ExpResult; use niclab.run() or Result.load()")
        self._r = exp_result
        self._label = label
        self._cache = None

    @classmethod
    def from_arrays(cls, experiment, columns, units=None, fit=None, params=None, label=None):
        """A Result from data measured elsewhere (to plot or save it next to simulated ones).

        `columns`: dict name -> sequence of numbers, all the same length, in column
        order; `units`: dict name -> unit ("B", "us", "MB/s", "" by default); `fit`,
        `params`: dicts stored as they are."""
        units = units or {}
        names = list(columns)
        data = [np.asarray(columns[n], dtype=float).ravel() for n in names]
        if len({len(d) for d in data}) > 1:
            raise ResultError("from_arrays: columns of different lengths: " +
                              ", ".join(f"{n}={len(d)}" for n, d in zip(names, data)))
        r = _niclab.ExpResult(experiment, [(n, units.get(n, "")) for n in names])
        for row in zip(*data):
            r.add_row([float(v) for v in row])
        d = r.to_json()
        d["fit"] = dict(fit or {})
        d["params"] = dict(params or {})
        return cls(_niclab.ExpResult.from_json(d), label=label)

    # --- the table -------------------------------------------------------------------
    @property
    def experiment(self):
        """Name of the experiment that made this result (e.g. ``"pingpong"``)."""
        return self._r.experiment

    @property
    def column_names(self):
        """Column names in order."""
        return [name for name, _ in self._r.columns]

    @property
    def units(self):
        """Unit of each column: dict name -> "B" (bytes), "us" (microseconds), "MB/s" (10^6 B/s), "" (count)."""
        return dict(self._r.columns)

    @property
    def columns(self):
        """Dict column name -> NumPy float64 array (a copy), in column order."""
        if self._cache is None:
            rows = self._r.rows
            self._cache = {name: rows[:, i].copy() for i, name in enumerate(self.column_names)}
        return {k: v.copy() for k, v in self._cache.items()}

    @property
    def rows(self):
        """The points as a 2-D float64 array, shape (len(self), number of columns)."""
        return self._r.rows

    def __getitem__(self, name):
        """One column as a NumPy array; ResultError (also a KeyError-free ValueError) naming the columns there are."""
        if not isinstance(name, str):
            raise TypeError("index a Result by column name, e.g. r['latency_us']")
        return self._r.column(name)

    def __getattr__(self, name):
        # Only reached for names that are not regular attributes: the columns.
        if name.startswith("_"):
            raise AttributeError(name)
        r = self.__dict__.get("_r")
        if r is not None and r.has_column(name):
            return r.column(name)
        cols = ", ".join(self.column_names) if r is not None else ""
        raise AttributeError(f"{type(self).__name__} has no attribute or column {name!r} (columns: {cols})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.column_names))

    def __len__(self):
        return len(self._r)

    # --- metadata --------------------------------------------------------------------
    @property
    def fit(self):
        """Fitted model parameters (dict; times in us, sizes in B, bandwidths in MB/s). Settable."""
        return self._r.fit

    @fit.setter
    def fit(self, value):
        self._r.fit = dict(value)

    @property
    def params(self):
        """The experiment's options as used, defaults filled in (dict)."""
        return self._r.params

    @property
    def system(self):
        """The system spec, with the resolved preset parameters under ``"parameters"`` (dict)."""
        return self._r.system

    @property
    def firmware(self):
        """Per node: dict of ``node``, ``path`` (ELF), ``build_id``."""
        return self._r.firmware

    @property
    def seed(self):
        """The simulation seed."""
        return self._r.seed

    @property
    def simulator(self):
        """The niclab version that measured this result ("" for one made by ``from_arrays``)."""
        return self._r.simulator

    @property
    def stopped(self):
        """True when the run was stopped early (on_point returned False, or Ctrl-C)."""
        return self._r.stopped

    @property
    def planned_points(self):
        """How many points the run was set to measure (None when it does not say): with
        ``len(r)`` inside ``on_point``, the progress of a run."""
        return self._r.planned or None

    @property
    def observations(self):
        """What the run observed when asked (``trace=True`` / ``counters=True``), as stored:
        a dict with ``time_us`` (when they were read), ``counters`` and ``traces``; {} when
        nothing was asked for."""
        return self._r.observations

    @property
    def counters(self):
        """Each node's counters, read when the run ended: dict node -> dict name -> count
        (``core.instructions``, ``core.icache_misses``, ``nic.host_window_reads``,
        ``host.interrupts_taken``, ``net.tx_link_retries``, ...; every count since the
        system was built, core counts since the firmware's last reset). ``run(...,
        counters=True)`` keeps them; ResultError if it was not asked for."""
        obs = self.observations
        if "counters" not in obs:
            raise ResultError(f"{self.experiment} result has no counters: run it with counters=True "
                              f"(CLI: --counters)")
        return {int(c["node"]): dict(c["counters"]) for c in obs["counters"]}

    @property
    def traces(self):
        """Each firmware node's trace ring, read when the run ended: a list of
        ``niclab.Trace`` (node order), decoded with the node's firmware ELF when it is
        still there and of the same build; records carry ``sim_time_ns`` on the global
        time axis. ``run(..., trace=True)`` keeps them; ResultError if it was not asked for."""
        from .errors import TraceBuildIdMismatch
        from .trace import Trace
        obs = self.observations
        if "traces" not in obs:
            raise ResultError(f"{self.experiment} result has no traces: run it with trace=True and a firmware built "
                              f"with tracing (CLI: --trace)")
        elves = {f.get("node"): f for f in self.firmware if isinstance(f, dict)}
        out = []
        for t in obs["traces"]:
            raw = _niclab.trace_from_json(t)
            fw = elves.get(raw.node_id, {})
            elf = fw.get("path") if fw.get("path") and os.path.exists(fw["path"]) else None
            try:
                out.append(Trace(raw, elf))
            except TraceBuildIdMismatch:  # rebuilt since: decode without symbols rather than with wrong ones
                out.append(Trace(raw, None))
        return out

    def breakdown(self, size=None):
        """Where the microseconds of one transfer went (``niclab.breakdown.Breakdown``):
        the point of message size `size` (B; default the first point), from a run with
        ``breakdown=True``. ResultError if it was not asked for or has no such size."""
        from .breakdown import Breakdown
        points = self.observations.get("breakdown")
        if points is None:
            raise ResultError(f"{self.experiment} result has no breakdown: run it with breakdown=True "
                              f"(CLI: niclab breakdown)")
        if not points:
            raise ResultError(f"{self.experiment} result has no breakdown points")
        chosen = points[0] if size is None else next((p for p in points if p["size"] == size), None)
        if chosen is None:
            raise ResultError(f"{self.experiment} result has no breakdown for size {size} B "
                              f"(sizes: {', '.join(str(p['size']) for p in points)})")
        return Breakdown(chosen, self.experiment, self.params.get("op", ""))

    @property
    def image(self):
        """The client node's firmware image name (``"portals_nocache"``), "" without firmware."""
        client = self.params.get("client", 0)
        fw = self.firmware
        for entry in fw if isinstance(fw, list) else []:
            if isinstance(entry, dict) and entry.get("node") == client and entry.get("path"):
                name = Path(entry["path"]).name
                return name[:-4] if name.endswith(".elf") else name
        return ""

    @property
    def label(self):
        """A short name for legends: by default the client's firmware image and the op
        (e.g. ``"portals put"``); settable."""
        if self._label is not None:
            return self._label
        parts = [str(p) for p in (self.image, self.params.get("op")) if p]
        return " ".join(parts) if parts else self.experiment

    @label.setter
    def label(self, value):
        self._label = None if value is None else str(value)

    # --- text ------------------------------------------------------------------------
    def _header(self):
        return [f"{name} ({unit})" if unit else name for name, unit in self._r.columns]

    def table(self, max_rows=None):
        """The points as an aligned text table, one line per point; headers name the units.

        `max_rows`: show at most that many (first and last halves), None for all."""
        header = self._header()
        cols = [_format_column(c) for c in self.columns.values()]
        n = len(self)
        idx = list(range(n))
        if max_rows is not None and n > max_rows:
            half = max(max_rows // 2, 1)
            idx = idx[:half] + [None] + idx[n - half:]
        widths = [max([len(h)] + [len(v) for v in c]) for h, c in zip(header, cols)]
        lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
        for i in idx:
            if i is None:
                lines.append("  ".join("...".rjust(w) for w in widths))
            else:
                lines.append("  ".join(c[i].rjust(w) for c, w in zip(cols, widths)))
        return "\n".join(lines)

    def _summary(self):
        state = ", stopped early" if self.stopped else ""
        return f"{self.experiment}: {self.label}, {len(self)} point(s), seed {self.seed}{state}"

    def __repr__(self):
        lines = [f"<niclab.Result {self._summary()}>", self.table(max_rows=10)]
        if self.fit:
            lines.append("fit: " + ", ".join(f"{k}={_fmt_fit(v)}" for k, v in self.fit.items()))
        return "\n".join(lines)

    def _repr_html_(self):
        header = "".join(f"<th>{html.escape(h)}</th>" for h in self._header())
        cols = [_format_column(c) for c in self.columns.values()]
        n = len(self)
        idx = list(range(n)) if n <= 20 else list(range(10)) + [None] + list(range(n - 10, n))
        body = []
        for i in idx:
            cells = ["<td>...</td>"] * len(cols) if i is None else [f"<td>{c[i]}</td>" for c in cols]
            body.append("<tr>" + "".join(cells) + "</tr>")
        fit = ""
        if self.fit:
            fit = "<p>fit: " + html.escape(", ".join(f"{k}={_fmt_fit(v)}" for k, v in self.fit.items())) + "</p>"
        return (f"<div><p><b>niclab.Result</b> {html.escape(self._summary())}</p>"
                f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(body)}</tbody></table>{fit}</div>")

    # --- export ----------------------------------------------------------------------
    def to_json(self):
        """The result as a JSON-ready dict (lossless; ``Result.from_json`` reads it back).
        A label set by hand is kept under ``"label"``."""
        d = self._r.to_json()
        if self._label is not None:
            d["label"] = self._label
        return d

    @classmethod
    def from_json(cls, data):
        """A Result from a dict made by ``to_json`` (ResultError naming a missing or
        mistyped key)."""
        if not isinstance(data, dict):
            raise ResultError(f"result JSON: expected an object, not {type(data).__name__}")
        label = data.get("label")
        if label is not None and not isinstance(label, str):
            raise ResultError(f"result JSON: key 'label' must be text, not {type(label).__name__}")
        try:
            raw = _niclab.ExpResult.from_json(data)
        except ConfigError as e:  # a value JSON cannot hold (an integer beyond 64 bits, a non-text key)
            raise ResultError(f"result JSON: key {e}") from None
        return cls(raw, label=label)

    def to_csv(self):
        """CSV text: ``#`` comment lines with the metadata, a header of column names, one row per point."""
        return self._r.to_csv()

    def _default_osu_column(self):
        names = self.column_names
        prefer = ["bandwidth_mb_s", "latency_us"] if self.experiment in ("stream", "bidir") else \
            ["latency_us", "bandwidth_mb_s"]
        for c in prefer:
            if c in names:
                return c
        raise ResultError(f"{self.experiment} result has no latency_us or bandwidth_mb_s column; "
                          f"name the column for the OSU format (columns: {', '.join(names)})")

    def to_osu(self, column=None):
        """OSU micro-benchmarks text: ``# Size`` and the value column (latency in us or
        bandwidth in MB/s), one line per size. `column` defaults to latency_us for
        ping-pong-like results and bandwidth_mb_s for stream and bidir."""
        return self._r.osu_text(column or self._default_osu_column())

    def to_netpipe(self):
        """NetPIPE's np.out text: per size, bytes, throughput in Mbps (10^6 bits/s) and time in us."""
        return self._r.netpipe_text()

    def save(self, path, format=None):
        """Write the result to `path`; returns the path.

        `format`: "json" (lossless), "csv", "osu" (OSU two columns), "netpipe" (np.out);
        by default from the file name: .json, .csv, .osu/.txt, .np.out/.out."""
        path = Path(os.fspath(path))
        if format is None:
            name = path.name.lower()
            format = next((f for suffix, f in _FORMATS_BY_SUFFIX if name.endswith(suffix)), None)
            if format is None:
                raise ResultError(f"cannot tell the format of {path.name!r} from its name; "
                                 f"give format= one of {', '.join(_FORMATS)}")
        if format == "json":
            text = json.dumps(self.to_json(), indent=1) + "\n"
        elif format == "csv":
            text = self.to_csv()
        elif format == "osu":
            text = self.to_osu()
        elif format == "netpipe":
            text = self.to_netpipe()
        else:
            raise ResultError(f"unknown format {format!r} (one of {', '.join(_FORMATS)})")
        path.write_text(text)
        return path

    @classmethod
    def load(cls, path):
        """Read a result saved as JSON by ``save``. ResultError if the file is not one
        (not UTF-8, not JSON, nested too deep, a key missing or of the wrong type)."""
        path = Path(os.fspath(path))
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as e:
            raise ResultError(f"{path}: not UTF-8 text (byte {e.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ResultError(f"{path}: not JSON ({e})") from e
        except RecursionError:
            raise ResultError(f"{path}: JSON nested too deep to be a result") from None
        try:
            return cls.from_json(data)
        except ResultError as e:
            raise ResultError(f"{path}: {e}") from None


def _fmt_fit(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)
