"""The ``niclab`` command line.

    niclab demo [--out-dir DIR]      the two-node SeaStar running C Portals: NetPIPE put ping-pong
                                     table, latency and bandwidth PNGs, and the validation table
    niclab validate [SYSTEM] [--out FILE.json] [--sensitivity [--parameters K,K] [--step 0.1]]
                                     the simulated system against its papers' published results
    niclab boot FIRMWARE [--until-us N] [--set key=value ...]
    niclab systems                   the modelled systems: parts, presets, transports
    niclab parts                     the parts a spec can swap in (--part bus=pci-64-66)
    niclab preset [NAME]             the preset's parts and parameters with their sources
    niclab tracedump FILE [--elf FIRMWARE.elf] [--source] [--function NAME] [--value N]
                     [--last N] [--force]
                                     decode a firmware trace file (seed 000 Figure 2)
    niclab experiments               the registered experiments with their summaries
    niclab run EXPERIMENT [--system S] [--preset P] [--transport T] [--nodes N]
                     [--firmware NAME|PATH] [--part KIND=NAME ...] [--set key=value ...] [--seed S]
                     [--op put|get|send] [--schedule netpipe|osu] [--sizes 1,2,4K]
                     [--max-size 8M] [--option key=value ...] [--out FILE] [--format FMT]
                     [--plot FILE.png] [--trace] [--counters] [--perfetto FILE.json] [--quiet]
                     [--capture FILE.pcapng [--capture-nodes 0,1]]
                                     run an experiment: progress, table, fit; save and plot it;
                                     keep the nodes' traces and counters; capture its packets for Wireshark
    niclab breakdown [EXPERIMENT] [--size 8] [run's options] [--plot FILE] [--out FILE.json]
                                     where the microseconds of one transfer went: host, firmware
                                     functions, bus, network, waiting (parts sum exactly)
    niclab capture [--print-dissector | --install-dissector]
                                     the path of niclab's Wireshark Lua dissector (or install it)
    niclab sweep EXPERIMENT --grid KEY=V1,V2 [--grid ...] [run's options] [--workers N]
                     [--scheduler tcp://HOST:PORT] [--cache DIR | --no-cache] [--out FILE.csv]
                     [--plot FILE]       one run per grid point, in parallel (local or Dask), cached
    niclab plot RESULT.json ... --out FIG.pdf [--what latency|bandwidth|both] [--label TEXT ...]
                                     overlay saved results (PNG, PDF, SVG)
    niclab fw build SOURCE.c ... | DIR [--trace] [--name N] [--out-dir D] [-D DEF] [-I DIR] [--preset P]
    niclab fw new NAME [--from hello|portals] | niclab fw list | niclab fw sdk
                                     the firmware SDK: build an image from C anywhere
    niclab gui [--spec FILE.json]    the Qt desktop workbench (built with the C++ core when Qt 6 is there)
    niclab --version                 the simulator's version
"""

import argparse
import json
import pathlib
import re
import sys
import warnings

from . import Nic, NiclabError, System
from .cli_topology import parse_topology, topology_text


def _system_names():
    from . import _niclab
    return [s["name"] for s in _niclab.systems()]


class _SystemOrPreset(argparse.Action):
    """--system takes a system (grim) or one of its presets (grim-lanai9): a preset
    names its system, so `--system grim-lanai9` means `--preset grim-lanai9`."""

    def __call__(self, parser, namespace, value, option_string=None):
        from . import _niclab
        systems = _niclab.systems()
        if value in (s["name"] for s in systems):
            namespace.system = value
            return
        for s in systems:
            if value in s["presets"]:
                namespace.system, namespace.preset = s["name"], value
                return
        choices = ", ".join(s["name"] + " (" + ", ".join(s["presets"]) + ")" for s in systems)
        parser.error(f"argument {option_string}: {value!r} is neither a system nor a preset; choose from {choices}")


def _parse_sets(pairs):
    out = {}
    for kv in pairs or []:
        key, sep, value = kv.partition("=")
        if not sep:
            raise SystemExit(f"--set wants key=value, got {kv!r}")
        try:
            out[key] = int(value)
        except ValueError:
            out[key] = value  # let ConfigError name the key and the type
    return out


