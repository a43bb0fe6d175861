#!/usr/bin/python3
"""Peers: ELKI 0.7.1's subspace clusterers (Debian's `elki` package) on a families suite, scored
with `subscale evaluate` against the same .true files.

    apt-get install elki
    bench/quality/run_elki.py --subscale build/subscale --suite /work/suite/train \\
        --suite /work/suite/heldout --out runs/elki [--algorithms P3C,DOC] [--match 'h1$']

For every file (NAME.h5 + NAME.true) it writes the data min-max normalised to [0, 1] per column
(as `subscale run` normalises) as a space-separated CSV whose last column is the label `r<row>`,
runs `KDDCLIApplication -dbc.in CSV -algorithm clustering.subspace.ALG ... -resulthandler
ResultWriter -out DIR` for each setting of SETTINGS below (the first is the "default"), with a
timeout per run, turns ELKI's cluster files (`# Subspace: Dimensions: [1-based dims]`, then
`ID=.. values label` lines; noise-flagged clusters skipped) into the `{d1, d2}-[p1, p2]` form,
and scores it with `subscale evaluate`. Results go to OUT/elki.csv (one row per run, appended, so
an interrupted run resumes: rows already there are not rerun) and OUT/elki.md (per file and
algorithm: the default's and the best setting's E4SC / F1, per-family medians).

Defaults: P3C, DOC and DiSH have ELKI's own defaults. PROCLUS, SUBCLU and CLIQUE have required
parameters without defaults; their "default" is the usual textbook choice, and PROCLUS is told
the planted cluster count and their mean dimensionality (an oracle no user has: it flatters it).
Standard library only for the runner; numpy + h5py to write the CSVs (hence /usr/bin/python3).
"""

import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_families import median, suite_files  # noqa: E402  (one suite layout for both scripts)

JARS = ["/usr/share/java/elki.jar", "/usr/share/maven-repo/net/sf/trove4j/trove4j/debian/trove4j-debian.jar"]
# -XX:ActiveProcessorCount=1: one core for the JVM (its GC and JIT threads too) on a shared machine.
# disableJarIndex: Debian's elki.jar carries a META-INF/INDEX.LIST that names jars not installed,
# which JDK 17 refuses (InvalidJarIndexError) when the elki-cli wrapper puts the add-ons on the path.
JAVA = ["java", "-XX:ActiveProcessorCount=1", "-Xmx2g", "-Djdk.net.URLClassPath.disableJarIndex=true",
        "-cp", ":".join(JARS), "de.lmu.ifi.dbs.elki.application.KDDCLIApplication"]

# The first setting of each is its "default"; the others are the small sweep. {k} and {l}: the
# planted cluster count and their mean dimensionality (PROCLUS only).
SETTINGS = {
    "P3C": [[], ["-p3c.alpha", "0.01", "-p3c.threshold", "0.001"], ["-p3c.alpha", "1e-5", "-p3c.threshold", "1e-6"],
            ["-p3c.minsize", "20"]],
    "DOC": [["-doc.random-seed", "1"], ["-doc.random-seed", "1", "-doc.w", "0.02"],
            ["-doc.random-seed", "1", "-doc.w", "0.1"], ["-doc.random-seed", "1", "-doc.alpha", "0.05"]],
    "PROCLUS": [["-projectedclustering.k", "{k}", "-projectedclustering.l", "{l}", "-proclus.seed", "1"],
                ["-projectedclustering.k", "{k}", "-projectedclustering.l", "2", "-proclus.seed", "1"],
                ["-projectedclustering.k", "{k2}", "-projectedclustering.l", "{l}", "-proclus.seed", "1"],
                ["-projectedclustering.k", "{k}", "-projectedclustering.l", "{l}", "-proclus.seed", "2"]],
    "SUBCLU": [["-subclu.epsilon", "0.02", "-subclu.minpts", "10"], ["-subclu.epsilon", "0.01", "-subclu.minpts", "8"],
               ["-subclu.epsilon", "0.05", "-subclu.minpts", "20"]],
    "CLIQUE": [["-clique.xsi", "10", "-clique.tau", "0.2"], ["-clique.xsi", "20", "-clique.tau", "0.05"],
               ["-clique.xsi", "40", "-clique.tau", "0.02"], ["-clique.xsi", "20", "-clique.tau", "0.1"]],
    "DiSH": [[], ["-dish.epsilon", "0.005", "-dish.mu", "10"], ["-dish.epsilon", "0.02", "-dish.mu", "10"],
             ["-dish.epsilon", "0.02", "-dish.mu", "30"]],
}
FIELDS = ["part", "family", "file", "algorithm", "setting_index", "setting", "e4sc", "f1", "clusters", "hidden",
          "seconds", "status"]


