"""niclab.System: specs (dict, preset, TOML), config errors, observers, determinism."""

import pytest

import niclab


def test_from_preset_two_nodes_with_host_memory():
    sys_ = niclab.System.from_preset("seastar", nodes=2)
    assert sys_.nodes == 2
    assert [n.node_id for n in sys_.nics] == [0, 1]
    mem0, mem1 = sys_.host_memory(0), sys_.host_memory(1)
    mem0.write(0x1000, b"node zero")
    assert mem0.read(0x1000, 9) == b"node zero"
    assert mem1.read(0x1000, 9) == bytes(9)  # each node has its own host memory
    assert mem0.read(0xDEAD_0000, 4) == bytes(4)  # untouched memory reads as zero


def test_nodes_of_wrong_type():
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"nodes": "two"})
    assert info.value.key_path == "nodes"
    assert isinstance(info.value, ValueError)


def test_unknown_set_key_is_named():
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core.clok_mhz": 400}})
    assert info.value.key_path == "set.core.clok_mhz"
    assert "core.clok_mhz" in str(info.value)
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core": {"clok_mhz": 400}}})
    assert info.value.key_path == "set.core.clok_mhz"


def test_other_config_errors():
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core.clock_mhz": "fast"}})
    assert info.value.key_path == "set.core.clock_mhz"
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core.clock_mhz": 0}})
    assert info.value.key_path == "set.core.clock_mhz"
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System.from_preset("seastra")
    assert info.value.key_path == "preset"
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"nodez": 2})
    assert info.value.key_path == "nodez"
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core.clock_mhz": object()}})
    assert info.value.key_path == "set.core.clock_mhz"


def test_parameters_carry_sources():
    params = niclab.System.from_preset("seastar", set={"core.clock_mhz": 250}).parameters()
    by_key = {p["key"]: p for p in params}
    assert by_key["core.clock_mhz"]["value"] == 250
    assert by_key["core.clock_mhz"]["source"] == "override"
    assert all(p["source"] for p in params)
    assert "seed 000" in by_key["core.icache.size_bytes"]["source"]


def test_observer_sees_increasing_times_and_can_stop_and_resume():
    sys_ = niclab.System({"firmware": "counter"})
    counter = sys_.nic(0).symbol("fw_counter")
    seen = []

    def observer(now_us):
        seen.append(now_us)
        return len(seen) < 3

    result = sys_.run(until_us=1000, observer=observer, interval_us=50)
    assert result["stopped"] is True
    assert len(seen) == 3
    assert seen == sorted(seen) and len(set(seen)) == 3
    assert result["reached_us"] == pytest.approx(seen[-1])
    assert result["reached_us"] < 1000
    count_at_stop = sys_.nic(0).peek32(counter)

    result = sys_.run(until_us=1000)
    assert result["stopped"] is False
    assert result["reached_us"] == pytest.approx(1000)
    assert sys_.nic(0).peek32(counter) > count_at_stop


def test_observer_returning_none_keeps_running():
    sys_ = niclab.System({"firmware": "counter"})
    calls = []
    result = sys_.run(until_us=200, observer=calls.append, interval_us=20)
    assert result["stopped"] is False
    assert len(calls) >= 9


def test_observer_exception_propagates_and_system_survives():
    sys_ = niclab.System({"firmware": "counter"})

    def boom(now_us):
        raise RuntimeError("observer failed")

    with pytest.raises(RuntimeError, match="observer failed"):
        sys_.run(until_us=200, observer=boom, interval_us=20)
    result = sys_.run(until_us=300)
    assert result["reached_us"] == pytest.approx(300)


def test_from_toml(tmp_path):
    flat = tmp_path / "flat.toml"
    flat.write_text('preset = "seastar"\nnodes = 2\nfirmware = "hello"\n'
                    '[set]\n"core.clock_mhz" = 250\n')
    nested = tmp_path / "nested.toml"
    nested.write_text('nodes = 2\nfirmware = ["hello", "hello"]\n[set.core]\nclock_mhz = 250\n')
    for path in (flat, nested):
        sys_ = niclab.System.from_toml(path)
        sys_.run(until_us=100)
        assert sys_.nodes == 2
        for i, nic in enumerate(sys_.nics):
            assert f"node {i} at 250 MHz" in nic.console
            assert nic.clock_mhz == 250


def test_from_toml_errors(tmp_path):
    bad_key = tmp_path / "bad_key.toml"
    bad_key.write_text('[set]\n"core.clok_mhz" = 250\n')
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System.from_toml(bad_key)
    assert info.value.key_path == "set.core.clok_mhz"
    broken = tmp_path / "broken.toml"
    broken.write_text("nodes = = 2\n")
    with pytest.raises(niclab.ConfigError, match="broken.toml"):
        niclab.System.from_toml(broken)


def _outcome(spec):
    sys_ = niclab.System(spec)
    sys_.run(until_us=200)
    return [(n.cycles, n.instret, n.console, n.state, n.stop_time_us) for n in sys_.nics], sys_.events_fired


def test_identical_runs_are_identical():
    spec = {"nodes": 2, "seed": 3, "firmware": ["hello", "timer_irq"]}
    a, b = _outcome(spec), _outcome(spec)
    assert a == b
    assert a[0][1][3] == "halted"  # timer_irq finished its ten ticks


def test_faulted_node_does_not_stop_the_other():
    sys_ = niclab.System({"nodes": 2, "firmware": ["fault_illegal", "counter"]})
    counter = sys_.nic(1).symbol("fw_counter")
    sys_.run(until_us=100)
    assert sys_.nic(0).state == "faulted"
    before = sys_.nic(1).peek32(counter)
    result = sys_.run(until_us=200)
    assert result["reached_us"] == pytest.approx(200)
    assert sys_.nic(1).peek32(counter) > before


def test_out_of_range_integer_is_a_config_error():
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"seed": 2**70})
    assert info.value.key_path == "seed"


def test_cache_geometry_error_is_a_config_error():
    with pytest.raises(niclab.ConfigError) as info:
        niclab.System({"set": {"core.icache.line_bytes": 24}})
    assert info.value.key_path == "set.core.icache.line_bytes"


def test_a_system_the_machine_cannot_hold_is_a_host_resource_error_naming_the_node():
    # In a child whose address space is what it holds plus 64 MB: the RX slot buffers of
    # two SeaStars at 16 MB a slot do not fit. The kernel stays usable after the error.
    import subprocess
    import sys
    code = """
import resource, niclab
pages = int(open('/proc/self/statm').read().split()[0])
room = pages * resource.getpagesize() + (64 << 20)
resource.setrlimit(resource.RLIMIT_AS, (room, room))
try:
    niclab.System({"nodes": 2, "set": {"dma.rx_buffer_bytes": 16 << 20}})
except niclab.HostResourceError as e:
    assert isinstance(e, MemoryError)
    print(e)
print(niclab.System({"nodes": 2}).nodes)
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    message, nodes = p.stdout.strip().splitlines()
    assert message.startswith("node 0: the RX DMA engine's slot buffers (")
    assert message.endswith("could not be had (mapping it): the machine is out of memory")
    assert nodes == "2"
