"""`niclab capture`: where niclab's Wireshark dissector is, and the capture options of
`niclab run` (--capture FILE --capture-nodes 0,1 --capture-links 4)."""

import os
import pathlib
import shutil


def _id_list(text):
    """'0,1,5' -> [0, 1, 5] (argparse type)."""
    import argparse
    try:
        return [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated ids such as 0,1, got {text!r}") from None


def add_run_capture_arguments(r):
    r.add_argument("--capture", metavar="FILE.pcapng",
                   help="write the run's packets to a pcapng file (read it with Wireshark and niclab's dissector: "
                        "`niclab capture --print-dissector`)")
    r.add_argument("--capture-nodes", type=_id_list, metavar="0,1", help="tap these nodes (default: every node)")
    r.add_argument("--capture-links", type=_id_list, metavar="4,5", help="tap these link ids")


def run_capture(args, target=None):
    """The `capture` argument of niclab.run for `niclab run`'s options (None: no capture).
    `target` overrides the file (one per --vary value)."""
    if not args.capture:
        if args.capture_nodes or args.capture_links:
            raise SystemExit("niclab: --capture-nodes and --capture-links need --capture FILE")
        return None
    return {"file": str(target or args.capture), "nodes": args.capture_nodes, "links": args.capture_links}


def _plugin_dir():
    # Wireshark's personal Lua plugins folder (`tshark -G folders`: "Personal Lua Plugins").
    return pathlib.Path.home() / ".local" / "lib" / "wireshark" / "plugins"


def cmd_capture(args):
    from .capture import dissector_path
    path = dissector_path()
    if args.install_dissector:
        target_dir = pathlib.Path(args.plugin_dir) if args.plugin_dir else _plugin_dir()
        target_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target_dir / path.name)
        print(target_dir / path.name)
        return 0
    print(path)
    return 0


def add_capture_commands(sub):
    c = sub.add_parser("capture", help="niclab's Wireshark dissector for pcapng captures (print its path, install it)",
                       description="Captures come from `niclab run ... --capture FILE` or System.capture(). Read them "
                                   "with `tshark -X lua_script:$(niclab capture --print-dissector) -r FILE`, or "
                                   "install the dissector into Wireshark's personal plugins folder.")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--print-dissector", action="store_true", help="print the path of niclab.lua (the default)")
    g.add_argument("--install-dissector", action="store_true",
                   help="copy niclab.lua into ~/.local/lib/wireshark/plugins (or --plugin-dir) and print where")
    c.add_argument("--plugin-dir", metavar="DIR", help="where --install-dissector copies it")
    c.set_defaults(func=cmd_capture)
