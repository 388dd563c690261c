"""The family of systems from Python and the command line: the registry, presets
with parts, transports and their errors, every experiment on every system."""

import subprocess
import sys

import pytest

import niclab
from niclab.experiments import run_spec
from test_experiments import SYSTEM_ONLY, small


def _niclab(*args):
    return subprocess.run([sys.executable, "-m", "niclab", *args], capture_output=True, text=True, timeout=300)


SYSTEMS = [s["name"] for s in niclab.systems()]


def test_registry_lists_seastar_first_with_its_transports():
    s = niclab.systems()
    assert s[0]["name"] == "seastar" and s[0]["nic_family"] == "embedded-core"
    assert s[0]["default_firmware"] == "portals"
    assert [t["name"] for t in s[0]["transports"]] == ["portals", "portals_accel"]
    assert all(t["ops"] == ["put", "get"] for t in s[0]["transports"])
    for entry in s:
        assert entry["presets"] and entry["default_preset"] in entry["presets"]


def test_a_spec_naming_no_firmware_gets_its_systems_image_for_its_size():
    # The production Portals image's go-back-N peer table ends at 2,048 nodes.
    assert run_spec(nodes=2048)["firmware"] == "portals"
    assert run_spec(nodes=2049)["firmware"] == "portals_redstorm"
    assert run_spec(nodes=10368, firmware="portals")["firmware"] == "portals"  # the user's choice stands
    assert run_spec(system="grim", nodes=4096)["firmware"] == "grim"
    assert "firmware" not in run_spec(system="startx", nodes=4096)
    with pytest.raises(niclab.ConfigError) as e:  # a bad count is the spec's to name
        niclab.run("pingpong", nodes="many", sizes=[8])
    assert "nodes" in str(e.value)


def test_each_systems_default_image_by_node_count():
    from niclab.experiments import default_firmware_by_size
    assert default_firmware_by_size("seastar") == [(1, "portals"), (2049, "portals_redstorm")]
    assert default_firmware_by_size("grim") == [(1, "grim")]
    assert default_firmware_by_size("startx") == [(1, None)]
    with pytest.raises(niclab.ConfigError):
        default_firmware_by_size("nope")


def test_unknown_transport_names_what_the_system_offers():
    with pytest.raises(niclab.ExperimentError) as e:
        niclab.run("pingpong", transport="jam", sizes=[8])
    assert "no transport 'jam'" in str(e.value) and "portals (put/get)" in str(e.value)


def test_unknown_system_is_a_config_error():
    with pytest.raises(niclab.ConfigError) as e:
        niclab.run("pingpong", system="cm5", sizes=[8])
    assert "cm5" in str(e.value) and "seastar" in str(e.value)


def test_result_records_system_parts_transport_and_op():
    r = niclab.run("pingpong", sizes=[8])
    assert r.system["system"] == "seastar"
    assert set(r.system["hardware"]) == {"host", "bus", "nic", "network"}
    assert r.params["transport"] == "portals" and r.params["op"] == "put"


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("experiment", [n for n, _ in niclab.list_experiments()])
def test_every_experiment_runs_on_every_system(system, experiment):
    if SYSTEM_ONLY.get(experiment, system) != system:
        with pytest.raises(niclab.ExperimentError, match=SYSTEM_ONLY[experiment]):
            niclab.run(experiment, system=system, **small(experiment))
        return
    r = niclab.run(experiment, system=system, **small(experiment))
    assert len(r) > 0 and r.system["system"] == system


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_slow_consumer_bounds_every_systems_stream_and_every_message_arrives(system):
    # The server works 50 us on each message: the burst cannot end sooner than the
    # messages the server took (the last one's acknowledgement waits for all of them).
    fast = niclab.run("stream", system=system, sizes=[64])
    slow = niclab.run("stream", system=system, sizes=[64], server_work_us=50)
    assert float(slow["latency_us"][0]) >= 50 and float(slow["latency_us"][0]) > float(fast["latency_us"][0])


@pytest.mark.parametrize("system", SYSTEMS)
def test_cli_preset_lists_parts_and_cited_parameters(system):
    preset = next(s for s in niclab.systems() if s["name"] == system)["default_preset"]
    r = _niclab("preset", preset)
    assert r.returncode == 0, r.stderr
    assert f"(system {system})" in r.stdout
    for part in ("host", "bus", "nic", "network"):
        assert f"  {part} " in r.stdout
    params = [line for line in r.stdout.splitlines()[6:] if line.strip()]
    assert params and all(len(line.split()) >= 4 for line in params)


def test_cli_systems_and_run_system_choice():
    r = _niclab("systems")
    assert r.returncode == 0 and "seastar:" in r.stdout and "transport portals" in r.stdout
    # Red Storm's image past the production image's peer table; none on a fixed-function NIU.
    assert "default firmware: portals up to 2,048 nodes, portals_redstorm from 2,049\n" in r.stdout
    assert "default firmware: grim\n" in r.stdout
    assert "presets: startx\n" in r.stdout
    r = _niclab("run", "pingpong", "--system", "nope")
    assert r.returncode == 2 and "'nope' is neither a system nor a preset" in r.stderr


def test_parts_swap_a_bus_into_the_startx():
    names = {(p["part"], p["name"]) for p in niclab.parts()}
    assert ("bus", "pci-64-66") in names
    narrow = niclab.run("pingpong", system="startx", transport="rdma", sizes=[1 << 18])
    wide = niclab.run("pingpong", system="startx", transport="rdma", sizes=[1 << 18], parts={"bus": "pci-64-66"})
    assert wide.bandwidth_mb_s[0] > 1.05 * narrow.bandwidth_mb_s[0]
    assert wide.system["parts"] == {"bus": "pci-64-66"}
    assert "64-bit 66 MHz" in wide.system["hardware"]["bus"]
    assert wide.system["parameters"]["bus.width_bytes"] == 8


def test_a_part_that_does_not_fit_is_a_config_error():
    with pytest.raises(niclab.ConfigError) as e:
        niclab.run("pingpong", sizes=[8], parts={"bus": "pci-64-66"})  # the SeaStar is on HyperTransport
    assert e.value.key_path == "parts.bus" and "does not fit" in str(e.value)


def test_cli_parts_and_run_with_a_part(tmp_path):
    r = _niclab("parts")
    assert r.returncode == 0 and "pci-64-66" in r.stdout and "bus.width_bytes" in r.stdout
    r = _niclab("run", "pingpong", "--system", "startx", "--transport", "rdma", "--part", "bus=pci-64-66",
                "--sizes", "64K", "--quiet", "--out", str(tmp_path / "x.json"))
    assert r.returncode == 0, r.stderr
    assert niclab.Result.load(tmp_path / "x.json").system["parts"] == {"bus": "pci-64-66"}


def test_fault_is_none_on_a_healthy_system_and_checks_the_node():
    # A real NIU fault (RDMA into an unopened window) is tested in C++: startx_system_tests.
    s = niclab.System({"system": "startx", "nodes": 2})
    s.run(for_us=10)
    assert s.fault(0) is None and s.fault(1) is None
    with pytest.raises(IndexError):
        s.fault(2)
