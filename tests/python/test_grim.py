"""GRIM on Myrinet from Python and the command line: the presets build through the
generic System, the am and rm-p transports run the experiments with every byte
checked and counted by the firmware (go-back-N under exhaustion: tests/cpp/grim), and
``niclab validate grim`` prints Table 5.4's rows."""

import subprocess
import sys

import pytest

import niclab


def test_a_grim_system_builds_from_its_preset_and_boots_the_lanai_firmware():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2})
    s.run(for_us=10)
    assert s.nic(0).console == "" and not s.nic(1).faulted


@pytest.mark.parametrize("transport", ["am", "rm-p"])
def test_pingpong_over_each_transport_moves_checked_bytes(transport):
    r = niclab.run("pingpong", preset="grim-lanai9", transport=transport, sizes=[4, 70000], repeats=2, counters=True)
    lat = r.columns["latency_us"]
    assert lat[1] > lat[0] > 0
    c = {o["node"]: o["counters"] for o in r.observations["counters"]}
    # 70000 B is two fragments: each acknowledged once, nothing refused.
    assert c[0]["grim.sent"] == c[1]["grim.received"] > 0
    assert c[0]["grim.acks_received"] == c[0]["grim.sent"]
    assert c[1]["grim.nacks_sent"] == 0


def test_the_lanai4_is_slower_than_the_lanai9():
    slow = niclab.run("pingpong", preset="grim-lanai4", transport="am", sizes=[4])
    fast = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[4])
    assert slow.columns["latency_us"][0] > 1.5 * fast.columns["latency_us"][0]


def test_a_bad_grim_parameter_is_a_config_error_naming_it():
    with pytest.raises(niclab.ConfigError) as e:
        niclab.System({"preset": "grim-lanai9", "nodes": 2, "set": {"lanai.sram_bytes": 12345}})
    assert "lanai.sram_bytes" in str(e.value)


def test_validate_grim_prints_table_5_4():
    r = subprocess.run([sys.executable, "-m", "niclab", "validate", "grim"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for row in ("GRIM AM minimum latency, P3 + LANai 9", "GRIM RM-P maximum bandwidth, P4 + LANai 9, 64b/66MHz"):
        assert row in r.stdout
    assert "Table 5.4 L1487-1494" in r.stdout and "%" in r.stdout


def test_endpoints_from_python_send_active_messages_and_rm_p_writes():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"})
    a, b = s.grim(0), s.grim(1)
    assert a.handler("hello") == b.handler("hello")
    a.am_send(1, "hello", [7, 8], b"payload bytes")
    got = b.wait(1)
    assert got == [{"src": 0, "handler": "hello", "args": [7, 8, 0, 0], "data": b"payload bytes"}]
    b.rm_write_p(0, 0x2500_0000, b"\x01\x02\x03", notify=0x2500_1000, value=42)
    s.run(for_us=100)
    assert s.host_memory(0).read(0x2500_0000, 3) == b"\x01\x02\x03"
    assert int.from_bytes(s.host_memory(0).read(0x2500_1000, 4), "little") == 42
    assert a.counters()["sent"] == 1 and b.counters()["rm_delivered"] == 0 and a.counters()["rm_delivered"] == 1
    with pytest.raises(niclab.NiclabError):
        a.am_send(1, "no such handler", [], b"")


def test_the_firmware_trace_gives_every_step_of_tables_5_1_and_5_2():
    from niclab.validation_grim import STEPS, ni_steps
    r = niclab.run("pingpong", preset="grim-lanai9", transport="am", sizes=[4], repeats=2, firmware="grim_traced", trace=True)
    steps = ni_steps(r)
    assert set(steps) == set(STEPS.values())
    assert all(v > 0 for v in steps.values())
    # The 4-byte DMAs cost at least App. A's 2 us minimum PCI DMA (L2249), the firmware steps less.
    assert steps["DMA message to host"] >= 2.0
    assert steps["verify sequencing information"] < 1.0
