#!/usr/bin/env python3
"""Host instructions and modelled cache misses per message of a steady 3-D halo.

Runs `bench_scale` under callgrind twice per size, with few and with more iterations, and
divides the difference of the two runs' totals by the messages the extra iterations send:
what a message costs once the system is built and booted. Deterministic, unlike wall time
on a shared host. The cache model is this host's: 32 KB 8-way L1s, and a 512 KB 8-way
last level standing for its per-core L2 (the 32 MB L3 behind it is not modelled).

    scripts/halo_misses.py --nodes 64,512            # 2 and 10 iterations
    scripts/halo_misses.py --nodes 2048 --long 4     # about 15 minutes

Valgrind 3.19 decodes no AVX-512. The default build leaves it out (-march=native
-mno-avx512f), so valgrind runs it; a build given AVX-512 by other flags it cannot run.

The figures come from callgrind's `totals:` line of the child `bench_scale` starts (it runs
itself again with huge pages); summing callgrind_annotate's table of functions instead
drops every row with no miss of some kind.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

CACHE = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=524288,8,64"]


def messages_per_iteration(shape):
    """Each node sends to each neighbour on the mesh: twice the cables of an X x Y x Z mesh."""
    x, y, z = shape
    return 2 * ((x - 1) * y * z + x * (y - 1) * z + x * y * (z - 1))


def run(bench, nodes, iterations, out_dir):
    """The child's totals (events -> count) and the mesh shape bench_scale printed."""
    prefix = out_dir / f"cg.{nodes}.{iterations}"
    log = subprocess.run(["valgrind", "--tool=callgrind", *CACHE, "--trace-children=yes",
                          f"--callgrind-out-file={prefix}.%p", str(bench), "--nodes", str(nodes),
                          "--iterations", str(iterations)], capture_output=True, text=True)
    if log.returncode != 0:
        if "unrecognised instruction" in log.stderr.lower():
            # Valgrind (3.19, Debian 12) decodes no AVX-512, which the default build leaves
            # out but flags of one's own (CXXFLAGS=-march=native alone) may put in.
            sys.exit(f"valgrind cannot decode an instruction of {bench}: it was built with some valgrind does not "
                     "know (AVX-512, from flags beyond the default build's). Build one for any x86-64 and pass "
                     "it: cmake -S . -B build-portable -DNICLAB_NATIVE=OFF && cmake --build build-portable "
                     "--target bench_scale, then --bench build-portable/cpp/bench/bench_scale")
        sys.exit(f"bench_scale under callgrind failed ({log.returncode}):\n{log.stderr[-2000:]}")
    shape = re.search(rf"^\s*{nodes}\s+(\d+)x(\d+)x(\d+)\s", log.stdout, re.M)
    if not shape:
        sys.exit(f"no row for {nodes} nodes in bench_scale's output:\n{log.stdout[-2000:]}")
    best = None
    for path in out_dir.glob(f"cg.{nodes}.{iterations}.*"):
        text = path.read_text(errors="replace")
        events = re.search(r"^events:\s*(.*)$", text, re.M)
        totals = re.search(r"^totals:\s*(.*)$", text, re.M)
        if not events or not totals:
            continue
        counts = dict(zip(events.group(1).split(), map(int, totals.group(1).split())))
        if best is None or counts["Ir"] > best["Ir"]:
            best = counts  # the child (the parent only starts it again)
    if best is None:
        sys.exit(f"callgrind wrote no totals for {nodes} nodes, {iterations} iterations")
    return best, tuple(int(g) for g in shape.groups())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", default="64,512", help="comma-separated node counts (default 64,512)")
    ap.add_argument("--short", type=int, default=2, help="iterations of the shorter run (default 2)")
    ap.add_argument("--long", type=int, default=10, help="iterations of the longer run (default 10)")
    ap.add_argument("--bench", default="build/cpp/bench/bench_scale", help="the bench_scale binary")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt install valgrind)")
    bench = pathlib.Path(args.bench)
    if not bench.exists():
        sys.exit(f"{bench} does not exist: build first (make build)")
    if args.long <= args.short:
        sys.exit(f"--long ({args.long}) must be more than --short ({args.short})")
    print(f"{'nodes':>6} {'shape':>9} {'messages':>9} {'host instr':>11} {'L2 misses':>10}"
          f" {'instr':>6} {'data rd':>8} {'data wr':>8}   (a steady message)")
    with tempfile.TemporaryDirectory() as tmp:
        for nodes in (int(n) for n in args.nodes.split(",")):
            short, shape = run(bench, nodes, args.short, pathlib.Path(tmp))
            long, _ = run(bench, nodes, args.long, pathlib.Path(tmp))
            messages = messages_per_iteration(shape) * (args.long - args.short)
            per = {k: (long[k] - short[k]) / messages for k in long}
            misses = per["ILmr"] + per["DLmr"] + per["DLmw"]
            print(f"{nodes:>6} {'x'.join(map(str, shape)):>9} {messages:>9} {per['Ir'] / 1000:>10.1f}k {misses:>10.0f}"
                  f" {per['ILmr']:>6.0f} {per['DLmr']:>8.0f} {per['DLmw']:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
