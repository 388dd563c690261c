"""Parameter sweeps: one experiment over a grid of specs, in parallel, cached on disk.

    >>> s = niclab.sweep("pingpong", grid={"set.core.clock_mhz": [300, 400, 500]},
    ...                  sizes=[8, 1024, 65536])
    >>> s.table()                      # one row per measured point, grid values as columns
    >>> s.plot().savefig("clock.png")  # one line per grid point
    >>> s.computed, s.cached           # how many points ran now, how many came from the cache

Every grid point is a whole ``niclab.run``: a fresh system built from the spec, the
experiment run on it. Points run on local worker processes by default (one per core),
or on a Dask distributed cluster given its scheduler address (``scheduler=
"tcp://host:8786"``) or a ``dask.distributed.Client``. A simulation is deterministic,
so where a point runs never changes its result: the same spec and seed give the same
table bit for bit, sequentially, on local workers or on Dask.

Results are cached on disk under the hash of everything that determines them: the
experiment, the full system spec, the options, the content of every firmware image
the spec names and the simulator build itself (the compiled module). A rerun computes
only the points whose hash is new; a rebuilt firmware or simulator misses the cache.
"""

import contextlib
import hashlib
import itertools
import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from . import _niclab
from .errors import ExperimentError, NiclabError
from .experiments import _DEFAULT, Result, run_spec
from .system import _spec_with_resolved_firmware

__all__ = ["Sweep", "sweep", "grid_points"]

# Grid keys that are arguments of niclab.run (the system spec); "set.KEY" overrides a
# preset parameter, "parts.KIND" swaps a part; any other key is an experiment option.
_RUN_KEYS = ("system", "preset", "nodes", "firmware", "transport", "seed", "topology", "lanes")


def default_cache_dir():
    """Where results are cached: ``$NICLAB_CACHE`` or ``~/.cache/niclab``, then ``results/``."""
    root = os.environ.get("NICLAB_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "niclab")
    return Path(root) / "results"


def grid_points(grid):
    """The points of `grid` (dict key -> list of values) in order: the Cartesian product,
    the last key varying fastest. A value that is not a list is one value."""
    if not isinstance(grid, dict) or not grid:
        raise ExperimentError("sweep: grid must be a non-empty dict of key -> list of values")
    keys = list(grid)
    lists = []
    for k in keys:
        values = grid[k]
        values = list(values) if isinstance(values, (list, tuple, range)) else [values]
        if not values:
            raise ExperimentError(f"sweep: grid key {k!r} has no values")
        lists.append(values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*lists)]


def _point_job(experiment, base, point):
    """(spec, options) of one grid point: `base` (run's keyword arguments) with the
    point's values applied."""
    kw = dict(base)
    sets = dict(kw.pop("set", None) or {})
    parts = dict(kw.pop("parts", None) or {})
    options = dict(kw.pop("options", None) or {})
    for key, value in point.items():
        if key.startswith("set."):
            sets[key[4:]] = value
        elif key.startswith("parts."):
            parts[key[6:]] = value
        elif key in _RUN_KEYS:
            kw[key] = value
        else:
            options[key] = value
    transport = kw.pop("transport", None)
    if transport is not None:
        options["transport"] = transport
    spec = run_spec(system=kw.get("system"), preset=kw.get("preset"), nodes=kw.get("nodes", 2),
                    firmware=kw.get("firmware", _DEFAULT), parts=parts, set=sets, seed=kw.get("seed", 0),
                    topology=kw.get("topology"), lanes=kw.get("lanes", True))
    return _spec_with_resolved_firmware(spec), options


_DIGESTS = {}  # (path, mtime, size) -> SHA-256: a file is read once per process unless it changes


def _file_digest(path):
    path = os.fspath(path)
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _DIGESTS:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


