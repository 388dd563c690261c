"""niclab.sweep and `niclab sweep`: grids, parallel points, the on-disk cache, Dask."""

import importlib
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import niclab
from niclab.cli import main
from niclab.sweep import grid_points, point_hash

sweep_module = importlib.import_module("niclab.sweep")  # niclab.sweep is the function

GRID = {"set.core.clock_mhz": [300, 500], "op": ["put", "get"]}
SIZES = [8, 1024]


def _table_rows(s):
    """The sweep's table as plain tuples, whatever the table type."""
    return [tuple(row) for row in s.table().itertuples(index=False)]


def test_grid_points_are_the_cartesian_product_in_key_order():
    points = grid_points({"a": [1, 2], "b": ["x", "y", "z"], "c": 7})
    assert len(points) == 6
    assert points[0] == {"a": 1, "b": "x", "c": 7}
    assert points[1] == {"a": 1, "b": "y", "c": 7}
    assert points[-1] == {"a": 2, "b": "z", "c": 7}
    with pytest.raises(niclab.ExperimentError, match="'b' has no values"):
        grid_points({"a": [1], "b": []})


def test_parallel_points_equal_sequential_and_each_point_gets_its_values(tmp_path):
    seq = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=1, cache=False, progress=False)
    par = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=2, cache=False, progress=False)
    assert seq.computed == par.computed == 4 and seq.cached == 0
    assert _table_rows(seq) == _table_rows(par)
    # Each point really ran with its values: the clock is in the resolved spec, the op in the options,
    # and a faster core gives a lower 8-byte put latency.
    for point, r in zip(seq.points, seq.results):
        assert r.system["parameters"]["core.clock_mhz"] == point["set.core.clock_mhz"]
        assert r.params["op"] == point["op"]
        assert r.label == f"set.core.clock_mhz={point['set.core.clock_mhz']}, op={point['op']}"
    by = {(p["set.core.clock_mhz"], p["op"]): r for p, r in zip(seq.points, seq.results)}
    assert by[(500, "put")].latency_us[0] < by[(300, "put")].latency_us[0]


def test_a_cached_rerun_computes_nothing_and_a_new_point_only_itself(tmp_path):
    first = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=2, cache=tmp_path, progress=False)
    assert (first.computed, first.cached) == (4, 0)
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=2, cache=tmp_path, progress=False)
    assert (again.computed, again.cached) == (0, 4)
    assert _table_rows(again) == _table_rows(first)
    # A damaged entry is recomputed, never trusted.
    victim = sorted(tmp_path.glob("*.json"))[0]
    victim.write_text("{not json")
    healed = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=1, cache=tmp_path, progress=False)
    assert healed.computed == 1 and _table_rows(healed) == _table_rows(first)
    wider = niclab.sweep("pingpong", {"set.core.clock_mhz": [300, 500, 400], "op": ["put", "get"]}, sizes=SIZES,
                         workers=2, cache=tmp_path, progress=False)
    assert (wider.computed, wider.cached) == (2, 4)


def test_the_cache_key_covers_spec_options_and_firmware_content(tmp_path, fw):
    image = tmp_path / "portals.elf"
    shutil.copy(fw("portals"), image)
    spec = {"preset": "seastar", "nodes": 2, "seed": 0, "firmware": str(image)}
    base = point_hash("pingpong", spec, {"sizes": [8]})
    assert point_hash("pingpong", dict(spec), {"sizes": [8]}) == base
    assert point_hash("pingpong", dict(spec, seed=1), {"sizes": [8]}) != base
    assert point_hash("pingpong", spec, {"sizes": [16]}) != base
    assert point_hash("stream", spec, {"sizes": [8]}) != base
    with open(image, "ab") as f:  # a rebuilt image under the same name
        f.write(b"\0")
    assert point_hash("pingpong", spec, {"sizes": [8]}) != base


CTRL_C_SWEEP = """
import sys, warnings, niclab
warnings.simplefilter("ignore", RuntimeWarning)
try:
    niclab.sweep("pingpong", {"sizes": [[8], [8, 64 << 20]]}, repeats=50, workers=1, cache=sys.argv[1], progress=False)
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_stops_a_sweep_not_just_its_point_and_the_done_points_stay_cached(tmp_path):
    # The second grid point's run measures 8 B, then fifty 64 MiB round trips, minutes.
    # Ctrl-C during them stops the whole sweep; before, that run kept its 8 B point as a
    # stopped result and the sweep went on to its end.
    p = subprocess.Popen([sys.executable, "-c", CTRL_C_SWEEP, str(tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # the first point's cache entry: the sweep is in the second
            if list(tmp_path.glob("*.json")) or p.poll() is not None:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert out.strip() == "interrupted", (out, err)
    assert len(list(tmp_path.glob("*.json"))) == 1


PARALLEL_INTERRUPT = """
import os, sys, warnings, niclab
warnings.simplefilter("ignore", RuntimeWarning)
sweep = sys.modules["niclab.sweep"]
workers = []
real = sweep._executor
def spy(*args):  # the workers' pids as the sweep closes its pool, for the test to look at
    submit, completed, close = real(*args)
    def noting(finished):
        workers.extend(submit.__self__._processes)
        close(finished)
    def waiting(futures):  # every point submitted: the test may interrupt
        print("running", flush=True)
        return completed(futures)
    return submit, waiting, noting
