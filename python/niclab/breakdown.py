"""Where did the microseconds go: a latency breakdown of one timed interval.

``niclab.run("pingpong", sizes=[8], breakdown=True)`` records, for each point, its last
timed transfer (a put and its reply, or a get) with every part that was busy during it.
The other host-to-host experiments record their own interval: ``stream`` its whole
timed burst (``messages`` of them), ``logp_signature`` the last of its round trips for
L, ``prtt`` the last PRTT(1,0,s) of each size; ``interval`` names it. The parts are
the hosts' library code, system calls and interrupt entry, handler and exit; the NICs'
firmware, function by function from the executed PCs; the host bus's PIO and DMA; the
network from a packet's injection to its delivery. The time is split along the
interval's critical path, found backwards from where it ended: on each node, the part
last busy before a moment is its predecessor; a packet delivered to the node moves the
path to the node that sent it. Every picosecond goes to exactly one part, so the parts
sum to the measured time exactly; a gap with nothing busy on the path's node is
``waiting``. Parts busy only beside the path keep ``time_us`` 0 and their ``busy_us``.

    >>> b = r.breakdown(8)
    >>> print(b)                  # a table: part, node, detail, us, %, busy us
    >>> b.plot()                  # a stacked bar
"""

__all__ = ["Breakdown"]


class Breakdown:
    """The breakdown of one interval: ``parts`` (list of dicts: ``part``, ``node`` (-1
    for waiting), ``detail`` (the firmware function; "read" or "write" for PCI PIO),
    ``time_us``, ``busy_us``), ``total_us`` (the interval's measured time, which the parts sum to), ``size`` (B),
    ``interval`` (what was timed) and ``messages`` (how many it holds: more than 1 for
    a stream burst, ``per_message_us`` is then its time per message)."""

    def __init__(self, data, experiment="", op=""):
        self.size = int(data["size"])
        self.interval = data.get("interval", "one transfer")
        self.messages = int(data.get("messages", 1))
        self.start_ps = int(data["start_ps"])
        self.end_ps = int(data["end_ps"])
        self._parts = [dict(p) for p in data["parts"]]
        self.experiment, self.op = experiment, op

    @property
    def total_ps(self):
        """The transfer's time in ps; ``sum(p["time_ps"] for p in parts)`` equals it exactly."""
        return self.end_ps - self.start_ps

    @property
    def total_us(self):
        return self.total_ps / 1e6

    @property
    def per_message_us(self):
        return self.total_us / self.messages

    @property
    def parts(self):
        return [dict(p, time_us=p["time_ps"] / 1e6, busy_us=p["busy_ps"] / 1e6) for p in self._parts]

    def by_part(self):
        """Time per part summed over nodes and functions (dict part -> us), in order."""
        out = {}
        for p in self._parts:
            out[p["part"]] = out.get(p["part"], 0) + p["time_ps"] / 1e6
        return out

    def _label(self, p):
        who = "" if p["node"] < 0 else f"node {p['node']}"
        return " ".join(x for x in (p["part"], who, p["detail"]) if x)

    def table(self, off_path=False):
        """The parts as aligned text: part, node, detail, us, share, busy us. Parts
        busy only beside the critical path are left out unless `off_path`."""
        rows = [("part", "node", "detail", "us", "%", "busy us")]
        hidden = [p for p in self._parts if p["time_ps"] == 0]
        for p in self._parts if off_path else [p for p in self._parts if p["time_ps"] > 0]:
            rows.append((p["part"], "" if p["node"] < 0 else str(p["node"]), p["detail"], f"{p['time_ps'] / 1e6:.3f}",
                         f"{100 * p['time_ps'] / self.total_ps:.1f}", f"{p['busy_ps'] / 1e6:.3f}"))
        rows.append(("total", "", "", f"{self.total_us:.3f}", "100.0", ""))
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        right = {3, 4, 5}
        text = "\n".join("  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
                          for r in rows)
        if hidden and not off_path:
            text += f"\n({len(hidden)} more part(s) busy only beside the critical path: table(off_path=True))"
        return text

    def bar(self, width=60):
        """A one-line stacked bar in text: one letter per part, in proportion."""
        letters, legend, line = "HSIFNDWX", [], ""
        for i, (part, us) in enumerate((k, v) for k, v in self.by_part().items() if v > 0):
            ch = letters[i % len(letters)] if part != "waiting" else "."
            line += ch * round(width * us / self.total_us)
            legend.append(f"{ch} {part} {us:.3f} us")
        return f"|{line}|\n" + "  ".join(legend)

    def _what(self):
        return f"{self.interval} ({self.messages} messages)" if self.messages > 1 else self.interval

    def __str__(self):
        head = f"{self.experiment} {self.op} {self.size} B: {self._what()} of {self.total_us:.3f} us".replace("  ", " ").strip()
        if self.messages > 1:
            head += f" ({self.per_message_us:.3f} us per message)"
        return f"{head}\n{self.table()}\n{self.bar()}"

    __repr__ = __str__

    def plot(self, ax=None):
        """A horizontal stacked bar of the parts (summed over nodes and functions); returns the figure."""
        from . import plots
        import matplotlib.pyplot as plt
        with plt.rc_context(plots.STYLE):
            if ax is None:
                fig, ax = plt.subplots(figsize=(8, 2.4))
            else:
                fig = ax.figure
            left = 0.0
            for part, us in ((k, v) for k, v in self.by_part().items() if v > 0):
                ax.barh([0], [us], left=left, label=f"{part} ({us:.2f} µs)",
                        color="0.85" if part == "waiting" else None, edgecolor="white")
                left += us
            ax.set_yticks([])
            ax.set_xlabel("time (µs)")
            ax.set_title(f"where the {self.total_us:.2f} µs of {self._what()}, {self.size} B, went")
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.45), ncol=3, fontsize="small", frameon=False)
            fig.tight_layout()
        return fig
