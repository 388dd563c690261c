#!/usr/bin/env python3
"""Run the ISA tests of the NIC core against QEMU as an independent oracle.

Each test in DIR exists twice (tests/firmware/CMakeLists.txt): NAME.qemu.elf for
QEMU's virt board and NAME.elf for the niclab core. Both print one
"name: 0x%08x" line per result and a final "done", then halt.

  run_isa_oracle.py --qemu-only DIR     run every *.qemu.elf under QEMU and check
                                        that it exits 0 with output ending in "done"
  run_isa_oracle.py --sim RUNNER DIR    also run NAME.elf as `RUNNER NAME.elf` (niclab-run:
                                        console to stdout, exit code = firmware's)
                                        and require the two outputs to be identical

Prints one line per test, a diff for each mismatch and "N passed, M failed";
exits 1 if any test failed. Python 3 standard library only.
"""
import argparse
import difflib
import pathlib
import subprocess
import sys

# The CPU is cut down to RV32IM + Zicsr + Zifencei, M-mode only, like the NIC core.
QEMU = ["qemu-system-riscv32", "-M", "virt", "-bios", "none", "-nographic",
        "-cpu", "rv32,c=off,a=off,f=off,d=off,h=off,s=off,u=off",
        "-serial", "stdio", "-monitor", "none", "-kernel"]
TIMEOUT_S = 30


def run(cmd):
    """Runs cmd; returns (exit code or None on timeout, stdout lines, stderr)."""
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out.splitlines(), f"timed out after {TIMEOUT_S} s"
    except OSError as e:
        return -1, [], str(e)
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    return p.returncode, out.splitlines(), p.stderr.decode("utf-8", "replace")


def check_run(label, code, lines, err):
    """Problems with one run: a bad exit, a timeout, output not ending in 'done'."""
    problems = []
    if code is None:
        problems.append(f"{label}: {err}")
    elif code != 0:
        problems.append(f"{label}: exit code {code}" + (f" ({err.strip()})" if err.strip() else ""))
    if not lines or lines[-1] != "done":
        problems.append(f"{label}: output does not end with 'done'")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--qemu-only", action="store_true", help="run the QEMU builds only")
    mode.add_argument("--sim", metavar="RUNNER", help="niclab runner: RUNNER X.elf")
    ap.add_argument("dir", type=pathlib.Path, help="directory holding the built ISA tests")
    args = ap.parse_args()

    qemu_elfs = sorted(args.dir.glob("*.qemu.elf"))
    if not qemu_elfs:
        print(f"no *.qemu.elf in {args.dir}", file=sys.stderr)
        return 2

    passed = failed = 0
    for qemu_elf in qemu_elfs:
        name = qemu_elf.name[: -len(".qemu.elf")]
        q_code, q_lines, q_err = run(QEMU + [str(qemu_elf)])
        problems = check_run("qemu", q_code, q_lines, q_err)
        diff = []
        if args.sim:
            sim_elf = args.dir / f"{name}.elf"
            s_code, s_lines, s_err = run([args.sim, str(sim_elf)])
            problems += check_run("niclab", s_code, s_lines, s_err)
            if s_lines != q_lines:
                problems.append("niclab output differs from qemu")
                diff = list(difflib.unified_diff(q_lines, s_lines, f"{name} (qemu)",
                                                 f"{name} (niclab)", lineterm=""))
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
            for line in diff:
                print("    " + line)
        else:
            passed += 1
            print(f"ok   {name} ({len(q_lines) - 1} results)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
