"""GDB on a simulated NIC: gdb-multiarch in batch mode against System.gdb_server and
`niclab gdb`, with the gdb_demo firmware (firmware/examples/gdb_demo.c): it stops at a
source line, prints a known global, steps, watches a store, and the cluster's
simulated time stands still while the core is halted."""

import pathlib
import re
import shutil
import subprocess
import sys
import threading

import pytest

import niclab

GDB = shutil.which("gdb-multiarch")
pytestmark = pytest.mark.skipif(GDB is None, reason="gdb-multiarch is not installed "
                                                    "(scripts/install-system-deps.sh installs it)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = ROOT / "firmware" / "examples" / "gdb_demo.c"
MAGIC = 0x5EA57A12


def source_line(marker):
    for number, line in enumerate(SOURCE.read_text().splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError(f"{marker!r} not in {SOURCE}")


def gdb(elf, port, *commands, timeout=60):
    """Runs gdb-multiarch in batch mode against :port; returns its stdout and stderr."""
    argv = [GDB, "--batch", "-nx", "-ex", "set architecture riscv:rv32", "-ex", f"target remote :{port}"]
    for c in commands:
        argv += ["-ex", c]
    argv.append(str(elf))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return done.stdout + done.stderr


def serve(system, server, until_us=20000.0):
    """The simulation thread, as `niclab gdb` runs it: wait for gdb, then run in slices
    until it detaches."""
    def body():
        if not server.wait_for_attach(timeout_s=60):
            return
        while server.sessions_ended == 0 and system.now_us < until_us:
            system.run(for_us=50)
            server.poll()
    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t


def global_times(out):
    return re.findall(r"global time ([0-9.]+) us \((\d+) ps\)", out)


def test_gdb_breaks_at_a_line_prints_steps_and_watches():
    s = niclab.System({"nodes": 2, "firmware": "gdb_demo"})
    elf = s.nic(0).firmware
    line = source_line("gdb-demo: tick writes here")
    server = s.gdb_server(0)
    sim = serve(s, server)
    out = gdb(elf, server.port,
              f"break gdb_demo.c:{line}", "continue",
              "print gdb_magic", "print/x gdb_magic", "print gdb_ticks",
              "info registers pc", "monitor time",
              "stepi", "info registers pc", "monitor time",
              "delete", "watch gdb_ticks", "continue",
              "info registers mcause", "detach")
    sim.join(timeout=60)
    assert not sim.is_alive(), out
    assert server.sessions_ended == 1, out

    assert re.search(rf"Breakpoint 1, tick \(.*\) at .*gdb_demo\.c:{line}", out), out
    assert f"$1 = {MAGIC}" in out, out
    assert f"$2 = {MAGIC:#x}" in out, out
    m = re.search(r"^\$3 = (\d+)$", out, re.M)  # gdb_ticks before this tick's store
    assert m, out
    ticks = int(m.group(1))

    pcs = [int(v, 16) for v in re.findall(r"^pc\s+(0x[0-9a-f]+)", out, re.M)]
    assert len(pcs) == 2, out
    assert pcs[1] == pcs[0] + 4, out  # stepi executed exactly one instruction
    assert pcs[0] == s.nic(0).symbol("tick"), out

    # Halted, the cluster stood still: the step moved the core, not global simulated time.
    times = global_times(out)
    assert len(times) == 2 and times[0] == times[1], out

    assert re.search(rf"(Hardware )?[Ww]atchpoint 2: gdb_ticks\s+Old value = {ticks}\s+New value = {ticks + 1}\s",
                     out), out
    assert "mcause" in out, out
    assert "Detaching from program" in out or "detached" in out.lower(), out

    # Detached, the firmware and the cluster run on.
    before = s.nic(0).peek32(s.nic(0).symbol("gdb_ticks"))
    s.run(for_us=100)
    assert s.nic(0).peek32(s.nic(0).symbol("gdb_ticks")) > before


def test_gdb_sees_a_firmware_fault_as_a_signal(fw):
    s = niclab.System({"nodes": 1, "firmware": "fault_illegal"})
    server = s.gdb_server(0)
    sim = serve(s, server)
    out = gdb(fw("fault_illegal"), server.port, "continue", "info registers pc", "continue")
    sim.join(timeout=60)
    assert not sim.is_alive(), out
    assert "SIGILL" in out and "do_illegal_instruction" in out, out
    assert "terminated with signal SIGILL" in out, out
    assert s.nic(0).faulted  # as it would without a debugger


def test_gdb_server_errors_name_what_is_wrong():
    s = niclab.System({"nodes": 2, "firmware": "gdb_demo"})
    with pytest.raises(niclab.ConfigError, match=r"node 5 does not exist.*0\.\.1") as e:
        s.gdb_server(5)
    assert e.value.key_path == "node"
    with pytest.raises(niclab.ConfigError, match="port"):
        s.gdb_server(0, port=70000)
    first = s.gdb_server(0)
    with pytest.raises(niclab.GdbServerError, match=str(first.port)) as e:
        s.gdb_server(1, port=first.port)
    assert e.value.port == first.port
    first.close()

    startx = niclab.System({"system": "startx", "nodes": 2})
    with pytest.raises(niclab.ConfigError, match="no embedded core") as e:
        startx.gdb_server(0)
    assert e.value.key_path == "node"


def test_niclab_gdb_prints_the_command_and_runs_until_gdb_detaches():
    cli = subprocess.Popen([sys.executable, "-m", "niclab", "gdb", "--nodes", "2", "--node", "1",
                            "--firmware", "gdb_demo", "--until-us", "5000"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        cli.stdout.readline()
        attach = cli.stdout.readline()
        m = re.search(r"gdb-multiarch (\S+) -ex 'target remote :(\d+)'", attach)
        assert m, attach
        out = gdb(m.group(1), int(m.group(2)), "print gdb_magic", "print $mhartid", "detach")
        rest, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert f"$1 = {MAGIC}" in out, out
    assert "$2 = 1" in out, out  # node 1's core
    assert cli.returncode == 0, err
    assert "gdb detached" in rest, rest
