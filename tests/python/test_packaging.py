"""`pip install .` (setup.py): the CUDA backend only where asked or where a GPU is visible, CMake's
progress shown through pip's capture, and setuptools' folders kept out of the checkout's build/."""
import importlib.util
import io
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def setup_py():
    spec = importlib.util.spec_from_file_location("subscale_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: nothing is built
    return module


def fake_nvidia_smi(folder, exit_code, listing="GPU 0: NVIDIA H200 (UUID: GPU-0)"):
    folder.mkdir(exist_ok=True)
    script = folder / "nvidia-smi"
    script.write_text(f"#!/bin/sh\necho '{listing}'\nexit {exit_code}\n")
    script.chmod(0o755)
    return str(folder)


@pytest.mark.parametrize("gpu", [True, False])
def test_cuda_follows_a_visible_gpu_unless_asked(setup_py, tmp_path, monkeypatch, gpu):
    monkeypatch.setenv("PATH", fake_nvidia_smi(tmp_path / "bin", 0 if gpu else 9) + os.pathsep + "/usr/bin:/bin")
    monkeypatch.setattr(setup_py, "nvcc_found", lambda: True)
    assert setup_py.cuda_choice({})[0] is gpu
    assert setup_py.cuda_choice({"SUBSCALE_CUDA": "auto"})[0] is gpu
    assert setup_py.cuda_choice({"SUBSCALE_CUDA": "on"})[0] is True
    assert setup_py.cuda_choice({"SUBSCALE_CUDA": "off"})[0] is False
    if not gpu:
        assert "no GPU visible" in setup_py.cuda_choice({})[1]


def test_no_nvidia_smi_means_no_gpu(setup_py, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert setup_py.gpu_visible() is False


def test_cuda_on_without_nvcc_and_bad_values_are_refused(setup_py, monkeypatch):
    monkeypatch.setattr(setup_py, "nvcc_found", lambda: False)
    with pytest.raises(SystemExit, match="nvcc is not found.*SUBSCALE_CUDA=off"):
        setup_py.cuda_choice({"SUBSCALE_CUDA": "on"})
    with pytest.raises(SystemExit, match="use on, off or auto"):
        setup_py.cuda_choice({"SUBSCALE_CUDA": "gpu"})


def test_cmake_is_told_the_choice_and_user_arguments_come_last(setup_py, tmp_path):
    configure, build = setup_py.cmake_commands(tmp_path, False, {"SUBSCALE_CMAKE_ARGS": "-DSUBSCALE_ENABLE_MPI=OFF"})
    assert "-DSUBSCALE_ENABLE_CUDA=OFF" in configure and configure[-1] == "-DSUBSCALE_ENABLE_MPI=OFF"
    assert "-DSUBSCALE_ENABLE_CUDA=ON" in setup_py.cmake_commands(tmp_path, True, {})[0]
    assert build[:4] == ["cmake", "--build", str(tmp_path), "--target"] and "_subscale" in build


def test_progress_lines_reach_the_terminal(setup_py):
    lines = "-- configuring\n[  5%] Building CXX object a.cpp.o\nwarning: x\n[100%] Built target _subscale\n"
    terminal, out = io.StringIO(), io.StringIO()
    setup_py.run_showing_progress([sys.executable, "-c", f"print({lines!r}, end='')"], terminal, out)
    assert out.getvalue() == lines  # everything for pip's log
    assert terminal.getvalue() == ("subscale build: [  5%] Building CXX object a.cpp.o\n"
                                   "subscale build: [100%] Built target _subscale\n")
    with pytest.raises(subprocess.CalledProcessError):
        setup_py.run_showing_progress([sys.executable, "-c", "raise SystemExit(3)"], terminal, out)


def test_setuptools_stays_out_of_the_checkouts_build_folder(tmp_path):
    """build_py and egg_info (what a wheel's build runs besides CMake) in a copy of the package."""
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "python" / "subscale", tmp_path / "python" / "subscale",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "egg_info"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "build").exists()
    assert list((tmp_path / "build-python" / "setuptools").glob("lib*/subscale/_estimator.py"))
    assert not list((tmp_path / "python").glob("*.egg-info"))


def test_gitignore_covers_the_pip_build_folder():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "/build*/" in ignored  # build-python/, where CMake and setuptools build for pip
