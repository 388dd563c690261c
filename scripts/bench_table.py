#!/usr/bin/env python3
"""The speed and scale figures (issue 15's table), each the median of several runs.

Runs the project's benchmarks from a build directory round by round - each benchmark once
a round, so that a slow spell of a shared host falls on all of them alike - and prints one
Markdown row per figure: every run, their median, the target, and whether the median meets
it. Wall time on a shared host drifts from run to run and from day to day (the same binary's
ISS rate has ranged over 1.6x in five runs), so the medians of interleaved rounds are what
notes quote, with the runs beside them.

    scripts/bench_table.py                          # 5 rounds; halos at 64, 512, 2,048 nodes
    scripts/bench_table.py --rounds 3 --nodes 64,512
    scripts/bench_table.py --only rt,sweep          # some of the benchmarks
    scripts/bench_table.py --red-storm              # and one Red Storm run (about half an hour)

Figures: the ISS's CRC-32 firmware with caches on and off (`bench_iss`), steady 0-byte put
round trips a second (`bench_portals`), the 1 B-8 MB NetPIPE put ping-pong sweep's wall
time (`bench_sweep`), and from `bench_scale`'s halo of 1 KB puts: memory per node at the
largest size, host microseconds per message at each size (the growth row compares the
largest size's with the smallest's), and Red Storm's build, boot and 100 iterations.
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Where a halo's per-message host time may end at the largest size, against the smallest,
# and still be called linear in nodes x messages.
LINEAR_WITHIN = 1.10


class BenchError(RuntimeError):
    """A benchmark failed or printed something this script cannot read."""


def google_benchmark(binary, name_filter):
    """The one benchmark `name_filter` selects from `binary`: its JSON record."""
    out = subprocess.run([str(binary), f"--benchmark_filter={name_filter}", "--benchmark_format=json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise BenchError(f"{binary.name} --benchmark_filter={name_filter} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    records = [b for b in json.loads(out.stdout)["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    if len(records) != 1:
        raise BenchError(f"{binary.name}: {name_filter} selected {len(records)} benchmarks, not one")
    if "error_message" in records[0]:
        raise BenchError(f"{binary.name}: {records[0]['name']}: {records[0]['error_message']}")
    return records[0]


def seconds(record):
    """A Google Benchmark record's wall time, in seconds."""
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[record["time_unit"]]
    return record["real_time"] * scale


def parse_scale(text):
    """bench_scale's table: nodes -> {build_s, setup_s, halo_s, rss_mb, mb_per_node, messages_per_s}."""
    rows = {}
    header_seen = False
    for line in text.splitlines():
        fields = line.split()
        if fields[:2] == ["nodes", "shape"]:
            header_seen = True
            continue
        if not header_seen or not fields or not fields[0].isdigit():
            continue
        if len(fields) < 9:
            raise BenchError(f"bench_scale: a row of {len(fields)} columns: {line!r}")
        rows[int(fields[0])] = {
            "build_s": float(fields[2]), "setup_s": float(fields[3]), "halo_s": float(fields[4]),
            "rss_mb": float(fields[5]), "mb_per_node": float(fields[6]), "messages_per_s": float(fields[8]),
        }
    if not rows:
        raise BenchError(f"bench_scale printed no table:\n{text[-2000:]}")
    return rows


