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


def test_four_links_from_the_command_line(tmp_path):
    """Fig. 3 from the CLI: `--set t9000.links=4` cables four links per node, vl5 puts five
    VLs on each, and the stream carries about four times one link's bytes per second."""
    import subprocess
    import sys

    def mb_s(links):
        out = tmp_path / f"links{links}.json"
        p = subprocess.run([sys.executable, "-m", "niclab", "run", "stream", "--preset", "t9000-20", "--transport", "vl5",
                            "--set", f"t9000.links={links}", "--sizes", "64K", "--quiet", "--out", str(out)],
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        r = niclab.Result.load(str(out))
        assert r.system["set"] == {"t9000.links": links}
        return r["bandwidth_mb_s"][0]

    one, four = mb_s(1), mb_s(4)
    assert 3.8 < four / one < 4.1


def test_links_out_of_range_name_the_key():
    for bad in (0, 5):
        with pytest.raises(niclab.ConfigError) as e:
            niclab.System({"preset": "t9000-20", "nodes": 2, "set": {"t9000.links": bad}})
        assert e.value.key_path == "set.t9000.links"


def test_external_data_loads_the_cpu_more():
    """The VCP's data words compete with the FP process for the memory port (memory_system.hpp):
    from external memory, beyond the 8 KB cache, they cost it more than on chip."""
    def load(ext):
        r = niclab.run("cpu_load", preset="t9000-20", transport="vl_seq", sizes=[10240], set={"t9000.external_data": ext})
        return r["load_percent"][0]

    assert load(1) > 2 * load(0) > 0.2
