"""Observations from every run (issue 18, item 2): traces on the global simulated time
axis and per-node counters in the Result, for every system; a firmware fault inside an
experiment keeps its fields and the points measured before it."""

import json

import numpy as np
import pytest

import niclab
from niclab.errors import ExperimentError, ExperimentFault, FirmwareFault, ResultError

SMALL = dict(sizes=[8], warmup=1, repeats=2)


@pytest.fixture(scope="module")
def traced():
    """A put ping-pong on two SeaStars running the traced Portals firmware."""
    return niclab.run("pingpong", firmware="portals_traced", trace=True, counters=True, **SMALL)


def _records(trace, function):
    r = trace.records
    return r[r["function"] == function]


def test_observing_changes_nothing_measured(traced):
    plain = niclab.run("pingpong", firmware="portals_traced", **SMALL)
    assert np.array_equal(plain.rows, traced.rows)
    assert plain.observations == {}


def test_counters_of_every_node(traced):
    c = traced.counters
    assert sorted(c) == [0, 1]
    for node in (0, 1):
        assert c[node]["core.instructions"] > 1000
        assert c[node]["core.cycles"] >= c[node]["core.instructions"]
        assert c[node]["core.icache_accesses"] >= c[node]["core.icache_misses"] > 0
        assert c[node]["host.interrupts_taken"] > 0, "generic-mode Portals interrupts its host"
        assert c[node]["nic.host_interrupts_raised"] > 0
        assert c[node]["nic.tx_dma_messages"] > 0
    # Every packet node 0 put on its cable arrived at node 1, and the other way round.
    assert c[0]["net.tx_packets"] == c[1]["net.rx_packets"] > 0
    assert c[1]["net.tx_packets"] == c[0]["net.rx_packets"] > 0
    assert c[0]["nic.tx_dma_packets"] == c[0]["net.tx_packets"]


def test_counters_show_the_caches_off():
    """The no-cache firmware runs with the caches off: no cache accesses at all."""
    r = niclab.run("pingpong", firmware="portals_nocache", counters=True, **SMALL)
    assert r.counters[0]["core.icache_accesses"] == 0
    assert r.counters[0]["core.dcache_accesses"] == 0


@pytest.mark.parametrize("system,kw,counter", [
    ("startx", {}, "nic.messages_injected"),
    ("t9000", {}, "nic.packets_sent"),
    ("dsnic", {}, "driver.interrupts"),
])
def test_counters_on_fixed_function_systems(system, kw, counter):
    r = niclab.run("pingpong", system=system, counters=True, **SMALL, **kw)
    for node in (0, 1):
        assert r.counters[node][counter] > 0
        assert "core.instructions" not in r.counters[node]
        assert r.counters[node]["net.tx_packets"] > 0


def test_traces_on_the_global_time_axis(traced):
    t0, t1 = traced.traces
    assert (t0.node_id, t1.node_id) == (0, 1)
    end_ns = traced.observations["time_us"] * 1000
    for t in (t0, t1):
        assert t.epoch_ps is not None
        sim = t.records["sim_time_ns"]
        assert np.all(np.diff(sim) > 0)
        assert 0 < sim[0] and sim[-1] <= end_ns
        # The global time is the node's own clock moved by when its core left reset.
        assert np.allclose(sim, t.epoch_ps / 1000 + t.records["time_ns"])
    # The nodes' cores left reset at different times, so their own clocks disagree;
    # on the global axis, node 1 takes in the first message after node 0 sent it, at
    # least a cable's latency later, and node 0 takes in the reply after that.
    assert t0.epoch_ps != t1.epoch_ps
    sent = _records(t0, "tx_command")["sim_time_ns"]
    taken_in = _records(t1, "rx_events")["sim_time_ns"]
    replied_to = _records(t0, "rx_events")["sim_time_ns"]
    assert len(sent) and len(taken_in) and len(replied_to)
    cable_ns = traced.system["parameters"]["net.link_latency_ns"]
    assert taken_in[0] >= sent[0] + cable_ns
    assert replied_to[0] > taken_in[0] + cable_ns


def test_perfetto_export_lines_nodes_up(traced, tmp_path):
    path = tmp_path / "pp.json"
    niclab.trace.to_chrome_json(traced.traces, path)
    doc = json.loads(path.read_text())
    assert doc["otherData"]["time_axis"] == "simulated"
    first = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "i":
            first.setdefault((e["pid"], e["name"].split("+")[0]), e["ts"])
    assert first[(1, "rx_events")] > first[(0, "tx_command")]


