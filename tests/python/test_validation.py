"""The validation table: its arithmetic on hand-made data, and the published values it
compares against on the real runs of every system (``niclab validate`` with no argument)."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from niclab import Result
from niclab.validation import Check, half_bandwidth_size, published


def _sweep(sizes, bw):
    sizes = np.asarray(sizes, float)
    bw = np.asarray(bw, float)
    return Result.from_arrays("pingpong", {"size": sizes, "latency_us": sizes / bw, "bandwidth_mb_s": bw})


def test_half_bandwidth_size_interpolates_in_log_size():
    r = _sweep([1000, 4000, 16000, 8 << 20], [100, 300, 700, 1000])
    # half of 1000 MB/s lies half-way from 300 to 700, so half-way between 4000 and 16000 in log: 8000
    assert math.isclose(half_bandwidth_size(r), 8000.0, rel_tol=1e-12)
    assert math.isclose(half_bandwidth_size(r, peak=600), 4000.0, rel_tol=1e-12)
    assert math.isnan(half_bandwidth_size(r, peak=5000))


def test_check_difference_is_relative_to_the_published_value():
    c = Check("x", "seed 001", published=5.39, simulated=5.288, unit="us")
    assert math.isclose(c.difference_percent, 100 * (5.288 - 5.39) / 5.39)


def test_check_shows_a_bound_as_a_bound():
    assert Check("x", "s", 60, 86.1, "MB/s", "above").published_text == "> 60 MB/s"
    assert Check("x", "s", 1, 0.9, "x", "below").published_text == "< 1 x"
    assert Check("x", "s", 5.39, 5.2, "us").published_text == "5.39 us"


def test_validate_without_a_system_prints_every_systems_table(tmp_path):
    out = tmp_path / "v.json"
    r = subprocess.run([sys.executable, "-m", "niclab", "validate", "--out", str(out)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    tables = {t["system"]: t for t in json.loads(out.read_text())}
    assert list(tables) == ["seastar", "startx", "t9000", "dsnic", "grim"]
    assert "== seastar ==" in r.stdout and "== startx ==" in r.stdout and "== t9000 ==" in r.stdout and "== dsnic ==" in r.stdout
    assert "== grim ==" in r.stdout
    _check_seastar({c["quantity"]: c for c in tables["seastar"]["checks"]})
    _check_startx({c["quantity"]: c for c in tables["startx"]["checks"]}, r.stdout.split("== startx ==")[1].split("== t9000 ==")[0])
    _check_t9000({c["quantity"]: c for c in tables["t9000"]["checks"]})
    _check_dsnic({c["quantity"]: c for c in tables["dsnic"]["checks"]})
    _check_grim({c["quantity"]: c for c in tables["grim"]["checks"]})


def _check_grim(checks):
    # Every Table 5.4 row over a modelled transport (am, rm-p, rm-v) has its row and value.
    for key, e in published("grim").items():
        if e.get("options", {}).get("transport") in ("am", "rm-p", "rm-v") and "Table 5.4" in e["source"]:
            assert checks[e["quantity"]]["published"] == e["value"], key
    # The simulation itself: the LANai 9 is faster than the LANai 4, the 64-bit bus carries more.
    assert (checks["GRIM AM minimum latency, P3 + LANai 9, 32b/33MHz"]["simulated"]
            < checks["GRIM AM minimum latency, P3 + LANai 4, 32b/33MHz"]["simulated"])
    assert (checks["GRIM RM-P maximum bandwidth, P4 + LANai 9, 64b/66MHz"]["simulated"]
            > checks["GRIM RM-P maximum bandwidth, P3 + LANai 9, 32b/33MHz"]["simulated"])


def _check_t9000(checks):
    # Every published T9000 result with an experiment has its row, with the published value.
    for key, e in published("t9000").items():
        if "experiment" in e:
            assert checks[e["quantity"]]["published"] == e["value"], key
            assert checks[e["quantity"]]["bound"] == e.get("bound", ""), key
    # The simulation itself: more VLs carry more, switches cost bandwidth, a C104 costs latency.
    assert checks["single-link bandwidth, five VLs, one C104"]["simulated"] > checks["single-VL bandwidth, one C104"]["simulated"]
    assert (checks["single-VL bandwidth, direct"]["simulated"] > checks["single-VL bandwidth, one C104"]["simulated"]
            > checks["single-VL bandwidth, five C104s"]["simulated"])
    assert checks["zero-length message overhead, one C104"]["simulated"] > checks["zero-length message overhead, direct"]["simulated"]


def _check_dsnic(checks):
    # Every published result of the DSNIC that an experiment reproduces has its row.
    for key, e in published("dsnic").items():
        if "experiment" in e:
            assert any(q.startswith(e["quantity"]) for q in checks), f"{key}: no row for {e['quantity']!r}"
    # The simulation itself: the C101 bounds the throughput (9.2 MB/s, D8), Comms2 counts
    # both directions, flush makes 1-byte messages slower with 4 KB packets.
    assert 8 < checks["Comms1 maximum throughput, long messages, packet size 4096"]["simulated"] <= 9.2
    assert checks["Comms2 maximum throughput (both directions), packet size 4096"]["simulated"] > 16
    assert checks["Comms1 1-byte latency higher with 4096-byte than with 512-byte packets (ratio)"]["simulated"] > 1
    # One byte more than the packets hold costs a whole extra packet (the sawtooth, L640).
    assert checks["Comms1 sawtooth: throughput of 4096 B over 4097 B, packet size 1024"]["simulated"] > 1


def _check_startx(checks, text):
    # Every published result of the StarT-X that an experiment can reproduce has its row.
    for key, e in published("startx").items():
        if "experiment" not in e:
            continue
        rows = [c for q, c in checks.items() if q.startswith(e["quantity"])]
        assert rows, f"{key}: no row for {e['quantity']!r}"
        assert e["quantity"] in text
        if e["unit"] != "bool":
            assert rows[0]["published"] == e["value"] and rows[0]["bound"] == e.get("bound", "")
    assert "Table 1" in checks["o_r, 16-byte PIO message (ldd/std)"]["source"]
    # Bounds are shown as bounds, values as values.
    assert "> 60 MB/s" in text
    assert "< 1 x" in text
    assert "3 us" in text.split("o_r, 16-byte PIO message (ldd/std)")[1].splitlines()[0]
    # The simulation itself: PIO receive costs more than PIO send, RDMA beats PIO.
    assert checks["o_r, 16-byte PIO message (ldd/std)"]["simulated"] > checks["o_s, 16-byte PIO message (ldd/std)"]["simulated"]
    assert checks["RDMA one-way bandwidth, large blocks (lower bound)"]["simulated"] > 20


def _check_seastar(checks):
    assert checks["Portals put latency, 1 B"]["published"] == 5.39
    assert checks["put bandwidth, 8 MB"]["published"] == 1108.76
    assert checks["bi-directional put bandwidth, 8 MB"]["published"] == 2203.19
    # The simulation itself: the very-small path and the caches do save time, as on hardware.
    assert checks["very-small-message saving, < 12 B"]["simulated"] > 0
    assert checks["caching saving, small messages (least)"]["simulated"] > 0
    assert 0 < checks["Portals put latency, 1 B"]["simulated"] < checks["Portals get latency, 1 B"]["simulated"] * 2


def test_accelerated_prediction_row_is_marked_a_prediction():
    """Seed 000 §5.2 predicts accelerated-mode latency "in the two microsecond range":
    the row is published as a prediction, not a measurement, and the run behind it is a
    put ping-pong over the accelerated transport."""
    from niclab.validation import check, published
    pub = published("seastar")
    e = pub["accel_put_latency_small"]
    assert e["kind"] == "prediction" and e["value"] == 2.0 and "prediction" in e["quantity"]
    c = check(pub, "accel_put_latency_small", 4.0)
    assert c.prediction and c.published_text.endswith("(predicted)")
    from niclab.experiments import run
    r = run("pingpong", firmware="portals_nogbn_accel", transport="portals_accel", sizes=[0, 1, 8])
    generic = run("pingpong", firmware="portals_nogbn", sizes=[0, 1, 8])
    # No interrupt and no system call per message: faster than generic mode at every size.
    for a, g in zip(r["latency_us"], generic["latency_us"]):
        assert 0 < a < g


@pytest.mark.parametrize("module", ["validation_dsnic", "validation_t9000", "validation_grim", "validation_grim_gm",
                                    "validation_grim_datapaths", "validation_grim_sockets", "validation_grim_mc",
                                    "validation_grim_lcs", "validation_grim_sf"])
def test_each_systems_validation_module_imports_first(module):
    # Each builds on niclab.validation, which lists them: no import cycle may bite whichever comes first.
    r = subprocess.run([sys.executable, "-c", f"from niclab.{module} import *"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
