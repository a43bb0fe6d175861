"""Shared fixtures: the package under test (build/python unless subscale is importable already),
the command line beside it (build/subscale, or SUBSCALE_BINARY) and the shipped dataset."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("SUBSCALE_BUILD_DIR", ROOT / "build"))
if str(BUILD / "python") not in sys.path:
    sys.path.insert(0, str(BUILD / "python"))

QUICKSTART = ROOT / "datasets" / "quickstart.h5"
QUICKSTART_TRUTH = ROOT / "datasets" / "quickstart.true"
QUICKSTART_PARAMS = dict(epsilon=0.004, min_points=4, merge__epsilon=0.02, merge__min_points=20)


def cli_binary() -> Path:
    return Path(os.environ.get("SUBSCALE_BINARY", BUILD / "subscale"))


def run_cli(config: Path, out: Path, *overrides: str) -> Path:
    binary = cli_binary()
    if not binary.exists():
        pytest.fail(f"{binary} is missing: build the command line (cmake --build build --target subscale)")
    subprocess.run([str(binary), "run", str(config), *overrides, "--out", str(out), "--quiet"], check=True)
    return out


@pytest.fixture(scope="session")
def quickstart_run(tmp_path_factory) -> Path:
    """The command line's run of configs/quickstart.yaml (with its ground truth)."""
    return run_cli(ROOT / "configs" / "quickstart.yaml", tmp_path_factory.mktemp("cli") / "quickstart")
