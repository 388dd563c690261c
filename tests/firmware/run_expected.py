#!/usr/bin/env python3
"""Run a firmware on the niclab simulator and compare its console with a .expected file.

    run_expected.py RUNNER FIRMWARE.elf EXPECTED

Exit 0 when the console output equals EXPECTED exactly and the firmware exits 0.
"""
import difflib
import subprocess
import sys


def main():
    runner, elf, expected_path = sys.argv[1:4]
    proc = subprocess.run([runner, elf], capture_output=True, text=True, timeout=120)
    expected = open(expected_path).read()
    if proc.stdout != expected or proc.returncode != 0:
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), proc.stdout.splitlines(True),
                                                   "expected", "niclab"))
        print(f"exit code {proc.returncode}; stderr: {proc.stderr}")
        return 1
    print(f"{elf}: console matches {expected_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
