"""The teaching labs (notebooks/labs/, issue 16): each runs top to bottom with its
reference solution applied, and without it fails its own self-check with a hint."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

LABS = sorted((Path(__file__).resolve().parents[2] / "notebooks" / "labs").glob("*.ipynb"))


def execute(path, tmp_path, monkeypatch, solved):
    monkeypatch.setenv("NICLAB_LAB_SOLUTIONS", "1" if solved else "0")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}}, allow_errors=not solved)
    client.execute()
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]


def test_there_are_three_labs():
    assert len(LABS) >= 3


@pytest.mark.parametrize("path", LABS, ids=[p.name for p in LABS])
def test_the_reference_solution_passes(path, tmp_path, monkeypatch):
    assert execute(path, tmp_path, monkeypatch, solved=True) == []


@pytest.mark.parametrize("path", LABS, ids=[p.name for p in LABS])
def test_the_unsolved_lab_fails_its_self_check(path, tmp_path, monkeypatch):
    errors = execute(path, tmp_path, monkeypatch, solved=False)
    assert errors, "the self-check passed without the exercise done"
    assert errors[0]["ename"] == "LabCheckFailed", errors[0]
    assert len(errors[0]["evalue"]) > 40, "the failure says what to look at"
