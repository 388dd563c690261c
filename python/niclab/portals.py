"""Portals 3.3 from Python: inject messages into a simulated cluster and watch them arrive.

Each node runs the C Portals firmware (``firmware="portals"`` or one of its option
images) and a generic-mode Portals stack in its host kernel. ``System.portals(node)``
gives a process's network interface::

    s = niclab.System({"nodes": 2, "firmware": "portals"})
    a, b = s.portals(0), s.portals(1)
    eq = b.eq_alloc(64)
    me = b.me_attach(pt_index=4, match_bits=0x17)
    b.md_attach(me, start=0x200000, length=4096, options=portals.OP_PUT, eq=eq)
    s.host_memory(0).write(0x100000, b"hello, SeaStar")
    md = a.md_bind(start=0x100000, length=14)
    a.put(md, target=(1, 0), pt_index=4, match_bits=0x17)
    s.run(for_us=50)
    for ev in b.events(eq):
        print(ev.type, ev.mlength, ev.time_us)

On a node running an accelerated image (``firmware="portals_accel"``, build option
PTL_ACCEL), ``System.portals(node, mode="accelerated")`` gives the node's accelerated
process instead, with the same API: no system call, its match entries and MDs
mirrored into the firmware, which matches, deposits and answers gets itself, and its
events polled from its own event queue with no interrupt. The firmware learns of a
match entry or MD when the system runs, through the process's mailbox, in order with
its puts and gets; a host process on the node waits in its library and takes the
firmware's events as they land. Non-contiguous MDs (``iov``) are refused there.

Match entries, memory descriptors and event queues change at once (as if the process
had made the call at the current simulated time, at no cost); ``put`` and ``get`` are
performed by a host process on the node, with their host costs, when the system runs.
Names and semantics follow the Portals 3.3 specification (SAND2006-0420); addresses
are host physical addresses of the node's simulated memory. Errors raise
``niclab.PortalsError`` with the specification's return code in ``code``.
"""

from dataclasses import dataclass

from . import _niclab

NID_ANY = 0xFFFFFFFF
PID_ANY = 0xFFFFFFFF
ANY = (NID_ANY, PID_ANY)
THRESH_INF = -1

OP_PUT = 0x001
OP_GET = 0x002
MANAGE_REMOTE = 0x004
TRUNCATE = 0x008
ACK_DISABLE = 0x010
MAX_SIZE = 0x040
EVENT_START_DISABLE = 0x080
EVENT_END_DISABLE = 0x100
EQ_NONE = 0xFFFFFFFF

# Build options of the firmware image (its NIC control block's ``features``).
FEATURES = {"icache": 0x01, "dcache": 0x02, "vsmall": 0x04, "write_through": 0x08, "pinned": 0x10, "trace": 0x20,
            "go_back_n": 0x40}


@dataclass(frozen=True)
class Event:
    """A Portals event (ptl_event_t). ``type`` is the specification's name, e.g. ``"PTL_EVENT_PUT_END"``."""

    type: str
    initiator: tuple
    pt_index: int
    match_bits: int
    rlength: int
    mlength: int
    offset: int
    md_handle: int
    md: dict
    hdr_data: int
    unlinked: bool
    ni_fail: bool
    sequence: int
    time_us: float
    dropped: bool = False
    uid: int = 0
    jid: int = 0

    @property
    def kind(self):
        """The type without the ``PTL_EVENT_`` prefix: ``"PUT_END"``."""
        return self.type.removeprefix("PTL_EVENT_")


