#!/usr/bin/env python3
"""Quality and time against the number of points: the size series of bench/RESULTS.md.

    bench/quality/size_series.py --subscale build/subscale --out runs/size-series \\
        [--sizes 10000,100000,400000,1000000] [--timeout 600] [key=value ...]

For each n and each background (uniform; skewed: 1000 integer levels with a Zipf law of exponent
0.8 behind the clusters) it writes a generated file (`subscale-generate` beside --subscale: 4
planted clusters of 0.5-8% of the points in 2-4 of d dimensions, d = 20, 40 or 60 by n, width
0.05, seeds of their own per n), runs it with a config holding only `input.path` and its ground
truth (plus the key=value overrides), and records E4SC, F1, the cluster count, whether a sample
was taken and its size, each stage's time, the wall time and the peak memory (GNU time). The
table goes to OUT/size_series.md and .csv, with the slope of the wall time against n (a
least-squares fit of log time on log n over the sizes from 10^5 on, where the sample's size stops
growing: 1 is linear).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

# (share of the points, dimensions) of the four planted clusters.
CLUSTERS = [(0.08, 4), (0.04, 3), (0.02, 2), (0.005, 3)]


def dimensions_for(n):
    return 20 if n < 100000 else 40 if n < 1000000 else 60


def cluster_spec(n, d):
    spec, first = [], 0
    for share, dims in CLUSTERS:
        spec.append(",".join(str(first + j) for j in range(dims)) + f":{int(share * n)}:0.05")
        first += dims
    assert first <= d
    return ";".join(spec)


def generate(generator, out, n, background, seed):
    d = dimensions_for(n)
    prefix = os.path.join(out, f"{background}-n{n}")
    if not os.path.exists(prefix + ".h5"):
        command = [generator, "-n", str(n), "-d", str(d), "-c", cluster_spec(n, d), "-s", str(seed), "-o", prefix,
                   "--gzip", "1"]
        if background == "skewed":
            command += ["--levels", "1000", "--skew", "0.8"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return prefix, d


def run_one(subscale, prefix, folder, overrides, timeout):
    config = prefix + ".yaml"
    with open(config, "w") as f:
        f.write(f"input:\n  path: {prefix}.h5\nground_truth:\n  path: {prefix}.true\n")
    command = ["/usr/bin/time", "-f", "peak_kb %M", subscale, "run", config, "--out", folder, "--overwrite", "-q",
               *overrides]
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout {timeout} s"}
    wall = time.monotonic() - start
    if done.returncode != 0:
        return {"status": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"}
    peak = next((int(l.split()[1]) for l in done.stderr.splitlines() if l.startswith("peak_kb")), 0)
    summary = json.load(open(os.path.join(folder, "summary.json")))
    ev = summary.get("evaluation", {})
    sample = summary.get("sample") or {}
    return {"status": "ok", "e4sc": ev.get("e4sc"), "f1": ev.get("f1"), "clusters": ev.get("found_clusters"),
            "hidden": ev.get("hidden_clusters"), "sample": sample.get("points", 0), "wall_s": round(wall, 1),
            "peak_gb": round(peak / 1024 / 1024, 2),
            "stages": {k: round(v, 2) for k, v in summary.get("timings_seconds", {}).items()}}


def slope(points):
    points = [(math.log(n), math.log(t)) for n, t in points if n >= 100000 and t > 0]
    if len(points) < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscale", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sizes", default="10000,100000,400000,1000000")
    parser.add_argument("--backgrounds", default="uniform,skewed")
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("overrides", nargs="*")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    generator = os.path.join(os.path.dirname(os.path.abspath(args.subscale)), "subscale-generate")
    rows = []
    for background in args.backgrounds.split(","):
        for i, n in enumerate(int(s) for s in args.sizes.split(",")):
            prefix, d = generate(generator, args.out, n, background, seed=100 + i)
            result = run_one(args.subscale, prefix, prefix + "-run", args.overrides, args.timeout)
            row = {"background": background, "n": n, "d": d, **result}
            rows.append(row)
            print(json.dumps(row), flush=True)
    with open(os.path.join(args.out, "size_series.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["background", "n", "d", "status", "e4sc", "f1", "clusters", "sample", "wall_s", "peak_gb",
                         "stages"])
        for r in rows:
            writer.writerow([r["background"], r["n"], r["d"], r["status"], r.get("e4sc"), r.get("f1"),
                             r.get("clusters"), r.get("sample"), r.get("wall_s"), r.get("peak_gb"),
                             json.dumps(r.get("stages", {}))])
    with open(os.path.join(args.out, "size_series.md"), "w") as f:
        f.write("| background | n | d | E4SC | F1 | clusters (of 4) | sample | wall s | peak GB | core s | merge s | "
                "membership s | significance s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            if r["status"] != "ok":
                f.write(f"| {r['background']} | {r['n']} | {r['d']} | {r['status']} |\n")
                continue
            s = r["stages"]
            core = sum(s.get(k, 0) for k in ("density1d", "plan", "dense_units", "subspaces"))
            f.write(f"| {r['background']} | {r['n']} | {r['d']} | {r['e4sc']:.3f} | {r['f1']:.3f} | {r['clusters']} | "
                    f"{r['sample'] or 'none'} | {r['wall_s']} | {r['peak_gb']} | {core:.1f} | {s.get('merge', 0)} | "
                    f"{s.get('membership', 0)} | {s.get('significance', 0)} |\n")
        for background in args.backgrounds.split(","):
            fit = slope([(r["n"], r["wall_s"]) for r in rows if r["background"] == background and r["status"] == "ok"])
            f.write(f"\nslope of wall time against n from 10^5 on ({background}): {fit:.2f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
