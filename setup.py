"""Builds the extension module subscale._subscale with the project's own CMake build.

`pip install --no-build-isolation .` configures a Release build in build-python/ (CUDA when nvcc
is found, as the command line's build; no tests, no benchmarks), builds the target `_subscale`
and puts the module into the package. SUBSCALE_CMAKE_ARGS adds CMake arguments, as for
scripts/setup.
"""
import os
import shlex
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(os.environ.get("SUBSCALE_PYTHON_BUILD_DIR", ROOT / "build-python"))
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DSUBSCALE_BUILD_TESTS=OFF", "-DSUBSCALE_BUILD_BENCH=OFF",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        configure += shlex.split(os.environ.get("SUBSCALE_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "_subscale", "-j", jobs], check=True)
        built = next((build / "python" / "subscale").glob("_subscale*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(target))


setup(ext_modules=[CMakeExtension("subscale._subscale")], cmdclass={"build_ext": CMakeBuild})
