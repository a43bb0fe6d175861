#!/usr/bin/env python3
"""Merge-like input for the consolidate stage at any size: K projections of each hidden cluster, as
merge shows them (bench/RESULTS.md, "Consolidation at 10^3 to 10^5 clusters").

Writes K projections of every hidden cluster of a ground-truth file as clusters in the SUBSCALE
text form that consolidate_bench reads: each projection takes 2 or 3 of its hidden cluster's
dimensions and each of its points with probability --keep, which is how merge shows a hidden
cluster (hundreds of low-dimensional projections, each missing a few of its points). With K in
the thousands this gives the 10^4 - 10^5 clusters of the runs where the stage took far too long.

  bench/consolidate/projections.py --truth FILE.true --per-cluster K [--keep 0.9] [--seed 1] > clusters.txt

Python 3 standard library only.
"""
import argparse
import random
import sys


def hidden_clusters(path):
    """(dimensions, points) of each hidden cluster of an OpenSubspace .true file."""
    with open(path) as f:
        header = f.readline()
        if not header.startswith("DIM="):
            sys.exit(f"projections: {path} does not start with DIM=...; is it an OpenSubspace .true file?")
        dims = int(header.split(";")[0][4:])
        out = []
        for line in f:
            fields = line.split()
            if not fields:
                continue
            mask, count = fields[:dims], int(fields[dims])
            points = [int(p) for p in fields[dims + 1:dims + 1 + count]]
            out.append(([d for d, bit in enumerate(mask) if bit == "1"], points))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--truth", required=True)
    parser.add_argument("--per-cluster", type=int, required=True)
    parser.add_argument("--keep", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = []
    for dims, points in hidden_clusters(args.truth):
        for _ in range(args.per_cluster):
            subspace = sorted(rng.sample(dims, min(len(dims), rng.choice((2, 3)))))
            kept = [p for p in points if rng.random() < args.keep]
            lines.append("{" + ", ".join(map(str, subspace)) + "}-[" + ", ".join(map(str, kept)) + "]")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