def _report(nic, until_us):
    boot = nic.boot
    print(f"booted {nic.firmware}")
    print(f"  build id      {nic.build_id}")
    print(f"  running flag  after {boot['boot_us']:.3f} us ({boot['instructions']} instructions)")
    result = nic.run(until_us=until_us)
    print("console:")
    for line in nic.console.splitlines():
        print(f"  | {line}")
    ic, dc = nic.icache, nic.dcache
    stopped = f" at {nic.stop_time_us:.3f} us" if nic.state in ("halted", "faulted") else ""
    print(f"state           {nic.state}{stopped} (exit code {nic.exit_code}); simulated {result['reached_us']:.3f} us")
    if nic.faulted:
        print(f"fault           {nic.fault}")
    print(f"core            {nic.clock_mhz} MHz, {nic.cycles} cycles, {nic.instret} instructions, "
          f"CPI {nic.cycles / max(nic.instret, 1):.2f}, {nic.stall_cycles} stall cycles")
    print(f"I-cache         {'on ' if ic['enabled'] else 'off'} {ic['accesses']} line accesses, {ic['misses']} misses")
    print(f"D-cache         {'on ' if dc['enabled'] else 'off'} {dc['accesses']} accesses, {dc['misses']} misses")


def _validate_with_status(system):
    """validate(system) with a status line on stderr naming the experiment running."""
    from rich.console import Console

    from .validation import validate
    console = Console(stderr=True)
    with console.status("validating") as status:
        return validate(system, progress=lambda text: status.update(f"running {text}"))


def cmd_demo(args):
    """The two-node SeaStar with the C Portals firmware: the NetPIPE put ping-pong table,
    latency and bandwidth figures (with seed 000's firmware options overlaid), and the
    validation table against seeds 000 and 001."""
    import pathlib

    from . import plots
    v = _validate_with_status("seastar")
    pp = v.results["pingpong"]
    print("NetPIPE Portals put ping-pong, two-node SeaStar, C Portals firmware (portals.elf)")
    print(pp.table())
    out = pathlib.Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    options = [v.results[k] for k in ("nocache", "icache", "novsmall", "nowt")]
    plots.overlay([pp] + options, what="latency").savefig(out / "latency.png", dpi=120)
    # One legend entry per run: the bandwidth runs share firmware and op, so say which run each is.
    runs = {"pingpong": "ping-pong", "stream": "stream", "stream_8mb": "stream, 8 MB", "bidir": "bi-directional, 8 MB"}
    for key, label in runs.items():
        v.results[key].label = label
    plots.overlay([v.results[k] for k in runs], what="bandwidth").savefig(out / "bandwidth.png", dpi=120)
    pp.label = None  # back to its firmware and op for what follows
    pp.save(out / "pingpong.json")
    pp.save(out / "np.out", format="netpipe")
    print(f"wrote {out / 'latency.png'}, {out / 'bandwidth.png'}, {out / 'pingpong.json'}, {out / 'np.out'}")
    print()
    print("Validation against the published results (seed 001: Brightwell et al.; seed 000: Pedretti & Hudson)")
    print(v.table())
    return 0


def _sensitivity_with_status(v, args):
    """niclab.sensitivity on the validation `v` already run, with a progress line."""
    from rich.console import Console

    from .sensitivity import sensitivity
    params = [p.strip() for p in args.parameters.split(",") if p.strip()] if args.parameters else None
    with Console(stderr=True).status("sensitivity") as status:
        sensitivity(v.system, params=params, step=args.step, baseline=v, workers=args.workers,
                    progress=lambda done, total, text: status.update(f"sensitivity: {done}/{total} validations ({text})"))


def cmd_validate(args):
    """The validation table of a simulated system (or of every system) against its
    source papers."""
    from .validation import validated_systems
    names = [args.system] if args.system else validated_systems()
    tables = []
    for name in names:
        v = _validate_with_status(name)
        if args.sensitivity:
            _sensitivity_with_status(v, args)
        if len(names) > 1:
            print(f"== {name} ==")
        print(v.table())
        if v.sensitivity:
            for p, why in v.sensitivity.skipped.items():
                print(f"not analysed: {p}: {why}")
            for p, why in v.sensitivity.one_sided.items():
                print(f"one side only: {p}: {why}")
        tables.append(v.to_dict())
    if args.out:
        with open(args.out, "w") as f:
            json.dump(tables[0] if len(tables) == 1 else tables, f, indent=1)
    return 0


def cmd_boot(args):
    nic = Nic(args.preset, firmware=args.firmware, set=_parse_sets(args.set))
    _report(nic, until_us=args.until_us)
    return 0 if not nic.faulted else 1


