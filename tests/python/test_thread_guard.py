"""One thread at a time inside a system. A run releases the GIL, so another Python thread
could reach in meanwhile; everything that belongs to the system (the System, its NICs
and host memory, the per-node host libraries, a GDB server) refuses it by name with
SystemBusy, while the run's own observer may use them all, and after the run they work."""

import contextlib
import threading

import pytest

import niclab
from niclab.firmware import resolve


@contextlib.contextmanager
def held_in_a_run(system, on_run_thread=lambda: None):
    """Runs `system` in another thread and holds it inside its observer (the run under
    way, the GIL released by the run) for the body; `on_run_thread()` is called from the
    observer first, and its result (or exception) is yielded."""
    inside, release, seen = threading.Event(), threading.Event(), {}

    def observer(now_us):
        seen["reached"] = True
        try:
            seen["value"] = on_run_thread()
        except Exception as e:  # noqa: BLE001 - reported to the test below
            seen["value"] = e
        inside.set()
        release.wait(60)
        return False

    def run():
        try:
            system.run(for_us=1000, observer=observer, interval_us=10)
        finally:
            inside.set()  # a run that never reached its observer fails the test, not hangs it

    runner = threading.Thread(target=run)
    runner.start()
    try:
        assert inside.wait(60) and "reached" in seen, "the run never reached its observer"
        yield seen.get("value")
    finally:
        release.set()
        runner.join(60)
    assert not runner.is_alive()


def refused(operation, touch):
    with pytest.raises(niclab.SystemBusy, match="being run by another thread") as caught:
        touch()
    assert caught.value.operation == operation
    assert isinstance(caught.value, RuntimeError)


def test_a_seastar_nic_its_host_memory_and_portals_refuse_another_thread():
    s = niclab.System({"nodes": 2, "firmware": "portals"})
    s.run(for_us=50)  # booted
    nic, mem, ptl = s.nic(0), s.host_memory(0), s.portals(0)
    spot = 0x3000_0000  # host memory nothing else uses
    mem.write(spot, b"before")
    code = nic.symbol("main")
    word = nic.peek32(code)

    def own_thread():  # the run's observer: everything allowed
        return nic.peek32(code), nic.state, mem.read(spot, 6), ptl.status(), nic.cycles

    with held_in_a_run(s, own_thread) as seen:
        assert not isinstance(seen, Exception), seen
        assert seen[1] in ("running", "waiting") and seen[2] == b"before" and seen[0] == word
        for operation, touch in (
                ("Nic.pc", lambda: nic.pc),
                ("Nic.peek32", lambda: nic.peek32(code)),
                ("Nic.poke32", lambda: nic.poke32(code, 1)),
                ("Nic.write_sram", lambda: nic.write_sram(code, b"x")),
                ("Nic.trace", lambda: nic.trace()),
                ("Nic.load_firmware", lambda: nic.load_firmware(resolve("portals"))),
                ("Nic.raise_interrupt", lambda: nic.raise_interrupt()),
                ("HostMemory.read", lambda: mem.read(spot, 6)),
                ("HostMemory.write", lambda: mem.write(spot, b"x")),
                ("PortalsInterface.eq_alloc", lambda: ptl.eq_alloc(4)),
                ("PortalsInterface.status", lambda: ptl.status()),
                ("System.nic", lambda: s.nic(1)),
                ("System.host_cpu_times", lambda: s.host_cpu_times(0)),
                ("System.run_until_ps", lambda: s.run(until_us=2000)),
                ("gdb_server", lambda: s.gdb_server(0))):
            refused(operation, touch)
    # The run has returned: all of it works again, and nothing refused had an effect.
    assert mem.read(spot, 6) == b"before" and nic.peek32(code) == word
    assert ptl.eq_alloc(4) >= 0
    assert s.run(for_us=10)["reached_us"] > 50
    assert s.nic(0).state in ("running", "waiting")


def jam_with_a_message_in_flight(s):
    jam = s.jam(0)
    jam.send(1, b"x" * 16)
    return jam


def csp_with_a_buffered_send_in_flight(s):
    csp, peer = s.csp(0), s.csp(1)
    csp.open(1)
    peer.open(0)
    csp.send(1, bytes(60000), mode="buffered")
    return csp


@pytest.mark.parametrize("system, library, operations", [
    ({"system": "startx", "nodes": 2}, jam_with_a_message_in_flight,
     (("JamNode.send", lambda j: j.send(1, b"hello")), ("JamNode.status", lambda j: j.status()))),
    ({"system": "dsnic", "nodes": 2}, csp_with_a_buffered_send_in_flight,
     (("CspNode.open", lambda c: c.open(1, vl=1)), ("CspNode.probe", lambda c: c.probe(1)))),
    ({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"}, lambda s: s.grim(0),  # its firmware polls
     (("GrimNode.handler", lambda g: g.handler("hello")), ("GrimNode.poll", lambda g: g.poll()))),
], ids=["jam", "csp", "grim"])
def test_the_host_libraries_of_the_other_systems_refuse_another_thread(system, library, operations):
    s = niclab.System(system)
    lib = library(s)  # leaves the system something to do, so the run below reaches its observer
    with held_in_a_run(s):
        for operation, touch in operations:
            refused(operation, lambda: touch(lib))
    for _, touch in operations:  # after the run they work (a library's own error aside)
        with contextlib.suppress(niclab.NiclabError):
            touch(lib)


def test_a_host_call_marks_its_run_for_other_threads():
    # A JAM call runs the system (GIL released) until its host process is done; another
    # thread meanwhile is refused. The call is made long (a 1 MB RDMA) so the other thread
    # gets the GIL during it many times over; it tries until the call has returned.
    s = niclab.System({"system": "startx", "nodes": 2})
    a, b = s.jam(0), s.jam(1)
    b.open_window(1 << 20, sender=0)
    started, done, refusals = threading.Event(), threading.Event(), []

    def call():
        started.set()
        try:
            a.rdma_send(1, bytes(range(256)) * 4096)
        finally:
            done.set()

    caller = threading.Thread(target=call)
    caller.start()
    started.wait(60)
    while not done.is_set():
        try:
            s.now_us
        except niclab.SystemBusy as e:
            refusals.append(e.operation)
    caller.join(60)
    assert refusals and set(refusals) == {"System.now_us"}
    assert b.rdma_wait()["data"] == bytes(range(256)) * 4096
