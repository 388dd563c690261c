"""Firmware traces from Python: nic.trace(), trace files, exporters, tracedump."""

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import niclab
import niclab.trace
from niclab.errors import TraceBuildIdMismatch, TraceError, TraceFormatError

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "traces"
SAMPLE = TRACES / "trace_demo_node0.trace"
SAMPLE_ELF = TRACES / "trace_demo.elf"
FUNCTIONS = {"mainloop", "rx_complete", "handle_command", "goaccel_tx_command", "resolve_source"}


@pytest.fixture(scope="module")
def live():
    nic = niclab.Nic(firmware="trace_demo")
    nic.run(until_us=40)
    return nic


def test_nic_trace_has_records_in_the_firmware_functions(live):
    t = live.trace()
    assert isinstance(t, niclab.Trace)
    r = t.records
    assert len(r) > 20 and t.lost == 0 and t.total_count == len(r)
    assert set(r["function"]) <= FUNCTIONS
    assert r["function"][0] == "mainloop" and r["value"][0] == 24
    assert set(r["file"]) == {"trace_demo.c"}
    assert (np.diff(r["timestamp_cycles"].astype(np.int64)) > 0).all()
    assert np.allclose(r["time_ns"], r["timestamp_cycles"] * 2.0)  # 500 MHz
    assert np.allclose(r["delta_ns"][:-1], np.diff(r["time_ns"]))
    assert np.isnan(r["delta_ns"][-1]) and np.isnan(r["delta_prev_ns"][0])
    assert (r["pc"] >> 24 == 0xFF).all()
    assert len(list(t)) == len(t)


def test_reading_costs_no_simulated_time(live):
    cycles, now = live.cycles, live.now_us
    live.trace()
    assert (live.cycles, live.now_us) == (cycles, now)


def test_firmware_without_tracing_is_named():
    nic = niclab.Nic(firmware="hello")
    with pytest.raises(TraceError, match="TRACE"):
        nic.trace()


def test_save_and_read_round_trip(live, tmp_path):
    t = live.trace()
    t.save(tmp_path / "x.trace")
    back = niclab.read_trace(tmp_path / "x.trace", live.firmware)
    assert back._raw == t._raw
    for name in ("timestamp_cycles", "value", "pc", "function", "offset", "line"):
        assert (back.records[name] == t.records[name]).all(), name
    assert str(back) == str(t)


def test_truncated_and_corrupt_files_name_the_offset(tmp_path):
    data = SAMPLE.read_bytes()
    for cut in (0, 7, 40, 64, 120, len(data) - 1):
        p = tmp_path / f"cut{cut}.trace"
        p.write_bytes(data[:cut])
        with pytest.raises(TraceFormatError) as e:
            niclab.read_trace(p)
        assert e.value.offset == cut
        assert f"byte offset {cut}" in str(e.value)
    bad = bytearray(data)
    bad[0] = ord("X")
    (tmp_path / "magic.trace").write_bytes(bad)
    with pytest.raises(TraceFormatError) as e:
        niclab.read_trace(tmp_path / "magic.trace")
    assert e.value.offset == 0
    assert isinstance(e.value, niclab.NiclabError)


def test_mismatched_elf_is_refused_unless_forced():
    hello = niclab.firmware_path("hello")
    with pytest.raises(TraceBuildIdMismatch) as e:
        niclab.read_trace(SAMPLE, hello)
    assert e.value.trace_build_id in str(e.value) and e.value.elf_build_id in str(e.value)
    t = niclab.read_trace(SAMPLE, hello, force=True)
    assert t.unreliable
    assert str(t).startswith("# UNRELIABLE")


def test_str_is_the_tracedump_text():
    t = niclab.read_trace(SAMPLE, SAMPLE_ELF)
    assert str(t) == (TRACES / "trace_demo_node0.txt").read_text()
    first = str(t).splitlines()[0]
    assert first == "000017dc: 24: 18fb024c mainloop+005c (172 ns)"


