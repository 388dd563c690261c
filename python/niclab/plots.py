"""Plots of experiment results (Matplotlib), as the papers draw them.

    fig = niclab.plots.latency(r1, r2)          # one line per Result, legend from .label
    fig = niclab.plots.plot(r)                  # the natural plot of any result
    fig.savefig("pingpong.png")

Every function returns a ``matplotlib.figure.Figure`` (or draws into the ``ax`` it is
given and returns that Axes' figure). Figures are made without pyplot, so nothing
here needs a display or a GUI backend (they render with Agg when saved); in Jupyter a
returned Figure shows as an image. To open a window, draw into an ``ax`` you made
with ``matplotlib.pyplot``.

Units as everywhere in niclab: sizes in bytes (B), times in microseconds (µs; "us" in column names),
bandwidth in MB/s (10^6 bytes per second).
"""

import functools
import io
import time

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import LogFormatter

from . import _niclab
from .errors import ResultError

__all__ = ["LivePlot", "STYLE", "bandwidth", "cpu_load", "latency", "overlay", "plot", "prtt", "published_points",
           "signature", "sweep", "title"]

_SWEEP_Y = {
    "latency": ("latency_us", "latency (µs)"),
    "bandwidth": ("bandwidth_mb_s", "bandwidth (MB/s)"),
}

# One look for every figure niclab draws (applied while it draws, so a user's own
# pyplot style is left alone): sizes that stay legible in a two-column paper, and vector
# output (PDF, SVG) with real text.
STYLE = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 7.5,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "lines.linewidth": 1.4,
    "lines.markersize": 4,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "savefig.dpi": 200,
    "pdf.fonttype": 42,
    "svg.fonttype": "none",
}


def _styled(draw):
    """Draw with STYLE in force (rcParams are read when artists are made)."""
    @functools.wraps(draw)
    def styled(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return draw(*args, **kwargs)
    return styled


class NiclabFigure(Figure):
    """A Matplotlib Figure that shows itself as a PNG in Jupyter without pyplot, and
    saves with STYLE's output settings (resolution, text kept as text in PDF and SVG)."""

    def savefig(self, *args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return super().savefig(*args, **kwargs)

    def _repr_png_(self):
        buf = io.BytesIO()
        self.savefig(buf, format="png")
        return buf.getvalue()


def _figure(ax, panels=1, width=6.4, height=4.2):
    """(figure, [axes]) : the given ax, or a new figure with `panels` side-by-side axes."""
    if ax is not None:
        return ax.figure, [ax]
    fig = NiclabFigure(figsize=(width * panels if panels > 1 else width, height), layout="constrained")
    axes = fig.subplots(1, panels, squeeze=False)[0]
    return fig, list(axes)


_EXPERIMENT_NAMES = {"pingpong": "ping-pong", "bidir": "bi-directional stream", "comms1": "Comms1",
                     "comms2": "Comms2", "cpu_load": "CPU load", "net_throughput": "network throughput",
                     "halo3d": "Halo3D", "multicast": "GRIM multicast"}


def _common(values):
    values = list(dict.fromkeys(values))
    return values[0] if len(values) == 1 else ""


def title(results, quantity=""):
    """A figure title that says what was measured: system (preset), firmware or
    transport, operation, experiment and `quantity`; a part the runs do not share is
    left to the legend. E.g. ``"seastar: portals put ping-pong latency"``."""
    results = list(results)
    if not results:
        return quantity
    system = _common((r.system or {}).get("system", "") for r in results)
    preset = _common((r.system or {}).get("preset", "") for r in results)
    image = _common(r.image for r in results)
    transport = _common(r.params.get("transport", "") for r in results)
    op = _common(r.params.get("op", "") for r in results)
    experiment = _common(_EXPERIMENT_NAMES.get(r.experiment, r.experiment) for r in results)
    where = system + (f" ({preset})" if preset and preset != system else "")
    what = " ".join(p for p in (image or transport, op, experiment, quantity) if p)
    return f"{where}: {what}" if where else what


def _finite_positive(x, y):
    ok = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    return x[ok], y[ok]


def _need(result, *columns):
    missing = [c for c in columns if c not in result.column_names]
    if missing:
        raise ResultError(f"{result.experiment} result has no column {', '.join(missing)} "
                          f"(it has: {', '.join(result.column_names)})")


def _plain_log_y(ax):
    """Log y axis labelled 6, 10, 20 (not 6x10^0): the values researchers read off."""
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(LogFormatter())
    ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False, minor_thresholds=(1.5, 0.5)))


