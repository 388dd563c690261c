"""GRIM multicast by NI recycling (seed 004 §8.1) from Python and the command line:
trees from niclab.grim with every byte checked at every subscriber once and in order,
typed errors naming the argument, the multicast experiment (and its refusal on other
systems), the on-card copy rate from the trace, Fig. 8.7's qualitative checks."""

import subprocess
import sys

import pytest

import niclab


def _payload(k, n):
    return bytes((i * 7 + k * 13) & 0xFF for i in range(n))


def _members(nodes, settings=None):
    """A GRIM system of `nodes` with every endpoint's "mc" handler registered (same order,
    same id everywhere), and its endpoints."""
    spec = {"preset": "grim-lanai9", "nodes": nodes, "firmware": "grim"}
    if settings:
        spec["set"] = settings
    s = niclab.System(spec)
    eps = [s.grim(n) for n in range(nodes)]
    for e in eps:
        e.handler("mc")
    return s, eps


def test_a_tree_delivers_every_message_once_in_order_to_each_subscriber():
    _, eps = _members(5)
    tree = eps[4].find_multicast_tree("py.tree")
    assert eps[0].find_multicast_tree("py.tree") == tree
    for n in (1, 2, 3):
        eps[n].subscribe_multicast(tree)
    assert eps[0].multicast.tree(tree) == [1, 2, 3]
    t1 = eps[1].multicast.table(tree)
    assert t1["root"] and t1["member"] and t1["children"] == [2, 3]
    sizes = [1, 4, 700, 5000, 64572]
    for k, n in enumerate(sizes):
        eps[4].send_mc(tree, "mc", [k, 99], _payload(k, n))
    for n in (1, 2, 3):
        got = eps[n].wait(len(sizes))
        assert [m["args"][0] for m in got] == list(range(len(sizes)))
        assert [m["data"] for m in got] == [_payload(k, n_) for k, n_ in enumerate(sizes)]
        assert all(m["src"] == 4 for m in got)  # the injecting node, carried over the hops
    assert eps[0].poll() == [] and eps[4].poll() == []
    c = [e.counters() for e in eps]
    # Each message to both children, and the updates: {1, 2} to node 2, {1, 2, 3} to both.
    assert c[1]["mc_forwarded"] == 2 * len(sizes) + 3
    assert c[2]["mc_delivered"] == len(sizes) and c[2]["mc_ticket_refused"] == 0


def test_unsubscribe_updates_the_tree_and_broadcast_reaches_everyone():
    s, eps = _members(4)
    tree = eps[0].find_multicast_tree("py.leave")
    for n in (0, 2, 3):
        eps[n].subscribe_multicast(tree)
    eps[0].unsubscribe_multicast(tree)
    assert eps[1].multicast.tree(tree) == [2, 3]
    assert eps[2].multicast.table(tree)["root"] and not eps[0].multicast.table(tree)["member"]
    eps[1].send_mc(tree, "mc", [1], b"after")
    for n in (2, 3):
        assert [m["data"] for m in eps[n].wait(1)] == [b"after"]
    assert eps[0].poll() == [] and eps[1].poll() == []
    eps[2].broadcast("mc", [2], b"everyone")
    for e in eps:
        assert [m["data"] for m in e.wait(1)] == [b"everyone"]


def test_bad_multicast_calls_are_typed_errors_naming_the_argument():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"})
    a = s.grim(0)
    a.handler("mc")
    with pytest.raises(niclab.GrimMulticastError) as e:
        a.subscribe_multicast(17)
    assert e.value.key == "multicast id" and "17" in str(e.value)
    tree = a.find_multicast_tree("py.bad")
    with pytest.raises(niclab.GrimMulticastError) as e:
        a.subscribe_multicast(tree, 0x4)
    assert e.value.key == "channels" and "0x04" in str(e.value)
    with pytest.raises(niclab.GrimMulticastError) as e:
        a.send_mc(200, "mc", [], b"x")
    assert e.value.key == "multicast id"


def test_the_multicast_experiment_injects_less_but_round_trips_longer_than_unicast():
    r = niclab.run("multicast", preset="grim-lanai4-p4", nodes=4, groups=[2, 4], sizes=[4, 4096], repeats=1)
    c = r.columns
    assert list(c["hosts"]) == [2, 2, 4, 4] and list(c["bytes"]) == [4, 4096, 4, 4096]
    for i in range(4):
        assert c["native_rtt_us"][i] > 0 and c["unicast_rtt_us"][i] > 0
    # Fig. 8.7 (L2095-2097), 4 hosts: one injection against three; the recycling costs time.
    for i in (2, 3):
        assert c["native_inject_us"][i] < c["unicast_inject_us"][i]
        assert c["native_rtt_us"][i] > c["unicast_rtt_us"][i]


def test_the_multicast_experiment_refuses_other_systems():
    with pytest.raises(niclab.ExperimentError) as e:
        niclab.run("multicast", preset="seastar", nodes=2, sizes=[4])
    assert "grim" in str(e.value)


