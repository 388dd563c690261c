"""Packet captures: pcapng files of what a simulated network carried, for Wireshark.

``System.capture(path, nodes=..., links=...)`` opens one (a ``Capture``);
``niclab.run(..., capture=path)`` captures an experiment. The files use niclab's own
link type (LINKTYPE_USER0, 147); ``dissector_path()`` is the Wireshark Lua dissector
that decodes them (niclab's packet header, Portals on the SeaStar, StarT-X/JAM, T9000
virtual links, DSNIC CSP packets). The frame layout is in traces/CAPTURE.md.

    tshark -X lua_script:$(niclab capture --print-dissector) -r run.pcapng -T fields -e portals.match_bits
"""

import os
import pathlib
import weakref

from .errors import CaptureError

__all__ = ["Capture", "capture_spec", "dissector_path", "normalize_taps"]


def dissector_path():
    """The path of niclab's Wireshark Lua dissector (``niclab.lua``, shipped with the
    package). Load it with ``tshark -X lua_script:PATH`` or copy it into Wireshark's
    personal Lua plugins folder (``~/.local/lib/wireshark/plugins/``)."""
    return pathlib.Path(__file__).resolve().parent / "wireshark" / "niclab.lua"


def _ids(values, what, path):
    """A list of ids from None, one id or an iterable of ids; CaptureError naming a bad one."""
    if values is None:
        return []
    if isinstance(values, int):
        values = [values]
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise CaptureError(f"capture: {what} {v!r} is not a {what} id (an integer)", tap=f"{what} {v!r}",
                               path=path)
        if v < 0:
            raise CaptureError(f"capture: {what} {v} does not exist (ids start at 0)", tap=f"{what} {v}", path=path)
        out.append(v)
    return out


def normalize_taps(path, nodes=None, links=None):
    """(path as str, node ids, link ids), checked for type: CaptureError otherwise."""
    try:
        path = os.fspath(path)
    except TypeError:
        raise CaptureError(f"capture: the file must be a path, not {type(path).__name__} {path!r}") from None
    if not path:
        raise CaptureError("capture: the file path is empty")
    return str(path), _ids(nodes, "node", path), _ids(links, "link", path)


class Capture:
    """An open packet capture of a ``System`` (from ``System.capture``).

    Records go to ``path`` as the simulation runs; the file is written out after every
    ``System.run`` (so it can be read between runs) and completed by ``close()``, by
    leaving a ``with`` block, or when the system goes. Attributes: ``path``,
    ``interfaces`` (one pcapng interface per tap: ``"node 0"``, ``"link 12"``),
    ``packets`` (records written so far).
    """

    def __init__(self, system, path, interfaces):
        # A weak reference: the system holds its capture, and a cycle would keep a
        # system someone dropped (and its unfinished file) alive until the collector ran.
        self._system = weakref.ref(system)
        self.path = pathlib.Path(path)
        self.interfaces = list(interfaces)
        self._packets = 0
        self._closed = False

    def _live(self):
        """The system's core while this capture is its open one, else None."""
        system = self._system()
        if self._closed or system is None or system._capture is not self:
            return None
        return system._sys

    @property
    def closed(self):
        """True once the capture is closed (the file is complete)."""
        return self._live() is None

    @property
    def packets(self):
        """Records written so far (a packet seen by two taps counts twice)."""
        core = self._live()
        if core is not None:
            status = core.capture_status()
            if status is not None:
                self._packets = status["packets"]
        return self._packets

    def flush(self):
        """Write out what is buffered, so the file is readable up to now."""
        core = self._live()
        if core is not None:
            core.flush_capture()

    def close(self):
        """Stop capturing and complete the file. CaptureError if writing it failed."""
        core = self._live()
        if core is None:
            return
        self._packets = self.packets
        self._closed = True
        self._system()._capture = None
        core.stop_capture()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        state = "closed" if self.closed else "open"
        return f"<niclab.Capture {str(self.path)!r} {state}: {', '.join(self.interfaces)}; {self.packets} packets>"


def capture_spec(capture):
    """A system spec's ``"capture"`` entry from a path or a dict {file, nodes, links}."""
    if isinstance(capture, dict):
        unknown = set(capture) - {"file", "nodes", "links"}
        if unknown:
            raise CaptureError(f"capture: unknown key {sorted(unknown)[0]!r} (expected file, nodes, links)")
        if "file" not in capture:
            raise CaptureError("capture: no 'file' given (the pcapng file to write)")
        path, nodes, links = normalize_taps(capture["file"], capture.get("nodes"), capture.get("links"))
    else:
        path, nodes, links = normalize_taps(capture)
    return {"file": path, "nodes": nodes, "links": links}


def capture_for_experiment(experiment, capture):
    """``capture_spec`` for ``niclab.run``; CaptureError for an experiment that builds
    no system to capture (net_throughput builds a fresh bare network per size)."""
    if experiment == "net_throughput":
        raise CaptureError("capture: net_throughput runs the network alone, a fresh one per packet size, "
                           "without a system to capture; capture a System, or run another experiment")
    return capture_spec(capture)