def published_points(result, column):
    """The published values a sweep can be set against: the entries of its system's
    published.json (``niclab.validation.published``) for the same experiment, column and
    options (transport, op) and unit (a packet size read off a bandwidth curve is not a
    bandwidth), each as (size B, value, "system: source"). The rule is the core's
    (exp/published_points.hpp), which the GUI draws with too."""
    return [tuple(p) for p in _niclab.published_points(result._r, column)]


def _published_into(ax, results, column):
    seen = set()
    for r in results:
        for x, y, label in published_points(r, column):
            if (x, y, label) in seen:
                continue
            seen.add((x, y, label))
            ax.plot([x], [y], linestyle="none", marker="*", markersize=11, color="black", label=f"published ({label})")


def _fit_into(ax, result, column, color):
    """The fitted timing model t_n = t0 + n / r_inf (Comms1/2, seed 003 §8.4) as a dashed
    line in the same colour as its run: t_n on a latency axis, n / t_n on a bandwidth one."""
    t0, r_inf = _fit_number(result, "t0_us"), _fit_number(result, "r_inf_mb_s")
    sizes = result["size"][result["size"] > 0]
    if not len(sizes):
        return
    n = np.geomspace(sizes.min(), sizes.max(), 200)
    y = np.array(_niclab.fitted_curve(result.fit, column, n.tolist()))  # the core's model (the GUI draws it too)
    if not len(y):
        return
    ok = y > 0
    n_half = _fit_number(result, "n_half_bytes")
    text = f"{result.label} fit: t0 = {t0:.3g} µs, r∞ = {r_inf:.3g} MB/s" + (
        f", n½ = {n_half:.3g} B" if n_half is not None else "")
    ax.plot(n[ok], y[ok], "--", color=color, linewidth=1, label=text)


def _sweep_into(ax, results, what, published=True):
    column, ylabel = _SWEEP_Y[what]
    for r in results:
        _need(r, "size", column)
        x, y = _finite_positive(r["size"], r[column])  # a 0-byte point has no place on a log axis
        (line,) = ax.plot(x, y, marker="o" if len(x) == 1 else ".", label=r.label)
        _fit_into(ax, r, column, line.get_color())
    if published:
        _published_into(ax, results, column)
    ax.set_xscale("log", base=2)
    _plain_log_y(ax)
    ax.set_xlabel("message size (B)")
    ax.set_ylabel(ylabel)
    ax.set_title(title(results, what))
    if results:
        ax.legend()
    return ax


@_styled
def latency(*results, ax=None, published=True):
    """Latency (µs) against message size (B), log-log, one line per result (legend: ``.label``),
    with the system's published values for the same experiment as stars (``published=False``
    leaves them out; see ``published_points``) and a run's fitted t0 + n / r_inf dashed.

    Returns the Figure (the figure of `ax` when given)."""
    fig, (a,) = _figure(ax)
    _sweep_into(a, results, "latency", published)
    return fig


@_styled
def bandwidth(*results, ax=None, published=True):
    """Bandwidth (MB/s, 10^6 B/s) against message size (B), log-log, one line per result,
    with the system's published values as stars (``published=False`` leaves them out).

    Returns the Figure (the figure of `ax` when given)."""
    fig, (a,) = _figure(ax)
    _sweep_into(a, results, "bandwidth", published)
    return fig


@_styled
def sweep(*results):
    """Two panels for message-size sweeps: latency (µs) and bandwidth (MB/s) against size (B)."""
    fig, (a, b) = _figure(None, panels=2)
    _sweep_into(a, results, "latency")
    _sweep_into(b, results, "bandwidth")
    return fig


@_styled
def overlay(results, what="latency", ax=None):
    """Several sweeps on one plot: `what` is "latency" (us), "bandwidth" (MB/s) or "both"
    (two panels). `results` is a list of Results; their ``.label`` makes the legend."""
    results = list(results)
    if what == "latency":
        return latency(*results, ax=ax)
    if what == "bandwidth":
        return bandwidth(*results, ax=ax)
    if what == "both":
        if ax is not None:
            raise ValueError('overlay(what="both") draws two panels: it takes no ax')
        return sweep(*results)
    raise ValueError(f'what must be "latency", "bandwidth" or "both", not {what!r}')


def _fit_number(result, key):
    v = result.fit.get(key)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) else None