def cmd_gdb(args):
    """Serve gdb for one node's NIC core: print how to attach, wait for gdb, then run
    the cluster until gdb detaches (or --until-us). Halted in gdb, simulated time stands still."""
    import shlex
    spec = {"system": args.system} if args.system else {"preset": args.preset}
    spec["nodes"] = args.nodes
    if args.firmware:
        spec["firmware"] = args.firmware
    sets = _parse_sets(args.set)
    if sets:
        spec["set"] = sets
    s = System(spec)
    server = s.gdb_server(args.node, args.port)
    elf = s.nic(args.node).firmware
    print(f"gdb server for node {args.node} of {s._sys.system_name} ({s.nodes} nodes) on 127.0.0.1:{server.port}")
    print(f"attach with: gdb-multiarch {shlex.quote(str(elf))} -ex 'target remote :{server.port}'", flush=True)
    server.wait_for_attach()
    until = args.until_us
    while server.sessions_ended == 0 and (until is None or s.now_us < until):
        s.run(for_us=100.0 if until is None else min(100.0, until - s.now_us))
        server.poll()  # a Ctrl-C from gdb while this node's core sleeps in wfi
    why = "gdb detached" if server.sessions_ended else f"reached --until-us {until}"
    print(f"{why} at {s.now_us:.3f} us simulated")
    server.close()
    return 0


def cmd_preset(args):
    from . import _niclab
    info = _niclab.preset_info(args.name)
    print(f"preset {info['name']} (system {info['system']}): {info['description']}")
    for part, what in info["parts"].items():
        print(f"  {part:8} {what}")
    print()
    for p in info["parameters"]:
        print(f"{p['key']:34} {p['value']:>12} {p['unit']:7} {p['source']}")
    return 0


def _parse_parts(pairs):
    out = {}
    for pair in pairs:
        kind, sep, name = pair.partition("=")
        if not sep or not kind or not name:
            raise SystemExit(f"niclab: --part wants KIND=NAME, e.g. bus=pci-64-66 (got {pair!r})")
        out[kind] = name
    return out


def cmd_parts(args):
    from .experiments import parts
    for p in parts():
        print(f"{p['part']:8} {p['name']:12} {p['description']}")
        for key, e in p["parameters"].items():
            print(f"           {key:20} {e['value']:>12} {e['unit']:6} {e['source']}")
    return 0


def _default_firmware_text(system):
    """'; default firmware: portals up to 2,048 nodes, portals_redstorm from 2,049' ('' if none at any size)."""
    from .experiments import MAX_NODES, default_firmware_by_size
    steps = default_firmware_by_size(system)
    if steps == [(1, None)]:
        return ""
    ends = [first - 1 for first, _ in steps[1:]] + [MAX_NODES]

    def phrase(first, end, image):
        image = image or "none"
        if len(steps) == 1:
            return image
        if first == 1:
            return f"{image} up to {end:,} nodes"
        return f"{image} from {first:,}" + ("" if end == MAX_NODES else f" to {end:,}")

    return "; default firmware: " + ", ".join(phrase(first, end, image) for (first, image), end in zip(steps, ends))


def cmd_systems(args):
    from .experiments import systems
    for s in systems():
        print(f"{s['name']}: {s['summary']}")
        print(f"  NIC family: {s['nic_family']}; presets: {', '.join(s['presets'])}" + _default_firmware_text(s["name"]))
        for t in s["transports"]:
            print(f"  transport {t['name']:8} ops {'/'.join(t['ops']):8} {t['summary']}")
    return 0


def cmd_tracedump(args):
    """Print a trace file one record per line, as seed 000 Figure 2 shows it."""
    from .trace import read_trace
    trace = read_trace(args.file, args.elf, force=args.force)
    sys.stdout.write(trace.format(source=args.source, function=args.function, value=args.value, last=args.last))
    return 0


# --- experiments: `niclab experiments`, `niclab run` -------------------------------------

_SIZE = re.compile(r"^\s*(\d+)\s*([kmg]?)(i?b)?\s*$", re.IGNORECASE)
_SIZE_FACTOR = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def parse_size(text):
    """Bytes from "4096", "64K", "8M", "1G" (K = 1024 B, M = 1024 K, as NetPIPE's sizes)."""
    m = _SIZE.match(str(text))
    if not m:
        raise argparse.ArgumentTypeError(f"not a size in bytes: {text!r} (e.g. 4096, 64K, 8M)")
    return int(m.group(1)) * _SIZE_FACTOR[m.group(2).lower()]


def _parse_size_list(text):
    return [parse_size(t) for t in str(text).split(",") if t.strip()]