class Portals:
    """One host process's Portals network interface on a node (PtlNIInit).

    Get it from ``System.portals(node, pid=0, mode="generic")``.
    """

    MODES = ("generic", "accelerated")

    def __init__(self, system, node, pid=0, mode="generic"):
        if mode not in self.MODES:
            raise ValueError(f"mode must be 'generic' or 'accelerated', not {mode!r}")
        self._ni = _niclab.PortalsInterface(system, node, pid, mode == "accelerated")

    @property
    def mode(self):
        """``"generic"`` (the kernel driver) or ``"accelerated"`` (the node's accelerated process)."""
        return "accelerated" if self._ni.accelerated else "generic"

    @property
    def id(self):
        """This interface's process id ``(nid, pid)`` (PtlGetId)."""
        return (self._ni.nid, self._ni.pid)

    # ---- event queues
    def eq_alloc(self, count=64):
        """A new event queue of `count` slots (PtlEQAlloc); returns its handle."""
        return self._ni.eq_alloc(count)

    def eq_free(self, eq):
        self._ni.eq_free(eq)

    def eq_get(self, eq):
        """The next event of `eq`, or None when it is empty (PtlEQGet). ``Event.dropped``
        says older events were lost because the queue was full."""
        d = self._ni.eq_get(eq)
        return None if d is None else Event(**d)

    def events(self, eq):
        """Every event waiting in `eq`, oldest first."""
        out = []
        while (ev := self.eq_get(eq)) is not None:
            out.append(ev)
        return out

    # ---- match entries
    def me_attach(self, pt_index, match_bits=0, ignore_bits=0, source=ANY, unlink=False, position="after"):
        """A match entry on portal table entry `pt_index` (PtlMEAttach); ``position``
        ``"before"`` puts it at the head of the list. Returns its handle."""
        return self._ni.me_attach(pt_index, tuple(source), match_bits, ignore_bits, unlink, _after(position))

    def me_insert(self, base, match_bits=0, ignore_bits=0, source=ANY, unlink=False, position="after"):
        """A match entry before or after the entry `base` (PtlMEInsert)."""
        return self._ni.me_insert(base, tuple(source), match_bits, ignore_bits, unlink, _after(position))

    def me_unlink(self, me):
        self._ni.me_unlink(me)

    def match_list(self, pt_index):
        """The match entries of `pt_index`, in match order."""
        return self._ni.match_list(pt_index)

    # ---- memory descriptors
    def md_attach(self, me, start=0, length=0, options=OP_PUT, threshold=THRESH_INF, max_size=0, eq=None,
                  user_ptr=0, iov=None, unlink=False):
        """A memory descriptor on match entry `me` (PtlMDAttach). `iov`: a list of
        ``(address, length)`` regions instead of start/length. Returns its handle."""
        return self._ni.md_attach(me, start, length, options, threshold, max_size, _eq(eq), user_ptr,
                                  list(iov or []), unlink)

    def md_bind(self, start=0, length=0, options=0, threshold=THRESH_INF, max_size=0, eq=None, user_ptr=0,
                iov=None, unlink=False):
        """A free-floating memory descriptor for put and get (PtlMDBind)."""
        return self._ni.md_bind(start, length, options, threshold, max_size, _eq(eq), user_ptr, list(iov or []),
                                unlink)

    def md_unlink(self, md):
        self._ni.md_unlink(md)

    def md_state(self, md):
        """The MD's current fields (threshold, ...), as PtlMDUpdate reports them."""
        return self._ni.md_state(md)

    # ---- data movement (performed when the system runs)
    def put(self, md, target, pt_index, match_bits=0, remote_offset=0, ack=False, hdr_data=0, ac_index=0):
        """Send the whole of `md` to process ``target = (nid, pid)`` (PtlPut)."""
        self._ni.put(md, tuple(target), pt_index, match_bits, remote_offset, ack, hdr_data, ac_index)

    def get(self, md, target, pt_index, match_bits=0, remote_offset=0, ac_index=0):
        """Fetch ``len(md)`` bytes from ``target`` into `md` (PtlGet)."""
        self._ni.get(md, tuple(target), pt_index, match_bits, remote_offset, ac_index)

    @property
    def queued(self):
        """Puts and gets not yet performed (the system has not run far enough)."""
        return self._ni.queued

    @property
    def errors(self):
        """Errors of queued operations that failed when performed."""
        return list(self._ni.errors)

    # ---- inspection
    def status(self):
        """PtlNIStatus counters: drop_count, messages_in, messages_out."""
        return self._ni.status()

    def driver_counters(self):
        """Generic mode: the node's kernel driver (interrupts, firmware events, transmits,
        inline sends...). Accelerated: the process's own driver (events, matched,
        dropped, commands, polls, syscalls), and the node's kernel ``interrupts``."""
        return self._ni.driver_counters()

    def niccb(self):
        """The firmware's NIC control block: pool sizes, SRAM budget, counters."""
        return self._ni.niccb()


def _after(position):
    if position not in ("before", "after"):
        raise ValueError(f"position must be 'before' or 'after', not {position!r}")
    return position == "after"


def _eq(eq):
    return EQ_NONE if eq is None else eq