def test_the_multicast_experiment_runs_from_the_command_line():
    r = subprocess.run([sys.executable, "-m", "niclab", "run", "multicast", "--preset", "grim-lanai4-p4", "--nodes", "3",
                        "--sizes", "4", "--option=repeats=1", "--option=groups=[3]"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "native_rtt_us" in r.stdout


def test_the_on_card_copy_rate_comes_from_the_trace_and_the_lanai9_copies_faster():
    from niclab.validation_grim_mc import copy_rate
    l4, us4 = copy_rate("grim-lanai4")
    l9, us9 = copy_rate("grim-lanai9")
    assert us4[60000] > us4[1024] > 0
    assert 0 < l4 < l9


def test_validation_has_fig_8_7_checks_and_the_copy_rates():
    from niclab.validation_grim_mc import validate_grim_multicast
    v = validate_grim_multicast()
    rows = {c.quantity: c for c in v.checks}
    for hosts in (4, 8):
        for size in (4, 16384):
            inject = rows[f"multicast / unicast injection time, P4 + LANai 4, {hosts} hosts, {size} B"]
            assert inject.bound == "below" and 0 < inject.simulated < 1  # one injection against N - 1
            assert f"multicast / unicast round trip, P4 + LANai 4, {hosts} hosts, {size} B" in rows
    assert rows["on-card memory copy, LANai 4 (multicast queue)"].published == 19
    assert rows["on-card memory copy, LANai 9 (multicast queue)"].published == 66
    assert 0 < rows["on-card memory copy, LANai 4 (multicast queue)"].simulated < rows["on-card memory copy, LANai 9 (multicast queue)"].simulated


FRAGMENT = 63 * 1024  # the `grim` image's fragment size
MTU = 64572


def test_a_fragmented_multicast_arrives_whole_at_every_member_across_the_boundaries():
    """§8.2.3: larger than one GRIM message, the library fragments and every member's
    library reassembles; sizes around the fragment and the MTU, and 1 MB."""
    # Python runs one call at a time: the members poll only when asked, so their AM
    # queues must hold every fragment sent meanwhile (33 messages).
    _, eps = _members(6, {"grim.am_slots": 64})
    tree = eps[0].find_multicast_tree("py.frag")
    members = (1, 2, 3, 5)
    for n in members:
        eps[n].subscribe_multicast(tree)
    sizes = [1, FRAGMENT - 1, FRAGMENT, FRAGMENT + 1, MTU, MTU + 1, 3 * FRAGMENT + 5, 1 << 20]
    for k, n in enumerate(sizes):
        eps[4].send_mc(tree, "mc", [k, n, 77, 88], _payload(k, n))
    for n in members:
        got = eps[n].wait(len(sizes))
        assert [m["args"] for m in got] == [[k, n_, 77, 88] for k, n_ in enumerate(sizes)]
        assert [len(m["data"]) for m in got] == sizes
        for k, m in enumerate(got):
            assert m["data"] == _payload(k, sizes[k]), f"node {n} message {k}"
        assert all(m["src"] == 4 and m["handler"] == "mc" for m in got)
    assert eps[0].poll() == [] and eps[4].poll() == []
    # Each fragmented message was an init and its fragments at every member's NI.
    messages = sum(1 if n <= MTU else 1 + -(-n // FRAGMENT) for n in sizes)
    assert all(eps[n].counters()["mc_delivered"] == messages for n in members)


def test_fragmented_multicasts_from_two_senders_on_two_trees_do_not_mix():
    s, eps = _members(5)
    a, b = eps[0].find_multicast_tree("py.a"), eps[0].find_multicast_tree("py.b")
    for n in (0, 1, 2):
        eps[n].subscribe_multicast(a)
    for n in (1, 2, 3):
        eps[n].subscribe_multicast(b)
    # Both senders' first fragmented message has counter 1: the id tells them apart.
    eps[3].send_mc(a, "mc", [1], _payload(1, 200000))
    eps[4].send_mc(b, "mc", [2], _payload(2, 150000))
    eps[3].send_mc(a, "mc", [3], _payload(3, 70000))
    eps[0].send_mc(b, "mc", [4], _payload(4, 130000))
    for n, want in ((0, {1: 200000, 3: 70000}), (1, {1: 200000, 2: 150000, 3: 70000, 4: 130000}),
                    (2, {1: 200000, 2: 150000, 3: 70000, 4: 130000}), (3, {2: 150000, 4: 130000})):
        got = {m["args"][0]: m for m in eps[n].wait(len(want))}
        assert sorted(got) == sorted(want), f"node {n}"
        for k, size in want.items():
            assert got[k]["data"] == _payload(k, size), f"node {n} message {k}"
            assert got[k]["src"] == {1: 3, 2: 4, 3: 3, 4: 0}[k]
        assert eps[n].poll() == []


def test_a_multicast_too_large_for_the_library_is_a_typed_error():
    s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"})
    a = s.grim(0)
    a.handler("mc")
    tree = a.find_multicast_tree("py.big")
    a.subscribe_multicast(tree)
    with pytest.raises(niclab.GrimMulticastError) as e:
        a.send_mc(tree, "mc", [], bytes((16 << 20) + 1))
    assert e.value.key == "bytes" and "16777217 B" in str(e.value)
    # A member that never polls: its 16 AM slots fill, the tree backs up, and the send
    # queue never has room for the rest of a 4 MB message: an error after 1 s, no hang.
    s.grim(1).handler("mc")
    s.grim(1).subscribe_multicast(tree)
    with pytest.raises(niclab.GrimMulticastError) as e:
        a.send_mc(tree, "mc", [], bytes(4 << 20))
    assert e.value.key == "multicast id" and "not polling" in str(e.value)


def test_the_multicast_experiment_runs_past_one_fragment():
    """Fig. 8.7/8.8 beyond one message: native multicast fragmented by the library, the
    unicast copies fragmented as the am path does; both reassembled at every receiver."""
    r = niclab.run("multicast", preset="grim-lanai9", nodes=4, groups=[4], sizes=[64512, 200000], repeats=1)
    c = r.columns
    assert list(c["bytes"]) == [64512, 200000]
    for col in ("native_rtt_us", "unicast_rtt_us", "native_inject_us", "unicast_inject_us"):
        assert c[col][1] > c[col][0] > 0
    # One injection of the fragments against three copies of them.
    assert c["native_inject_us"][1] < c["unicast_inject_us"][1]
