"""Portals 3.3 from Python: messages injected from a script arrive, byte for byte, with
their events; errors carry the specification's return codes."""

import numpy as np
import pytest

import niclab
from niclab import portals


@pytest.fixture
def pair():
    return niclab.System({"nodes": 2, "firmware": "portals"})


def test_put_from_python_arrives_with_its_events(pair):
    a, b = pair.portals(0), pair.portals(1)
    eq = b.eq_alloc(16)
    me = b.me_attach(pt_index=4, match_bits=0x17, ignore_bits=0xF00)
    b.md_attach(me, start=0x200001, length=64, options=portals.OP_PUT, eq=eq)
    message = b"hello, SeaStar: a put from Python"
    pair.host_memory(0).write(0x100003, message)
    md = a.md_bind(start=0x100003, length=len(message))
    a.put(md, target=(1, 0), pt_index=4, match_bits=0x517, hdr_data=42)
    assert a.queued == 1
    pair.run(for_us=100)
    assert a.queued == 0 and a.errors == []
    events = b.events(eq)
    assert [e.kind for e in events] == ["PUT_START", "PUT_END"]
    end = events[1]
    assert end.mlength == len(message) and end.initiator == (0, 0) and end.hdr_data == 42
    assert end.match_bits == 0x517 and 0 < events[0].time_us <= end.time_us
    assert pair.host_memory(1).read(0x200001, len(message)) == message
    assert b.status()["drop_count"] == 0


def test_get_from_python(pair):
    a, b = pair.portals(0), pair.portals(1)
    me = b.me_attach(pt_index=2, match_bits=5, source=(0, 0))
    b.md_attach(me, start=0x300000, length=5000, options=portals.OP_GET)
    pair.host_memory(1).write(0x300000, bytes(range(256)) * 20)
    eq = a.eq_alloc(8)
    md = a.md_bind(start=0x400000, length=5000, eq=eq)
    a.get(md, target=(1, 0), pt_index=2, match_bits=5)
    pair.run(for_us=200)
    assert "REPLY_END" in [e.kind for e in a.events(eq)]
    assert pair.host_memory(0).read(0x400000, 5000) == (bytes(range(256)) * 20)[:5000]


def test_unmatched_put_is_dropped_and_counted(pair):
    a, b = pair.portals(0), pair.portals(1)
    b.me_attach(pt_index=1, match_bits=1)  # no MD: matches nothing
    pair.host_memory(0).write(0x100000, b"x" * 100)
    a.put(a.md_bind(start=0x100000, length=100), target=(1, 0), pt_index=1, match_bits=1)
    pair.run(for_us=100)
    assert b.status()["drop_count"] == 1


def test_bad_handles_raise_portals_errors(pair):
    a = pair.portals(0)
    with pytest.raises(niclab.PortalsError) as e:
        a.put(12345, target=(1, 0), pt_index=0)
    assert e.value.code == "PTL_MD_INVALID"
    with pytest.raises(niclab.PortalsError) as e:
        a.me_attach(pt_index=100000)
    assert e.value.code == "PTL_PT_INDEX_INVALID"
    with pytest.raises(ValueError):
        a.me_attach(pt_index=0, position="middle")
    # A put to a node that does not exist fails when performed; the run goes on.
    a.put(a.md_bind(start=0x100000, length=8), target=(9, 0), pt_index=0)
    assert pair.run(for_us=50)["faulted_nodes"] == []
    assert len(a.errors) == 1 and a.errors[0].startswith("PTL_PROCESS_INVALID: put: target nid 9 does not exist")


def test_option_images_report_their_build_options():
    s = niclab.System({"nodes": 1, "firmware": ["portals_novsmall"]})
    cb = s.portals(0).niccb()
    assert not cb["features"] & portals.FEATURES["vsmall"]
    assert cb["features"] & portals.FEATURES["dcache"]
    assert cb["sources"] == 1024 and cb["tx_pendings"] + cb["rx_pendings"] == 1274
    assert cb["sram_structs"] == cb["sources"] * cb["source_bytes"] + 1274 * cb["pending_bytes"]


def test_other_firmware_is_refused():
    s = niclab.System({"nodes": 1, "firmware": "hello"})
    with pytest.raises(niclab.NiclabError, match="not the Portals firmware"):
        s.portals(0)


def test_go_back_n_carries_a_burst_the_panic_image_cannot():
    """portals_rx2 has 2 RX pendings: a LogP burst of back-to-back puts runs them out.
    portals_rx2_panic stops the node (seed 000 §4.3.3); the default go-back-N build
    drops, NACKs and retransmits, and the run completes, as its counters show."""
    opts = dict(m=[16], delays_us=[0], rtt_repeats=1, counters=True)
    with pytest.raises(niclab.ExperimentFault):
        niclab.run("logp_signature", firmware="portals_rx2_panic", **opts)
    r = niclab.run("logp_signature", firmware="portals_rx2", **opts)
    assert len(r) == 1 and not r.stopped
    target = r.counters[1]
    assert target["portals.rx_drops"] > 0 and target["portals.nacks_sent"] > 0
    assert r.counters[0]["portals.nacks_received"] == target["portals.nacks_sent"]
    assert r.counters[0]["portals.retransmits"] >= target["portals.rx_drops"]
    again = niclab.run("logp_signature", firmware="portals_rx2", **opts)
    assert again.counters == r.counters and np.array_equal(again.rows, r.rows), "deterministic"


# ---- accelerated mode (issue 17 item 1): the node's accelerated process from Python


@pytest.fixture
def accel_pair():
    return niclab.System({"nodes": 2, "firmware": "portals_accel"})