def _option_value(text):
    """An --option value: JSON (numbers, lists, true/false), a size with a suffix, or text."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return parse_size(text)
    except argparse.ArgumentTypeError:
        return text


def _parse_options(pairs):
    out = {}
    for kv in pairs or []:
        key, sep, value = kv.partition("=")
        if not sep or not key:
            raise SystemExit(f"niclab: --option wants key=value, got {kv!r}")
        out[key.strip()] = _option_value(value.strip())
    return out


def cmd_experiments(args):
    """List the registered experiments with their summaries."""
    from .experiments import list_experiments
    exps = list_experiments()
    width = max((len(n) for n, _ in exps), default=0)
    for name, summary in exps:
        print(f"{name:{width}}  {summary}")
    return 0


def _point_text(result):
    names = result.column_names
    last = result.rows[-1]
    shown = [names[0]] + [c for c in ("latency_us", "bandwidth_mb_s", "t_per_msg_us") if c in names]
    units = result.units

    def num(v):
        return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else f"{v:.6g}"
    return "  ".join(f"{n} {num(last[names.index(n)])}{(' ' + units[n]) if units[n] else ''}" for n in shown)


def _parse_vary(text):
    """KEY=V1,V2,... : one run per value of a preset parameter."""
    if text is None:
        return None, [None]
    key, sep, values = text.partition("=")
    if not sep or not key or not values:
        raise SystemExit(f"--vary wants KEY=V1,V2,... (a preset parameter and its values), got {text!r}")
    out = []
    for v in values.split(","):
        try:
            out.append(int(v) if v.strip().lstrip("-").isdigit() else float(v))
        except ValueError:
            raise SystemExit(f"--vary {key}: {v!r} is not a number") from None
    return key, out


def _run_one(args, kw, options, label):
    """One run with a progress bar; its table and fit printed. (result, interrupted)."""
    from .experiments import run
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        if args.quiet:
            result = run(args.experiment, **kw, **options)
        else:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TextColumn("{task.fields[point]}")]
            with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
                task = progress.add_task(label or args.experiment, total=None, point="")

                def on_point(r):
                    progress.update(task, total=r.planned_points, completed=len(r), point=_point_text(r))
                    return True

                result = run(args.experiment, **kw, on_point=on_point, **options)
    if label:
        result.label = label
    if not args.quiet:
        from .huge_pages import on as huge_pages_on
        print(f"# {result.experiment}: {result.label}, {len(result)} point(s), seed {result.seed}"
              + _on_topology(result)
              + (", stopped early" if result.stopped else "") + (", malloc on huge pages" if huge_pages_on() else ""))
        print(result.table())
        if result.fit:
            print("fit:")
            for k, v in result.fit.items():
                print(f"  {k:16} {v:.6g}" if isinstance(v, float) else f"  {k:16} {v}")
        if "counters" in result.observations:
            print(_counters_table(result.counters))
        if "traces" in result.observations:
            for t in result.traces:
                print(f"trace: node {t.node_id}: {len(t)} records ({t.lost} lost)")
    return result, any("interrupted" in str(w.message) for w in caught)


def _counters_table(counters):
    """Counters of every node side by side: one line per counter, one column per node."""
    nodes = sorted(counters)
    names = list(dict.fromkeys(n for node in nodes for n in counters[node]))
    width = max(len(n) for n in names)
    lines = ["counters".ljust(width) + "".join(f"{'node ' + str(n):>14}" for n in nodes)]
    for name in names:
        lines.append(name.ljust(width) + "".join(f"{counters[n].get(name, ''):>14}" for n in nodes))
    return "\n".join(lines)


def _plot_runs(results, path):
    """The natural plot of one run; several runs (--vary) overlaid on their bandwidth
    (or latency) against size, with a legend."""
    from .plots import overlay, plot
    if len(results) == 1:
        return plot(results[0])
    for what, column in (("bandwidth", "bandwidth_mb_s"), ("latency", "latency_us")):
        if all(column in r.column_names for r in results):
            return overlay(results, what)
    from .errors import ResultError
    raise ResultError(f"--plot {path}: {results[0].experiment} has no bandwidth or latency column to overlay")


def cmd_plot(args):
    """Overlay saved results (JSON from `niclab run --out`) in one figure."""
    from . import plots
    from .experiments import Result
    results = [Result.load(p) for p in args.files]
    labels = args.label or []
    if len(labels) > len(results):
        raise SystemExit(f"niclab plot: {len(labels)} --label for {len(results)} file(s)")
    for r, label in zip(results, labels):
        r.label = label
    if len({r.label for r in results}) < len(results):  # one legend entry per run: tell equal labels apart
        for r, path in zip(results, args.files):
            if not any(r.label == label for label in labels):
                r.label = f"{r.label} ({pathlib.Path(path).stem})"
    what = args.what
    if what == "auto":
        fig = plots.plot(results[0]) if len(results) == 1 else _plot_runs(results, args.out)
    else:
        fig = plots.overlay(results, what)
    fig.savefig(args.out)
    print(f"plotted {args.out}")
    return 0


def _run_arguments(args):
    """(run keyword arguments, experiment options) from the arguments run and sweep share."""
    options = _parse_options(args.option)
    if args.op is not None:
        options["op"] = args.op
    if args.schedule is not None:
        options["schedule"] = args.schedule
    if args.sizes is not None:
        options["sizes"] = args.sizes
    if args.max_size is not None:
        options["max_size"] = args.max_size
    kw = dict(system=args.system, preset=args.preset, nodes=args.nodes, seed=args.seed)
    if args.firmware is not None:
        kw["firmware"] = args.firmware
    if args.transport is not None:
        kw["transport"] = args.transport
    if args.part:
        kw["parts"] = _parse_parts(args.part)
    if args.topology is not None:
        kw["topology"] = args.topology
    return kw, options


def cmd_run(args):
    """Run one experiment (or one per value of --vary) with a progress bar; print its
    table and fit; save and plot it."""
    kw, options = _run_arguments(args)
    key, values = _parse_vary(args.vary)

    results, interrupted = [], False
    for value in values:
        sets = _parse_sets(args.set) or {}
        label = None
        if key is not None:
            sets[key] = value
            label = f"{key}={value}"
        observe = dict(trace=bool(args.trace or args.perfetto), counters=args.counters)
        capture = pathlib.Path(args.capture) if args.capture else None
        if capture and key is not None:  # one file per value, named as --out's
            capture = capture.with_name(f"{capture.stem}.{key}={value}{capture.suffix}")
        from .cli_capture import run_capture
        result, interrupted = _run_one(args, dict(kw, set=sets, capture=run_capture(args, capture), **observe), options,
                                       label)
        results.append(result)
        if interrupted:
            print(f"niclab: interrupted: kept {len(result)} point(s)", file=sys.stderr)
            break
    if args.out:
        out = pathlib.Path(args.out)
        for result, value in zip(results, values):
            target = out if key is None else out.with_name(f"{out.stem}.{key}={value}{out.suffix}")
            path = result.save(target, format=args.format)
            if not args.quiet:
                print(f"saved {path}")
    if args.perfetto:
        from .trace import to_chrome_json
        to_chrome_json(results[-1].traces, args.perfetto)
        if not args.quiet:
            print(f"wrote {args.perfetto} (open it in ui.perfetto.dev)")
    if args.plot:
        from .errors import ResultError
        try:
            _plot_runs(results, args.plot).savefig(args.plot)
        except ValueError as e:  # e.g. an image format Matplotlib does not write
            raise ResultError(f"--plot {args.plot}: {e}") from e
        if not args.quiet:
            print(f"plotted {args.plot}")
    return 130 if interrupted else 0


def _on_topology(result):
    """", on NETWORK" for a result whose system records a topology (a grid over nodes or
    topology runs each point on its own), else ""."""
    topology = (result.system or {}).get("topology")
    return f", on {topology_text(topology)}" if topology else ""


def _parse_grid(pairs):
    """--grid KEY=V1,V2 ... : the sweep's grid, values as --option values (numbers, sizes, text)."""
    grid = {}
    for text in pairs:
        key, sep, values = text.partition("=")
        if not sep or not key or not values:
            raise SystemExit(f"niclab: --grid wants KEY=V1,V2,... (e.g. set.core.clock_mhz=300,400), got {text!r}")
        grid[key.strip()] = [_option_value(v.strip()) for v in values.split(",")]
    return grid


