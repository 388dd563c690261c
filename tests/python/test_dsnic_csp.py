"""CSP channels on the DSNIC from Python (seed 003 Table 1): real bytes over virtual
links, each call a host process making the driver's system calls."""

import pytest

import niclab


def pair(packet=1024, **more):
    s = niclab.System({"system": "dsnic", "nodes": 2, "set": {"dsnic.packet_bytes": packet, **more}})
    a, b = s.csp(0), s.csp(1)
    a.open(1)
    b.open(0)
    return s, a, b


@pytest.mark.parametrize("packet", [8, 256, 4096])
def test_a_blocking_send_arrives_byte_exact_at_every_packet_size(packet):
    s, a, b = pair(packet)
    data = bytes((7 * i) % 251 for i in range(5000))  # several packets and a short last one
    sent = a.send(1, data, tag=3)
    got = b.recv(0)
    assert got["data"] == data and got["bytes"] == 5000 and got["tag"] == 3
    # A synchronous send returns after the receiver acknowledged the whole message: the
    # receive then takes it at once, with only its own system call.
    assert got["start_us"] >= sent["end_us"] and got["host_us"] < sent["host_us"]


def test_async_and_buffered_sends_and_probe_wait_alt():
    s, a, b = pair()
    first, second = b"a" * 3000, b"b" * 100
    t = a.send(1, first, mode="async")
    assert t["host_us"] < 20  # returns before the data is across (3000 B at 9.2 MB/s is ~330 us)
    assert not b.probe(0)
    assert b.recv(0)["data"] == first
    a.wait(1)
    a.send(1, second, mode="buffered", tag=9)
    assert b.alt([(0, 0)]) == 0
    got = b.recv(0)
    assert got["data"] == second and got["tag"] == 9


def test_alt_picks_the_channel_that_has_a_message():
    s = niclab.System({"system": "dsnic", "nodes": 3})
    a, b, c = s.csp(0), s.csp(1), s.csp(2)
    a.open(1, vl=0)
    a.open(2, vl=5)
    b.open(0, vl=0)
    c.open(0, vl=5)
    c.send(0, b"from node 2", vl=5)
    assert a.alt([(1, 0), (2, 5)]) == 1
    assert a.recv(2, vl=5)["data"] == b"from node 2"


def test_calls_that_cannot_finish_or_are_wrong_name_the_problem():
    s, a, b = pair()
    with pytest.raises(niclab.DsnicError, match="no message arrived, and nothing in the system was left to bring one"):
        b.recv(0)
    with pytest.raises(niclab.DsnicError, match="virtual link 3 to node 1 is not open"):
        a.send(1, b"x", vl=3)
    with pytest.raises(niclab.DsnicError, match="is open already"):
        a.open(1)
    with pytest.raises(niclab.DsnicError, match="not another node"):
        a.open(0, vl=1)
    with pytest.raises(ValueError, match="mode must be one of"):
        a.send(1, b"x", mode="eager")
    # The system goes on after the errors.
    a.send(1, b"still here")
    assert b.recv(0)["data"] == b"still here"


def test_a_send_nobody_receives_is_reported_not_hung():
    s = niclab.System({"system": "dsnic", "nodes": 2})
    a = s.csp(0)
    a.open(1, vl=2)  # node 1 never opens the link, so no credit ever comes
    with pytest.raises(niclab.DsnicError, match="never finished"):
        a.send(1, b"lost?", vl=2)


def test_csp_is_only_on_the_dsnic():
    with pytest.raises(niclab.NiclabError):
        niclab.System({"system": "startx", "nodes": 2}).csp(0)


def test_same_calls_same_times():
    times = []
    for _ in range(2):
        s, a, b = pair()
        a.send(1, b"z" * 2048)
        times.append(b.recv(0)["end_us"])
    assert times[0] == times[1]
