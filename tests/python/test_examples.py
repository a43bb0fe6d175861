"""The notebooks in examples/ run from start to end as a user runs them (a Jupyter kernel in
examples/, drawing with the kernel's inline backend, which renders through Agg and needs no
display), and show what their text says."""
import os

import pytest

import subscale

from conftest import ROOT

EXAMPLES = ROOT / "examples"


def execute(notebook, monkeypatch):
    nbformat = pytest.importorskip("nbformat", reason="running the notebooks needs nbformat (Debian: python3-nbformat)")
    pytest.importorskip("nbconvert", reason="running the notebooks needs nbconvert (Debian: python3-nbconvert)")
    pytest.importorskip("ipykernel", reason="running the notebooks needs a Jupyter kernel (Debian: python3-ipykernel)")
    pytest.importorskip("matplotlib", reason="the notebooks plot with matplotlib (Debian: python3-matplotlib)")
    from nbconvert.preprocessors import ExecutePreprocessor

    # The kernel is a child process: it gets the package under test, and the figures as PNG outputs.
    package = os.path.dirname(os.path.dirname(subscale.__file__))
    monkeypatch.setenv("PYTHONPATH", package + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger warns on Debian's python
    nb = nbformat.read(str(notebook), as_version=4)
    ExecutePreprocessor(timeout=600, kernel_name="python3").preprocess(nb, {"metadata": {"path": str(EXAMPLES)}})
    return nb


def outputs(nb, kind):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if kind == "text":
                text = output.get("text") or output.get("data", {}).get("text/plain", "")
                yield "".join(text) if isinstance(text, list) else text
            elif kind in output.get("data", {}):
                yield output["data"][kind]


def test_quickstart_notebook_runs(monkeypatch):
    pytest.importorskip("sklearn", reason="the notebook's second part reads scikit-learn's wine data")
    nb = execute(EXAMPLES / "quickstart.ipynb", monkeypatch)
    text = "\n".join(outputs(nb, "text"))
    assert "'f1': 1.0" in text and "'ce': 0.0" in text  # the hidden clusters found exactly
    assert "(1000, 20)" in text and "SubspaceClustering(" in text
    assert "epsilon = " in text  # the wine fit's automatic choices, from its log
    assert len(list(outputs(nb, "image/png"))) == 2  # the two figures
    assert any("<table" in html for html in outputs(nb, "text/html"))  # the cluster tables


def test_every_notebook_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.ipynb")) == ["quickstart.ipynb"]