def cmd_breakdown(args):
    """One run with breakdown=True: per size, where the microseconds of its timed interval
    went (a table and a stacked bar); --plot draws the bars, --out saves the result."""
    from .experiments import run
    kw, options = _run_arguments(args)
    if args.experiment == "logp_signature":
        # Its breakdown is the round trip it measures L from, before the signature: one
        # short signature point is enough unless more are asked for.
        if args.size is not None:
            options["size"] = args.size
        options.setdefault("m", [1])
        options.setdefault("delays_us", [0])
    else:
        if args.size is not None:
            options["sizes"] = [args.size]
        options.setdefault("sizes", [8])
    result = run(args.experiment, **kw, set=_parse_sets(args.set), breakdown=True, **options)
    for size in result.observations["breakdown"]:
        print(result.breakdown(size["size"]))
        print()
    if args.out:
        print(f"saved {result.save(args.out)}")
    if args.plot:
        result.breakdown().plot().savefig(args.plot)
        print(f"plotted {args.plot}")
    return 0


def cmd_sweep(args):
    """One experiment over a grid of parameters, the points in parallel and cached."""
    from .sweep import sweep
    kw, options = _run_arguments(args)
    if args.set:
        kw["set"] = _parse_sets(args.set)
    s = sweep(args.experiment, _parse_grid(args.grid), workers=args.workers, scheduler=args.scheduler,
              cache=False if args.no_cache else (args.cache or True), progress=not args.quiet, **kw, **options)
    if not args.quiet:
        print(f"# sweep {args.experiment}: {len(s)} point(s), {s.computed} computed, {s.cached} from the cache")
        for r in s.results:
            print(f"## {r.label}{_on_topology(r)}")
            print(r.table())
            if r.fit:
                print("fit: " + ", ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}"
                                          for k, v in r.fit.items()))
    if args.out:
        s.save_csv(args.out)
        if not args.quiet:
            print(f"saved {args.out}")
    if args.plot:
        s.plot().savefig(args.plot)
        if not args.quiet:
            print(f"plotted {args.plot}")
    return 0


