"""GRIM endpoints on Myrinet from Python (seed 004 §4.4-4.5).

    >>> s = niclab.System({"preset": "grim-lanai9", "nodes": 2, "firmware": "grim"})
    >>> a, b = s.grim(0), s.grim(1)
    >>> a.handler("hello"); b.handler("hello")     # same names in the same order: same ids
    >>> a.am_send(1, "hello", [1, 2], b"payload")  # PIO into the NI; the NI does the rest
    >>> b.wait(1)[0]["data"]
    b'payload'

Each call is a host process on the node (with the library's costs: PIO stores to the
card, polling) while the simulation runs. ``rm_write_p`` writes another node's host
memory by physical address (RM-P, §4.5.3), then a notification word; read it with
``System.host_memory(node)``.

Remote memory by virtual address (§4.5.1-4.5.5) uses registered memory:

    >>> buf = a.malloc_pinned(4096); b.malloc_pinned(4096)   # same order: same addresses
    >>> a.write(buf, b"hello")
    >>> a.rm_write_v(1, buf, buf, 5)         # RM-V: node 1's NI translates and writes
    >>> lock = a.malloc_pinned(4); a.write(lock, b"\x01\0\0\0")
    >>> a.rm_read(1, buf, buf, 5, lock)      # RM-RV: the reply lands, then the lock is zeroed
    >>> a.wait_word(lock, 0)

An address the target has not registered raises ``niclab.GrimMemoryError`` (at the call
for local ones, at the next ``poll``/``wait`` for remote ones); nothing is written.
"""

from . import _niclab

__all__ = ["Endpoint"]


class Endpoint:
    """The GRIM endpoint (logical channel 0) of one node."""

    def __init__(self, system, node):
        self._n = _niclab.GrimNode(system, node)

    @property
    def node(self):
        return self._n.node

    def handler(self, name):
        """Register active-message handler `name` (grim_register_handler); arrivals for it
        are collected and returned by ``poll`` and ``wait``. Returns its id."""
        return self._n.handler(name)

    def am_send(self, dst, name, args=(), data=b""):
        """Send an active message of up to 64,572 bytes to handler `name` on node `dst`
        with up to four 32-bit arguments."""
        self._n.am_send(dst, name, list(args), bytes(data))

    def rm_write_p(self, dst, remote, data, notify=0, value=0):
        """Write `data` to host physical address `remote` of node `dst`, then `value` to its
        word at `notify` (0: no notification)."""
        self._n.rm_write_p(dst, remote, bytes(data), notify, value)

    def malloc_pinned(self, nbytes):
        """grim_malloc_pinned: `nbytes` of physically contiguous registered memory (the NI
        has a static translation entry for its 4 MB block); returns its virtual address."""
        return self._n.malloc_pinned(nbytes)

    def pin_pages(self, nbytes):
        """`nbytes` of user memory pinned page by page (physically scattered: the NI
        translates it on demand through the driver's interrupt); its virtual address."""
        return self._n.pin_pages(nbytes)

    def pa(self, va):
        """grim_get_pinned_pa: the physical address of registered virtual address `va`."""
        return self._n.pa(va)

    def write(self, va, data):
        """Store `data` into this node's registered memory at `va` (the process's own stores)."""
        self._n.write(va, bytes(data))

    def read(self, va, nbytes):
        """Load `nbytes` of this node's registered memory at `va`."""
        return self._n.read(va, nbytes)

    def rm_write_v(self, dst, remote, src, nbytes, notify=0, value=0):
        """RM-V (grim_sendMemory): `nbytes` (up to 64,572) from registered `src` here to
        virtual `remote` on node `dst`, then `value` to its word at `notify` (0: none)."""
        self._n.rm_write_v(dst, remote, src, nbytes, notify, value)

    def rm_read(self, dst, remote, local, nbytes, lock=0):
        """RM-RV (grim_fetchMemory): `nbytes` from virtual `remote` on node `dst` into
        registered `local` here; the NI writes zero to the word at `lock` when done."""
        self._n.rm_read(dst, remote, local, nbytes, lock)

    def wait_word(self, va, value):
        """Poll until the registered word at `va` holds `value`."""
        self._n.wait_word(va, value)

    def interrupts(self):
        """Interrupts the driver's translation ISR has taken (one per translation miss)."""
        return self._n.interrupts()

    def poll(self):
        """One grim_poll: the active messages that had arrived, as dicts (src, handler,
        args, data)."""
        return self._n.poll()

    def wait(self, count=1):
        """Poll until `count` active messages have arrived; returns them."""
        return self._n.wait(count)

    def counters(self):
        """The NI firmware's counters (sent, retransmits, received, acks, nacks, ...)."""
        return self._n.counters()

    def __repr__(self):
        return f"<niclab.grim.Endpoint node {self.node}>"
