"""The README's Python example runs as written (with matplotlib's non-interactive backend)."""
import os
import re

import pytest

from conftest import ROOT


def test_readme_example_runs(monkeypatch, capsys):
    pytest.importorskip("matplotlib", reason="the README's example plots with matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    example = [b for b in blocks if "SubspaceClustering" in b and "matplotlib" in b]
    assert len(example) == 1
    monkeypatch.chdir(ROOT)
    exec(compile(example[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "'f1': 1.0" in out and "(2, 7)" in out and "score" in out
    assert os.getcwd() == str(ROOT)
