"""Typed errors raised by niclab.

Each names what is wrong: a ConfigError its key path, a FirmwareImageError the
validation rule the ELF broke, a FirmwareFault the PC with its function and source
line, the cause and the faulting address.
"""


class NiclabError(Exception):
    """Base class of every niclab error."""


class ConfigError(NiclabError, ValueError):
    """A system spec or parameter override that cannot be used.

    Attributes: ``key_path`` (e.g. ``"set.core.clock_mhz"``).
    """

    key_path = ""


class FirmwareImageError(NiclabError):
    """A firmware ELF that may not be loaded.

    Attributes: ``rule`` (e.g. ``"machine"``, ``"segment-outside-sram"``).
    """

    rule = ""


class FirmwareNotFound(FirmwareImageError, FileNotFoundError):
    """No image of that name or path; the message lists the images there are.
    ``rule`` is ``"not-found"``."""

    rule = "not-found"


class FirmwareBuildError(NiclabError):
    """A firmware image that could not be built: a missing source, a bad name, a
    missing tool, or the compiler's and linker's own messages (file:line: error)."""


class FirmwareFault(NiclabError):
    """The firmware stopped its NIC: an unhandled trap, a double fault, the watchdog,
    or a firmware panic (``kind == "firmware panic"``, e.g. resource exhaustion).

    Attributes: ``kind``, ``pc``, ``mcause``, ``cause`` (text), ``tval`` (faulting
    address or instruction bits), ``where`` (``"function+0xoff (file.c:line)"``),
    ``time_us`` (simulated time of the fault, microseconds) and ``reason`` (a
    panic's own words).
    """

    kind = ""
    pc = 0
    mcause = 0
    cause = ""
    tval = 0
    where = ""
    time_us = 0.0
    reason = ""


class BootTimeout(FirmwareFault):
    """The firmware did not set its running flag within the boot timeout."""


class PortalsError(NiclabError):
    """A Portals 3.3 call failed. Attributes: ``code`` (the specification's return
    code, e.g. ``"PTL_MD_INVALID"``)."""

    code = ""


class TraceError(NiclabError):
    """A firmware trace that cannot be read: no trace ring in the firmware, a bad ring descriptor."""


class TraceFormatError(TraceError):
    """A trace file that is truncated or corrupt (traces/FORMAT.md).

    Attributes: ``offset`` (byte offset in the file where the problem was found).
    """

    offset = 0


class TraceBuildIdMismatch(TraceError):
    """The firmware ELF offered for decoding a trace is not the build that recorded it.

    Attributes: ``trace_build_id`` (recorded in the trace), ``elf_build_id`` (of the ELF).
    """

    trace_build_id = ""
    elf_build_id = ""


class ExperimentError(NiclabError, ValueError):
    """An experiment that cannot be run as asked: an unknown experiment (the message
    lists the registered ones), an unknown or ill-typed option (named by its key), a
    client/server pair the system does not have, or a run that failed (a Portals error,
    a payload that arrived corrupted, a faulted NIC), naming the node."""


class ExperimentFault(ExperimentError, FirmwareFault):
    """A firmware fault stopped a NIC during an experiment. It is a FirmwareFault (``pc``,
    ``where``, ``cause``, ``tval``, ``time_us``, ``kind``, ``reason``) and an
    ExperimentError; ``node`` is the NIC that faulted and ``result`` the ``Result`` as
    far as the run got: the points measured before the fault (``stopped`` is True) and
    the observations asked for (``trace=True`` shows what led up to it)."""

    node = 0
    result = None


class FitError(NiclabError, ValueError):
    """Data a model cannot be fitted to, naming the function and the problem: too few
    points, equal sizes, a non-finite value, a time that does not grow with size, a
    signature without a d = 0 curve or with no delay above the gap."""


class ResultError(NiclabError, ValueError):
    """A result that cannot be read or used as asked: a JSON file missing a key (named),
    an unknown column (the message lists the columns there are), a row of the wrong width."""


class StartxError(NiclabError):
    """A StarT-X NIU or JAM operation that cannot be done (seed 002 §5); the message names
    the node and the offending value. The subclasses say which rule was broken."""


class MessageFormatError(StartxError, ValueError):
    """A malformed StarT-X message: a payload outside 2..22 words (8..88 bytes, e.g. a
    23-word message), a payload that is not whole 32-bit words, a destination the system
    does not have, a 64-byte primitive given a message that is not 16 words."""


