"""Large systems on transparent huge pages.

A large system's state is gigabytes of small objects in malloc's memory, and a message
touches a few lines of many of them: with 4 KB pages those touches miss the host's TLB
as well as its caches (Red Storm's halo took 0.81x the time on huge pages; README,
``bench_scale``). glibc backs malloc's memory with transparent huge pages when
``GLIBC_TUNABLES`` asks (``glibc.malloc.hugetlb=1``, glibc 2.35 on, with the kernel's
``transparent_hugepage`` at ``madvise`` or ``always``), and reads it only when a process
starts. So the command line, given a system of ``LARGE`` nodes or more, starts itself
again with it, once; from Python or Jupyter, start the interpreter with it set.
The simulated results are the same either way, and so is the memory.
"""
import os
import sys

TUNABLE = "glibc.malloc.hugetlb="
# Nodes. Faulting memory in as huge pages costs system time at start-up: a 1,024-node
# halo of one iteration took 5.4-6.1 s on huge pages against 3.8-4.2 s without (the
# README). At 2,048 nodes a short halo gains nothing measurable, at Red Storm's 10,368 a fifth.
LARGE = 8192


def asked(environ=os.environ):
    """Whether GLIBC_TUNABLES sets the tunable, to any value ("=0" is the user saying no)."""
    return TUNABLE in environ.get("GLIBC_TUNABLES", "")


def on(environ=os.environ):
    """Whether this process's malloc was asked for huge pages."""
    return asked(environ) and TUNABLE + "0" not in environ.get("GLIBC_TUNABLES", "")


def environment(environ=os.environ):
    """`environ` with the tunable added to whatever GLIBC_TUNABLES already holds."""
    tunables = environ.get("GLIBC_TUNABLES", "")
    return dict(environ, GLIBC_TUNABLES=(tunables + ":" if tunables else "") + TUNABLE + "1")


def run_again_if_large(nodes):
    """The command line's process, started again on huge pages for a system of LARGE
    nodes or more; returns if it is smaller, GLIBC_TUNABLES already says, or the
    interpreter cannot be started again (said on stderr: the run goes on without)."""
    if nodes is None or nodes < LARGE or asked():
        return
    sys.stdout.flush()
    try:
        os.execve(sys.executable, [sys.executable, "-m", "niclab", *sys.argv[1:]], environment())
    except OSError as e:
        print(f"niclab: could not start again on huge pages ({e}): going on without", file=sys.stderr)