@_styled
def signature(result, ax=None, fit_lines=True):
    """The LogP signature (Culler et al. 1996): T_total/m (us) against m, one curve per
    delay d (us). With `fit_lines`, dashed lines mark the extracted o_s and g (us) when
    ``result.fit`` has them."""
    _need(result, "d_us", "m", "t_per_msg_us")
    fig, (a,) = _figure(ax)
    d, m, t = result["d_us"], result["m"], result["t_per_msg_us"]
    for value in dict.fromkeys(d.tolist()):  # curves in the order measured
        sel = d == value
        a.plot(m[sel], t[sel], marker=".", label=f"d = {value:g} µs")
    if fit_lines:
        for key, name, style in (("o_s_us", "o_s", "--"), ("g_us", "g", ":")):
            v = _fit_number(result, key)
            if v is not None:
                a.axhline(v, color="0.3", linestyle=style, linewidth=1, label=f"{name} = {v:.3g} µs")
    a.set_xlabel("m (messages)")
    a.set_ylabel("T_total / m (µs)")
    a.set_title(title([result], "LogP signature"))
    a.legend()
    return fig


@_styled
def prtt(result, ax=None):
    """LogGP gap by parametrized round trips: per size s (B) the measured gap
    (PRTT(n,0,s) - PRTT(1,0,s)) / (n-1) (us), and the fitted line g + G*(s-1) when
    ``result.fit`` has g_us and G_us_per_byte."""
    _need(result, "size", "prtt_1_0_us", "prtt_n_0_us")
    n = result.params.get("n")
    if not isinstance(n, (int, float)) or n < 2:
        raise ResultError(f"{result.experiment} result: params has no n >= 2 (the messages per PRTT)")
    fig, (a,) = _figure(ax)
    s = result["size"]
    gap = (result["prtt_n_0_us"] - result["prtt_1_0_us"]) / (n - 1)
    a.plot(s, gap, "o", label=f"gap, n = {n:g}")
    g, G = _fit_number(result, "g_us"), _fit_number(result, "G_us_per_byte")
    if g is not None and G is not None and len(s):
        xs = np.linspace(0, float(np.nanmax(s)), 200)
        a.plot(xs, g + G * np.maximum(xs - 1, 0), "--",
               label=f"g + G(s-1): g = {g:.3g} µs, G = {G * 1e3:.3g} ns/B")
    # Sizes span 0 B to kilobytes: linear near 0, logarithmic beyond, so the short
    # messages (where g dominates) are not squashed against the axis.
    a.set_xscale("symlog", base=2, linthresh=1)
    a.set_xlabel("message size s (B)")
    a.set_ylabel("gap (µs)")
    a.set_title(title([result], "LogGP gap by PRTT"))
    a.legend()
    return fig


@_styled
def cpu_load(result):
    """Host CPU load against message size (B): the load (%) of the client (and the server
    when measured), and the CPU time per message (us) with the fitted c0 + c_byte*n."""
    _need(result, "size", "load_percent")
    has_cpu = "cpu_us_per_msg" in result.column_names
    fig, axes = _figure(None, panels=2 if has_cpu else 1)
    s = result["size"]
    a = axes[0]
    for col, name in (("load_percent", "client"), ("load_percent_server", "server")):
        if col in result.column_names:
            x, y = s[s > 0], result[col][s > 0]
            a.plot(x, y, marker=".", label=name)
    a.set_xscale("log", base=2)
    a.set_xlabel("message size (B)")
    a.set_ylabel("CPU load (%)")
    a.set_title(title([result]))
    a.legend()
    if has_cpu:
        b = axes[1]
        b.plot(s, result["cpu_us_per_msg"], "o", label="measured")
        c0, cb = _fit_number(result, "c0_us"), _fit_number(result, "c_byte_ns")
        xs = np.linspace(0, float(np.nanmax(s)), 200) if len(s) else np.array([])
        ys = _niclab.fitted_curve(result.fit, "cpu_us_per_msg", xs.tolist())
        if len(ys):
            b.plot(xs, ys, "--", label=f"c0 + c_byte n: c0 = {c0:.3g} µs, c_byte = {cb:.3g} ns/B")
        b.set_xlabel("message size n (B)")
        b.set_ylabel("CPU time per message (µs)")
        b.legend()
    return fig


