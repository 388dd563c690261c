"""niclab.plots: figures with one line per result, log axes, units in the labels.
Rendered with Agg (no display needed)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure

import niclab


def _curves(ax):
    """The measured curves of a plot (not the published points drawn beside them)."""
    return [l for l in ax.get_lines() if not l.get_label().startswith("published")]
from niclab import plots


@pytest.fixture(scope="module")
def sweeps():
    a = niclab.run("pingpong", sizes=[0, 1, 64, 4096])  # 0 B has no place on a log axis
    b = niclab.run("pingpong", sizes=[1, 64, 4096], firmware="portals_nocache")
    return a, b


def signature_result():
    m = np.tile(np.arange(1, 11), 3)
    d = np.repeat([0.0, 5.0, 10.0], 10)
    t = np.where(d == 0, 2 + 1 / m, d + 3 + 1 / m)
    return niclab.Result.from_arrays("logp_signature", {"d_us": d, "m": m, "t_total_us": t * m, "t_per_msg_us": t},
                                     units={"d_us": "us", "t_total_us": "us", "t_per_msg_us": "us"},
                                     fit={"o_s_us": 1.5, "g_us": 2.0, "o_r_us": 1.0, "L_us": 3.0})


def test_latency_one_line_per_result_log_log(sweeps, tmp_path):
    fig = plots.latency(*sweeps)
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert len(_curves(ax)) == 2
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "(B)" in ax.get_xlabel() and "(µs)" in ax.get_ylabel()
    assert ax.get_title() == "seastar: portals put ping-pong latency"  # the images differ (the legend says which); the transport is shared
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["portals put", "portals_nocache put",
                                                                  "published (seastar: seed 001 §6 Fig. 4)"]
    assert len(ax.get_lines()[0].get_xdata()) == 3  # the 0-byte point is left out
    fig.savefig(tmp_path / "lat.png")
    assert (tmp_path / "lat.png").stat().st_size > 0


def test_bandwidth_labels_mb_s(sweeps):
    (ax,) = plots.bandwidth(*sweeps).axes
    assert "MB/s" in ax.get_ylabel() and len(_curves(ax)) == 2 and ax.get_yscale() == "log"


def test_draws_into_a_given_axes(sweeps):
    fig = Figure()
    ax = fig.subplots()
    assert plots.latency(sweeps[0], ax=ax) is fig
    assert len(_curves(ax)) == 1


def test_overlay_and_sweep_panels(sweeps):
    assert len(_curves(plots.overlay(sweeps, what="bandwidth").axes[0])) == 2
    fig = plots.overlay(sweeps, what="both")
    assert len(fig.axes) == 2 and all(len(_curves(a)) == 2 for a in fig.axes)
    with pytest.raises(ValueError):
        plots.overlay(sweeps, what="latncy")


def test_signature_one_curve_per_d_and_fit_lines():
    r = signature_result()
    (ax,) = plots.signature(r).axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:3] == ["d = 0 µs", "d = 5 µs", "d = 10 µs"]
    assert any(l.startswith("o_s = 1.5 µs") for l in labels) and any(l.startswith("g = 2 µs") for l in labels)
    assert len(_curves(ax)) == 5
    assert len(_curves(plots.signature(r, fit_lines=False).axes[0])) == 3


def test_signature_without_fit_draws_the_curves_only():
    r = signature_result()
    r.fit = {"error": "no curve with d above g"}
    assert len(_curves(plots.signature(r).axes[0])) == 3


def test_prtt_points_and_gap_line():
    s = np.array([1.0, 1024, 4096])
    g, G, n = 2.0, 0.004, 4
    p1 = 10 + s * 0.001
    r = niclab.Result.from_arrays("prtt", {"size": s, "prtt_1_0_us": p1, "prtt_n_0_us": p1 + (n - 1) * (g + G * (s - 1)),
                                           "prtt_n_d_us": p1 * 2, "d_us": p1, "o_r_us": s * 0 + 1},
                                  fit={"g_us": g, "G_us_per_byte": G}, params={"n": n})
    (ax,) = plots.prtt(r).axes
    points, line = ax.get_lines()
    np.testing.assert_allclose(points.get_ydata(), g + G * (s - 1))
    x, y = line.get_data()
    np.testing.assert_allclose(y[-1], g + G * (x[-1] - 1))


def test_cpu_load_panels():
    s = np.array([1.0, 1024, 65536])
    r = niclab.Result.from_arrays("cpu_load", {"size": s, "latency_us": 5 + s / 1000, "load_percent": [90, 50, 10],
                                               "cpu_us_per_msg": 2 + s * 1e-4},
                                  fit={"c0_us": 2.0, "c_byte_ns": 0.1})
    fig = plots.cpu_load(r)
    assert len(fig.axes) == 2
    assert "%" in fig.axes[0].get_ylabel() and len(_curves(fig.axes[1])) == 2


def test_plot_picks_the_natural_figure(sweeps):
    assert len(plots.plot(sweeps[0]).axes) == 2  # latency + bandwidth
    assert "signature" in plots.plot(signature_result()).axes[0].get_title()
    with pytest.raises(niclab.ResultError, match="size"):
        plots.latency(signature_result())


def test_live_plot_follows_the_points():
    live = plots.LivePlot("bandwidth", interval_s=0)
    r = niclab.run("pingpong", sizes=[1, 2, 4, 8], on_point=live)
    live.finish()
    assert live.points == 4 and not r.stopped
    (line,) = live.ax.get_lines()
    np.testing.assert_array_equal(line.get_xdata(), [1, 2, 4, 8])
    np.testing.assert_allclose(line.get_ydata(), r.bandwidth_mb_s)
    niclab.run("pingpong", sizes=[1, 2], on_point=live)  # a second run: a second line
    assert len(_curves(live.ax)) == 2


def test_sweeps_show_the_systems_published_values():
    from niclab.plots import published_points
    put = niclab.run("pingpong", sizes=[1, 64])
    assert published_points(put, "latency_us") == [(1.0, 5.39, "seastar: seed 001 §6 Fig. 4")]
    get = niclab.run("pingpong", op="get", sizes=[1])
    assert [p[1] for p in published_points(get, "latency_us")] == [6.60]
    pio = niclab.run("pingpong", system="startx", transport="pio", sizes=[8, 56])
    assert sorted(p[:2] for p in published_points(pio, "latency_us")) == [(8.0, 5.5), (56.0, 14.6)]
    assert published_points(pio, "bandwidth_mb_s") == []
    fig = niclab.plots.latency(put, pio)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(l.startswith("published (seastar: seed 001") for l in labels)
    assert any(l.startswith("published (startx: seed 002") for l in labels)
    fig = niclab.plots.latency(put, published=False)
    assert not any("published" in t.get_text() for t in fig.axes[0].get_legend().get_texts())
    # The generic-mode figures name their transport: an accelerated run is drawn
    # against the accelerated prediction only.
    accel = niclab.run("pingpong", firmware="portals_accel", transport="portals_accel", sizes=[1])
    assert [p[:2] for p in published_points(accel, "latency_us")] == [(1.0, 2.0)]


def test_a_published_packet_size_is_not_drawn_as_a_bandwidth():
    # The DSNIC's "smallest packet size reaching the maximum" (512 bytes) is read off the
    # Comms1 bandwidth curve, but it is a size, not a point on the curve.
    from niclab.plots import published_points
    r = niclab.run("comms1", system="dsnic", transport="csp", sizes=[1024])
    from niclab.validation import published
    entries = [e for e in published("dsnic").values()
               if e.get("experiment") == "comms1" and e.get("column") == "bandwidth_mb_s"]
    assert any(e["unit"] == "bytes" for e in entries)
    assert all(y != 512 for _, y, _ in published_points(r, "bandwidth_mb_s"))


def test_titles_say_system_firmware_operation_and_experiment(sweeps):
    assert plots.title([sweeps[0]], "latency") == "seastar: portals put ping-pong latency"
    dsnic = niclab.run("comms1", system="dsnic", sizes=[64, 1024])
    assert plots.title([dsnic], "bandwidth") == "dsnic: csp send Comms1 bandwidth"
    assert plots.title([sweeps[0], dsnic]) == ""  # nothing in common: the legend says it all


def test_a_fitted_timing_model_is_drawn_with_its_parameters():
    # Sizes where the DSNIC's timing is linear: below ~100 B its latency is flat (the
    # header's handling overlaps the packet's arrival), which a line cannot follow.
    r = niclab.run("comms1", system="dsnic", sizes=[256, 1024, 16384, 65536])
    t0, r_inf = r.fit["t0_us"], r.fit["r_inf_mb_s"]
    for what, column in (("latency", "latency_us"), ("bandwidth", "bandwidth_mb_s")):
        (ax,) = plots.overlay([r], what).axes
        fits = [l for l in ax.get_lines() if "fit:" in l.get_label()]
        assert len(fits) == 1 and f"t0 = {t0:.3g} µs" in fits[0].get_label() and "r∞" in fits[0].get_label()
        n, y = fits[0].get_xdata(), fits[0].get_ydata()
        model = t0 + n / r_inf
        np.testing.assert_allclose(y, model if column == "latency_us" else n / model)
        # The line follows the measured points it was fitted to.
        np.testing.assert_allclose(np.interp(r["size"], n, y), r[column], rtol=0.15)


def test_prtt_keeps_small_sizes_apart():
    r = niclab.Result.from_arrays("prtt", {"size": [0, 1, 8, 64, 512], "prtt_1_0_us": [10, 10, 10, 11, 14],
                                           "prtt_n_0_us": [30, 30, 31, 35, 50]},
                                  units={"size": "B", "prtt_1_0_us": "us", "prtt_n_0_us": "us"}, params={"n": 5})
    (ax,) = plots.prtt(r).axes
    assert ax.get_xscale() == "symlog" and "(µs)" in ax.get_ylabel()


def test_vector_formats(sweeps, tmp_path):
    fig = plots.latency(*sweeps)
    fig.savefig(tmp_path / "f.pdf")
    fig.savefig(tmp_path / "f.svg")
    assert (tmp_path / "f.pdf").read_bytes().startswith(b"%PDF")
    assert "seastar: portals put ping-pong latency" in (tmp_path / "f.svg").read_text()  # real text, not paths
