"""`niclab fw`: the firmware SDK from the command line (build, new, list, sdk)."""

from pathlib import Path


def _check_preset(name):
    """--preset: the image is for a preset whose NIC has an embedded core (the SDK's
    memory map is that core's); FirmwareBuildError naming the preset otherwise."""
    from . import _niclab
    from .errors import ConfigError, FirmwareBuildError
    from .experiments import system_info
    try:
        system = _niclab.preset_info(name)["system"]
    except ConfigError as e:
        raise FirmwareBuildError(f"--preset: {e}") from None
    info = system_info(system)
    if info["nic_family"] != "embedded-core":
        firmware_presets = [p for s in _niclab.systems() if s["nic_family"] == "embedded-core" for p in s["presets"]]
        raise FirmwareBuildError(f"--preset {name}: its system '{system}' has a {info['nic_family']} NIC, which runs "
                                 f"no firmware (presets with an embedded core: {', '.join(firmware_presets)})")


def cmd_build(args):
    from .sdk import build
    if args.preset:
        _check_preset(args.preset)
    out_dir = args.out_dir
    if out_dir is None and not (len(args.sources) == 1 and Path(args.sources[0]).is_dir()):
        out_dir = "."  # a project directory keeps its image unless told otherwise
    elf = build(args.sources, args.name, out_dir=out_dir, trace=args.trace, trace_entries=args.trace_entries,
                defines=args.define or (), include_dirs=args.include or ())
    print(f"built {elf}" + (f" for preset {args.preset}" if args.preset else ""))
    report = elf.with_suffix(".size.txt")
    if report.is_file():
        print(report.read_text().rstrip())
    return 0


def cmd_new(args):
    from .sdk import new
    d = new(args.name, args.dir, source=args.source)
    if args.source == "portals":
        print(f"copied the C Portals firmware into {d} (config.h holds its options); build it with "
              f"`niclab fw build {d} [--trace]` and run it with firmware=\"{d / (args.name + '.elf')}\"")
    else:
        print(f"wrote {d / (args.name + '.c')} and {d / 'CMakeLists.txt'}; build it with "
              f"`niclab fw build {d / (args.name + '.c')} --trace --out-dir {d}`")
    return 0


def _size_line(elf):
    """'text N bytes ... sram M of ...' from the image's size report, if it has one."""
    report = elf.with_suffix(".size.txt")
    if not report.is_file():
        return ""
    lines = {line.split()[0]: line for line in report.read_text().splitlines() if line.strip()}
    text = lines.get("text", "").split("(")[0].split(None, 1)[-1].strip()
    sram = lines.get("sram", "").split("(")[0].split(None, 1)[-1].strip()
    return f"text {text}, SRAM {sram}"


def cmd_list(args):
    from .firmware import available, firmware_path
    for name in available():
        elf = firmware_path(name)
        print(f"{name:24} {_size_line(elf):48} {elf}")
    for elf in sorted(Path(".").glob("*.elf")):
        print(f"{'./' + elf.name:24} {_size_line(elf):48} (this directory: name it with ./)")
    return 0


def cmd_sdk(args):
    from .sdk import sdk_dir
    print(sdk_dir())
    return 0


def add_fw_commands(sub):
    fw = sub.add_parser("fw", help="the firmware SDK: build an image from C, start a new one, list images",
                        description="Build NIC firmware from C with the SDK niclab ships (RV32IM, Debian's "
                                    "riscv64-unknown-elf-gcc), exactly as the built-in images are built.")
    cmds = fw.add_subparsers(dest="fw_command", required=True)
    b = cmds.add_parser("build", help="build an image from C/assembly sources")
    b.add_argument("sources", nargs="+", metavar="SOURCE.c|DIR",
                   help="C/assembly sources, or one project directory with its CMakeLists.txt (fw new --from portals)")
    b.add_argument("--name", help="image name (default: the first source's name, or the project directory's)")
    b.add_argument("--out-dir", help="where NAME.elf, .bin, .map and .size.txt go (default: here; a project: its directory)")
    b.add_argument("--preset", metavar="P", help="the preset the image is for: checked to have an embedded core")
    b.add_argument("--trace", action="store_true", help="turn the trace points (niclab/fw/trace.h) on")
    b.add_argument("--trace-entries", type=int, metavar="N", help="trace ring records, a power of two (default 1024)")
    b.add_argument("-D", "--define", action="append", metavar="NAME[=VALUE]", help="a preprocessor definition")
    b.add_argument("-I", "--include", action="append", metavar="DIR", help="an include directory")
    b.set_defaults(func=cmd_build)
    n = cmds.add_parser("new", help="write a starter firmware NAME/NAME.c, or a copy of the C Portals firmware")
    n.add_argument("name")
    n.add_argument("--dir", help="the directory (default: NAME)")
    n.add_argument("--from", dest="source", choices=["hello", "portals"], default="hello",
                   help="hello: a one-file starter (default); portals: the built-in C Portals firmware to change")
    n.set_defaults(func=cmd_new)
    ls = cmds.add_parser("list", help="the built-in images (and ELFs here) with their size reports")
    ls.set_defaults(func=cmd_list)
    s = cmds.add_parser("sdk", help="print the SDK directory (headers, toolchain file, niclab_firmware.cmake)")
    s.set_defaults(func=cmd_sdk)