def read_truth(truth):
    """(hidden count, mean hidden dimensionality, d) from a .true file."""
    with open(truth) as f:
        header = f.readline()
        d = int(re.match(r"DIM=(\d+)", header).group(1))
        dims = [sum(int(x) for x in line.split()[:d]) for line in f if line.strip()]
    return len(dims), max(1, round(sum(dims) / len(dims))), d


def write_csv(h5, path):
    with h5py.File(h5, "r") as f:
        data = f["data"][:].astype(np.float64)
    lo, hi = data.min(axis=0), data.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    data = (data - lo) / span
    with open(path, "w") as f:
        for i, row in enumerate(data):
            f.write(" ".join(repr(float(v)) for v in row) + f" r{i}\n")
    return data.shape


def parse_elki(folder):
    """ELKI ResultWriter folder -> list of (0-based dims, sorted row ids); noise clusters skipped."""
    clusters = []
    for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
        dims, ids, noise, is_cluster = None, [], False, False
        with open(path) as f:
            for line in f:
                if line.startswith("# Cluster noise flag:"):
                    noise = line.split(":")[1].strip() == "true"
                    is_cluster = True
                elif line.startswith("# Subspace: Dimensions:"):
                    inside = line.split("[", 1)[1].rsplit("]", 1)[0]
                    dims = [int(x) - 1 for x in inside.split(",") if x.strip()]
                elif line.startswith("ID="):
                    label = line.rsplit(None, 1)[-1]
                    if not label.startswith("r"):
                        raise ValueError(f"{path}: a point line without its r<row> label: {line[:80]}")
                    ids.append(int(label[1:]))
        if is_cluster and not noise and ids:
            clusters.append((dims, sorted(ids)))
    return clusters


def score(binary, clusters, d, n, truth, workdir):
    """E4SC and F1 of the clusters with `subscale evaluate`; a cluster without a subspace model
    (none of these algorithms gives one) would count in all dimensions."""
    found = os.path.join(workdir, "found.txt")
    with open(found, "w") as f:
        for dims, ids in clusters:
            dims = dims if dims is not None else list(range(d))
            f.write("{" + ", ".join(map(str, dims)) + "}-[" + ", ".join(map(str, ids)) + "]\n")
    result = os.path.join(workdir, "eval.json")
    proc = subprocess.run([binary, "evaluate", "--found", found, "--truth", truth, "--points", str(n), "--json",
                           result], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"subscale evaluate failed: {proc.stderr.strip()[-200:]}")
    with open(result) as f:
        measures = json.load(f)
    measures = measures.get("evaluation", measures)
    return measures["e4sc"], measures["f1"]


