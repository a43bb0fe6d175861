#!/usr/bin/python3
"""Are the classes of labelled real data subspace clusters? Each class scored by the test a run
applies to the clusters it finds (subscale.significance), three ways:

  1. the class in every dimension, its box the [min, max] of its points (how the OpenSubspace
     study scores a run against it: each class a hidden cluster in the full space);
  2. its central part in every dimension: the class's points inside the box of its 10%-90%
     quantiles in each dimension (its outliers, which stretch the box of 1, left out);
  3. the best pair of dimensions: the same central box, in the two dimensions where it scores
     highest (every pair tried), against the correction for every box in every subspace.

A class that passes none of these is no box where its points gather beyond chance under the
test's null (independent dimensions, each the data's own column): no subspace clustering that
reports only what passes the test can report it, and a run that finds nothing on such data says
so rather than missing something. A class that passes 3 but not 1 or 2 is a subspace cluster that the
full-space scoring of the study does not credit.

    PYTHONPATH=build/python /usr/bin/python3 bench/quality/class_significance.py \\
        --opensubspace DIR --out OUT     # DIR: breast.arff, ... (the class last)

Writes OUT/class_significance.csv (one row per class) and OUT/class_significance.md (one row per
data set). Without --opensubspace, or where DIR is absent, only scikit-learn's sets are scored.
"""

import argparse
import itertools
import os
import sys

import numpy as np

import subscale

SKLEARN = ("digits", "breast_cancer", "wine")


def data_sets(folder):
    sets = []
    if folder and os.path.isdir(folder):
        for name in sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".arff")):
            data = subscale.load(os.path.join(folder, name + ".arff"))
            sets.append((name, np.asarray(data.values, dtype=np.float64), np.asarray(data.labels)))
    elif folder:
        print(f"class_significance: {folder} is absent; the OpenSubspace sets are skipped", file=sys.stderr)
    from sklearn import datasets
    for name in SKLEARN:
        bunch = getattr(datasets, "load_" + name)()
        sets.append((name, np.asarray(bunch.data, dtype=np.float64), np.asarray(bunch.target)))
    return sets


def central_part(X, points, dims):
    """The class's points inside the box of its 10%-90% quantiles in `dims`."""
    inside = np.ones(len(points), dtype=bool)
    for j in dims:
        lo, hi = np.quantile(X[points, j], [0.1, 0.9])
        inside &= (X[points, j] >= lo) & (X[points, j] <= hi)
    return points[inside]


def score_classes(name, X, y):
    rows = []
    d = X.shape[1]
    every = list(range(d))
    pairs = list(itertools.combinations(every, 2))
    for c in np.unique(y[y >= 0]):
        points = np.flatnonzero(y == c)
        whole = subscale.significance(X, [(every, points)]).iloc[0]
        core = central_part(X, points, every)
        central = subscale.significance(X, [(every, core)]).iloc[0] if len(core) else None
        candidates = [(list(p), central_part(X, points, p)) for p in pairs]
        candidates = [(p, q) for p, q in candidates if len(q)]
        scored = subscale.significance(X, candidates)
        best = int(np.argmax(scored["score"].to_numpy())) if len(scored) else None
        rows.append(dict(data=name, n=X.shape[0], d=d, cls=int(c), points=len(points),
                         whole_score=whole.score, whole_gathering=int(whole.gathering_dimensions),
                         whole_significant=bool(whole.significant),
                         central_points=len(core), central_score=central.score if central is not None else 0.0,
                         central_significant=bool(central.significant) if central is not None else False,
                         pair=" ".join(map(str, candidates[best][0])) if best is not None else "",
                         pair_points=len(candidates[best][1]) if best is not None else 0,
                         pair_score=float(scored["score"].iloc[best]) if best is not None else 0.0,
                         pair_significant=bool(scored["significant"].iloc[best]) if best is not None else False))
    return rows


def markdown(rows):
    lines = ["| data | n x d | classes | pass in every dimension | central part passes | "
             "best pair passes | best pair's score (median over classes) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name in dict.fromkeys(r["data"] for r in rows):
        mine = [r for r in rows if r["data"] == name]
        lines.append(f"| {name} | {mine[0]['n']} x {mine[0]['d']} | {len(mine)} | "
                     f"{sum(r['whole_significant'] for r in mine)} | {sum(r['central_significant'] for r in mine)} | "
                     f"{sum(r['pair_significant'] for r in mine)} | "
                     f"{np.median([r['pair_score'] for r in mine]):.2f} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opensubspace", help="folder of the study's real sets (NAME.arff, the class last)")
    parser.add_argument("--out", required=True, help="folder for the tables")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name, X, y in data_sets(args.opensubspace):
        rows += score_classes(name, X, y)
        print(f"class_significance: {name} scored", file=sys.stderr)
    import pandas as pd
    pd.DataFrame(rows).to_csv(os.path.join(args.out, "class_significance.csv"), index=False)
    with open(os.path.join(args.out, "class_significance.md"), "w") as f:
        f.write(markdown(rows))
    sys.stdout.write(markdown(rows))


if __name__ == "__main__":
    main()