def point_hash(experiment, spec, options):
    """The cache key of one point: a SHA-256 over the experiment, the spec, the options,
    every firmware image's content and the simulator module's content."""
    fw = spec.get("firmware")
    images = [fw] if isinstance(fw, str) else list(fw or [])
    identity = {
        "experiment": experiment,
        "spec": spec,
        "options": options,
        "firmware": [_file_digest(p) for p in images],
        "simulator": _file_digest(_niclab.__file__),
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()


def _run_point(experiment, spec, options):
    """Run one point (in whatever process); its Result as JSON (picklable)."""
    result = _niclab.run_experiment(experiment, spec, dict(options))
    # No observer stops a sweep's run: stopped is Ctrl-C, which the run took for itself
    # (keeping its points). It stops the sweep too, not just this point (from a worker,
    # through its future); the points done are in the cache.
    if result.stopped:
        raise KeyboardInterrupt
    return result.to_json()


def _label(point):
    return ", ".join(f"{k}={v}" for k, v in point.items())


class Sweep:
    """The outcome of a sweep: per grid point its values (``points``) and its ``Result``
    (``results``, labelled ``"key=value, ..."`` for legends), in grid order."""

    def __init__(self, experiment, points, results, computed, cached):
        self.experiment = experiment
        self.points = points
        self.results = results
        self.computed = computed  # points run by this call
        self.cached = cached      # points read from the cache

    def __len__(self):
        return len(self.points)

    def _columns(self):
        """The long table as an ordered dict of column -> list: the grid keys, then the
        results' columns (a column a result lacks is NaN there)."""
        keys = list(self.points[0]) if self.points else []
        result_cols = []
        for r in self.results:
            result_cols += [c for c in r.column_names if c not in result_cols and c not in keys]
        cols = {k: [] for k in keys + result_cols}
        for point, r in zip(self.points, self.results):
            n = len(r)
            for k in keys:
                cols[k] += [point[k]] * n
            for c in result_cols:
                cols[c] += list(r[c]) if c in r.column_names else [float("nan")] * n
        return cols

    def table(self):
        """Every measured point of every run as one table: a pandas DataFrame when pandas
        is installed, else a NumPy structured array; grid keys first, then the columns."""
        cols = self._columns()
        pd = _pandas()
        if pd is not None:
            return pd.DataFrame(cols)
        arrays = {}
        for k, v in cols.items():
            a = np.asarray(v)
            arrays[k] = a.astype(float) if a.dtype.kind in "iub" else a
        dtype = [(k, a.dtype) for k, a in arrays.items()]
        n = len(next(iter(arrays.values()))) if arrays else 0
        out = np.empty(n, dtype=dtype)
        for k, a in arrays.items():
            out[k] = a
        return out

    def fits(self):
        """One row per grid point: its values and the fitted model parameters (a list of dicts)."""
        return [dict(point, **r.fit) for point, r in zip(self.points, self.results)]

    def save_csv(self, path):
        """The long table as CSV (header of column names, one line per measured point)."""
        import csv
        cols = self._columns()
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(list(cols))
            for row in zip(*cols.values()):
                w.writerow(row)
        return Path(path)

    def plot(self, what=None):
        """One figure, one line per grid point: bandwidth or latency against size (`what`
        "bandwidth" or "latency"; by default bandwidth when every run has it)."""
        from .plots import overlay
        from .errors import ResultError
        if what is None:
            what = "bandwidth" if all("bandwidth_mb_s" in r.column_names for r in self.results) else "latency"
        column = {"bandwidth": "bandwidth_mb_s", "latency": "latency_us"}.get(what)
        if column is None or not all(column in r.column_names for r in self.results):
            raise ResultError(f"sweep plot: {self.experiment} results have no {what} column to overlay")
        return overlay(self.results, what)

    def __repr__(self):
        return (f"<niclab.Sweep {self.experiment}: {len(self)} point(s), {self.computed} computed, "
                f"{self.cached} from the cache>")


def _pandas():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def _executor(workers, scheduler):
    """(submit(fn, *args) -> future, as_completed, close(finished)) for local processes or
    Dask. close(False), for a sweep that stops early (Ctrl-C, a point that failed), drops
    the points not started and does not wait for the running ones: their results would
    be thrown away."""
    if scheduler is not None:
        try:
            from dask.distributed import Client, as_completed as dask_completed
        except ImportError as e:
            raise NiclabError("sweep: a Dask scheduler needs the 'distributed' package "
                              "(pip install 'dask[distributed]')") from e
        client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        own = client is not scheduler
        submitted = []

        def submit(fn, *args):
            future = client.submit(fn, *args, pure=False)
            submitted.append(future)
            return future

        def close(finished):
            if not finished:  # a Dask task cannot be stopped once it runs; the queued ones go
                client.cancel(submitted)
            if own:
                client.close()
        return submit, dask_completed, close
    # fork where there is one: a worker starts at once with niclab loaded, and a plain
    # script needs no `if __name__ == "__main__":` guard (spawn re-runs the main module).
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))

    def close(finished):
        if not finished:
            # A notebook's interrupt reaches its kernel only, not the workers, whose runs
            # would go on to the end of their points (minutes for a large one) before
            # shutdown() returned. (Python 3.14's terminate_workers() does this.)
            for worker in list((getattr(pool, "_processes", None) or {}).values()):
                worker.terminate()
        pool.shutdown(cancel_futures=True)
    return pool.submit, as_completed, close


@contextlib.contextmanager
def _executing(workers, scheduler):
    """(submit, as_completed) of _executor, closed on leaving: at once if the block
    raised (Ctrl-C, a failed point, a generator closed early), else after every point."""
    submit, completed, close = _executor(workers, scheduler)
    finished = False
    try:
        yield submit, completed
        finished = True
    finally:
        close(finished)