def bench_scale(binary, args):
    out = subprocess.run([str(binary), *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise BenchError(f"bench_scale {' '.join(args)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return parse_scale(out.stdout)


class Figure:
    """One row: its runs, and a target the median meets when `meets(median)` holds."""

    def __init__(self, name, unit, target="", meets=None, digits=2):
        self.name, self.unit, self.target, self.meets, self.digits = name, unit, target, meets, digits
        self.runs = []

    def median(self):
        return statistics.median(self.runs) if self.runs else None

    def status(self):
        if self.meets is None or not self.runs:
            return ""
        return "met" if self.meets(self.median()) else "not met"

    def row(self):
        fmt = f"{{:,.{self.digits}f}}"
        runs = ", ".join(fmt.format(v) for v in self.runs)
        median = fmt.format(self.median()) if self.runs else "-"
        return f"| {self.name} | {runs} | **{median} {self.unit}** | {self.target} | {self.status()} |"


def table(figures):
    lines = ["| figure | runs | median | target | status |", "|---|---|---|---|---|"]
    lines += [f.row() for f in figures if f.runs]
    return "\n".join(lines)


def growth(per_message):
    """The growth row from {nodes: Figure of us a message}: largest size's median over smallest's."""
    sizes = sorted(n for n, f in per_message.items() if f.runs)
    g = Figure(f"growth: us a message at {sizes[-1]:,} nodes over {sizes[0]:,}" if sizes else "growth", "x",
               f"linear (within {LINEAR_WITHIN:.2f}x)", lambda r: r <= LINEAR_WITHIN)
    if len(sizes) >= 2:
        g.runs = [per_message[sizes[-1]].median() / per_message[sizes[0]].median()]
    return g


def sizes(text):
    """--nodes: node counts, each a positive whole number."""
    try:
        nodes = [int(n) for n in text.split(",")]
    except ValueError:
        nodes = []
    if not nodes or min(nodes) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of node counts like 64,512,2048")
    return nodes


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return int(text)


# Which benchmark program each --only name runs.
PROGRAMS = {"iss": "bench_iss", "rt": "bench_portals", "sweep": "bench_sweep", "scale": "bench_scale"}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", type=pathlib.Path, default=ROOT / "build")
    p.add_argument("--rounds", type=positive, default=5, help="runs of each benchmark, interleaved (default 5)")
    p.add_argument("--scale-rounds", type=positive, default=3, help="runs of the halos (default 3)")
    p.add_argument("--nodes", type=sizes, default=[64, 512, 2048], help="halo sizes (default 64,512,2048)")
    p.add_argument("--iterations", type=positive, default=10, help="halo iterations (default 10)")
    p.add_argument("--only", default="iss,rt,sweep,scale", help="which benchmarks: iss, rt, sweep, scale")
    p.add_argument("--red-storm", action="store_true", help="one Red Storm run too (about half an hour)")
    a = p.parse_args(argv)
    only = set(a.only.split(","))
    unknown = only - PROGRAMS.keys()
    if unknown:
        p.error(f"--only: unknown benchmark(s) {', '.join(sorted(unknown))} ({', '.join(PROGRAMS)})")
    nodes = a.nodes
    bench = a.build_dir / "cpp" / "bench"
    for name in {PROGRAMS[o] for o in only} | ({"bench_scale"} if a.red_storm else set()):
        if not (bench / name).is_file():
            sys.exit(f"{bench / name} is not built: `make build` first (or --build-dir)")

    iss_on = Figure("ISS CRC-32, caches on (`bench_iss`)", "M instr/s", ">= 400 M", lambda v: v >= 400)
    iss_off = Figure("ISS CRC-32, caches off", "M instr/s")
    rt = Figure("0-byte put round trips, steady (`bench_portals` Steady/0)", "/s", ">= 100k", lambda v: v >= 100e3, 0)
    sweep = Figure("NetPIPE put sweep 1 B-8 MB (`bench_sweep`)", "s", "<= 1 s", lambda v: v <= 1.0)
    memory = Figure(f"memory per node (`bench_scale`, {max(nodes):,} nodes)", "MB", "<= 0.3 MB", lambda v: v <= 0.3)
    per_message = {n: Figure(f"halo at {n:,} nodes: host time a message", "us", digits=1) for n in nodes}

    for r in range(max(a.rounds, a.scale_rounds if "scale" in only else 0)):
        if r < a.rounds:
            if "iss" in only:
                iss_on.runs.append(google_benchmark(bench / "bench_iss", "^BM_Crc32_CachesOn/")["MIPS"])
                iss_off.runs.append(google_benchmark(bench / "bench_iss", "^BM_Crc32_CachesOff/")["MIPS"])
            if "rt" in only:
                rt.runs.append(google_benchmark(bench / "bench_portals", "^BM_PortalsPutPingPongSteady/0$")["round_trips_per_s"])
            if "sweep" in only:
                sweep.runs.append(seconds(google_benchmark(bench / "bench_sweep", "^BM_NetpipePutPingPong1BTo8MB/")))
        if "scale" in only and r < a.scale_rounds:
            rows = bench_scale(bench / "bench_scale", ["--nodes", ",".join(map(str, nodes)), "--iterations", str(a.iterations)])
            for n in nodes:
                per_message[n].runs.append(1e6 / rows[n]["messages_per_s"])
            memory.runs.append(rows[max(nodes)]["mb_per_node"])
        print(f"round {r + 1} done", file=sys.stderr)

    figures = [iss_on, iss_off, rt, sweep, memory, *per_message.values()]
    if "scale" in only:
        figures.append(growth(per_message))
    if a.red_storm:
        rows = bench_scale(bench / "bench_scale", ["--nodes", str(min(nodes)), "--red-storm", "--iterations", "100"])
        storm = max(rows)
        wall = Figure(f"Red Storm ({storm:,} nodes): build, boot and 100 halo iterations", "s", "<= 300 s",
                      lambda v: v <= 300, 0)
        wall.runs = [rows[storm]["build_s"] + rows[storm]["setup_s"] + rows[storm]["halo_s"]]
        rss = Figure("Red Storm: peak memory", "GB", "<= 4 GB", lambda v: v <= 4)
        rss.runs = [rows[storm]["rss_mb"] / 1e3]
        figures += [wall, rss]
    print(table(figures))


if __name__ == "__main__":
    try:
        main()
    except BenchError as e:
        sys.exit(f"bench_table: {e}")
