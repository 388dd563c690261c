"""niclab.run and niclab.Result: every registered experiment from Python, the export
formats, point streaming, stopping early, and errors that name what is wrong."""

import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import niclab
from niclab import _niclab

# Small settings per experiment (a few points each); the message-size sweeps take `sizes`.
SMALL = {
    "logp_signature": {"m": [1, 2, 4, 8], "delays_us": [0, 30]},
    "prtt": {"sizes": [1, 1024], "n": 4},
    "net_throughput": {"sizes": [8, 32], "measure_us": 50},  # packets every network carries (T9000: 32 B)
    "halo3d": {"nx": 2, "ny": 2, "nz": 2, "iterations": 2},
}
# Experiments on the network alone: no NIC runs, so no firmware is recorded.
NETWORK_ONLY = {"net_throughput"}
# Experiments of one system's own library: they refuse every other system
# (ExperimentError naming theirs) and run small on theirs.
SYSTEM_ONLY = {"multicast": "grim"}
SWEEP = {"sizes": [1, 1024]}


def small(name):
    return dict(SMALL.get(name, SWEEP))


def small_on_its_system(name):
    """small(name), on the experiment's own system if it has one."""
    options = small(name)
    if name in SYSTEM_ONLY:
        options["system"] = SYSTEM_ONLY[name]
    return options


@pytest.fixture(scope="module")
def pingpong():
    return niclab.run("pingpong", sizes=[1, 64, 1024])


def test_registry_lists_the_sweeps_with_summaries():
    exps = dict(niclab.list_experiments())
    for name in ("pingpong", "stream", "bidir"):
        assert name in exps and exps[name]
    assert list(exps) == [n for n, _ in _niclab.experiments()]


@pytest.mark.parametrize("name", [n for n, _ in _niclab.experiments()])
def test_every_registered_experiment_runs_small(name):
    if name in SYSTEM_ONLY:
        with pytest.raises(niclab.ExperimentError, match=SYSTEM_ONLY[name]):
            niclab.run(name, **small(name))
    r = niclab.run(name, **small_on_its_system(name))
    assert r.experiment == name
    assert len(r) > 0 and not r.stopped
    assert r.planned_points == len(r)  # every point it planned was measured
    cols = r.columns
    assert list(cols) == r.column_names
    for col, values in cols.items():
        assert values.dtype == np.float64 and values.shape == (len(r),)
        assert col in r.units
    assert r.rows.shape == (len(r), len(cols))
    assert (r.firmware and r.firmware[0]["build_id"]) or (name in NETWORK_ONLY and r.firmware == [])
    assert r.system["preset"] == ("seastar" if name not in SYSTEM_ONLY else r.system["preset"])
    again = niclab.Result.from_json(json.loads(json.dumps(r.to_json())))
    np.testing.assert_array_equal(again.rows, r.rows)


def test_sweep_columns_and_units(pingpong):
    r = pingpong
    np.testing.assert_array_equal(r.size, [1, 64, 1024])
    np.testing.assert_array_equal(r["size"], r.columns["size"])
    assert r.units["size"] == "B" and r.units["latency_us"] == "us" and r.units["bandwidth_mb_s"] == "MB/s"
    assert np.all(r.latency_us > 0)
    # MB/s = 10^6 B/s = B/us
    np.testing.assert_allclose(r.bandwidth_mb_s, r.size / r.latency_us, rtol=1e-9)
    assert r.label == "portals put"
    assert r.params["op"] == "put" and r.params["sizes"] == [1, 64, 1024]
    assert r.seed == 0


def test_label_is_settable_and_follows_op_and_firmware():
    r = niclab.run("pingpong", sizes=[8], op="get", firmware="portals_nocache")
    assert r.label == "portals_nocache get"
    r.label = "no caches"
    assert r.label == "no caches"


def test_unknown_column_is_a_result_error(pingpong):
    with pytest.raises(niclab.ResultError, match="latency_us"):
        pingpong["latncy_us"]
    with pytest.raises(AttributeError, match="latency_us"):
        pingpong.latncy_us


