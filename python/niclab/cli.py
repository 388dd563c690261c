"""The ``niclab`` command line.

    niclab demo                      boot the hello firmware on one SeaStar NIC
    niclab boot FIRMWARE [--until-us N] [--set key=value ...]
    niclab preset [NAME]             the preset's parameters with their sources
    niclab tracedump FILE [--elf FIRMWARE.elf] [--source] [--function NAME] [--value N]
                     [--last N] [--force]
                                     decode a firmware trace file (seed 000 Figure 2)
"""

import argparse
import sys

from . import Nic, NiclabError, System


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


def cmd_demo(args):
    """Boot one simulated SeaStar NIC with the hello firmware and show what it did."""
    nic = Nic("seastar", firmware="hello")
    _report(nic, until_us=args.until_us)
    return 0


def cmd_boot(args):
    nic = Nic(args.preset, firmware=args.firmware, set=_parse_sets(args.set))
    _report(nic, until_us=args.until_us)
    return 0 if not nic.faulted else 1


def cmd_preset(args):
    sys_ = System.from_preset(args.name, nodes=1)
    for p in sys_.parameters():
        print(f"{p['key']:32} {p['value']:>8} {p['unit']:7} {p['source']}")
    return 0


def cmd_tracedump(args):
    """Print a trace file one record per line, as seed 000 Figure 2 shows it."""
    from .trace import read_trace
    trace = read_trace(args.file, args.elf, force=args.force)
    sys.stdout.write(trace.format(source=args.source, function=args.function, value=args.value, last=args.last))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="niclab", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="boot the hello firmware on one SeaStar NIC")
    d.add_argument("--until-us", type=float, default=1000.0)
    d.set_defaults(func=cmd_demo)
    b = sub.add_parser("boot", help="boot a firmware on one NIC and report")
    b.add_argument("firmware")
    b.add_argument("--preset", default="seastar")
    b.add_argument("--until-us", type=float, default=1000.0)
    b.add_argument("--set", action="append", metavar="KEY=VALUE")
    b.set_defaults(func=cmd_boot)
    p = sub.add_parser("preset", help="list a preset's parameters and their sources")
    p.add_argument("name", nargs="?", default="seastar")
    p.set_defaults(func=cmd_preset)
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
    args = ap.parse_args(argv)
    try:
        return args.func(args)
    except (NiclabError, FileNotFoundError) as e:
        print(f"niclab: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