def test_chrome_json_is_structurally_valid(tmp_path):
    t0 = niclab.read_trace(TRACES / "trace_demo_2n_node0.trace", SAMPLE_ELF)
    t1 = niclab.read_trace(TRACES / "trace_demo_2n_node1.trace", SAMPLE_ELF)
    out = tmp_path / "both.json"
    niclab.trace.to_chrome_json([t0, t1], out)
    doc = json.loads(out.read_text())
    events = doc["traceEvents"]
    assert isinstance(events, list)
    assert {e["ph"] for e in events} == {"M", "i", "X"}
    assert {e["pid"] for e in events} == {0, 1}
    for e in events:
        assert {"name", "ph", "pid", "tid"} <= e.keys()
        if e["ph"] in ("i", "X"):
            assert isinstance(e["ts"], float)
        if e["ph"] == "X":
            assert e["dur"] >= 0
    instants = [e for e in events if e["ph"] == "i" and e["pid"] == 0]
    assert len(instants) == len(t0)
    assert instants[0]["args"]["value"] == 24 and instants[0]["args"]["source"].startswith("trace_demo.c:")
    spans = [e for e in events if e["ph"] == "X" and e["pid"] == 0]
    assert {s["name"] for s in spans} <= {"rx_complete [16]", "goaccel_tx_command [32]"}
    assert spans
    t0.to_chrome_json(tmp_path / "one.json")
    assert {e["pid"] for e in json.loads((tmp_path / "one.json").read_text())["traceEvents"]} == {0}


def test_csv_header_and_rows(tmp_path):
    t = niclab.read_trace(SAMPLE, SAMPLE_ELF)
    t.to_csv(tmp_path / "t.csv")
    with open(tmp_path / "t.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["node", "timestamp_cycles", "time_ns", "sim_time_ns", "value", "pc", "function", "offset",
                       "file", "line", "delta_ns"]
    assert len(rows) == len(t) + 1
    assert rows[1][6] == "mainloop" and rows[1][10] == "172.000"
    assert rows[1][3] == "", "a version-1 sample file has no global time axis"
    assert rows[-1][10] == ""


def test_wrapped_sample():
    t = niclab.read_trace(TRACES / "trace_demo_wrapped.trace", SAMPLE_ELF)
    assert len(t) == 1024 and t.lost > 0 and t.total_count == 1024 + t.lost
    assert (np.diff(t.records["timestamp_cycles"].astype(np.int64)) > 0).all()


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "niclab", "tracedump", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_cli_tracedump_prints_the_sample():
    r = run_cli(SAMPLE, "--elf", SAMPLE_ELF)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (TRACES / "trace_demo_node0.txt").read_text()


def test_cli_tracedump_options():
    r = run_cli(SAMPLE, "--elf", SAMPLE_ELF, "--function", "resolve_source", "--last", "2", "--source")
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 2
    assert all("resolve_source+" in x and " trace_demo.c:" in x for x in lines)
    r = run_cli(SAMPLE, "--elf", SAMPLE_ELF, "--value", "24")
    assert r.stdout and all(x.split(": ")[1] == "24" for x in r.stdout.splitlines())


def test_cli_tracedump_refuses_a_mismatched_elf(tmp_path):
    hello = niclab.firmware_path("hello")
    r = run_cli(SAMPLE, "--elf", hello)
    assert r.returncode != 0 and r.stdout == ""
    assert "TraceBuildIdMismatch" in r.stderr and "build id" in r.stderr
    r = run_cli(SAMPLE, "--elf", hello, "--force")
    assert r.returncode == 0 and r.stdout.startswith("# UNRELIABLE")


def test_cli_tracedump_corrupt_file(tmp_path):
    p = tmp_path / "cut.trace"
    shutil.copyfile(SAMPLE, p)
    p.write_bytes(p.read_bytes()[:100])
    r = run_cli(p, "--elf", SAMPLE_ELF)
    assert r.returncode != 0 and "TraceFormatError" in r.stderr and "byte offset 100" in r.stderr