def test_json_round_trip_keeps_everything(pingpong, tmp_path):
    r = niclab.run("pingpong", sizes=[1, 64, 1024], on_point=lambda res: len(res) < 2)
    r.fit = {"t0_us": 4.5, "note": "by hand", "nested": {"a": [1, 2]}}
    r.label = "mine"
    path = r.save(tmp_path / "r.json")
    back = niclab.Result.load(path)
    assert back.experiment == r.experiment and len(back) == len(r) == 2
    assert back.column_names == r.column_names and back.units == r.units
    for col in r.column_names:
        np.testing.assert_array_equal(back[col], r[col])
    assert back.fit == r.fit
    assert back.params == r.params and back.system == r.system and back.firmware == r.firmware
    assert back.seed == r.seed and back.stopped is True and back.label == "mine"
    assert back.planned_points == r.planned_points


def test_load_of_a_file_that_is_not_a_result(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"hello": 1}')
    with pytest.raises(niclab.ResultError, match="format"):
        niclab.Result.load(p)
    p.write_text("not json")
    with pytest.raises(niclab.ResultError, match="not JSON"):
        niclab.Result.load(p)


def test_csv_has_metadata_comments_header_and_rows(pingpong, tmp_path):
    text = pingpong.save(tmp_path / "r.csv").read_text()
    lines = text.splitlines()
    data = [l for l in lines if not l.startswith("#")]
    assert data[0].split(",") == pingpong.column_names
    assert len(data) == 1 + len(pingpong)
    assert float(data[1].split(",")[0]) == 1


def test_osu_text_has_the_osu_header_and_two_columns(pingpong, tmp_path):
    text = pingpong.save(tmp_path / "r.osu").read_text()
    lines = text.splitlines()
    header = next(l for l in lines if l.startswith("# Size"))
    assert "Latency (us)" in header
    rows = [l.split() for l in lines if not l.startswith("#")]
    assert len(rows) == len(pingpong) and all(len(r) == 2 for r in rows)
    assert [int(r[0]) for r in rows] == [1, 64, 1024]
    assert float(rows[0][1]) == pytest.approx(pingpong.latency_us[0], abs=0.01)
    assert pingpong.save(tmp_path / "r.txt").read_text() == text


def test_osu_default_column_is_bandwidth_for_stream():
    r = niclab.run("stream", sizes=[1, 1024])
    assert "Bandwidth (MB/s)" in r.to_osu()
    assert "Latency (us)" in r.to_osu("latency_us")


def test_netpipe_np_out_has_three_numeric_columns(pingpong, tmp_path):
    for name in ("np.out", "r.out"):
        lines = pingpong.save(tmp_path / name).read_text().splitlines()
        assert len(lines) == len(pingpong)
        for line, size, lat, bw in zip(lines, pingpong.size, pingpong.latency_us, pingpong.bandwidth_mb_s):
            b, mbps, us = (float(v) for v in line.split())
            assert b == size and us == pytest.approx(lat) and mbps == pytest.approx(bw * 8)


def test_explicit_format_and_unknown_suffix(pingpong, tmp_path):
    assert "# Size" in pingpong.save(tmp_path / "r.dat", format="osu").read_text()
    with pytest.raises(niclab.ResultError, match="format"):
        pingpong.save(tmp_path / "r.dat")


def test_table_repr_and_html(pingpong):
    t = pingpong.table()
    assert "latency_us (us)" in t.splitlines()[0] and len(t.splitlines()) == 1 + len(pingpong)
    assert "pingpong" in repr(pingpong)
    h = pingpong._repr_html_()
    assert "<table>" in h and "bandwidth_mb_s (MB/s)" in h


def test_from_arrays_builds_a_result_for_external_data():
    r = niclab.Result.from_arrays("pingpong", {"size": [1, 2], "latency_us": [5.0, 5.5]},
                                  units={"size": "B", "latency_us": "us"}, fit={"a": 1.0}, label="paper")
    assert len(r) == 2 and r.label == "paper" and r.fit == {"a": 1.0}
    with pytest.raises(niclab.ResultError, match="lengths"):
        niclab.Result.from_arrays("x", {"a": [1], "b": [1, 2]})


def test_on_point_sees_a_growing_result():
    seen = []
    r = niclab.run("pingpong", sizes=[1, 2, 3, 4], on_point=lambda res: seen.append((len(res), res.size.tolist())))
    assert [n for n, _ in seen] == [1, 2, 3, 4]
    assert seen[-1][1] == [1, 2, 3, 4]
    assert len(r) == 4 and not r.stopped