def _add_run_arguments(r):
    """The system and experiment arguments run and sweep share."""
    r.add_argument("--system", action=_SystemOrPreset, metavar="SYSTEM|PRESET",
                   help="the modelled system, or one of its presets (default: the preset's, seastar)")
    r.add_argument("--preset", help="the preset (default: the system's default preset)")
    r.add_argument("--transport", help="the host library to run over (default: the system's first; see `niclab systems`)")
    r.add_argument("--nodes", type=int, default=2)
    r.add_argument("--topology", type=parse_topology, metavar="KIND[:KEY=VALUE...]|JSON",
                   help="the network, as a spec's topology: e.g. torus:dims=8x8x8, or Red Storm's "
                        "mesh:dims=27x16x24:wrap=[false,false,true] (default: the system's own)")
    r.add_argument("--firmware", metavar="NAME|PATH",
                   help="firmware image name (portals, portals_nocache, ...) or ELF path (default: the system's own)")
    r.add_argument("--part", action="append", metavar="KIND=NAME",
                   help="swap a part of the preset, e.g. bus=pci-64-66 (see `niclab parts`)")
    r.add_argument("--set", action="append", metavar="KEY=VALUE", help="preset parameter override")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--op", choices=["put", "get", "send"])
    r.add_argument("--schedule", choices=["netpipe", "osu"])
    r.add_argument("--sizes", type=_parse_size_list, metavar="1,2,4K", help="message sizes (B), comma-separated")
    r.add_argument("--max-size", type=parse_size, metavar="BYTES", help="largest message size (B; 64K, 8M)")
    r.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="an experiment option (value as JSON, a size like 8M, or text)")


def _add_breakdown_command(sub):
    b = sub.add_parser("breakdown", help="where the microseconds of one transfer went",
                       description="Run a host-to-host experiment and split one timed interval per point into the "
                                   "parts that were busy during it: host library, system calls and interrupts, "
                                   "firmware functions, host bus, network, waiting. The interval is the last timed "
                                   "transfer of pingpong, bidir, comms1, comms2 and cpu_load, stream's whole burst, "
                                   "logp_signature's last round trip for L, prtt's last PRTT(1,0,s). The parts sum "
                                   "to its time exactly.")
    b.add_argument("experiment", nargs="?", default="pingpong")
    _add_run_arguments(b)
    b.add_argument("--size", type=parse_size, metavar="BYTES", help="one message size (default 8 B; or --sizes)")
    b.add_argument("--out", metavar="FILE.json", help="save the result with its breakdown")
    b.add_argument("--plot", metavar="FILE", help="save a stacked bar of the first size's breakdown")
    b.set_defaults(func=cmd_breakdown)


