"""Simulated clusters: ``System`` built from a spec (dict, TOML file or preset name)."""

import os
import tomllib
from collections.abc import Mapping

from . import _niclab
from .errors import ConfigError
from .firmware import resolve

_PS_PER_US = 1_000_000


def _spec_with_resolved_firmware(spec):
    spec = dict(spec)
    fw = spec.get("firmware")
    if isinstance(fw, (str, os.PathLike)):
        spec["firmware"] = str(resolve(fw))
    elif isinstance(fw, (list, tuple)):
        spec["firmware"] = [str(resolve(f)) for f in fw]
    return spec


class System:
    """A simulated cluster: per node a host memory and a NIC running firmware.

    ``spec`` keys: ``preset`` (str), ``nodes`` (int), ``seed`` (int), ``set``
    (parameter overrides, flat ``{"core.clock_mhz": 400}`` or nested), ``firmware``
    (one path/example name for all nodes, or one per node). Unknown keys and wrong
    types raise ConfigError naming the key path.
    """

    def __init__(self, spec=None, **kwargs):
        if spec is not None and not isinstance(spec, Mapping):
            raise ConfigError(f"spec: expected a mapping of keys (preset, nodes, seed, set, ...), "
                              f"not {type(spec).__name__}")
        spec = dict(spec or {})
        spec.update(kwargs)
        capture = spec.get("capture")  # paths as text; the core checks the rest (ConfigError)
        if isinstance(capture, os.PathLike):
            spec["capture"] = os.fspath(capture)
        elif isinstance(capture, Mapping) and isinstance(capture.get("file"), os.PathLike):
            spec["capture"] = {**capture, "file": os.fspath(capture["file"])}
        self._sys = _niclab.System(_spec_with_resolved_firmware(spec))
        self._portals = {}
        self._jam = {}
        self._csp = {}
        self._grim = {}
        self._capture = None
        status = self._sys.capture_status()  # a spec with "capture" opened one
        if status is not None:
            from .capture import Capture
            self._capture = Capture(self, status["path"], status["interfaces"])

    @classmethod
    def from_preset(cls, name="seastar", nodes=1, **kwargs):
        """A system of `nodes` nodes of preset `name`; kwargs as in the spec."""
        return cls({"preset": name, "nodes": nodes, **kwargs})

    @classmethod
    def from_toml(cls, path):
        """A system from a TOML file holding the spec's keys."""
        with open(path, "rb") as f:
            try:
                spec = tomllib.load(f)
            except tomllib.TOMLDecodeError as e:
                raise ConfigError(f"{path}: {e}") from e
        return cls(spec)

    @property
    def spec(self):
        """The spec this system was built from (dict)."""
        return self._sys.spec

    @property
    def nodes(self):
        """Number of nodes."""
        return self._sys.node_count

    @property
    def nics(self):
        """The NICs, indexed by node id."""
        return [self._sys.nic(i) for i in range(self._sys.node_count)]

    def nic(self, node):
        """The NIC of node `node`."""
        return self._sys.nic(node)

    def host_memory(self, node):
        """The host memory of node `node` (``read(addr, n)``, ``write(addr, data)``)."""
        return self._sys.host_memory(node)

    @property
    def now_us(self):
        """Simulated time, microseconds."""
        return self._sys.now_us

    def parameters(self):
        """The preset's parameters after overrides: dicts of key, value, unit, source."""
        return self._sys.parameters()

    def run(self, until_us=None, *, for_us=None, observer=None, interval_us=100.0):
        """Run the simulation.

        Runs until simulated time `until_us`, or for `for_us` more microseconds, or
        (neither given) until nothing is left to do. The GIL is released while
        running; another thread that uses this system meanwhile (its NICs, host
        memory, host libraries, or a second run) gets a SystemBusy error (a
        RuntimeError naming the operation); the observer, on the run's own thread,
        may use them all.
        `observer(now_us)` is called every `interval_us` of simulated time;
        returning False stops the run early (it can be resumed). Ctrl-C stops it too.
        Returns a dict: reached_us, stopped, faulted_nodes, dead_nodes (marked by RAS).
        """
        if until_us is not None and for_us is not None:
            raise ValueError("give until_us or for_us, not both")
        if for_us is not None:
            until_ps = self._sys.now_ps + int(round(for_us * _PS_PER_US))
        elif until_us is not None:
            until_ps = int(round(until_us * _PS_PER_US))
        else:
            until_ps = 2**63 - 1
        return self._sys.run_until_ps(until_ps, observer, interval_us)

    def fault(self, node):
        """Why node `node`'s NIC stopped on an error it detected itself (a firmware
        fault's report, a fixed-function NIU's protocol violation), or None."""
        return self._sys.fault_report(node)

    def dead(self, node):
        """True if RAS marked `node`'s NIC dead (its heartbeat stopped; ras.heartbeat_timeout_us)."""
        return self._sys.dead(node)

    def dead_reason(self, node):
        """Why RAS marked `node` dead, or None."""
        return self._sys.dead_reason(node)

    def host_cpu_times(self, node):
        """CPU accounting of `node`'s host, microseconds: elapsed, user, system, interrupt, idle; interrupts."""
        return self._sys.host_cpu_times(node)

    def network_stats(self):
        """Packets and bytes injected/delivered, link retries, latency (ns); None for one node."""
        return self._sys.network_stats()

    def capture(self, path, nodes=None, links=None):
        """Capture packets to the pcapng file `path` (a ``niclab.capture.Capture``).

        Taps: `nodes` (node ids: each node's NIC cables, both directions, one pcapng
        interface per node; packets outbound when the NIC hands them to the network,
        inbound when their last byte is in its receive buffer) and `links` (link ids,
        see ``links()``: every packet that goes onto the cable, when its first byte
        does); neither given: every node. Timestamps are simulated time in ns. Read
        the file with niclab's Wireshark dissector (``niclab.capture.dissector_path()``).
        Also a context manager: ``with s.capture("run.pcapng", nodes=[0]): s.run()``.
        CaptureError names an unknown node or link (with the ids there are), a system
        of one node, a second capture while one is open, or a file that cannot be written.
        """
        from .capture import Capture, normalize_taps
        path, nodes, links = normalize_taps(path, nodes, links)
        self._sys.start_capture(path, nodes, links)
        self._capture = Capture(self, path, self._sys.capture_status()["interfaces"])
        return self._capture

    def links(self):
        """What each network link joins, indexed by link id (list of str such as
        ``"router 0 port 2 -> router 1 port 0"``; empty for one node): the ids a
        capture's `links` take."""
        return list(self._sys.links())

    def portals(self, node, pid=0, mode="generic"):
        """The Portals 3.3 interface of process `pid` on `node` (``niclab.portals.Portals``).

        The node must run the Portals firmware (``firmware="portals"`` or an option
        image such as ``"portals_novsmall"``). ``mode="accelerated"``: the node's
        accelerated process (one per node), on an image built with one
        (``"portals_accel"``); niclab.NiclabError names the firmware otherwise. One
        interface per (node, pid, mode); after a firmware reload the next call gives a
        fresh one (the old one refuses work)."""
        from .portals import Portals
        key, loads = (node, pid, mode), self._sys.nic(node).loads
        if key not in self._portals or self._portals[key][0] != loads:
            self._portals[key] = (loads, Portals(self._sys, node, pid, mode))
        return self._portals[key][1]

    def jam(self, node):
        """The JAM library of StarT-X node `node` (``niclab.startx.Jam``): PIO, 64-byte,
        VI and RDMA messaging and JAM RPC, each call performed by a host process on the
        node while the simulation runs. One per node. niclab.NiclabError on a system
        that is not a StarT-X."""
        from .startx import Jam
        if node not in self._jam:
            self._jam[node] = Jam(self._sys, node)
        return self._jam[node]

    def csp(self, node):
        """The CSP channels of DSNIC node `node` (``niclab.dsnic.Csp``): open a virtual
        link to a peer, send (blocking, non-blocking or buffered), wait, recv, probe and
        alt, each call performed by a host process on the node while the simulation
        runs. One per node. niclab.NiclabError on a system that is not a DSNIC."""
        from .dsnic import Csp
        if node not in self._csp:
            self._csp[node] = Csp(self._sys, node)
        return self._csp[node]

    def grim(self, node, lc=0):
        """The GRIM endpoint on logical channel `lc` of node `node` on a GRIM system
        (``niclab.grim.Endpoint``): register handlers, am_send, poll and wait,
        rm_write_p, the firmware's counters. One per (node, LC); a node has ``grim.lcs``
        LCs (niclab.ConfigError naming "lc" for another). niclab.NiclabError on another
        system or firmware."""
        from .grim import Endpoint
        key = node if lc == 0 else (node, lc)
        if key not in self._grim:
            self._grim[key] = Endpoint(self._sys, node, lc)
        return self._grim[key]

    def gdb_server(self, node, port=0):
        """A GDB remote-protocol server for the embedded core of node `node`, listening
        on 127.0.0.1:`port` (0: a free port; ``.port`` says which). Attach with
        ``gdb-multiarch FIRMWARE.elf -ex 'target remote :PORT'``.

        The debugger is served by the thread that runs the simulation: a connection is
        noticed while the node's core runs (or at ``.wait_for_attach(timeout_s)``, which
        waits for one and serves it before any further simulated time, or ``.poll()``
        between runs). While the core is stopped by gdb (breakpoint, watchpoint, step,
        Ctrl-C, fault) that thread serves gdb, so the whole cluster's simulated time
        stands still; it resumes on continue, detach or a lost connection.
        ``.sessions_ended`` counts detaches, ``.close()`` stops the server.

        ConfigError (``key_path`` ``"node"``) for a node that does not exist or has no
        embedded core (a fixed-function NIU); GdbServerError (``port``) when the port
        is in use."""
        return _niclab.gdb_server(self._sys, node, port)

    @property
    def events_fired(self):
        """Discrete events processed so far."""
        return self._sys.events_fired