def sweep(experiment, grid, *, workers=None, scheduler=None, cache=True, progress=True, **base):
    """Run `experiment` once per point of `grid`; return a ``Sweep``.

    `grid`: dict key -> list of values, combined as a Cartesian product. Keys:
    ``"set.KEY"`` overrides a preset parameter (``"set.core.clock_mhz"``),
    ``"parts.KIND"`` swaps a part (``"parts.bus": ["pci-32-33", "pci-64-66"]``),
    ``system``, ``preset``, ``nodes``, ``firmware``, ``transport``, ``seed``,
    ``topology``, ``lanes`` are the run's own, any other key is an experiment option
    (``"op"``, ``"max_size"``). `base`: what every point shares, as ``niclab.run``'s
    keyword arguments (``system=``, ``set={...}``, ``sizes=[...]`` ...).

    `workers`: local worker processes (default: one per core; 1 runs the points here,
    one after another). `scheduler`: a Dask scheduler address or a
    ``dask.distributed.Client`` to run the points on instead. `cache`: True for the
    default directory (``$NICLAB_CACHE`` or ``~/.cache/niclab``), a path, or False.
    `progress`: a progress bar over all points (rich, on stderr).

    A point that fails raises its error, naming the point; the points already done
    stay in the cache. Ctrl-C stops the sweep (KeyboardInterrupt), also within a
    point; the points already done stay in the cache too. Either way the local workers
    still computing points are stopped, also when only this process was interrupted
    (a notebook's kernel); on Dask the points not yet started are cancelled.
    """
    options = {k: base.pop(k) for k in list(base) if k not in _RUN_KEYS + ("set", "parts")}
    base["options"] = options
    points = grid_points(grid)
    jobs = [_point_job(experiment, base, p) for p in points]
    cache_dir = None if cache is False else (default_cache_dir() if cache is True else Path(cache))
    hashes = [point_hash(experiment, spec, opts) for spec, opts in jobs]

    results = [None] * len(points)
    if cache_dir is not None:
        for i, h in enumerate(hashes):
            f = cache_dir / f"{h}.json"
            if f.exists():
                try:
                    results[i] = Result.load(f)
                except NiclabError:
                    f.unlink()  # a damaged entry is recomputed, never trusted
    todo = [i for i, r in enumerate(results) if r is None]
    cached = len(points) - len(todo)

    bar = _Progress(experiment, len(points), cached) if progress else None
    try:
        for i, data in _compute(experiment, jobs, todo, workers, scheduler, points):
            r = Result.from_json(data)
            if cache_dir is not None and not r.stopped:
                cache_dir.mkdir(parents=True, exist_ok=True)
                tmp = cache_dir / f"{hashes[i]}.json.tmp{os.getpid()}"
                r.save(tmp, format="json")
                tmp.replace(cache_dir / f"{hashes[i]}.json")  # whole files only, even when sweeps share a cache
            results[i] = r
            if bar:
                bar.advance(_label(points[i]))
    finally:
        if bar:
            bar.close()
    for r, p in zip(results, points):
        r.label = _label(p)
    return Sweep(experiment, points, results, computed=len(todo), cached=cached)


def _compute(experiment, jobs, todo, workers, scheduler, points):
    """Yield (index, result JSON) for the points in `todo` as they finish."""
    if not todo:
        return
    workers = workers or os.cpu_count() or 1
    if scheduler is None and (workers == 1 or len(todo) == 1):
        for i in todo:
            yield i, _guarded(experiment, jobs[i], points[i])
        return
    with _executing(min(workers, len(todo)), scheduler) as (submit, completed):
        futures = {submit(_run_point, experiment, *jobs[i]): i for i in todo}
        for fut in completed(list(futures)):
            i = futures[fut]
            try:
                data = fut.result()
            except NiclabError as e:
                raise _naming(e, points[i]) from e
            yield i, data


def _guarded(experiment, job, point):
    try:
        return _run_point(experiment, *job)
    except NiclabError as e:
        raise _naming(e, point) from e


def _naming(error, point):
    """The same error (type and attributes such as key_path) with the point named first."""
    named = type(error)(f"sweep point {_label(point)}: {error}")
    named.__dict__.update(error.__dict__)
    return named


class _Progress:
    """A rich progress bar over all points of a sweep (cached ones count as done)."""

    def __init__(self, experiment, total, done):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        self._p = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("{task.fields[point]}"),
                           console=Console(stderr=True), transient=True)
        self._p.start()
        self._task = self._p.add_task(f"sweep {experiment}", total=total, completed=done, point="")

    def advance(self, text):
        self._p.update(self._task, advance=1, point=text)

    def close(self):
        self._p.stop()