def test_observations_survive_json(traced, tmp_path):
    path = traced.save(tmp_path / "pp.json")
    back = niclab.Result.load(path)
    assert back.counters == traced.counters
    for a, b in zip(back.traces, traced.traces):
        assert np.array_equal(a.records["sim_time_ns"], b.records["sim_time_ns"])
        assert list(a.records["function"]) == list(b.records["function"])


def test_a_damaged_trace_in_a_result_is_a_result_error(traced):
    d = traced.to_json()
    d["observations"]["traces"][0]["records"][0] = ["x", 1]
    with pytest.raises(ResultError, match="observations.traces.*record 0"):
        niclab.Result.from_json(d)
    d = traced.to_json()
    del d["observations"]["traces"][1]["epoch_ps"]
    with pytest.raises(ResultError, match="epoch_ps"):
        niclab.Result.from_json(d)


def test_asking_what_was_not_kept_says_how():
    r = niclab.run("pingpong", **SMALL)
    with pytest.raises(ResultError, match="counters=True"):
        r.counters
    with pytest.raises(ResultError, match="trace=True"):
        r.traces


def test_trace_needs_a_traced_firmware():
    with pytest.raises(ExperimentError, match="no trace ring.*portals_traced"):
        niclab.run("pingpong", trace=True, **SMALL)
    with pytest.raises(ExperimentError, match="fixed-function"):
        niclab.run("pingpong", system="startx", trace=True, **SMALL)
    with pytest.raises(ExperimentError, match="trace: expected True or False"):
        niclab.run("pingpong", trace="yes", **SMALL)


def test_a_fault_keeps_its_fields_and_the_points_before_it():
    """portals_rx2_panic has 2 RX pendings and panics when they run out, as the seed's
    firmware did (seed 000 §4.3.3): the LogP signature's bursts of back-to-back messages
    run them out after its first points."""
    with pytest.raises(ExperimentFault) as info:
        niclab.run("logp_signature", firmware="portals_rx2_panic", counters=True)
    e = info.value
    assert isinstance(e, FirmwareFault) and isinstance(e, ExperimentError)
    assert e.node == 1
    assert e.kind == "firmware panic" and "RX pending pool exhausted" in e.reason
    assert e.where.startswith("rx_pending_alloc+") and "pending.c:" in e.where and e.pc != 0
    assert isinstance(e.result, niclab.Result)
    assert e.result.stopped
    assert len(e.result) >= 1, "the point measured before the fault is kept"
    assert e.result.counters[1]["nic.rx_dma_packets"] > 0


def test_cli_run_keeps_and_prints_observations(tmp_path, capsys):
    from niclab.cli import main
    out, perfetto = tmp_path / "r.json", tmp_path / "t.json"
    assert main(["run", "pingpong", "--firmware", "portals_traced", "--sizes", "8", "--option", "repeats=2",
                 "--counters", "--perfetto", str(perfetto), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "core.instructions" in text and "node 1" in text
    assert "trace: node 1:" in text
    r = niclab.Result.load(out)
    assert len(r.traces) == 2 and r.counters[0]["core.instructions"] > 0
    assert json.loads(perfetto.read_text())["otherData"]["time_axis"] == "simulated"


@pytest.mark.parametrize("damage, match", [
    (lambda o: o.__setitem__("counters", [1]), r"observations.counters\[0\] must be an object"),
    (lambda o: o["counters"][0].pop("counters"), "needs 'node' and 'counters'"),
    (lambda o: o["counters"][0]["counters"].__setitem__("core.cycles", "many"), "counter 'core.cycles'"),
    (lambda o: o.__setitem__("breakdown", [{"size": 8}]), "'start_ps' must be an integer"),
    (lambda o: o.__setitem__("breakdown", [{"size": 8, "start_ps": 0, "end_ps": 1, "parts": [{"part": "x"}]}]),
     "text 'part' and 'detail'"),
    (lambda o: o.__setitem__("breakdown", [{"size": 8, "start_ps": 0, "end_ps": 1, "parts": [], "messages": 0}]),
     "'messages' must be an integer of at least 1"),
    (lambda o: o.__setitem__("breakdown", [{"size": 8, "start_ps": 0, "end_ps": 1, "parts": [], "interval": 3}]),
     "'interval' must be text"),
])
def test_damaged_observations_are_result_errors(traced, damage, match):
    d = traced.to_json()
    damage(d["observations"])
    with pytest.raises(ResultError, match=match):
        niclab.Result.from_json(d)
