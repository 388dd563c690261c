"""The StarT-X from Python: a node's JAM library (seed 002 §5-6) on a simulated cluster.

``System.jam(node)`` gives the JAM of one StarT-X node. Each call is performed by a host
process on that node, with what JAM costs there (PIO loads and stores timed by the
32-bit/33 MHz PCI bus model, driver calls as system calls, status-word polling), and
the simulation runs until that process has finished; then the call returns what it got
or raises. Messages really travel: payloads are bytes in the node's simulated host
memory, carried through the NIU's queues and the Arctic fat tree::

    s = niclab.System({"system": "startx", "nodes": 2})
    a, b = s.jam(0), s.jam(1)
    a.send(1, b"hello, StarT-X!!", priority="high")
    m = b.receive("high")
    m.payload, m.source, m.time_us

Sizes are bytes, times microseconds of simulated time (``time_us``, ``start_us``,
``end_us``), bandwidths MB/s (10^6 B/s). A StarT-X message carries 2 to 22 payload
words: 8 to 88 bytes, a multiple of 4. Priorities are ``"high"`` and ``"low"`` (the
Arctic's two virtual networks; VI and RDMA use high priority only).

A call that waits (``receive``, ``vi_receive``, ``rdma_wait``, a send into a full
queue) waits until what it waits for happens, or until nothing is left in the system
that could make it happen; then it raises (``EmptyQueueError``, ``RdmaError``,
``QueueOverflowError``). Errors are ``niclab.StartxError`` subclasses naming the node
and the offending value; the System stays usable after them.
"""

from dataclasses import dataclass

from . import _niclab
from .errors import UnknownPriorityError

PRIORITIES = ("high", "low")
MAX_PAYLOAD_BYTES = 88  # 22 words
MIN_PAYLOAD_BYTES = 8   # 2 words
PAYLOAD64_BYTES = 56    # a 64-byte (16-word) message: 2 header words + 14 payload words


def _priority(priority):
    if isinstance(priority, str):
        if priority in PRIORITIES:
            return PRIORITIES.index(priority)
        raise UnknownPriorityError(f"StarT-X priority {priority!r} is unknown: 'high' or 'low'")
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise UnknownPriorityError(f"StarT-X priority {priority!r} is unknown: 'high' or 'low'")
    return priority  # 0/1 as the header bit; anything else is refused by the C++ side


@dataclass(frozen=True)
class Message:
    """A received StarT-X message.

    ``payload`` (bytes, as they sit in the receiver's host memory at ``address``),
    ``source`` (the sender, from JAM's second header word), ``dst`` (the header's
    down-route), ``priority`` (``"high"``/``"low"``), ``random_up`` and ``up_route``
    (header fields), ``word1`` (the second header word), ``payload_words``, and
    ``time_us``: when the receiving call had the message in memory (us).
    """

    payload: bytes
    source: int
    dst: int
    priority: str
    random_up: bool
    up_route: int
    word1: int
    payload_words: int
    address: int
    time_us: float


@dataclass(frozen=True)
class Status:
    """The NIU's status word (seed 002 §5.1 L166), as one PIO read returned it.

    The four counts: ``tx_space_high``/``tx_space_low`` (messages each transmit queue
    guarantees to accept) and ``rx_high``/``rx_low`` (whole messages waiting in each
    receive queue, saturating at 16). Flags: ``tx_dma_busy``, ``vi_rx_armed``,
    ``vi_rx_exhausted``, ``rdma_window_open``, ``rdma_window_done``, ``rdma_tx_active``.
    ``word`` is the raw 32-bit value, ``time_us`` when the read completed.
    """

    tx_space_high: int
    tx_space_low: int
    rx_high: int
    rx_low: int
    tx_dma_busy: bool
    vi_rx_armed: bool
    vi_rx_exhausted: bool
    rdma_window_open: bool
    rdma_window_done: bool
    rdma_tx_active: bool
    word: int
    time_us: float

    def rx(self, priority):
        """Messages waiting in `priority`'s receive queue."""
        return self.rx_high if PRIORITIES[_priority(priority)] == "high" else self.rx_low

    def tx_space(self, priority):
        """Messages `priority`'s transmit queue will still accept."""
        return self.tx_space_high if PRIORITIES[_priority(priority)] == "high" else self.tx_space_low


