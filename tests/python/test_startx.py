"""JAM from Python (niclab.startx): messages injected on one StarT-X node arrive byte-exact
at another in every mode and priority, the status word counts what waits, and bad input
gets a typed error naming it while the system stays usable."""

import pytest

import niclab
from niclab import (DriverError, EmptyQueueError, MessageFormatError, NiclabError, RdmaError, StartxError,
                    UnknownPriorityError)


@pytest.fixture
def pair():
    s = niclab.System({"system": "startx", "nodes": 2})
    return s, s.jam(0), s.jam(1)


def pattern(n, seed=0):
    return bytes((seed * 31 + 7 * i + 1) & 0xFF for i in range(n))


@pytest.mark.parametrize("priority", ["high", "low"])
def test_pio_delivers_every_payload_size_byte_exact(pair, priority):
    s, a, b = pair
    for n in range(8, 89, 4):
        data = pattern(n, n)
        sent = a.send(1, data, priority=priority)
        m = b.receive(priority)
        assert m.payload == data
        assert (m.source, m.dst, m.priority, m.payload_words) == (0, 1, priority, n // 4)
        # the bytes are really in the receiver's host memory, where JAM put them
        assert s.host_memory(1).read(m.address, n) == data
        assert m.time_us > sent["end_us"] > sent["start_us"]


def test_both_directions_and_the_header_fields(pair):
    s, a, b = pair
    b.send(0, b"from node 1 to 0", priority="low", random_up=True, word1=0xABCD1234)
    m = a.receive("low")
    assert (m.payload, m.source, m.dst, m.random_up, m.word1) == (b"from node 1 to 0", 0xAB, 0, True, 0xABCD1234)
    a.send(1, b"ordered!", priority="high")
    assert b.receive("high").random_up is False


def test_high_and_low_queues_are_separate(pair):
    _, a, b = pair
    a.send(1, b"low-one.", priority="low")
    a.send(1, b"high-one", priority="high")
    assert b.receive("low").payload == b"low-one."
    assert b.receive("high").payload == b"high-one"


def test_64_byte_primitives_move_a_16_word_message(pair):
    s, a, b = pair
    data = pattern(56, 3)
    sent = a.send64(1, data, priority="low")
    assert sent["address"] % 64 == 0
    m = b.receive64("low")
    assert (m.payload, m.payload_words, m.priority) == (data, 14, "low")
    # a 64-byte message is read as well by the generalized primitive
    a.send64(1, data)
    assert b.receive("high").payload == data


def test_status_word_counts_what_waits_and_what_fits(pair):
    s, a, b = pair
    st = b.status()
    assert (st.rx_high, st.rx_low, st.tx_space_high, st.tx_space_low) == (0, 0, 20, 20)
    for i in range(3):
        a.send(1, pattern(16, i), priority="high")
    for i in range(2):
        a.send(1, pattern(88, i), priority="low")
    s.run(for_us=50)
    st = b.status()
    assert (st.rx_high, st.rx_low) == (3, 2)
    assert (st.rx("high"), st.tx_space("low")) == (3, 20)
    assert st.word & 0x1F == 20  # the packed word's tx-high field
    b.receive("high")
    assert b.status().rx_high == 2
    assert a.status().tx_space_high == 20  # the sender's queue drained onto the link
    c = b.counters()
    assert c["niu"]["messages_accepted"] == {"high": 3, "low": 2}
    assert c["jam"]["status_reads"] >= 3 and c["jam"]["messages_received"] == 1
    assert a.counters()["jam"]["messages_sent"] == 5


def test_a_status_read_costs_a_pio_read(pair):
    s, a, _ = pair
    before = s.now_us
    a.status()
    assert 1.0 < a.last_call["host_us"] < 2.0  # 1.03 us on the E5000's PCI (seed 002 §5.1)
    assert s.now_us > before


def test_vi_receive_sees_high_priority_messages_in_host_memory(pair):
    s, a, b = pair
    base = b.vi_arm(4096)
    assert b.vi_receive(wait=False) is None
    a.send(1, pattern(40, 1))
    m = b.vi_receive()
    assert m.payload == pattern(40, 1)
    assert base <= m.address < base + 4096
    sent = a.vi_send(1, [pattern(8, 2), pattern(88, 3), pattern(20, 4)])
    assert sent["bytes"] == 3 * 8 + 8 + 88 + 20
    assert [b.vi_receive().payload for _ in range(3)] == [pattern(8, 2), pattern(88, 3), pattern(20, 4)]
    assert b.counters()["niu"]["vi_messages_received"] == 4


def test_rdma_into_an_opened_window_is_byte_exact(pair):
    s, a, b = pair
    data = pattern(10_000, 5)
    base = b.open_window(len(data), sender=0)
    sent = a.rdma_send(1, data)
    got = b.rdma_wait()
    assert got["data"] == data and got["address"] == base and got["sender"] == 0
    assert s.host_memory(1).read(base, len(data)) == data
    assert got["end_us"] > sent["start_us"]
    assert b.counters()["niu"]["rdma_bytes_received"] == len(data)


def test_rpc_runs_the_handler_with_its_argument(pair):
    _, a, b = pair
    sent = a.rpc(1, handler=7, data=b"argument bytes", tag=42)
    assert sent["path"] == "pio"
    calls = b.rpc_poll()["calls"]
    assert [(c["source"], c["handler"], c["tag"], c["data"]) for c in calls] == [(0, 7, 42, b"argument bytes")]


# ---- errors: typed, naming what is wrong, and the system goes on


def still_works(a, b):
    a.send(1, b"still alive!", priority="low")
    assert b.receive("low").payload == b"still alive!"


def test_a_23_word_message_is_a_format_error(pair):
    _, a, b = pair
    with pytest.raises(MessageFormatError, match="23 payload words"):
        a.send(1, bytes(92))
    with pytest.raises(MessageFormatError, match="1 payload words"):
        a.send(1, bytes(4))
    with pytest.raises(MessageFormatError, match="10 bytes"):
        a.send(1, bytes(10))
    with pytest.raises(MessageFormatError, match="destination node 5"):
        a.send(5, bytes(8))
    with pytest.raises(MessageFormatError, match="56 payload bytes"):
        a.send64(1, bytes(88))
    still_works(a, b)


def test_an_unknown_priority_is_named(pair):
    _, a, b = pair
    with pytest.raises(UnknownPriorityError, match="'medium'"):
        a.send(1, bytes(8), priority="medium")
    with pytest.raises(UnknownPriorityError, match="priority 2"):
        b.receive(2)
    assert issubclass(UnknownPriorityError, StartxError) and issubclass(StartxError, NiclabError)
    still_works(a, b)


def test_reading_an_empty_queue(pair):
    s, a, b = pair
    with pytest.raises(EmptyQueueError, match="node 1: receive from the high-priority queue: no message waits"):
        b.receive("high", wait=False)
    with pytest.raises(EmptyQueueError, match="nothing in the system was left"):
        b.receive64("low")
    with pytest.raises(DriverError, match="not armed"):
        b.vi_receive()
    still_works(a, b)


def test_rdma_into_a_window_the_receiver_did_not_open(pair):
    _, a, b = pair
    with pytest.raises(RdmaError, match="node 0: RDMA of 64 bytes to node 1: its driver opened no RDMA window"):
        a.rdma_send(1, bytes(64))
    s3 = niclab.System({"system": "startx", "nodes": 3})
    x, y, z = s3.jam(0), s3.jam(1), s3.jam(2)
    z.open_window(64, sender=1)
    with pytest.raises(RdmaError, match="opened for node 1"):
        x.rdma_send(2, bytes(64))
    with pytest.raises(RdmaError, match="room for 64 more bytes"):
        y.rdma_send(2, bytes(128))
    with pytest.raises(RdmaError, match="received 0 bytes"):
        z.rdma_wait()
    # the window is still there for its sender
    y.rdma_send(2, pattern(64))
    assert z.rdma_wait()["data"] == pattern(64)
    still_works(a, b)


def test_rdma_rules_reported_by_the_hardware(pair):
    _, a, b = pair
    b.open_window(4096, sender=0)
    with pytest.raises(RdmaError, match="VI receive armed while an RDMA window is open"):
        b.vi_arm(4096)
    with pytest.raises(RdmaError, match="opened while one is open"):
        b.open_window(64, sender=0)
    a.rdma_send(1, pattern(4096))
    assert b.rdma_wait()["data"] == pattern(4096)


def test_jam_on_a_system_that_is_no_startx():
    s = niclab.System({"nodes": 1})
    with pytest.raises(NiclabError, match="not a StarT-X"):
        s.jam(0)


def test_the_same_calls_give_the_same_times():
    def session():
        s = niclab.System({"system": "startx", "nodes": 2})
        a, b = s.jam(0), s.jam(1)
        out = []
        for n in (8, 48, 88):
            a.send(1, pattern(n), priority="high")
            out.append(b.receive("high").time_us)
        return out, s.now_us

    assert session() == session()


def test_high_priority_traffic_into_an_open_rdma_window_is_refused(pair):
    _, a, b = pair
    b.open_window(64, sender=0)
    with pytest.raises(RdmaError, match="node 0: a high-priority message to node 1, which has an RDMA window open"):
        a.send(1, bytes(8), priority="high")
    with pytest.raises(RdmaError, match="RDMA window open"):
        a.vi_send(1, [bytes(8)])
    a.send(1, b"low is fine!", priority="low")
    assert b.receive("low").payload == b"low is fine!"
    a.rdma_send(1, pattern(64))
    assert b.rdma_wait()["data"] == pattern(64)
    a.send(1, b"closed now..", priority="high")
    assert b.receive("high").payload == b"closed now.."


def test_rpc_above_the_pio_threshold_takes_the_rdma_protocol(pair):
    _, a, b = pair
    arg = pattern(5000, 9)
    assert b.rpc(0, handler=3, data=arg, tag=1)["path"] == "rdma"
    assert a.rpc_poll()["calls"] == []   # the receiver opens a window and grants
    assert b.rpc_poll()["did"] >= 1      # the sender streams into it
    calls = a.rpc_poll()["calls"]       # the window filled: the handler runs
    assert [(c["source"], c["handler"], c["data"]) for c in calls] == [(1, 3, arg)]