def test_on_point_returning_false_stops_early_keeping_the_points():
    r = niclab.run("pingpong", sizes=[1, 2, 3, 4, 5, 6], on_point=lambda res: len(res) < 2)
    assert len(r) == 2 and r.stopped and r.planned_points == 6
    np.testing.assert_array_equal(r.size, [1, 2])


def test_an_exception_in_on_point_propagates_and_the_process_survives():
    def boom(res):
        raise ZeroDivisionError("from the observer")

    with pytest.raises(ZeroDivisionError, match="from the observer"):
        niclab.run("pingpong", sizes=[1, 2, 3], on_point=boom)
    assert len(niclab.run("pingpong", sizes=[1])) == 1  # still usable


def test_keyboard_interrupt_stops_cleanly_keeping_the_points():
    def interrupt(res):
        if len(res) == 2:
            raise KeyboardInterrupt

    with pytest.warns(RuntimeWarning, match="keeping the 2 point"):
        r = niclab.run("pingpong", sizes=[1, 2, 3, 4], on_point=interrupt)
    assert len(r) == 2 and r.stopped


CTRL_C_WITHIN_A_POINT = """
import warnings, niclab
def on_point(r):
    print("point", len(r), flush=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = niclab.run("pingpong", sizes=[8, 64 << 20], repeats=50, on_point=on_point)
print("kept", len(r), r.stopped, r.size.tolist(), [str(w.message) for w in caught], flush=True)
"""


def test_ctrl_c_within_a_long_point_abandons_it_and_keeps_the_points_before():
    # The second point (fifty 64 MiB round trips) takes minutes: Ctrl-C during it stops
    # the simulation there, not at the point's end, and the first point is kept.
    p = subprocess.Popen([sys.executable, "-c", CTRL_C_WITHIN_A_POINT], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in test_cli_run
    try:
        assert p.stdout.readline().strip() == "point 1"
        time.sleep(0.5)  # into the second point
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert p.returncode == 0, err
    assert "kept 1 True [8.0]" in out, (out, err)
    assert "interrupted (Ctrl-C); keeping the 1 point(s)" in out


def test_bad_option_names_the_key():
    with pytest.raises(niclab.ExperimentError, match="sizez"):
        niclab.run("pingpong", sizez=[1])
    with pytest.raises(niclab.ExperimentError, match="op"):
        niclab.run("pingpong", sizes=[1], op="send")
    assert issubclass(niclab.ExperimentError, niclab.NiclabError)


def test_unknown_experiment_lists_the_names():
    with pytest.raises(niclab.ExperimentError) as e:
        niclab.run("pingpang")
    for name, _ in niclab.list_experiments():
        assert name in str(e.value)


def test_bad_spec_is_a_config_error():
    with pytest.raises(niclab.ConfigError):
        niclab.run("pingpong", sizes=[1], set={"core.clok_mhz": 400})
    with pytest.raises(niclab.ExperimentError, match="node"):
        niclab.run("pingpong", sizes=[1], nodes=1)


def test_halo3d_exchanges_faces_on_a_grid_and_plots_per_iteration():
    # 8 SeaStars as a 2 x 2 x 2 grid: 3 neighbours each, 24 faces of 4 x 4 cells an iteration.
    r = niclab.run("halo3d", nodes=8, nx=4, ny=4, nz=4, iterations=3)
    assert r.params["grid"] == [2, 2, 2]
    assert list(r["iteration"]) == [1, 2, 3]
    assert set(r["messages"]) == {24} and set(r["bytes"]) == {24 * 4 * 4 * 8}
    assert (r["node_max_us"] >= r["node_mean_us"]).all()
    from niclab import plots
    fig = plots.plot(r)
    assert fig.axes[0].get_ylabel() == "time per iteration (us)"


def test_lanes_off_is_packet_by_packet_with_the_same_results():
    # The bulk-transfer fast path against the packet-level mode: every time the same.
    fast = niclab.run("pingpong", sizes=[1, 65536], repeats=2)
    packets = niclab.run("pingpong", sizes=[1, 65536], repeats=2, lanes=False)
    for col in fast.column_names:
        np.testing.assert_array_equal(packets[col], fast[col])
    assert packets.system["lanes"] is False and "lanes" not in fast.system
    with pytest.raises(niclab.ConfigError, match="lanes"):
        niclab.run("pingpong", sizes=[1], lanes="no")

