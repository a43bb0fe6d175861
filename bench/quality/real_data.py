#!/usr/bin/python3
"""Real data sets of scikit-learn as HDF5, and (optionally) a timed `subscale run` on each.

    /usr/bin/python3 bench/quality/real_data.py --out /work/suite/real
    /usr/bin/python3 bench/quality/real_data.py --out /work/suite/real --subscale build/subscale \\
        --runs runs/real [key=value ...]

Writes OUT/NAME.h5 (`/data` float64 (n, d), `/labels` int64: the class, for reference only: the
classes are not subspace clusters, so no .true is written) for digits (1797 x 64, integer pixel
levels 0-16), breast_cancer (569 x 30) and wine (178 x 13), from Debian's python3-sklearn (which
ships the files: nothing is downloaded), hence /usr/bin/python3.

With --subscale, runs every file with a config holding only `input.path` (plus `threads` and the
key=value overrides), each with --timeout, and prints and writes RUNS/real.md: the cluster count,
each stage's time from summary.json and the wall time.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import h5py
import numpy as np
from sklearn import datasets

SETS = {
    "digits": datasets.load_digits,
    "breast_cancer": datasets.load_breast_cancer,
    "wine": datasets.load_wine,
}
STAGES = ["load", "normalize", "density1d", "plan", "dense_units", "subspaces", "merge", "consolidate",
          "write", "total"]


def write_sets(out):
    os.makedirs(out, exist_ok=True)
    paths = {}
    for name, loader in SETS.items():
        bunch = loader()
        data = np.ascontiguousarray(bunch.data, dtype=np.float64)
        path = os.path.join(out, name + ".h5")
        with h5py.File(path, "w") as f:
            f.create_dataset("data", data=data)
            f.create_dataset("labels", data=np.asarray(bunch.target, dtype=np.int64))
            f["data"].attrs["source"] = f"sklearn.datasets.load_{name}"
        paths[name] = os.path.abspath(path)
        print(f"{name}: {data.shape[0]} x {data.shape[1]} -> {path}", file=sys.stderr)
    return paths


def time_run(binary, name, h5, runs, threads, overrides, timeout):
    folder = os.path.abspath(os.path.join(runs, name))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(runs, exist_ok=True)
    config = os.path.join(os.path.abspath(runs), name + ".yaml")
    with open(config, "w") as f:
        f.write(f"input:\n  path: {json.dumps(h5)}\n")
    command = [binary, "run", config, f"threads={threads}", *overrides, "--out", folder]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(name=name, status=f"timeout after {timeout:g} s", wall=time.monotonic() - start)
    wall = time.monotonic() - start
    summary_path = os.path.join(folder, "summary.json")
    if proc.returncode != 0 or not os.path.exists(summary_path):
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        return dict(name=name, status=f"error {proc.returncode}: {last[:160]}", wall=wall)
    with open(summary_path) as f:
        summary = json.load(f)
    counts = summary.get("counts", {})
    return dict(name=name, status="ok", wall=wall, clusters=counts.get("clusters"),
                raw=counts.get("raw_clusters"), subspaces=counts.get("subspaces"),
                peak=summary.get("peak_memory_bytes", 0) / 2**20, timings=summary.get("timings_seconds", {}))


def table(results, header):
    lines = [header, "", "| data | status | clusters | merge clusters | subspaces | peak MiB | wall s | "
             + " | ".join(STAGES) + " |", "|---|---|---:|---:|---:|---:|---:|" + "---:|" * len(STAGES)]
    for r in results:
        t = r.get("timings", {})
        stages = " | ".join(f"{t[s]:.2f}" if s in t else "-" for s in STAGES)
        lines.append(f"| {r['name']} | {r['status'].replace('|', '/')} | {r.get('clusters', '-')} | "
                     f"{r.get('raw', '-')} | {r.get('subspaces', '-')} | {r.get('peak', 0):.0f} | "
                     f"{r['wall']:.2f} | {stages} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="folder for NAME.h5")
    parser.add_argument("--subscale", help="also run this binary on each file")
    parser.add_argument("--runs", default="runs/real", help="run folders and real.md (default runs/real)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    parser.add_argument("--only", default="", help="comma-separated data sets (default all)")
    parser.add_argument("overrides", nargs="*", help="key=value overrides given to every run")
    args = parser.parse_args()
    paths = write_sets(args.out)
    if not args.subscale:
        return
    only = [n for n in args.only.split(",") if n] or list(SETS)
    results = []
    for name in only:
        r = time_run(os.path.abspath(args.subscale), name, paths[name], args.runs, args.threads, args.overrides,
                     args.timeout)
        results.append(r)
        print(f"{name}: {r['status']}, {r.get('clusters', '-')} clusters, {r['wall']:.2f} s", file=sys.stderr,
              flush=True)
    header = (f"# real data, config with only input.path: {args.subscale} threads={args.threads} "
              f"{' '.join(args.overrides)}")
    text = table(results, header)
    with open(os.path.join(args.runs, "real.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