def test_accelerated_process_puts_and_gets_with_a_generic_one(accel_pair):
    """Node 0's accelerated process and node 1's generic one: a put into it (matched and
    deposited by its firmware), a get from it (answered by its firmware) and a get it
    initiates, bytes checked; its side takes no interrupt and makes no system call."""
    s = accel_pair
    a, b = s.portals(0, mode="accelerated"), s.portals(1)
    assert (a.mode, b.mode) == ("accelerated", "generic") and a.id == (0, 0)
    assert s.portals(0, mode="accelerated") is a
    eq_a, eq_b = a.eq_alloc(32), b.eq_alloc(32)
    s.run(for_us=100)  # the kernel sets the process up: PTL_CMD_ACCEL_INIT's result comes by interrupt
    setup = (a.driver_counters()["interrupts"], a.niccb()["host_interrupts"])

    # A put from the generic process into the accelerated one.
    me = a.me_attach(pt_index=4, match_bits=0x17, ignore_bits=0xF00)
    a.md_attach(me, start=0x200001, length=64, options=portals.OP_PUT, eq=eq_a)
    message = b"hello, accelerated SeaStar: a put from Python"
    s.host_memory(1).write(0x100003, message)
    b.put(b.md_bind(start=0x100003, length=len(message)), target=(0, 0), pt_index=4, match_bits=0x517, hdr_data=7)
    s.run(for_us=200)
    assert b.errors == [] and a.errors == []
    events = a.events(eq_a)
    assert [e.kind for e in events] == ["PUT_START", "PUT_END"]
    assert events[1].mlength == len(message) and events[1].initiator == (1, 0) and events[1].hdr_data == 7
    assert s.host_memory(0).read(0x200001, len(message)) == message

    # A get by the generic process from the accelerated one: the firmware sends the reply.
    served = bytes(range(7, 256)) * 8
    me = a.me_attach(pt_index=2, match_bits=5, source=(1, 0))
    a.md_attach(me, start=0x300000, length=len(served), options=portals.OP_GET | portals.MANAGE_REMOTE, eq=eq_a)
    s.host_memory(0).write(0x300000, served)
    b.get(b.md_bind(start=0x400000, length=1500, eq=eq_b), target=(0, 0), pt_index=2, match_bits=5, remote_offset=100)
    s.run(for_us=300)
    assert "REPLY_END" in [e.kind for e in b.events(eq_b)]
    assert [e.kind for e in a.events(eq_a)] == ["GET_START", "GET_END"]
    assert s.host_memory(1).read(0x400000, 1500) == served[100:1600]

    # A get initiated by the accelerated process from the generic one.
    fetched = bytes(range(255, 0, -1)) * 12
    me = b.me_attach(pt_index=3, match_bits=9)
    b.md_attach(me, start=0x500000, length=len(fetched), options=portals.OP_GET)
    s.host_memory(1).write(0x500000, fetched)
    a.get(a.md_bind(start=0x600000, length=len(fetched), eq=eq_a), target=(1, 0), pt_index=3, match_bits=9)
    s.run(for_us=300)
    assert a.errors == [] and "REPLY_END" in [e.kind for e in a.events(eq_a)]
    assert s.host_memory(0).read(0x600000, len(fetched)) == fetched

    c = a.driver_counters()
    assert c["matched"] == 2 and c["announced"] == 1 and c["syscalls"] == 0 and c["commands"] > 0
    assert (c["interrupts"], a.niccb()["host_interrupts"]) == setup and a.niccb()["accel_matches"] == 2
    assert b.driver_counters()["interrupts"] > 0  # the generic side's events come by interrupt


def test_accelerated_mode_needs_an_accelerated_image_and_contiguous_mds():
    s = niclab.System({"nodes": 2, "firmware": "portals"})
    with pytest.raises(niclab.NiclabError, match="no accelerated process .*portals_accel"):
        s.portals(0, mode="accelerated")
    with pytest.raises(ValueError, match="'generic' or 'accelerated'"):
        s.portals(0, mode="fast")
    a = niclab.System({"nodes": 2, "firmware": "portals_accel"}).portals(0, mode="accelerated")
    with pytest.raises(niclab.PortalsError, match="non-contiguous") as e:
        a.md_attach(a.me_attach(pt_index=1), iov=[(0x100000, 8), (0x200000, 8)])
    assert e.value.code == "PTL_MD_ILLEGAL"


def test_accelerated_unlink_reaches_the_firmware(accel_pair):
    """An unlink from Python is performed by the process when the system runs: the
    firmware's copy goes too, so a later put matches nothing and is dropped, its
    buffer untouched."""
    s = accel_pair
    a, b = s.portals(0, mode="accelerated"), s.portals(1)
    eq = a.eq_alloc(16)
    me = a.me_attach(pt_index=6, match_bits=1)
    md = a.md_attach(me, start=0x200000, length=32, options=portals.OP_PUT, eq=eq)
    a.md_unlink(md)
    with pytest.raises(niclab.PortalsError) as e:
        a.me_unlink(12345)
    assert e.value.code == "PTL_ME_INVALID"
    s.host_memory(1).write(0x100000, b"y" * 32)
    s.run(for_us=100)
    b.put(b.md_bind(start=0x100000, length=32), target=(0, 0), pt_index=6, match_bits=1)
    s.run(for_us=200)
    assert a.errors == [] and a.events(eq) == []
    assert a.status()["drop_count"] == 1 and a.niccb()["accel_drops"] == 1
    assert s.host_memory(0).read(0x200000, 32) == bytes(32)
    with pytest.raises(niclab.PortalsError) as e:
        a.md_unlink(md)  # performed: its handle is gone
    assert e.value.code == "PTL_MD_INVALID"
