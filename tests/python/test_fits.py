"""niclab.fits: the C++ fits from Python, on hand-made data and on simulated results."""

import math

import numpy as np
import pytest

import niclab
from niclab import fits


def test_throughput_recovers_t0_r_inf_and_n_half():
    sizes = np.array([0, 1024, 65536, 1 << 20], float)
    t = fits.throughput(sizes, 5.39 + sizes / 1108.76)
    assert math.isclose(t["t0_us"], 5.39, rel_tol=1e-9)
    assert math.isclose(t["r_inf_mb_s"], 1108.76, rel_tol=1e-9)
    assert math.isclose(t["n_half_bytes"], 5.39 * 1108.76, rel_tol=1e-9)
    assert math.isclose(t["line"]["r2"], 1.0)


def test_cpu_load_model():
    sizes = np.array([8, 1024, 65536], float)
    times = 178 + sizes / 16.6
    c = fits.cpu_load(sizes, 178 + 0.03217e-3 * sizes * 1000, times)  # c_byte 32.17 ns/B (seed 003 §10.1)
    assert math.isclose(c["c_byte_ns"], 32.17, rel_tol=1e-9)
    assert math.isclose(c["l_inf_percent"], 32.17e-3 * 16.6 * 100, rel_tol=1e-9)


def test_errors_name_the_function():
    with pytest.raises(niclab.FitError, match="fit_line"):
        fits.line([1], [2])
    with pytest.raises(niclab.FitError):
        fits.throughput([1, 2, 3], [5, 4, 3])  # time falling with size: no r_inf


def test_fits_of_simulated_results_match_the_experiments_own():
    comms = niclab.run("comms1", sizes=[8, 1024, 65536])
    assert fits.throughput(comms)["r_inf_mb_s"] == pytest.approx(comms.fit["r_inf_mb_s"])
    sig = niclab.run("logp_signature", m=[1, 2, 4, 8, 16, 32], delays_us=[0, 30])
    assert fits.logp(sig)["o_s_us"] == pytest.approx(sig.fit["o_s_us"])
    prtt = niclab.run("prtt", sizes=[1, 1024, 4096], n=4)
    assert fits.loggp(prtt)["G_us_per_byte"] == pytest.approx(prtt.fit["G_us_per_byte"])
