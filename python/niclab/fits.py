"""Model fits for measured curves: the same C++ code the experiments use, for any data
(a niclab Result, or numbers read off a paper's figure).

Units as the papers: sizes in bytes, times in microseconds, bandwidth in MB/s (10^6 B/s).
Bad data raise ``niclab.FitError`` naming the function and the problem.
"""

import numpy as np

from . import _niclab


def _floats(values):
    return np.asarray(values, dtype=float).ravel().tolist()


def line(x, y):
    """Ordinary least squares y = intercept + slope·x: dict with ``intercept``, ``slope``,
    ``r2``, ``rms_residual`` (Netgauge's lsq: sqrt(SSR/(n-2))) and ``points``."""
    return _niclab.fit_line(_floats(x), _floats(y))


def throughput(sizes, times_us=None):
    """Parkbench's Comms1/Comms2 model (seed 003 §10): t_n = t0 + n / r_inf, with
    n_1/2 = t0·r_inf. ``sizes`` may be a sweep Result (its ``size`` and ``latency_us``).
    Returns ``t0_us``, ``r_inf_mb_s``, ``n_half_bytes`` and the ``line`` fitted."""
    if times_us is None:
        sizes, times_us = sizes["size"], sizes["latency_us"]
    return _niclab.fit_throughput(_floats(sizes), _floats(times_us))


def cpu_load(sizes, cpu_us_per_message=None, times_us=None):
    """Seed 003 §10.1: c_n = c0 + c_byte·n (CPU time per message, us) with the load
    l_n = c_n / t_n, l_0 = c0/t0 and l_inf = c_byte·r_inf. ``sizes`` may be a cpu_load
    Result. Returns the throughput fit's keys plus ``c0_us``, ``c_byte_ns``,
    ``l0_percent``, ``l_inf_percent``."""
    if cpu_us_per_message is None:
        sizes, cpu_us_per_message, times_us = sizes["size"], sizes["cpu_us_per_msg"], sizes["latency_us"]
    return _niclab.fit_cpu_load(_floats(sizes), _floats(cpu_us_per_message), _floats(times_us))


def logp(signature, rtt_us=None):
    """LogP parameters from a signature (Culler et al.; seed 002 §6.1): o_s (T/m at the
    smallest m of the d = 0 curve), g (its steady state), o_r (the largest-d curve's
    steady state minus o_s + d) and L = rtt/2 - o_s - o_r. ``signature`` is a
    logp_signature Result, or a dict d_us -> (m values, T/m values in us) with
    ``rtt_us`` the round trip of one message."""
    if rtt_us is None:
        rtt_us = signature.fit["rtt_us"]
        d, m, t = signature["d_us"], signature["m"], signature["t_per_msg_us"]
        signature = {float(x): (m[d == x], t[d == x]) for x in dict.fromkeys(d.tolist())}
    curves = [(float(d), _floats(m), _floats(t)) for d, (m, t) in signature.items()]
    return _niclab.extract_logp(curves, float(rtt_us))


def loggp(prtt, n=None):
    """LogGP parameters from parametrized round trips, as Netgauge: g and G by least
    squares of (PRTT(n,0,s) - PRTT(1,0,s))/(n-1) over s-1, o_s and o_r at the smallest
    size, L = PRTT(1,0,s)/2 - o_s - o_r (and Netgauge's PRTT/2 as ``L_netgauge_us``).
    ``prtt`` is a prtt Result (n from its parameters) or rows of (size, PRTT(1,0,s),
    PRTT(n,0,s), PRTT(n,d,s), d, o_r) in us."""
    if n is None:
        n = int(prtt.params["n"])
        cols = ("size", "prtt_1_0_us", "prtt_n_0_us", "prtt_n_d_us", "d_us", "o_r_us")
        prtt = np.column_stack([prtt[c] for c in cols])
    return _niclab.fit_loggp([tuple(map(float, row)) for row in prtt], int(n))
