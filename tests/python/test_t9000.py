"""The T9000 (seed 003 Part 1 §2) from Python: the system builds from its preset, the vl
transports run experiments byte-exact, and the VCP's packet steps and virtual links show."""

import pytest

import niclab


def test_t9000_system_builds_and_runs_a_pingpong():
    s = niclab.System({"preset": "t9000-20", "nodes": 2})
    assert s.nodes == 2
    assert {p["key"]: p["value"] for p in s.parameters()}["cpu.clock_mhz"] == 20
    r = niclab.run("pingpong", preset="t9000-20", transport="vl", sizes=[0, 32, 33])
    lat = dict(zip(r["size"], r["latency_us"]))
    assert r.system["system"] == "t9000"
    # a 33-byte message needs a second packet and its acknowledgement: a step, not a slope
    assert lat[33] - lat[32] > 1.0 > lat[32] - lat[0] - 32 * 0.1


def test_more_virtual_links_carry_more_bytes():
    one = niclab.run("stream", system="t9000", transport="vl", sizes=[4096])
    three = niclab.run("stream", system="t9000", transport="vl3", sizes=[4096])
    assert three["bandwidth_mb_s"][0] > one["bandwidth_mb_s"][0]


def test_a_bad_vcp_parameter_names_its_key():
    with pytest.raises(niclab.ConfigError) as e:
        niclab.System({"preset": "t9000-20", "nodes": 2, "set": {"vcp.byte_cycles": -3}})
    assert e.value.key_path == "set.vcp.byte_cycles"
