"""The notebooks in notebooks/ run top to bottom without an error (nbclient, the
venv's python3 kernel), in a scratch directory so their output files stay out of the tree."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            assert not errors, f"{path.name}: {errors[0]['ename']}: {errors[0]['evalue']}"
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert images, f"{path.name}: no figure was shown"
