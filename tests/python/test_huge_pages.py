"""The command line starts itself again on transparent huge pages for a large system
(niclab.huge_pages), and says so; smaller systems and a GLIBC_TUNABLES that already
says are left alone."""
import os
import subprocess
import sys

from niclab import huge_pages

HALO = ["run", "halo3d", "--nodes", "8", "--option", "iterations=1"]


def _env(**set_):
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    env.update(set_)
    return env


def test_the_tunable_is_added_to_what_glibc_tunables_holds():
    assert huge_pages.environment({})["GLIBC_TUNABLES"] == "glibc.malloc.hugetlb=1"
    env = huge_pages.environment({"GLIBC_TUNABLES": "glibc.malloc.check=3", "HOME": "/x"})
    assert env["GLIBC_TUNABLES"] == "glibc.malloc.check=3:glibc.malloc.hugetlb=1"
    assert env["HOME"] == "/x"
    assert huge_pages.on(env) and huge_pages.asked(env)
    assert huge_pages.asked({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"})
    assert not huge_pages.on({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"})
    assert not huge_pages.asked({})


def test_only_a_large_system_not_yet_asked_runs_again(monkeypatch):
    calls = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((path, argv, env)))
    monkeypatch.setattr(sys, "argv", ["niclab", *HALO])
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    huge_pages.run_again_if_large(huge_pages.LARGE - 1)
    huge_pages.run_again_if_large(None)
    assert calls == []
    huge_pages.run_again_if_large(huge_pages.LARGE)
    (path, argv, env), = calls
    assert path == sys.executable and argv == [sys.executable, "-m", "niclab", *HALO]
    assert env["GLIBC_TUNABLES"] == "glibc.malloc.hugetlb=1"
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0")  # the user said no
    huge_pages.run_again_if_large(huge_pages.LARGE)
    assert len(calls) == 1


def test_the_run_started_again_is_on_huge_pages_and_says_so():
    # A real start again (the threshold lowered for an 8-node halo): the new process has
    # the tunable, so it does not start again a second time, and its header says so.
    script = ("import sys; from niclab import huge_pages; huge_pages.LARGE = 1; "
              f"sys.argv = ['niclab', *{HALO!r}]; huge_pages.run_again_if_large(8); print('not started again')")
    out = subprocess.run([sys.executable, "-c", script], env=_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "not started again" not in out.stdout
    assert "# halo3d: portals put, 1 point(s), seed 0, on mesh:dims=2x2x2, malloc on huge pages" in out.stdout


def test_a_small_run_stays_on_4_kb_pages():
    out = subprocess.run([sys.executable, "-m", "niclab", *HALO], env=_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "# halo3d: portals put, 1 point(s), seed 0, on mesh:dims=2x2x2\n" in out.stdout


def test_the_command_line_asks_with_its_nodes(monkeypatch):
    # main() as the command line runs it (argv from sys.argv) hands its --nodes over.
    from niclab import cli

    class Started(Exception):
        pass

    def execve(path, argv, env):
        raise Started(env["GLIBC_TUNABLES"])

    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setattr(huge_pages, "LARGE", 8)
    monkeypatch.setattr(sys, "argv", ["niclab", *HALO])
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    try:
        cli.main()
    except Started as e:
        assert str(e) == "glibc.malloc.hugetlb=1"
    else:
        raise AssertionError("an 8-node run with the threshold at 8 did not start again")


def test_a_start_again_that_fails_goes_on_without_and_says_so(monkeypatch, capsys):
    def execve(path, argv, env):
        raise FileNotFoundError(2, "No such file or directory", path)

    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setattr(sys, "argv", ["niclab", *HALO])
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    huge_pages.run_again_if_large(huge_pages.LARGE)  # returns: the run goes on
    err = capsys.readouterr().err
    assert "could not start again on huge pages" in err and "No such file or directory" in err
