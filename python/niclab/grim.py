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