class Jam:
    """JAM on one StarT-X node (seed 002 §6.1). Get it from ``System.jam(node)``.

    Sends return a dict of ``start_us``, ``end_us`` (simulated time of the call) and
    ``host_us`` (how long the host spent in it: the send overhead o_s), plus the host
    ``address`` of the buffer the data went from.
    """

    def __init__(self, system, node):
        self._jam = _niclab.JamNode(system, node)

    @property
    def node(self):
        """This node's id."""
        return self._jam.node

    @property
    def last_call(self):
        """``start_us``, ``end_us``, ``host_us`` of the last call's host process."""
        return self._jam.last_call

    # ---- PIO, generalized primitives (ldd/std, Table 1 rows a and b)
    def send(self, dst, payload, priority="high", random_up=False, word1=None):
        """Send one message of `payload` (bytes: 8..88, a multiple of 4) to node `dst`.

        The payload is written into host memory, then JAM stores the two header words
        and the payload with 8-byte stores into the transmit queue's page (merged into
        PCI bursts); the last word launches the message. `random_up` spreads the
        fat-tree up-route at random (no FIFO order). `word1`: the second header word
        (default: JAM's, naming this node as the sender). Returns the call's timing
        (``host_us`` = o_s, us). Raises MessageFormatError (e.g. a 23-word payload),
        UnknownPriorityError, QueueOverflowError (queue full and nothing drains it).
        """
        return self._jam.send(dst, bytes(payload), _priority(priority), bool(random_up), word1)

    def receive(self, priority="high", wait=True):
        """The next message of `priority`'s receive queue, as a ``Message``.

        JAM polls the status word (PIO reads, 1.03 us each on the E5000) until a message
        waits, then reads it with 8-byte loads into a host buffer. ``wait=False`` reads
        the status word once and raises EmptyQueueError if nothing waits; with
        ``wait=True`` EmptyQueueError means nothing arrived and nothing in the system
        was left to bring a message.
        """
        return Message(**self._jam.receive(_priority(priority), bool(wait)))

    # ---- PIO, 64-byte primitives (ldda/stda, Table 1 row c)
    def send64(self, dst, payload, priority="high", random_up=False, word1=None):
        """Send one 64-byte message (16 words: header + `payload` of exactly 56 bytes)
        with a single 64-byte store (stda) from a 64-byte aligned host buffer.
        Returns the call's timing (us). MessageFormatError for any other payload size."""
        return self._jam.send64(dst, bytes(payload), _priority(priority), bool(random_up), word1)

    def receive64(self, priority="high", wait=True):
        """The next message with one 64-byte load (ldda); it must be a 16-word message
        (MessageFormatError otherwise). EmptyQueueError as ``receive``."""
        return Message(**self._jam.receive64(_priority(priority), bool(wait)))

    # ---- the status word
    def status(self):
        """Read the status word (one PIO read, about 1 us): a ``Status`` with the four
        queue counts and the DMA flags."""
        return Status(**self._jam.status())

    # ---- VI (seed 002 §5.2)
    def vi_arm(self, size=4096, base=None):
        """Arm VI receive: zero a host buffer of `size` bytes (at `base`, or a fresh one)
        and have the RX DMA write arriving high-priority messages into it, back to back.
        The call ends with a status read, which flushes the driver's posted stores, so
        the engine is armed when it returns. Returns the buffer's host address.
        DriverError for a size below 96 bytes;
        RdmaError while an RDMA window is open."""
        return self._jam.vi_arm(int(size), base)

    def vi_receive(self, wait=True):
        """The next message the RX DMA wrote into the VI buffer (read from cached host
        memory, no PIO), as a ``Message``; its words are zeroed again afterwards.
        ``wait=False`` returns None when none is there; ``wait=True`` waits (raising
        EmptyQueueError when nothing is left to bring one). DriverError if not armed."""
        d = self._jam.vi_receive(bool(wait))
        return None if d is None else Message(**d)

    def vi_send(self, dst, payloads, word1=None):
        """Send a batch of high-priority messages by VI: the messages (each payload 8..88
        bytes) are composed in pinned host memory, one driver call starts the TX DMA,
        and the call returns when the DMA has read the whole batch. Returns timing
        (us), ``bytes`` of the batch and its ``address``."""
        return self._jam.vi_send(dst, [bytes(p) for p in payloads], word1)

    # ---- RDMA (seed 002 §5.3)
    def open_window(self, size, sender, base=None):
        """Open an RDMA window of `size` bytes for node `sender` (a driver call) at
        `base` or a fresh host buffer; returns its address. A status read at the end
        flushes the driver's posted stores, so the window is open on return. It closes itself
        when full. RdmaError while VI receive is armed or a window is open."""
        return self._jam.open_window(int(size), int(sender), base)

    def rdma_send(self, dst, data, word1=None):
        """Stream `data` (bytes, a multiple of 4) by RDMA into the window node `dst`
        opened for this node: the two header registers are stored, a driver call
        starts the TX DMA, and the call returns when the DMA has read all of `data`
        (``host_us``, us). RdmaError when `dst` opened no window, opened it for
        another node, or has no room for `data` — named before anything is sent."""
        return self._jam.rdma_send(dst, bytes(data), word1)

    def rdma_wait(self):
        """Wait until the open RDMA window has filled (the NIU closes it; one status read
        sees it). Returns timing, ``data`` (the window's bytes), ``address``, ``sender``.
        RdmaError if nothing is left in the system to fill it."""
        return self._jam.rdma_wait()

    # ---- JAM RPC (seed 002 §6.2)
    def rpc(self, dst, handler, data=b"", tag=0):
        """JAM_rpc: launch handler `handler` (0..255) on `dst` with `data` as argument.
        Up to the library's threshold (1 KB) it goes as low-priority PIO messages; larger
        arguments take the exclusive-access RDMA protocol, which needs both nodes to
        ``rpc_poll`` (the receiver grants, the sender then streams). Returns timing and
        ``path`` (``"pio"`` or ``"rdma"``)."""
        return self._jam.rpc(dst, handler, bytes(data), tag)

    def rpc_poll(self, wait=True):
        """JAM_poll: one pass over the network (with ``wait``, after polling until there
        is something to do). Returns ``calls``: the calls whose handlers ran, each a dict
        of source, handler, tag, data (bytes), address, time_us; ``did`` (things done)
        and ``idle`` (no outgoing RDMA call pending)."""
        return self._jam.rpc_poll(bool(wait))

    # ---- counters
    def counters(self):
        """JAM's counters (``jam``: status_reads, messages_sent, messages_received,
        driver_calls, blocked_polls) and the NIU's (``niu``: messages launched,
        injected, accepted, refused per priority; words written/read by PIO, status
        reads, VI messages, RDMA bytes sent/received, interrupts, CRC errors)."""
        return self._jam.counters()
