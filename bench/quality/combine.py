#!/usr/bin/python3
"""One table per part (train, heldout): per family, the median E4SC / F1 (and clusters) of several
scored runs of run_families.py side by side, and the ELKI peers of run_elki.py.

    bench/quality/combine.py --table "only input.path=runs/families/results.csv" \\
        --table "eps 0.004 m 4=runs/before/results.csv" --table "old grid best=runs/grid/results.csv" \\
        --elki runs/elki/elki.csv > families.md

For the peers, per family: the best algorithm's median with its default setting, and the best
algorithm's median over its best setting per file (which algorithm, in brackets). Only files that
every table holds are compared, so a partial peer run is not set against a whole one silently:
the file count is in each header. Standard library only.
"""

import argparse
import csv
import statistics
import sys


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def median(values):
    return statistics.median(values) if values else float("nan")


def cell(rows):
    e4sc = median([float(r["e4sc"]) for r in rows])
    f1 = median([float(r["f1"]) for r in rows])
    clusters = [float(r["clusters"]) for r in rows if r.get("clusters") not in ("", None)]
    count = f" ({median(clusters):g})" if clusters else ""
    return f"{e4sc:.2f} / {f1:.2f}{count}", e4sc, f1


def elki_cells(rows, files):
    """Per algorithm: default rows (setting 0) and best-per-file rows, for the given files."""
    by_alg = {}
    for r in rows:
        if r["file"] in files:
            by_alg.setdefault(r["algorithm"], {}).setdefault(r["file"], []).append(r)
    result = {}
    for algorithm, per_file in by_alg.items():
        defaults = [next((r for r in runs if r["setting_index"] == "0"), None) for runs in per_file.values()]
        best = [max(runs, key=lambda r: float(r["e4sc"]) + float(r["f1"])) for runs in per_file.values()]
        result[algorithm] = ([r for r in defaults if r], best)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", action="append", default=[], help="LABEL=results.csv of run_families.py")
    parser.add_argument("--elki", help="elki.csv of run_elki.py")
    args = parser.parse_args()
    tables = []
    for item in args.table:
        label, _, path = item.partition("=")
        if not path:
            sys.exit(f"--table '{item}' is not LABEL=PATH")
        tables.append((label, read(path)))
    elki = read(args.elki) if args.elki else []
    parts = sorted({r["part"] for _, rows in tables for r in rows})
    for part in parts:
        common = None
        for _, rows in tables:
            names = {r["file"] for r in rows if r["part"] == part}
            common = names if common is None else common & names
        if elki:
            common &= {r["file"] for r in elki if r["part"] == part}
        if not common:
            continue
        families = sorted({r["family"] for _, rows in tables for r in rows if r["part"] == part and r["file"] in common})
        header = ["family"] + [label for label, _ in tables]
        if elki:
            header += ["ELKI best default", "ELKI best of sweep"]
        print(f"### {part}: {len(common)} files; median E4SC / F1 (median clusters)\n")
        print("| " + " | ".join(header) + " |")
        print("|---|" + "---|" * (len(header) - 1))
        columns = {h: [] for h in header[1:]}
        for family in families + ["all files"]:
            cells = []
            for label, rows in tables:
                group = [r for r in rows if r["part"] == part and r["file"] in common
                         and (family == "all files" or r["family"] == family)]
                text, e4sc, f1 = cell(group)
                if family != "all files":
                    columns[label].append((e4sc, f1))
                cells.append(text)
            if elki:
                files = {r["file"] for r in elki if r["part"] == part and r["file"] in common
                         and (family == "all files" or r["family"] == family)}
                per_alg = elki_cells([r for r in elki if r["part"] == part], files)
                for which, name in ((0, "ELKI best default"), (1, "ELKI best of sweep")):
                    scored = [(cell(v[which]), a) for a, v in per_alg.items() if v[which]]
                    (text, e4sc, f1), algorithm = max(scored, key=lambda s: s[0][1] + s[0][2])
                    if family != "all files":
                        columns[name].append((e4sc, f1))
                    cells.append(f"{text} {algorithm}")
            print(f"| {family} | " + " | ".join(cells) + " |")
        print("| median of family medians | " + " | ".join(
            f"{median([c[0] for c in columns[h]]):.2f} / {median([c[1] for c in columns[h]]):.2f}"
            for h in header[1:]) + " |")
        print("| worst family | " + " | ".join(
            f"{min(c[0] for c in columns[h]):.2f} / {min(c[1] for c in columns[h]):.2f}" for h in header[1:]) + " |")
        print()


if __name__ == "__main__":
    main()