sweep._executor = spy
try:
    niclab.sweep("pingpong", {"sizes": [[8, 64 << 20], [16, 64 << 20]]}, repeats=50, workers=2, cache=sys.argv[1],
                 progress=False)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", *workers)
"""


def test_an_interrupt_of_a_parallel_sweep_stops_its_running_points_too(tmp_path):
    # As in a notebook, only the sweep's own process is interrupted, not its workers. Each
    # worker runs fifty 64 MiB round trips (minutes); the sweep used to wait for them.
    # Its own process group, so that a failure leaves no worker behind (killpg below).
    p = subprocess.Popen([sys.executable, "-c", PARALLEL_INTERRUPT, str(tmp_path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert p.stdout.readline().strip() == "running"
        time.sleep(1)  # the workers are into their points' runs
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
    words = out.split()  # what followed "running"
    assert words[:1] == ["interrupted"], (out, err)
    workers = [int(w) for w in words[1:]]
    assert workers, "the pool had workers"
    for pid in workers:  # none is left computing a point nobody will read
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not list(tmp_path.glob("*.json"))


def test_the_table_falls_back_to_numpy_without_pandas(monkeypatch):
    s = niclab.sweep("pingpong", {"op": ["put", "get"]}, sizes=SIZES, workers=1, cache=False, progress=False)
    monkeypatch.setattr(sweep_module, "_pandas", lambda: None)
    t = s.table()
    assert isinstance(t, np.ndarray) and t.dtype.names[:2] == ("op", "size")
    assert list(t["op"]) == ["put", "put", "get", "get"]
    assert list(t["size"]) == [8.0, 1024.0, 8.0, 1024.0]
    np.testing.assert_array_equal(t["latency_us"][:2], s.results[0].latency_us)


def test_a_bad_point_names_itself_and_the_key():
    with pytest.raises(niclab.ConfigError, match=r"sweep point set.core.clock_mhz=-5.*core.clock_mhz") as e:
        niclab.sweep("pingpong", {"set.core.clock_mhz": [-5]}, sizes=[8], workers=1, cache=False, progress=False)
    assert "core.clock_mhz" in e.value.key_path
    with pytest.raises(niclab.ExperimentError, match=r"sweep point bogus=[12]: .*unknown option .bogus."):
        niclab.sweep("pingpong", {"bogus": [1, 2]}, sizes=[8], workers=2, cache=False, progress=False)


def test_the_plot_has_one_legend_entry_per_grid_point():
    s = niclab.sweep("stream", {"firmware": ["portals", "portals_nocache"]}, sizes=[1024, 65536], workers=1,
                     cache=False, progress=False)
    fig = s.plot()
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert [lab for lab in labels if lab.startswith("firmware=")] == ["firmware=portals", "firmware=portals_nocache"]


def test_dask_local_cluster_gives_the_sequential_table():
    distributed = pytest.importorskip("distributed")
    seq = niclab.sweep("pingpong", GRID, sizes=SIZES, workers=1, cache=False, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_dask = niclab.sweep("pingpong", GRID, sizes=SIZES, scheduler=cluster.scheduler_address, cache=False,
                               progress=False)
    assert on_dask.computed == 4
    assert _table_rows(on_dask) == _table_rows(seq)


def test_cli_sweep_writes_the_table_and_the_figure(tmp_path, capsys):
    out, fig = tmp_path / "t.csv", tmp_path / "f.svg"
    argv = ["sweep", "pingpong", "--grid", "op=put,get", "--sizes", "8,1K", "--cache", str(tmp_path / "c"),
            "--workers", "2", "--out", str(out), "--plot", str(fig)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "2 point(s), 2 computed, 0 from the cache" in printed
    lines = out.read_text().splitlines()
    assert lines[0].startswith("op,size,")
    assert [line.split(",")[0] for line in lines[1:]] == ["put", "put", "get", "get"]
    assert fig.read_text().lstrip().startswith("<?xml")
    assert main(argv) == 0
    assert "0 computed, 2 from the cache" in capsys.readouterr().out


def test_cli_sweep_refuses_a_grid_without_values():
    with pytest.raises(SystemExit, match="--grid wants KEY=V1,V2"):
        main(["sweep", "pingpong", "--grid", "op="])