def run_setting(args, algorithm, setting, csv_path, shape, truth, hidden):
    workdir = tempfile.mkdtemp(prefix="elki-", dir=args.out)
    out = os.path.join(workdir, "result")
    command = JAVA + ["-dbc.in", csv_path, "-algorithm", f"clustering.subspace.{algorithm}", *setting,
                      "-resulthandler", "ResultWriter", "-out", out]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
        seconds = time.monotonic() - start
        if proc.returncode != 0 or not os.path.isdir(out):
            # the exception's own line, not the last frame of a Java stack trace
            lines = [x for x in proc.stderr.strip().splitlines() if x.strip() and not x.strip().startswith("at ")]
            message = (lines or ["no message"])[0][:150]
            return dict(e4sc=0.0, f1=0.0, clusters="", seconds=seconds, status=f"error: {message}")
        clusters = parse_elki(out)
        e4sc, f1 = score(args.subscale, clusters, shape[1], shape[0], truth, workdir)
        return dict(e4sc=e4sc, f1=f1, clusters=len(clusters), seconds=seconds, status="ok")
    except subprocess.TimeoutExpired:
        return dict(e4sc=0.0, f1=0.0, clusters="", seconds=time.monotonic() - start, status="timeout")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def load_rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def write_markdown(out, rows, timeout):
    # per file x algorithm: default (setting 0) and best of the sweep by (E4SC + F1) / 2
    table = {}
    for r in rows:
        key = (r["part"], r["family"], r["file"], r["algorithm"])
        table.setdefault(key, []).append(r)
    lines = ["# ELKI 0.7.1 peers", "",
             f"One thread, timeout {timeout:g} s per run (of this invocation; earlier rows resumed from "
             "elki.csv may have had another). Default = the first setting of each algorithm in run_elki.py; best = best of its settings by "
             "(E4SC + F1) / 2. A timeout or error scores 0; after two timeouts of an algorithm on a file "
             "its remaining settings there are skipped (runs column: runs made, timeouts).", "",
             "| part | family | file | algorithm | default E4SC | default F1 | default clusters | best E4SC | "
             "best F1 | best setting | runs (timeouts) |", "|---|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    summary = {}
    for key in sorted(table):
        runs = table[key]
        default = next((r for r in runs if r["setting_index"] == "0"), None)
        best = max(runs, key=lambda r: (float(r["e4sc"]) + float(r["f1"])) / 2)
        timeouts = sum(1 for r in runs if r["status"] == "timeout")
        d_e, d_f = (float(default["e4sc"]), float(default["f1"])) if default else (float("nan"),) * 2
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {d_e:.3f} | {d_f:.3f} | "
                     f"{default['clusters'] if default else ''} | {float(best['e4sc']):.3f} | {float(best['f1']):.3f} "
                     f"| {best['setting']} | {len(runs)} ({timeouts}) |")
        summary.setdefault((key[0], key[3]), []).append((key[1], d_e, d_f, float(best["e4sc"]), float(best["f1"])))
    lines += ["", "Per part and algorithm: median over the files (and, in brackets, the median of the family "
              "medians).", "",
              "| part | algorithm | files | default E4SC | default F1 | best E4SC | best F1 |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for (part, algorithm), items in sorted(summary.items()):
        cells = []
        for i in range(1, 5):
            fams = {}
            for it in items:
                fams.setdefault(it[0], []).append(it[i])
            cells.append(f"{median([it[i] for it in items]):.3f} ({median([median(v) for v in fams.values()]):.3f})")
        lines.append(f"| {part} | {algorithm} | {len(items)} | " + " | ".join(cells) + " |")
    with open(os.path.join(out, "elki.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscale", required=True, help="subscale binary (for `subscale evaluate`)")
    parser.add_argument("--suite", required=True, action="append", help="suite folder; repeat for several")
    parser.add_argument("--out", required=True)
    parser.add_argument("--algorithms", default=",".join(SETTINGS))
    parser.add_argument("--timeout", type=float, default=60, help="seconds per ELKI run (default 60)")
    parser.add_argument("--match", default="", help="only files whose name matches this regular expression")
    parser.add_argument("--max-timeouts", type=int, default=2,
                        help="after this many timeouts of an algorithm on a file, skip its other settings there")
    parser.add_argument("--defaults-only", action="store_true", help="only the first (default) setting")
    args = parser.parse_args()
    args.subscale = os.path.abspath(args.subscale)
    if shutil.which("java") is None or not os.path.exists(JARS[0]):
        sys.exit("ELKI is not installed: apt-get install elki (Debian's package, 0.7.1)")
    algorithms = [a for a in args.algorithms.split(",") if a]
    for a in algorithms:
        if a not in SETTINGS:
            sys.exit(f"unknown algorithm '{a}'; known: {', '.join(SETTINGS)}")
    os.makedirs(os.path.join(args.out, "csv"), exist_ok=True)
    results_path = os.path.join(args.out, "elki.csv")
    rows = load_rows(results_path)
    done = {(r["part"], r["file"], r["algorithm"], r["setting_index"]) for r in rows}
    new_file = not os.path.exists(results_path)
    with open(results_path, "a", newline="") as results:
        writer = csv.DictWriter(results, fieldnames=FIELDS)
        if new_file:
            writer.writeheader()
        for suite in args.suite:
            for part, family, name, h5, truth in suite_files(suite):
                if args.match and not re.search(args.match, name):
                    continue
                hidden, mean_dims, _ = read_truth(truth)
                csv_path = os.path.abspath(os.path.join(args.out, "csv", f"{part}-{name}.csv"))
                shape = write_csv(h5, csv_path)
                for algorithm in algorithms:
                    settings = SETTINGS[algorithm][:1] if args.defaults_only else SETTINGS[algorithm]
                    for index, template in enumerate(settings):
                        if (part, name, algorithm, str(index)) in done:
                            continue
                        timeouts = sum(1 for r in rows if r["part"] == part and r["file"] == name
                                       and r["algorithm"] == algorithm and r["status"] == "timeout")
                        if timeouts >= args.max_timeouts:
                            break  # the remaining settings of this algorithm on this file are skipped
                        setting = [s.format(k=hidden, k2=2 * hidden, l=mean_dims) for s in template]
                        r = run_setting(args, algorithm, setting, csv_path, shape, truth, hidden)
                        row = dict(part=part, family=family, file=name, algorithm=algorithm, setting_index=index,
                                   setting=" ".join(setting) or "defaults", hidden=hidden,
                                   e4sc=f"{r['e4sc']:.4f}", f1=f"{r['f1']:.4f}", clusters=r["clusters"],
                                   seconds=f"{r['seconds']:.2f}", status=r["status"])
                        writer.writerow(row)
                        results.flush()
                        rows.append({k: str(v) for k, v in row.items()})
                        print(f"{part:8} {name:16} {algorithm:8} #{index} E4SC {r['e4sc']:.3f} F1 {r['f1']:.3f} "
                              f"clusters {r['clusters']} {r['seconds']:.1f} s {r['status']}", file=sys.stderr,
                              flush=True)
                os.remove(csv_path)
    print("\n".join(write_markdown(args.out, rows, args.timeout)[-(len(algorithms) * 2 + 4):]))


if __name__ == "__main__":
    main()
