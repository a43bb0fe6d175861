#!/usr/bin/env python3
"""The Python call's overhead against the command line (bench/RESULTS.md, "The Python call's overhead").

For each case it times, best of --repeat:
- cli:   `build/subscale run CONFIG --quiet` (a process: start, read the file, run, write the folder)
- work:  the stages the library ran (summary timings without load and write) in that CLI run
- fit:   SubspaceClustering(...).fit(X) on the matrix already in memory (numpy)
- stages: the same stages inside the fit (timings_, normalisation included)
- overhead = fit - stages (the smallest of the repeats): config, conversion, the run's thread, the
  numpy results, summary.json's text
and checks that fitting a C-ordered float64 array makes no copy of it (tracemalloc sees numpy's
allocations: the peak during the fit stays far below the array's size).

  PYTHONPATH=build/python /usr/bin/python3 bench/python/overhead.py [--repeat 3] [--big]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "build" / "python"))
import subscale  # noqa: E402

CLI = ROOT / "build" / "subscale"


def best(times):
    return min(times)


def cli_run(config, out, overrides):
    start = time.perf_counter()
    subprocess.run([str(CLI), "run", str(config), *overrides, "--out", str(out), "--quiet"], check=True)
    wall = time.perf_counter() - start
    timings = json.loads((out / "summary.json").read_text())["timings_seconds"]
    work = sum(v for k, v in timings.items() if k not in ("load", "write", "total"))
    return wall, work


def case(name, X, config, params, repeat, truth=None):
    model = subscale.SubspaceClustering(**params, progress=False)
    overrides = model._library_overrides()
    cli, work = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeat):
            w, s = cli_run(config, Path(tmp) / f"run{r}", overrides)
            cli.append(w)
            work.append(s)
    fit, stages = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        model.fit(X, truth=truth)
        fit.append(time.perf_counter() - start)
        stages.append(sum(model.timings_.values()))
    overheads = [f - s for f, s in zip(fit, stages)]
    tracemalloc.start()
    model.fit(X)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    row = dict(case=name, shape=X.shape, order="C" if X.flags.c_contiguous else "F", clusters=len(model.clusters_),
               cli_s=best(cli), cli_work_s=best(work), fit_s=best(fit), fit_stages_s=best(stages),
               overhead_s=best(overheads), overhead_pct=100 * best(overheads) / best(fit),
               numpy_peak_bytes=peak, array_bytes=X.nbytes, copied=model.input_copied_)
    print(json.dumps(row))
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also the 10^5 x 50 matrix")
    args = parser.parse_args()
    print(json.dumps(dict(threads=os.cpu_count(), python=sys.version.split()[0], subscale=subscale.__version__)))
    quick = subscale.load(ROOT / "datasets" / "quickstart.h5")
    params = dict(epsilon=0.004, min_points=4, merge__epsilon=0.02, merge__min_points=20)
    # A short run: best of more repeats, since other work on the machine adds milliseconds at random.
    case("quickstart", quick.values, ROOT / "configs" / "quickstart.yaml", params, max(args.repeat, 10),
         truth=ROOT / "datasets" / "quickstart.true")  # the config evaluates against it too
    if args.big:
        rng = np.random.default_rng(1)
        X = rng.uniform(size=(100_000, 50))
        for k in range(5):  # five hidden clusters of 2000 points in 3 dimensions each
            rows = slice(k * 2000, (k + 1) * 2000)
            dims = [k, 10 + k, 20 + k]
            X[rows, dims] = 0.1 + 0.15 * k + 0.003 * rng.uniform(size=(2000, 3))
        assert X.flags.c_contiguous and X.dtype == np.float64
        with tempfile.TemporaryDirectory() as tmp:
            import h5py

            data = Path(tmp) / "big.h5"
            with h5py.File(data, "w") as f:
                f["data"] = X
            config = Path(tmp) / "big.yaml"
            config.write_text(f"input:\n  path: {data}\n")
            big = dict(epsilon=0.00003, min_points=3, merge__epsilon=0.003, merge__min_points=100)
            case("uniform 1e5 x 50", X, config, big, args.repeat)


if __name__ == "__main__":
    main()
