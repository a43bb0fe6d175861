#!/usr/bin/env python3
"""What a `maximal only` post-filter on merge's clusters would do to the measures.

The filter, proposed as an optional config key (merge.maximal_only, false by default): drop a
cluster (S, O) when some other cluster (S', O') has S a strict subset of S' and O a subset of O'
(--share 1.0). --share 0.9 drops it already when O' holds 90% of O, a looser variant.

For each run folder given (it must hold clusters.txt, summary.json and config.yaml with
ground_truth.path), writes clusters-maximal.txt beside a copy in --out and scores both with
`subscale evaluate`. Nothing in the pipeline changes. Python 3 standard library only:
  bench/quality/maximal_only.py --subscale build/subscale runs/quality/noisescale/N30 ...
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

LINE = re.compile(r"\{([^}]*)\}-\[([^\]]*)\]")


def read_clusters(path):
    clusters = []
    for line in Path(path).read_text().splitlines():
        match = LINE.fullmatch(line.strip())
        if match:
            numbers = [frozenset(int(x) for x in group.split(",") if x.strip()) for group in match.groups()]
            clusters.append((numbers[0], numbers[1], line.strip()))
    return clusters


def maximal_only(clusters, share):
    kept = []
    for dims, points, line in clusters:
        dominated = any(
            len(other_dims) > len(dims) and dims < other_dims and len(points & other_points) >= share * len(points)
            for other_dims, other_points, _ in clusters)
        if not dominated:
            kept.append(line)
    return kept


def evaluate(subscale, found, truth, points):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([subscale, "evaluate", "--found", str(found), "--truth", str(truth), "--points", str(points),
                        "--json", f.name], check=True, capture_output=True)
        return json.loads(Path(f.name).read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="run folders of `subscale run`")
    parser.add_argument("--subscale", default="build/subscale")
    parser.add_argument("--share", type=float, default=1.0, help="fraction of O that O' must hold (1.0: O in O')")
    parser.add_argument("--out", default=None, help="where to write the filtered clusters (default: a temp folder)")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="maximal-only-"))
    out.mkdir(parents=True, exist_ok=True)
    print("| run | clusters | after filter | F1 | F1 after | E4SC | E4SC after | coverage | coverage after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run in map(Path, args.runs):
        summary = json.loads((run / "summary.json").read_text())
        truth = re.search(r"ground_truth:\s*\n\s*path:\s*(\S+)", (run / "config.yaml").read_text())
        if not truth:
            sys.exit(f"maximal_only: {run}/config.yaml has no ground_truth.path")
        clusters = read_clusters(run / "clusters.txt")
        kept = maximal_only(clusters, args.share)
        filtered = out / f"{run.name}-clusters-maximal.txt"
        filtered.write_text("".join(line + "\n" for line in kept))
        before = evaluate(args.subscale, run / "clusters.txt", truth.group(1), summary["points"])
        after = evaluate(args.subscale, filtered, truth.group(1), summary["points"])
        print(f"| {run.name} | {len(clusters)} | {len(kept)} | " + " | ".join(
            f"{before[m]:.3f} | {after[m]:.3f}" for m in ("f1", "e4sc", "coverage")) + " |")


if __name__ == "__main__":
    main()
