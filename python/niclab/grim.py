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

Sockets over active messages (§8.3): ``a.sockets()`` (``niclab.grim_sockets``).

An address the target has not registered raises ``niclab.GrimMemoryError`` (at the call
for local ones, at the next ``poll``/``wait`` for remote ones); nothing is written.
"""

from . import _niclab

__all__ = ["Endpoint", "Multicast"]


class Endpoint:
    """The GRIM endpoint on logical channel `lc` of one node (§4.3: each endpoint owns
    its LC; a node has ``grim.lcs`` of them, LC 0 by default)."""

    def __init__(self, system, node, lc=0):
        self._n = _niclab.GrimNode(system, node, lc)
        self._system, self._sockets = system, None

    @property
    def node(self):
        return self._n.node

    @property
    def lc(self):
        return self._n.lc

    def resent(self):
        """Messages of this endpoint's LC the NI sent again (a NACK, a lost message or
        the timer rolled its channel back); the node's totals are in ``counters()``."""
        return self._n.resent()

    def handler(self, name):
        """Register active-message handler `name` (grim_register_handler); arrivals for it
        are collected and returned by ``poll`` and ``wait``. Returns its id."""
        return self._n.handler(name)

    def am_send(self, dst, name, args=(), data=b"", lc=0):
        """Send an active message of up to 64,572 bytes (less with many LCs: half this
        LC's send queue) to handler `name` of the endpoint on LC `lc` of node `dst` with
        up to four 32-bit arguments. Ordered only with this endpoint's earlier messages
        to the same LC (§4.3.2)."""
        self._n.am_send(dst, name, list(args), bytes(data), lc)

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

    @property
    def multicast(self):
        """This node's multicast calls (``Multicast``: find_tree, subscribe, send_mc, ...)."""
        if getattr(self, "_mc", None) is None:
            self._mc = Multicast(self._system, self.node)
        return self._mc

    # Tables C.8-C.9 by their names on the endpoint (``multicast`` has the rest).
    def find_multicast_tree(self, name):
        """grim_findMulticastTree (``Multicast.find_tree``)."""
        return self.multicast.find_tree(name)

    def subscribe_multicast(self, tree, channels=1):
        """grim_subscribeMulticast (``Multicast.subscribe``)."""
        return self.multicast.subscribe(tree, channels)

    def unsubscribe_multicast(self, tree, channels=1):
        """grim_unsubscribeMulticast (``Multicast.unsubscribe``)."""
        self.multicast.unsubscribe(tree, channels)

    def send_mc(self, tree, handler, args=(), data=b""):
        """grim_sendMC (``Multicast.send_mc``)."""
        self.multicast.send_mc(tree, handler, args, data)

    def broadcast(self, handler, args=(), data=b""):
        """grim_broadcast (``Multicast.broadcast``)."""
        self.multicast.broadcast(handler, args, data)

    def sockets(self):
        """This endpoint's sockets emulation (seed 004 §8.3): ``niclab.grim_sockets.Sockets``."""
        if self._sockets is None:
            from .grim_sockets import Sockets
            self._sockets = Sockets(self._system, self.node)
        return self._sockets

    def counters(self):
        """The NI firmware's counters (sent, retransmits, received, acks, nacks, ...)."""
        return self._n.counters()

    def __repr__(self):
        return f"<niclab.grim.Endpoint node {self.node}>"


class Multicast:
    """A node's GRIM multicast calls (seed 004 §8.1, App. C.6 Tables C.8-C.9), from
    ``System.grim(node).multicast``. Trees are named; the first node to look a name up
    owns the tree. Subscribers give a Boolean mask of their logical channels (this
    library's endpoint is LC 0: mask 1). The tree is the binary heap of the subscribed
    NIs in ascending id order (ancestors have smaller ids, §8.1.3); the NIs replicate
    each message and deliver it as an active message to the subscribed endpoints,
    where ``Endpoint.poll``/``wait`` collect it.

        >>> g = s.grim(0).multicast.find_tree("news")
        >>> for n in (1, 2, 3): s.grim(n).multicast.subscribe(g)
        >>> s.grim(0).multicast.send_mc(g, "hello", [7], b"to all")   # injected once
        >>> s.grim(3).wait(1)[0]["data"]
        b'to all'

    A tree id nobody found or a mask of channels the node has not raises
    ``niclab.GrimMulticastError`` (its ``key`` names the argument).
    """

    def __init__(self, system, node):
        self._m = _niclab.GrimMulticast(system, node)

    def find_tree(self, name):
        """grim_findMulticastTree: the tree's id (0..255), made at the first look-up."""
        return self._m.find_tree(name)

    def subscribe(self, tree, channels=1):
        """grim_subscribeMulticast: this node's LCs in `channels` join `tree`; returns once
        the in-band tree update has reached every NI of the new tree."""
        return self._m.subscribe(tree, channels)

    def subscribe_by_name(self, name, channels=1):
        """grim_subscribeMulticastByName; returns the tree's id."""
        return self._m.subscribe_by_name(name, channels)

    def unsubscribe(self, tree, channels=1):
        """grim_unsubscribeMulticast."""
        self._m.unsubscribe(tree, channels)

    def send_mc(self, tree, handler, args=(), data=b""):
        """grim_sendMC: active message `handler` with up to four arguments and up to
        16 MB (bytes) to every subscriber of `tree`, injected once. Up to 64,572 B it is
        one GRIM message; larger, the library sends an init, body and final fragments of
        the endpoint's fragment size (63 KB on ``grim``) and every subscriber's library
        reassembles them before the handler sees the whole message (seed 004 §8.2.3).
        Too large: ``GrimMulticastError`` with key ``"bytes"``."""
        self._m.send_mc(tree, handler, list(args), bytes(data))

    def broadcast(self, handler, args=(), data=b""):
        """grim_broadcast: to LC 0 of every node, the sender's included."""
        self._m.broadcast(handler, list(args), bytes(data))

    def tree(self, tree):
        """The tree's NIs as last updated, ascending (heap order: entry i's children are
        entries 2i+1 and 2i+2)."""
        return self._m.tree(tree)

    def table(self, tree):
        """This NI's table for `tree` (epoch, member, root, channels, expected_ticket,
        children), read from the firmware."""
        return self._m.table(tree)