class UnknownPriorityError(StartxError, ValueError):
    """A priority that is neither ``"high"`` nor ``"low"``."""


class QueueOverflowError(StartxError):
    """A write into a full transmit queue, or a send that found its queue full with nothing
    left in the system to drain it."""


class EmptyQueueError(StartxError):
    """A read of a receive queue that holds no message (or, for a waiting receive, no
    message arrived and nothing in the system was left to bring one)."""


class RdmaError(StartxError):
    """A violation of the RDMA rules (seed 002 §5.3): RDMA into a window the receiver did
    not open, or opened for another sender, or too small; random up-route; VI or
    high-priority PIO traffic while RDMA owns the high-priority path; a second RDMA."""


class DriverError(StartxError):
    """Misuse of a StarT-X driver operation: VI receive not armed, a VI batch ending inside
    a message, a DMA region that is not word aligned, a bad handler index."""


class GdbServerError(NiclabError, OSError):
    """A GDB server that cannot be started: its port is in use or may not be opened.

    Attributes: ``port`` (the port asked for; 0 means any free one).
    """

    port = 0


class DsnicError(NiclabError):
    """The DSNIC's driver or CSP library refused a call or found a protocol violation:
    a channel not open, a virtual link opened twice, a send nothing acknowledges, a
    receive nothing will satisfy."""


class GrimSocketError(NiclabError):
    """A call of GRIM's sockets emulation (seed 004 §8.3) on a socket that is unknown or
    closed, with a bad port, node or size, or that cannot complete (the peer closed
    first, or nothing will come).

    Attributes: ``node`` (where the call was made) and ``fd`` (the socket; -1 when the
    error is about no one socket).
    """

    node = 0
    fd = -1


class GrimMemoryError(NiclabError):
    """GRIM remote memory (seed 004 §4.5) named memory that is not registered: a local
    source or destination at the call, or a remote address the target's NI refused
    (nothing was written there).

    Attributes: ``node`` (whose memory the address names) and ``va`` (the address).
    """

    node = 0
    va = 0


class GrimDeliveryError(NiclabError):
    """A GRIM message its NI gave up: the target NI answered none of ``grim.resend_limit``
    retransmissions (link errors, ``net.bit_errors_per_1e15``, or a dead node); raised at
    the sender's next poll or wait.

    Attributes: ``node`` (the target) and ``type`` (the message's GRIM_T_* code).
    """

    node = 0
    type = 0


class GrimMulticastError(NiclabError, ValueError):
    """A GRIM multicast call (seed 004 §8.1, Tables C.8-C.9) refused: a tree id nobody
    found, a channel mask naming logical channels the node has not, an empty name.

    Attributes: ``key`` (the argument at fault: ``"multicast id"``, ``"channels"`` or
    ``"name"``).
    """

    key = ""


class CaptureError(NiclabError, ValueError):
    """A packet capture that cannot be made or written: a tap on a node or link the
    system does not have (the message gives the ids there are), a node or link tapped
    twice, a system of one node (no network), a second capture while one is open, a
    file that cannot be created or written.

    Attributes: ``tap`` (the bad tap, e.g. ``"node 7"`` or ``"link 99"``, else ``""``)
    and ``path`` (the capture file).
    """

    tap = ""
    path = ""

    def __init__(self, message="", *, tap="", path=""):
        super().__init__(message)
        self.tap = tap
        self.path = path


class HostResourceError(NiclabError, MemoryError):
    """The machine running the simulation could not give what the model asked of it: a
    host process's stack. Stacks come from one arena in a few memory mappings where the
    kernel has guard regions (Linux 6.13 and later); on older kernels each takes two of
    the kernel's memory mappings (its limit, vm.max_map_count, is 65,530 by default:
    some 32,000 host processes). The message names the node, the process and which
    resource ran out.

    Also a NIC's simulated memory (its SRAM, a receive engine's buffers) that the
    machine cannot map: the message then names the node and the memory."""


class SystemBusy(NiclabError, RuntimeError):
    """A System reached from one thread while another thread runs it: the System, its
    NICs, host memory, host libraries (Portals, JAM, CSP, GRIM) or GDB server, or a
    second run (a run releases the GIL, and the simulation's state is its own). A host
    library's call, a firmware load and a GDB session run the system too. Use it from
    that run's observer, or once the run has returned.

    Attributes: ``operation``, the class and method refused (e.g. ``"Nic.peek32"``,
    ``"HostMemory.read"``, ``"System.run_until_ps"``, ``"JamNode.send"``).
    """

    operation = ""
