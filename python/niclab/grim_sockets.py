"""GRIM's sockets emulation (seed 004 §8.3) from Python: reliable byte-stream
connections between two nodes' endpoints, carried by active messages.

    >>> s = niclab.System({"preset": "grim-lanai4", "nodes": 2, "firmware": "grim"})
    >>> a, b = s.grim(0).sockets(), s.grim(1).sockets()
    >>> fb = b.connect(0, 7)          # the request is on its way (Python runs one node at a time)
    >>> fa = a.accept(7)              # node 0 takes it and answers
    >>> b.write(fb, b"hello")         # AMs of up to the fragment size; node 0's handler
    >>> a.read(fa, 5)                 # copies each into a new block, read copies out
    b'hello'
    >>> a.read_exactly(fa, 5)         # blocks until 5 bytes are there (fails if none will come)

Each call is a host process on the node with the emulation's costs (its calls, a block
and a copy per fragment, the read's copy, on top of GRIM's own). A bad socket, port,
node or size raises ``niclab.GrimSocketError`` naming the node and the socket (``fd``).
"""

from . import _niclab

__all__ = ["Sockets"]


class Sockets:
    """The sockets emulation of one node's GRIM endpoint."""

    def __init__(self, system, node):
        self._s = _niclab.GrimSockets(system, node)

    @property
    def node(self):
        return self._s.node

    def connect(self, node, port):
        """Ask `port` on `node` for a connection; returns this side's socket (an fd).
        Does not wait for the server's ``accept``: writes may follow at once."""
        return self._s.connect(node, port)

    def accept(self, port):
        """Take the next connection request for `port` (polling until one has come) and
        answer it; returns the server's socket."""
        return self._s.accept(port)

    def write(self, fd, data):
        """Send `data` on socket `fd` (active messages of up to the endpoint's fragment size)."""
        self._s.write(fd, bytes(data))

    def read(self, fd, max_bytes):
        """Up to `max_bytes` that have arrived on `fd` (waiting until at least one has);
        ``b""`` once the peer has closed and everything is read."""
        return self._s.read(fd, max_bytes, False)

    def read_exactly(self, fd, nbytes):
        """Exactly `nbytes` from `fd` (a loop of reads); GrimSocketError if the peer closes first."""
        return self._s.read(fd, nbytes, True)

    def available(self, fd):
        """Bytes buffered for `fd` now (what the handlers have appended, without polling)."""
        return self._s.available(fd)

    def close(self, fd):
        """Close `fd`: the peer's reads return ``b""`` once its buffer is drained."""
        self._s.close(fd)

    def stats(self):
        """Blocks allocated by the handler (one per fragment), bytes in, fragments sent."""
        return self._s.stats()

    def __repr__(self):
        return f"<niclab.grim_sockets.Sockets node {self.node}>"
