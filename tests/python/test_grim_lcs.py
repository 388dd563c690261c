"""GRIM's logical channels from Python (seed 004 §4.3): endpoints on several LCs of a
node (``System.grim(node, lc)``), ordering per channel under receiver exhaustion, a NACK
rolling back its channel only, determinism, typed errors for a bad LC, and Fig. 4.10's
scan growing with the LC count while the receiving NI does not (tests/cpp/grim/
test_grim_lcs.cpp has the link-error and remote memory cases)."""

import pytest

import niclab
from niclab.validation_grim_lcs import scan_run


def _system(lcs, **more):
    return niclab.System({"preset": "grim-lanai9", "nodes": 2, "seed": 5, "firmware": "grim", "set": {"grim.lcs": lcs, **more}})


def _data(s, k):
    return bytes((s * 31 + k * 7 + i) & 0xFF for i in range(200 + 13 * k))


def _interleaved(lcs=3, n=12):
    """Node 0's LCs each send n AMs, message k of LC s to node 1's LC (s + k) % lcs; node
    1's LCs have two queue slots each, LC 1's taken from only after 300 us. {(s, d): [k,
    ...] as handled}, the system and both nodes' endpoints."""
    s = _system(lcs, **{"grim.am_slots": 2})
    a = [s.grim(0, lc) for lc in range(lcs)]
    b = [s.grim(1, lc) for lc in range(lcs)]
    for ep in a + b:
        ep.handler("lc")
    for k in range(n):
        for src in range(lcs):
            a[src].am_send(1, "lc", [src, k], _data(src, k), lc=(src + k) % lcs)
    got, count = {}, 0
    for rounds in range(1000):  # LC 1 is left alone for the first 300 us: its NI NACKs
        for d in range(lcs):
            if d == 1 and rounds < 6:
                continue
            for m in b[d].poll():
                src, k = m["args"][:2]
                assert m["data"] == _data(src, k)
                got.setdefault((src, d), []).append(k)
                count += 1
        if count == lcs * n:
            return got, s, a, b
        s.run(for_us=50)
    raise AssertionError(f"{count} of {lcs * n} messages arrived")


def test_each_channel_keeps_its_order_once_under_exhaustion():
    got, s, a, b = _interleaved()
    for src in range(3):
        for d in range(3):
            assert got[(src, d)] == [k for k in range(12) if (src + k) % 3 == d]
    nb, na = b[0].counters(), a[0].counters()  # the NI's, shared by the node's endpoints
    assert nb["nacks_sent"] > 0 and nb["am_delivered"] == 36
    assert sum(ep.resent() for ep in a) == na["retransmits"] > 0


def test_a_nack_rolls_back_only_the_refused_channel():
    s = _system(2, **{"grim.am_slots": 2})
    a = [s.grim(0, lc) for lc in range(2)]
    b = [s.grim(1, lc) for lc in range(2)]
    for ep in a + b:
        ep.handler("lc")
    got1 = []
    for k in range(10):
        a[0].am_send(1, "lc", [0, k], _data(0, k), lc=0)  # to a queue nobody empties yet
        a[1].am_send(1, "lc", [1, k], _data(1, k), lc=1)
        got1 += [m["args"][1] for m in b[1].poll()]      # taken as they come
    got1 += [m["args"][1] for m in b[1].wait(10 - len(got1))]
    assert got1 == list(range(10))
    assert [m["args"][1] for m in b[0].wait(10)] == list(range(10))
    assert b[0].counters()["nacks_sent"] > 0
    assert a[0].resent() > 0 and a[1].resent() == 0
    assert a[0].counters()["retransmits"] == a[0].resent()


def test_the_same_seed_gives_the_same_run():
    def once():
        got, s, a, b = _interleaved(n=6)
        return s.now_us, [ep.resent() for ep in a], a[0].counters(), b[0].counters()
    assert once() == once()


def test_a_bad_logical_channel_is_a_config_error_naming_lc():
    s = _system(3)
    with pytest.raises(niclab.ConfigError) as e:
        s.grim(0, 3)
    assert e.value.key_path == "lc"
    s.grim(0, 0).handler("x")
    with pytest.raises(niclab.ConfigError) as e:
        s.grim(0, 0).am_send(1, "x", [], b"", lc=3)
    assert e.value.key_path == "lc"
    assert s.grim(1, 2).lc == 2 and s.grim(1, 2) is s.grim(1, 2)
    with pytest.raises(niclab.ConfigError) as e:
        _system(9)
    assert "grim.lcs" in e.value.key_path


def test_scanning_more_lcs_costs_the_sending_ni_not_the_receiving_one():
    one, r1 = scan_run("grim-lanai9", 1)
    eight, r8 = scan_run("grim-lanai9", 8)
    assert one and eight
    m1, m8 = sorted(one)[len(one) // 2], sorted(eight)[len(eight) // 2]
    assert m8 > 2 * m1
    assert abs(r8["recv"] - r1["recv"]) < 0.1 * r1["recv"]
