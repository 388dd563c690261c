"""The command line, run as a user would: python -m niclab ..."""

import subprocess
import sys


def _niclab(*args):
    return subprocess.run([sys.executable, "-m", "niclab", *args], capture_output=True, text=True, timeout=300)


def test_demo_runs_portals_pingpong_with_figures_and_validation(tmp_path):
    r = _niclab("demo", "--out-dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "NetPIPE Portals put ping-pong" in r.stdout
    assert "8388608" in r.stdout  # the sweep reaches 8 MB
    table = r.stdout[r.stdout.index("Validation against"):]
    for quantity in ("Portals put latency, 1 B", "put bandwidth, 8 MB", "half-bandwidth size, streaming put",
                     "bi-directional put bandwidth, 8 MB", "caching saving", "very-small-message saving",
                     "write-through FIFO saving"):
        assert quantity in table
    for name in ("latency.png", "bandwidth.png", "pingpong.json", "np.out"):
        assert (tmp_path / name).stat().st_size > 0
    first = (tmp_path / "np.out").read_text().splitlines()[0].split()
    assert first[0] == "1" and len(first) == 3


def test_boot_hello_prints_the_greeting():
    r = _niclab("boot", "hello")
    assert r.returncode == 0, r.stderr
    assert "hello from niclab node 0 at 500 MHz" in r.stdout
    assert "halted" in r.stdout


def test_preset_lists_parameters_with_sources():
    r = _niclab("preset")
    assert r.returncode == 0, r.stderr
    line = next(l for l in r.stdout.splitlines() if l.startswith("core.clock_mhz"))
    assert "500" in line and "seed 000" in line


def test_boot_of_a_faulting_firmware_reports_and_fails():
    r = _niclab("boot", "fault_illegal", "--until-us", "100")
    assert r.returncode == 1
    assert "do_illegal_instruction" in r.stdout + r.stderr


def test_bad_set_key_is_a_clean_error():
    r = _niclab("boot", "hello", "--set", "core.clok_mhz=400")
    assert r.returncode == 1
    assert "ConfigError" in r.stderr and "set.core.clok_mhz" in r.stderr
    assert "Traceback" not in r.stderr
