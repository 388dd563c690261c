"""`niclab gui` starts the workbench program, or says clearly that it is not built."""
import os
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


def _niclab(*args, env_extra):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), **env_extra)
    return subprocess.run([sys.executable, "-m", "niclab", *args], env=env, capture_output=True, text=True, timeout=60)


def test_gui_execs_the_program_with_the_spec(tmp_path):
    fake = tmp_path / "niclab-gui"
    fake.write_text("#!/bin/sh\necho started \"$@\"\n")
    fake.chmod(0o755)
    r = _niclab("gui", "--spec", "cluster.json", env_extra={"NICLAB_GUI_BINARY": str(fake)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "started --spec cluster.json"


def test_gui_not_built_is_a_clear_error(tmp_path):
    missing = tmp_path / "no-such-gui"
    r = _niclab("gui", env_extra={"NICLAB_GUI_BINARY": str(missing)})
    assert r.returncode == 1
    assert "GUI is not built" in r.stderr and str(missing) in r.stderr
