"""Builds the extension module subscale._subscale with the project's own CMake build.

`pip install --no-build-isolation .` configures a Release build in build-python/ (no tests, no
benchmarks), builds the target `_subscale` and puts the module into the package. setuptools' own
folders go to build-python/setuptools/, so the checkout's build/ (scripts/setup's) is never touched.

The CUDA backend: SUBSCALE_CUDA=on builds it (nvcc must be found), SUBSCALE_CUDA=off leaves it
out, and unset (or auto) builds it only where a GPU is visible (`nvidia-smi -L` succeeds): compiling
the CUDA code is most of the build's time, and without a GPU it could never run.
SUBSCALE_CMAKE_ARGS adds CMake arguments, as for scripts/setup.

pip hides a build's output unless run with -v, and this build takes minutes: CMake's progress
lines ([ 42%] ...) are also written to the terminal (/dev/tty) when there is one.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BUILD = ROOT / "build-python"
PROGRESS_LINE = re.compile(r"^\[\s*\d+%\]")


def gpu_visible() -> bool:
    try:
        listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


def nvcc_found() -> bool:
    return shutil.which("nvcc") is not None or Path("/usr/local/cuda/bin/nvcc").exists()


def cuda_choice(environ=os.environ):
    """(build the CUDA backend?, why) from SUBSCALE_CUDA: on, off, or auto (a GPU is visible)."""
    asked = environ.get("SUBSCALE_CUDA", "auto").strip().lower()
    if asked in ("on", "1", "true", "yes"):
        if not nvcc_found():
            raise SystemExit("subscale: SUBSCALE_CUDA=on, but nvcc is not found (PATH or /usr/local/cuda/bin): "
                             "install the CUDA toolkit, or set SUBSCALE_CUDA=off for a CPU-only build")
        return True, "SUBSCALE_CUDA=on"
    if asked in ("off", "0", "false", "no"):
        return False, "SUBSCALE_CUDA=off"
    if asked not in ("auto", ""):
        raise SystemExit(f"subscale: SUBSCALE_CUDA={asked!r}: use on, off or auto (auto: CUDA where a GPU is "
                         "visible)")
    if not gpu_visible():
        return False, "no GPU visible (nvidia-smi -L failed); SUBSCALE_CUDA=on builds it anyway"
    if not nvcc_found():
        return False, "a GPU is visible but nvcc is not found"
    return True, "a GPU is visible"


def open_terminal():
    """The terminal pip runs in, when stdout is not it (pip captures a build's output); else None."""
    if sys.stdout.isatty():
        return None
    try:
        return open("/dev/tty", "w")
    except OSError:
        return None


def run_showing_progress(command, terminal=None, out=None):
    """Runs command; every line goes to out (stdout: what pip shows with -v or on a failure) and
    CMake's progress lines to the terminal as well."""
    out = out or sys.stdout
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1) as child:
        for line in child.stdout:
            out.write(line)
            out.flush()
            if terminal is not None and PROGRESS_LINE.match(line):
                terminal.write("subscale build: " + line)
                terminal.flush()
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, command)


def say(message, terminal):
    print(message, flush=True)
    if terminal is not None:
        terminal.write("\n" + message + "\n")  # off the line of pip's spinner
        terminal.flush()


def cmake_commands(build: Path, cuda: bool, environ=os.environ):
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DSUBSCALE_BUILD_TESTS=OFF", "-DSUBSCALE_BUILD_BENCH=OFF",
                 f"-DSUBSCALE_ENABLE_CUDA={'ON' if cuda else 'OFF'}", f"-DPython_EXECUTABLE={sys.executable}"]
    configure += shlex.split(environ.get("SUBSCALE_CMAKE_ARGS", ""))  # last, so that they win
    jobs = environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    return configure, ["cmake", "--build", str(build), "--target", "_subscale", "-j", jobs]


def main():
    from setuptools import Extension, setup
    from setuptools.command.build_ext import build_ext

    class CMakeExtension(Extension):
        def __init__(self, name):
            super().__init__(name, sources=[])

    class CMakeBuild(build_ext):
        def build_extension(self, ext):
            build = Path(os.environ.get("SUBSCALE_PYTHON_BUILD_DIR", BUILD))
            cuda, why = cuda_choice()
            configure, compile_module = cmake_commands(build, cuda)
            terminal = open_terminal()
            try:
                say(f"subscale: building the module with CMake in {build}, CUDA backend "
                    f"{'on' if cuda else 'off'} ({why}); minutes, progress follows", terminal)
                run_showing_progress(configure, None)
                run_showing_progress(compile_module, terminal)
            finally:
                if terminal is not None:
                    terminal.close()
            built = next((build / "python" / "subscale").glob("_subscale*.so"))
            target = Path(self.get_ext_fullpath(ext.name))
            target.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(built), str(target))

    setuptools_dir = BUILD / "setuptools"
    setuptools_dir.mkdir(parents=True, exist_ok=True)
    setup(ext_modules=[CMakeExtension("subscale._subscale")], cmdclass={"build_ext": CMakeBuild},
          # setuptools' own build/ would land in the checkout's build/, scripts/setup's CMake build.
          options={"build": {"build_base": str(setuptools_dir)},
                   "egg_info": {"egg_base": str(setuptools_dir)}})


if __name__ == "__main__":  # pip's backend (setuptools.build_meta) runs this file as __main__ too
    main()
