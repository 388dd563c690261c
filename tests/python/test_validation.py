"""The validation table: its arithmetic on hand-made data, and the published values it
compares against on the real SeaStar run (the run itself is the demo's, in test_cli)."""

import json
import math
import subprocess
import sys

import numpy as np

from niclab import Result
from niclab.validation import Check, half_bandwidth_size


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


def test_validate_command_writes_the_table_as_json(tmp_path):
    out = tmp_path / "v.json"
    r = subprocess.run([sys.executable, "-m", "niclab", "validate", "seastar", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    checks = {c["quantity"]: c for c in json.loads(out.read_text())["checks"]}
    assert checks["Portals put latency, 1 B"]["published"] == 5.39
    assert checks["put bandwidth, 8 MB"]["published"] == 1108.76
    assert checks["bi-directional put bandwidth, 8 MB"]["published"] == 2203.19
    # The simulation itself: the very-small path and the caches do save time, as on hardware.
    assert checks["very-small-message saving, < 12 B"]["simulated"] > 0
    assert checks["caching saving, small messages (least)"]["simulated"] > 0
    assert 0 < checks["Portals put latency, 1 B"]["simulated"] < checks["Portals get latency, 1 B"]["simulated"] * 2