@_styled
def halo(result, ax=None):
    """A halo exchange's time per iteration: the machine's (last node to last node), and
    the nodes' mean and slowest own time, against the iteration."""
    _need(result, "iteration", "iteration_us", "node_mean_us", "node_max_us")
    fig, (a,) = _figure(ax)
    x = result["iteration"]
    a.plot(x, result["iteration_us"], marker="o", label="machine (last node to last node)")
    a.plot(x, result["node_mean_us"], marker=".", linestyle="--", label="node mean")
    a.plot(x, result["node_max_us"], marker=".", linestyle=":", label="slowest node")
    a.set_xlabel("iteration")
    a.set_ylabel("time per iteration (us)")
    a.set_ylim(bottom=0)
    grid = result.params.get("grid")
    a.set_title(title([result], f"on a {' x '.join(str(g) for g in grid)} grid" if grid else ""))
    a.legend()
    return fig


@_styled
def _generic(result):
    names = result.column_names
    fig, (a,) = _figure(None)
    x = result[names[0]]
    for name in names[1:]:
        a.plot(x, result[name], marker=".", label=name)
    units = result.units
    a.set_xlabel(f"{names[0]} ({units[names[0]]})" if units[names[0]] else names[0])
    a.set_title(title([result]))
    a.legend()
    return fig


@_styled
def plot(result):
    """The natural plot of a result, chosen by its columns: the LogP signature, the PRTT
    gap fit, the CPU load, a halo exchange's time per iteration, latency + bandwidth panels for message-size sweeps, or every
    column against the first."""
    names = set(result.column_names)
    if {"d_us", "m", "t_per_msg_us"} <= names:
        return signature(result)
    if {"size", "prtt_1_0_us", "prtt_n_0_us"} <= names:
        return prtt(result)
    if {"size", "load_percent"} <= names:
        return cpu_load(result)
    if {"iteration", "iteration_us"} <= names:
        return halo(result)
    if {"size", "latency_us", "bandwidth_mb_s"} <= names:
        return sweep(result)
    if "size" in names and "latency_us" in names:
        return latency(result)
    if "size" in names and "bandwidth_mb_s" in names:
        return bandwidth(result)
    if len(result.column_names) >= 2:
        return _generic(result)
    raise ResultError(f"{result.experiment} result: nothing to plot (columns: {', '.join(result.column_names)})")


class LivePlot:
    """An ``on_point`` callback that draws a latency or bandwidth sweep while it runs.

        live = niclab.plots.LivePlot("latency")
        r = niclab.run("pingpong", max_size=65536, on_point=live)
        live.finish()

    In Jupyter the figure is shown once and updated in place (``IPython.display``),
    at most every `interval_s` seconds of wall time and at ``finish()``; elsewhere the
    lines are updated and ``live.figure`` can be saved. Each run it watches becomes
    one line (a new run is noticed when the point count drops). Never stops a run.
    """

    def __init__(self, what="latency", interval_s=0.5, ax=None):
        if what not in _SWEEP_Y:
            raise ValueError(f'what must be "latency" or "bandwidth", not {what!r}')
        self.column, ylabel = _SWEEP_Y[what]
        self.figure, (self.ax,) = _figure(ax)
        self.ax.set_xscale("log", base=2)
        _plain_log_y(self.ax)
        self.ax.set_xlabel("message size (B)")
        self.ax.set_ylabel(ylabel)
        self.ax.grid(True, alpha=0.3)
        self.interval_s = interval_s
        self.points = 0
        self._line = None
        self._last_len = None
        self._last_draw = 0.0
        self._handle = None
        try:
            from IPython import get_ipython
            from IPython.display import display
            shell = get_ipython()
            if shell is not None and getattr(shell, "kernel", None) is not None:
                self._handle = display(self.figure, display_id=True)
        except ImportError:
            pass

    def __call__(self, result):
        """Take the result so far (from ``on_point``); always returns True (keep going)."""
        if self._line is None or self._last_len is None or len(result) < self._last_len:
            (self._line,) = self.ax.plot([], [], marker=".", label=result.label)
            self.ax.legend()
        self._last_len = len(result)
        x, y = _finite_positive(result["size"], result[self.column])
        self._line.set_data(x, y)
        self.points += 1
        if time.monotonic() - self._last_draw >= self.interval_s:
            self._redraw()
        return True

    def _redraw(self):
        self.ax.relim()
        self.ax.autoscale_view()
        self._last_draw = time.monotonic()
        if self._handle is not None:
            self._handle.update(self.figure)

    def finish(self):
        """Draw the final state (after the run returned). The figure is ``live.figure``."""
        self._redraw()
