"""CSP channels on the CERN DSNIC from Python (seed 003 §5, Table 1).

    >>> s = niclab.System({"system": "dsnic", "nodes": 2, "set": {"dsnic.packet_bytes": 1024}})
    >>> a, b = s.csp(0), s.csp(1)
    >>> a.open(1); b.open(0)                       # virtual link 0 between the two nodes
    >>> a.send(1, b"hello")                        # blocking: returns once node 1 has it all
    >>> b.recv(0)["data"]
    b'hello'

Each call is a host process on the node making the driver's system calls (with their
costs: system call, PIO to the S5933, descheduling while it waits) while the simulation
runs; the receiving node's interrupt handler does the packet work on its own. Times
come back as ``start_us``, ``end_us`` and ``host_us`` (the call's duration). A call that
waits for what nothing in the system will bring (a receive with no sender, a send to a
node that never opened the link) raises DsnicError instead of hanging.
"""

from . import _niclab

__all__ = ["Csp"]

_MODES = ("sync", "async", "buffered")


class Csp:
    """The CSP library of one DSNIC node. Channels are virtual links (peer, vl), opened
    at both ends with ``open``; ``vl`` is 0..63."""

    def __init__(self, system, node):
        self._n = _niclab.CspNode(system, node)

    @property
    def node(self):
        return self._n.node

    def open(self, peer, vl=0, capacity=65536):
        """Open virtual link `vl` to `peer` with a receive buffer of `capacity` bytes (the
        largest message it takes; rounded up to whole packets). Returns the call's times."""
        self._n.open(peer, vl, capacity)
        return self._n.last_call

    def send(self, peer, data, vl=0, mode="sync", tag=0):
        """Send `data` (bytes) on the link: ``mode="sync"`` blocks until the receiver
        acknowledged all of it (an occam output), ``"async"`` returns at once (finish
        it with ``wait``), ``"buffered"`` copies it into the kernel buffer and returns."""
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {', '.join(_MODES)}, not {mode!r}")
        return self._n.send(peer, vl, bytes(data), mode, tag)

    def wait(self, peer, vl=0):
        """Block until every send on the link is acknowledged."""
        return self._n.wait(peer, vl)

    def recv(self, peer, vl=0):
        """The next message on the link (blocks): dict of data, bytes, tag and the times."""
        return self._n.recv(peer, vl)

    def probe(self, peer, vl=0):
        """Whether ``recv`` would return at once (one system call)."""
        return self._n.probe(peer, vl)

    def alt(self, channels):
        """Active channel selection (occam's PRI ALT): block until one of `channels`
        (a list of (peer, vl)) has a message; its index in the list. ``recv`` takes it."""
        return self._n.alt([tuple(c) for c in channels])

    def __repr__(self):
        return f"<niclab.dsnic.Csp node {self.node}>"