def _add_experiment_commands(sub):
    e = sub.add_parser("experiments", help="list the registered experiments")
    e.set_defaults(func=cmd_experiments)
    r = sub.add_parser("run", help="run an experiment (ping-pong, stream, LogP signature, ...)",
                       description="Run a registered experiment (see `niclab experiments`) on a simulated "
                                   "system. Sizes in bytes (K = 1024, M = 1024 K), times in us, "
                                   "bandwidth in MB/s (10^6 B/s). Ctrl-C stops it, keeping the points so far.")
    r.add_argument("experiment")
    _add_run_arguments(r)
    r.add_argument("--vary", metavar="KEY=V1,V2",
                   help="one run per value of a preset parameter, overlaid in --plot and saved one file each")
    r.add_argument("--out", metavar="FILE", help="save the result (.json, .csv, .osu/.txt, .np.out)")
    r.add_argument("--format", choices=["json", "csv", "osu", "netpipe"], help="format of --out (default: by name)")
    r.add_argument("--plot", metavar="FILE.png", help="save the experiment's natural plot")
    r.add_argument("--trace", action="store_true",
                   help="keep every node's firmware trace in the result (a firmware built with tracing, "
                        "e.g. --firmware portals_traced)")
    r.add_argument("--counters", action="store_true",
                   help="keep every node's counters in the result and print them")
    r.add_argument("--perfetto", metavar="FILE.json",
                   help="write the nodes' traces as Chrome trace-event JSON on the simulated time axis (implies --trace)")
    r.add_argument("--quiet", action="store_true", help="no progress bar and no table")
    from .cli_capture import add_run_capture_arguments
    add_run_capture_arguments(r)
    r.set_defaults(func=cmd_run)
    w = sub.add_parser("sweep", help="an experiment over a grid of parameters, in parallel, cached",
                       description="Run an experiment once per point of a grid (the Cartesian product of every "
                                   "--grid), on local worker processes or a Dask cluster. Results are cached by "
                                   "the hash of their full spec, firmware and simulator: a rerun only computes "
                                   "what changed. Grid keys: set.KEY (preset parameter), parts.KIND, system, "
                                   "preset, nodes, firmware, transport, seed, or an experiment option.")
    w.add_argument("experiment")
    w.add_argument("--grid", action="append", required=True, metavar="KEY=V1,V2",
                   help="a grid axis, e.g. set.core.clock_mhz=300,400,500 or firmware=portals,portals_nocache")
    _add_run_arguments(w)
    w.add_argument("--workers", type=int, help="local worker processes (default: one per core)")
    w.add_argument("--scheduler", metavar="ADDRESS", help="run on this Dask scheduler (tcp://host:8786)")
    w.add_argument("--cache", metavar="DIR", help="cache directory (default: $NICLAB_CACHE or ~/.cache/niclab)")
    w.add_argument("--no-cache", action="store_true", help="compute every point and keep nothing")
    w.add_argument("--out", metavar="FILE.csv", help="save the combined table (one line per measured point)")
    w.add_argument("--plot", metavar="FILE", help="save one figure with a line per grid point (.png, .pdf, .svg)")
    w.add_argument("--quiet", action="store_true", help="no progress bar and no tables")
    w.set_defaults(func=cmd_sweep)
    pl = sub.add_parser("plot", help="overlay saved results in one figure (.png, .pdf, .svg)",
                        description="Overlay results saved as JSON (niclab run --out r.json) in one figure, with "
                                    "the systems' published points; the format follows --out's suffix.")
    pl.add_argument("files", nargs="+", metavar="RESULT.json")
    pl.add_argument("--out", required=True, metavar="FIG.pdf", help="the figure (.png, .pdf, .svg)")
    pl.add_argument("--what", choices=["auto", "latency", "bandwidth", "both"], default="auto",
                    help="what to draw (default: one result's natural plot; several: bandwidth, else latency)")
    pl.add_argument("--label", action="append", metavar="TEXT", help="legend label of each file, in order")
    pl.set_defaults(func=cmd_plot)


def _gui_binary():
    """The workbench program: $NICLAB_GUI_BINARY, else the one this checkout's CMake build made."""
    import os
    if os.environ.get("NICLAB_GUI_BINARY"):
        return pathlib.Path(os.environ["NICLAB_GUI_BINARY"])
    return pathlib.Path(__file__).resolve().parents[2] / "build" / "gui" / "niclab-gui"


def cmd_gui(args):
    """Replace this process by the Qt workbench (it links the C++ core, not Python)."""
    import os
    binary = _gui_binary()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        print(f"niclab: the GUI is not built: no program at {binary}. Install Qt 6 (scripts/install-system-deps.sh "
              f"installs qt6-base-dev and qt6-charts-dev), then `make gui`; or point NICLAB_GUI_BINARY at it.",
              file=sys.stderr)
        return 1
    argv = [str(binary)] + (["--spec", args.spec] if args.spec else [])
    os.execv(binary, argv)


