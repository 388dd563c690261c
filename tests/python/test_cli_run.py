"""`niclab experiments` and `niclab run`, run as a user would: python -m niclab ..."""

import json
import signal
import subprocess
import sys
import time

import pytest

import niclab
from niclab.cli import main, parse_size


def _niclab(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "niclab", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_experiments_lists_the_registry():
    r = _niclab("experiments")
    assert r.returncode == 0, r.stderr
    names = [line.split()[0] for line in r.stdout.splitlines()]
    assert names == [n for n, _ in niclab.list_experiments()]
    assert "pingpong" in names and "ping-pong" in r.stdout


def test_run_saves_json_and_plot(tmp_path):
    r = _niclab("run", "pingpong", "--sizes", "1,64", "--out", "x.json", "--plot", "x.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "latency_us (us)" in r.stdout and "portals put" in r.stdout
    res = niclab.Result.load(tmp_path / "x.json")
    assert res.size.tolist() == [1, 64] and not res.stopped
    assert (tmp_path / "x.png").read_bytes()[:4] == b"\x89PNG"


def test_run_options_and_formats(tmp_path):
    r = _niclab("run", "stream", "--op", "get", "--max-size", "4K", "--option", "repeats=2",
                "--out", str(tmp_path / "s.dat"), "--format", "osu", "--quiet")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    text = (tmp_path / "s.dat").read_text()
    assert "Bandwidth (MB/s)" in text
    assert text.splitlines()[-1].split()[0] == "4096"


def test_bad_option_exits_1_naming_the_key():
    r = _niclab("run", "pingpong", "--sizes", "1", "--option", "sizez=3")
    assert r.returncode == 1
    assert "niclab: ExperimentError:" in r.stderr and "sizez" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_experiment_exits_1_listing_names():
    r = _niclab("run", "pingpang")
    assert r.returncode == 1 and "pingpong" in r.stderr and "Traceback" not in r.stderr


def test_sizes_accept_suffixes():
    assert parse_size("8M") == 8 << 20 and parse_size("64K") == 65536 and parse_size("4096") == 4096
    assert parse_size("1kib") == 1024


def test_ctrl_c_keeps_the_points_and_writes_out(tmp_path):
    # A long sweep (64 MiB), interrupted after it has started: whatever was measured is kept.
    # SIGINT at its default in the child: under a shell's background job (`make test &`) it
    # starts ignored, and Python then leaves it ignored, so Ctrl-C would never arrive.
    p = subprocess.Popen([sys.executable, "-m", "niclab", "run", "pingpong", "--max-size", "64M",
                          "--out", str(tmp_path / "x.json")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    p.send_signal(signal.SIGINT)
    try:
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            # Once in a few full test runs the first Ctrl-C goes unnoticed and the sweep runs
            # on (a known, not yet understood loss): a second one must still keep the points.
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=300)
    finally:
        p.kill()
    assert p.returncode == 130, (out[-3000:], err)
    assert "interrupted: kept" in err
    res = niclab.Result.load(tmp_path / "x.json")
    assert res.stopped and len(res) >= 1
    assert f"kept {len(res)} point(s)" in err


@pytest.mark.parametrize("name", [n for n, _ in niclab.list_experiments()])
def test_run_each_experiment_small_saves_and_plots(name, tmp_path):
    from test_experiments import SYSTEM_ONLY, small
    options = [f"--option={key}={json.dumps(value)}" for key, value in small(name).items()]
    if name in SYSTEM_ONLY:
        options += ["--system", SYSTEM_ONLY[name]]
    r = _niclab("run", name, *options, "--out", "r.json", "--plot", "r.png", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    saved = niclab.Result.load(tmp_path / "r.json")
    assert saved.experiment == name and len(saved) > 0 and not saved.stopped
    assert (tmp_path / "r.png").stat().st_size > 0


def test_system_takes_a_preset_as_the_issue_writes_it(tmp_path):
    # `niclab run pingpong --system grim-lanai9 --transport rm-p`: a preset names its system.
    r = _niclab("run", "pingpong", "--system", "grim-lanai9", "--transport", "rm-p", "--sizes", "4",
                "--out", "r.json", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    saved = niclab.Result.load(tmp_path / "r.json")
    assert saved.system["system"] == "grim" and saved.system["preset"] == "grim-lanai9"
    bad = _niclab("run", "pingpong", "--system", "lanai9", cwd=tmp_path)
    assert bad.returncode == 2 and "'lanai9' is neither a system nor a preset" in bad.stderr
    assert "grim (grim-lanai4-p4, grim-lanai4, grim-lanai9-p4, grim-lanai9)" in bad.stderr


def test_vary_runs_once_per_value_saves_each_and_overlays(tmp_path):
    # Figure 6 of seed 003 is this shape: one curve per value of a preset parameter.
    r = _niclab("run", "pingpong", "--system", "startx", "--sizes", "8,512", "--vary", "bus.clock_hz=33333333,66666666",
                "--out", "r.json", "--plot", "r.png", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    slow = niclab.Result.load(tmp_path / "r.bus.clock_hz=33333333.json")
    fast = niclab.Result.load(tmp_path / "r.bus.clock_hz=66666666.json")
    assert slow.system["parameters"]["bus.clock_hz"] == 33333333
    assert fast.system["parameters"]["bus.clock_hz"] == 66666666
    assert fast.latency_us[0] < slow.latency_us[0]  # a faster bus is quicker for the small message
    assert (tmp_path / "r.png").stat().st_size > 0


def test_vary_names_a_bad_value():
    r = _niclab("run", "pingpong", "--vary", "bus.clock_hz=fast", "--quiet")
    assert r.returncode != 0 and "'fast' is not a number" in r.stderr


def test_plot_overlays_saved_results_in_pdf_with_given_labels(tmp_path, monkeypatch):
    from niclab import plots
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["run", "pingpong", "--sizes", "8,1K", "--quiet", "--out", str(a)]) == 0
    assert main(["run", "pingpong", "--sizes", "8,1K", "--quiet", "--out", str(b), "--set", "core.clock_mhz=300"]) == 0
    seen = {}
    real = plots.overlay

    def spy(results, what="latency", ax=None):
        seen["labels"] = [r.label for r in results]
        fig = real(results, what, ax)
        seen["legend"] = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        return fig
    monkeypatch.setattr(plots, "overlay", spy)
    fig = tmp_path / "fig.pdf"
    assert main(["plot", str(a), str(b), "--what", "latency", "--label", "500 MHz", "--label", "300 MHz",
                 "--out", str(fig)]) == 0
    assert fig.read_bytes().startswith(b"%PDF")
    assert seen["labels"] == ["500 MHz", "300 MHz"] and seen["legend"][:2] == ["500 MHz", "300 MHz"]
    with pytest.raises(SystemExit, match="3 --label for 2 file"):
        main(["plot", str(a), str(b), "--label", "x", "--label", "y", "--label", "z", "--out", str(fig)])


def test_plot_names_equal_labels_by_their_files(tmp_path, monkeypatch):
    from niclab import plots
    a, b = tmp_path / "fast.json", tmp_path / "slow.json"
    main(["run", "pingpong", "--sizes", "8", "--quiet", "--out", str(a)])
    main(["run", "pingpong", "--sizes", "8", "--quiet", "--out", str(b)])
    seen = {}
    real = plots.overlay

    def spy(results, what="latency", ax=None):
        seen["labels"] = [r.label for r in results]
        return real(results, what, ax)
    monkeypatch.setattr(plots, "overlay", spy)
    assert main(["plot", str(a), str(b), "--what", "latency", "--out", str(tmp_path / "f.svg")]) == 0
    assert seen["labels"] == ["portals put (fast)", "portals put (slow)"]


def test_version(capsys):
    import niclab
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"niclab {niclab.__version__}"
    import pathlib
    import tomllib
    pyproject = tomllib.loads((pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert niclab.__version__ == pyproject["project"]["version"]  # one version, CMake's and the package's
    r = niclab.run("pingpong", sizes=[8])
    assert r.simulator == niclab.__version__ and f"niclab {niclab.__version__}" in r.to_csv().splitlines()[0]