def main(argv=None):
    from . import __version__
    ap = argparse.ArgumentParser(prog="niclab", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", action="version", version=f"niclab {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="Portals ping-pong on the two-node SeaStar, figures and the validation table")
    d.add_argument("--out-dir", default="niclab-demo", help="where the figures and results go (default: niclab-demo)")
    d.set_defaults(func=cmd_demo)
    v = sub.add_parser("validate", help="the simulated system against its papers' published results")
    v.add_argument("system", nargs="?", choices=_system_names(), help="one system (default: every system)")
    v.add_argument("--out", metavar="FILE.json", help="also write the table as JSON")
    v.add_argument("--sensitivity", action="store_true",
                   help="re-run the validation with each preset parameter moved by ±step and name, per row, the "
                        "parameters it depends on most (2 validations per parameter: long)")
    v.add_argument("--parameters", metavar="KEY,KEY", help="with --sensitivity: only these preset parameters")
    v.add_argument("--step", type=float, default=0.10, help="with --sensitivity: the relative step (default 0.10)")
    v.add_argument("--workers", type=int, help="with --sensitivity: worker processes (default: one per core)")
    v.set_defaults(func=cmd_validate)
    b = sub.add_parser("boot", help="boot a firmware on one NIC and report")
    b.add_argument("firmware")
    b.add_argument("--preset", default="seastar")
    b.add_argument("--until-us", type=float, default=1000.0)
    b.add_argument("--set", action="append", metavar="KEY=VALUE")
    b.set_defaults(func=cmd_boot)
    g = sub.add_parser("gdb", help="debug one node's NIC firmware with gdb-multiarch (GDB remote protocol)",
                       description="Build the system, serve the GDB remote protocol for one node's NIC core on "
                                   "127.0.0.1, print the gdb-multiarch command to attach with, wait for it, then "
                                   "run until gdb detaches or --until-us. While gdb holds the core stopped, the "
                                   "whole cluster's simulated time stands still.")
    g.add_argument("--node", type=int, default=0, help="the node whose NIC core to debug (default 0)")
    g.add_argument("--system", action=_SystemOrPreset, metavar="SYSTEM|PRESET",
                   help="the system, or one of its presets (default: --preset)")
    g.add_argument("--preset", default="seastar")
    g.add_argument("--nodes", type=int, default=2)
    g.add_argument("--firmware", metavar="NAME|PATH", help="firmware image name or ELF path (default: the system's own)")
    g.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default 0: a free one, printed)")
    g.add_argument("--until-us", type=float, help="stop the run at this simulated time (us) even if gdb stays")
    g.add_argument("--set", action="append", metavar="KEY=VALUE", help="preset parameter override")
    g.set_defaults(func=cmd_gdb)
    p = sub.add_parser("preset", help="list a preset's parameters and their sources")
    p.add_argument("name", nargs="?", default="seastar")
    p.set_defaults(func=cmd_preset)
    s = sub.add_parser("systems", help="the modelled systems with their parts, presets and transports")
    s.set_defaults(func=cmd_systems)
    pa = sub.add_parser("parts", help="the parts a spec can swap into a system (--part KIND=NAME)")
    pa.set_defaults(func=cmd_parts)
    t = sub.add_parser("tracedump", help="decode a firmware trace file",
                       description="One line per record: timestamp (hex): value (decimal): raw word "
                                   "function+offset (time to the next record). See traces/FORMAT.md.")
    t.add_argument("file", help="trace file (traces/FORMAT.md)")
    t.add_argument("--elf", help="the firmware ELF that recorded the trace (for symbols)")
    t.add_argument("--source", action="store_true", help="append the trace point's file:line")
    t.add_argument("--function", metavar="NAME", help="only records in function NAME")
    t.add_argument("--value", type=int, metavar="N", help="only records with value N")
    t.add_argument("--last", type=int, metavar="N", help="only the last N records (after the filters)")
    t.add_argument("--force", action="store_true",
                   help="decode even if the ELF is not the build that recorded the trace (marked UNRELIABLE)")
    t.set_defaults(func=cmd_tracedump)
    _add_experiment_commands(sub)
    _add_breakdown_command(sub)
    from .cli_fw import add_fw_commands
    add_fw_commands(sub)
    from .cli_capture import add_capture_commands
    add_capture_commands(sub)
    gu = sub.add_parser("gui", help="the Qt desktop workbench: systems, experiments with live plots")
    gu.add_argument("--spec", metavar="FILE.json", help="start with this system spec")
    gu.set_defaults(func=cmd_gui)
    args = ap.parse_args(argv)
    if argv is None:  # the command line itself, not a caller in Python
        from .huge_pages import run_again_if_large
        run_again_if_large(getattr(args, "nodes", None))
    try:
        return args.func(args)
    except (NiclabError, FileNotFoundError) as e:
        print(f"niclab: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("niclab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
