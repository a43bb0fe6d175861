#!/usr/bin/python3
"""Real-world data: the OpenSubspace study's real sets and scikit-learn's, each class a hidden
cluster in the full space, scored for subscale, merge's own clusters, ELKI's subspace clusterers
and k-means.

    /usr/bin/python3 bench/quality/real_world.py --subscale build/subscale --out runs/real_world \\
        --opensubspace DIR        # DIR: breast.arff + breast.true, diabetes, glass, ...

Data: every NAME.arff with a NAME.true beside it in DIR (numeric attributes, the class last; the
study's .true files start with a title line instead of `DIM=`), read where they lie; without
--opensubspace, or where DIR is absent, these are skipped with a message. Then digits,
breast_cancer and wine, written by real_data.py into OUT/data/ as HDF5 with /labels.

Scoring: `subscale evaluate --truth` against OUT/truth/NAME.true, which is the study's file under a
`DIM=d;FILE=..` line (its hidden clusters unchanged; the script checks that they are the ARFF's
classes) or, for scikit-learn's sets, one hidden cluster per class in every dimension: F1
(OpenSubspace's F1-Merge), E4SC, the cluster count and coverage (the share of points in at least
one reported cluster).

Per data set:
  1. `subscale run` with a config holding only `input.path` (`threads` on the command line), and
     merge's clusters of that run (`clusters_raw.txt`: after the test's early drops, before
     consolidation);
  2. merge with the same resolved parameters and no test: the run's config.yaml again with
     `significance.enabled=false consolidate=off`, the published method's clusters;
  3. ELKI's P3C, DOC, PROCLUS, SUBCLU, CLIQUE and DiSH through run_elki.py (its SETTINGS, its
     runner), the median over the algorithms of the default setting and the best of every setting
     by (E4SC + F1) / 2, with a timeout per run; PROCLUS is told the class count and l = d;
  4. k-means with the class count (n_init=10, fixed seed) on min-max normalised columns.

OUT/real_world.csv and OUT/real_world.md (one row per data set), OUT/elki_runs.csv (every ELKI
run), OUT/commands.log. Numpy, h5py and scikit-learn: run it with /usr/bin/python3.
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
import time
import types

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_data  # noqa: E402  (the scikit-learn sets as HDF5)
import run_elki  # noqa: E402  (the peers' settings, runner and scorer)
from run_families import median  # noqa: E402

CSV_FIELDS = [
    "data", "source", "n", "d", "classes", "truth_is_classes",
    "sub_status", "sub_e4sc", "sub_f1", "sub_clusters", "sub_coverage", "sub_wall_s",
    "raw_e4sc", "raw_f1", "raw_clusters",
    "nt_status", "nt_e4sc", "nt_f1", "nt_clusters", "nt_wall_s",
    "elki_default_e4sc", "elki_default_f1", "elki_best_e4sc", "elki_best_f1", "elki_best_algorithm",
    "elki_best_setting", "elki_runs", "elki_timeouts", "elki_errors",
    "kmeans_e4sc", "kmeans_f1", "kmeans_clusters",
]
ELKI_FIELDS = ["data", "algorithm", "setting_index", "setting", "e4sc", "f1", "clusters", "seconds", "status"]


# ---- reading the data --------------------------------------------------------------------------

def read_arff(path):
    """(matrix float64 (n, d), class labels int64, attribute names): numeric attributes, the
    attribute named `class` (else the last) the labels, which are not part of the matrix."""
    names, rows, in_data = [], [], False
    with open(path, newline="") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("%"):
                continue
            if not in_data:
                word = line.split(None, 1)[0].lower()
                if word == "@attribute":
                    names.append(line.split(None, 2)[1].strip("'\""))
                elif word == "@data":
                    in_data = True
                continue
            cells = [c.strip() for c in line.split(",")]
            if len(cells) != len(names):
                raise ValueError(f"{path}:{number}: {len(cells)} values, but {len(names)} attributes")
            rows.append(cells)
    if not rows:
        raise ValueError(f"{path}: no @data rows")
    lowered = [x.lower() for x in names]
    label = lowered.index("class") if "class" in lowered else len(names) - 1
    features = [j for j in range(len(names)) if j != label]
    try:
        data = np.array([[float(r[j]) for j in features] for r in rows], dtype=np.float64)
    except ValueError as e:
        raise ValueError(f"{path}: a non-numeric value outside the class attribute ({e})") from None
    classes = {c: i for i, c in enumerate(sorted({r[label] for r in rows}, key=class_order))}
    labels = np.array([classes[r[label]] for r in rows], dtype=np.int64)
    return data, labels, [names[j] for j in features]


def class_order(value):
    """Numeric class values in numeric order, others after them in text order."""
    try:
        return (0, float(value), "")
    except ValueError:
        return (1, 0.0, value)


def read_true(path, dims):
    """Hidden clusters of a .true file, [(0-based dims, ids)]: a `DIM=` first line or a title line
    (OpenSubspace's real sets), then per cluster `dims` 0/1 flags, the size and the 0-based ids."""
    with open(path) as f:
        header = f.readline()
        match = re.match(r"DIM=(\d+)", header)
        if match and int(match.group(1)) != dims:
            raise ValueError(f"{path}: DIM={match.group(1)}, but the data has {dims} dimensions")
        clusters = []
        for number, line in enumerate(f, 2):
            tokens = line.split()
            if not tokens:
                continue
            flags, size, ids = tokens[:dims], int(tokens[dims]), [int(t) for t in tokens[dims + 1:]]
            if any(t not in ("0", "1") for t in flags) or len(ids) != size:
                raise ValueError(f"{path}:{number}: expected {dims} 0/1 flags, the size and that many ids")
            clusters.append(([j for j in range(dims) if flags[j] == "1"], ids))
    return clusters


def classes_as_clusters(labels, dims):
    """Each class (label >= 0) a hidden cluster in every dimension, in label order."""
    return [(list(range(dims)), np.flatnonzero(labels == c).tolist()) for c in np.unique(labels[labels >= 0])]


def same_clusters(a, b):
    """The same hidden clusters, whatever their order."""
    key = lambda clusters: sorted((tuple(d), tuple(sorted(p))) for d, p in clusters)  # noqa: E731
    return key(a) == key(b)


def write_true(path, clusters, dims, file_name):
    with open(path, "w") as f:
        f.write(f"DIM={dims};FILE={file_name}\n")
        for subspace, ids in clusters:
            inside = set(subspace)
            flags = ["1" if j in inside else "0" for j in range(dims)]
            f.write(" ".join(flags + [str(len(ids))] + [str(i) for i in ids]) + "\n")


def write_h5(path, data, labels):
    with h5py.File(path, "w") as f:
        f.create_dataset("data", data=data)
        f.create_dataset("labels", data=labels)


def opensubspace_sets(folder, out):
    """The ARFF sets of `folder` with their .true; each also as OUT/data/NAME.h5 (for ELKI's CSV)
    and its truth under a DIM line as OUT/truth/NAME.true."""
    sets = []
    for arff in sorted(glob.glob(os.path.join(folder, "*.arff"))):
        name = os.path.splitext(os.path.basename(arff))[0]
        study_true = os.path.join(folder, name + ".true")
        if not os.path.exists(study_true):
            print(f"{name}: no {name}.true beside {arff}; skipped", file=sys.stderr)
            continue
        data, labels, _ = read_arff(arff)
        truth = read_true(study_true, data.shape[1])
        h5 = os.path.join(out, "data", name + ".h5")
        write_h5(h5, data, labels)
        truth_path = os.path.join(out, "truth", name + ".true")
        write_true(truth_path, truth, data.shape[1], os.path.basename(arff))
        sets.append(dict(name=name, source="opensubspace", input=os.path.abspath(arff), h5=h5, truth=truth_path,
                         data=data, labels=labels, classes=len(truth),
                         truth_is_classes=same_clusters(truth, classes_as_clusters(labels, data.shape[1]))))
    return sets


def sklearn_sets(out):
    sets = []
    for name, h5 in real_data.write_sets(os.path.join(out, "data")).items():
        with h5py.File(h5, "r") as f:
            data, labels = f["data"][:].astype(np.float64), f["labels"][:]
        truth = classes_as_clusters(labels, data.shape[1])
        truth_path = os.path.join(out, "truth", name + ".true")
        write_true(truth_path, truth, data.shape[1], os.path.basename(h5))
        sets.append(dict(name=name, source="scikit-learn", input=h5, h5=h5, truth=truth_path, data=data,
                         labels=labels, classes=len(truth), truth_is_classes=True))
    return sets


# ---- running and scoring -----------------------------------------------------------------------

class Log:
    """Every command with its exit status and seconds, to OUT/commands.log."""

    def __init__(self, path):
        self.path = path

    def run(self, command, timeout):
        start = time.monotonic()
        try:
            proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  timeout=timeout)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            proc, status = None, "timeout"
        seconds = time.monotonic() - start
        with open(self.path, "a") as f:
            f.write(f"{' '.join(command)}  # exit {status}, {seconds:.2f} s\n")
        return proc, seconds


def failure(proc, timeout):
    if proc is None:
        return f"timeout after {timeout:g} s"
    lines = [x for x in proc.stderr.strip().splitlines() if x.strip()]
    return f"error {proc.returncode}: {(lines or ['no message'])[-1][:120]}"


def evaluate(binary, found, truth, n, json_path, log, timeout):
    """`subscale evaluate` of a clusters file or run folder: its measures, and merge's raw ones
    under "raw" where the folder has clusters_raw.txt."""
    proc, _ = log.run([binary, "evaluate", found, "--truth", truth, "--points", str(n), "--json", json_path], timeout)
    if proc is None or proc.returncode != 0:
        raise RuntimeError("evaluate: " + failure(proc, timeout))
    with open(json_path) as f:
        return json.load(f)


def write_config(path, input_path):
    with open(path, "w") as f:
        f.write(f"input:\n  path: {json.dumps(input_path)}\n")


def check_dimensions(folder, d, name):
    """The run saw d columns: the class attribute was read as labels, not as a feature."""
    with open(os.path.join(folder, "summary.json")) as f:
        seen = json.load(f).get("dimensions")
    if seen != d:
        raise RuntimeError(f"{name}: the run saw {seen} dimensions, the data has {d} (is the class a feature?)")


def run_subscale(ctx, s):
    """The default run (config: input.path only) scored, with merge's clusters of the same run."""
    folder = os.path.join(ctx.out, "runs", s["name"])
    shutil.rmtree(folder, ignore_errors=True)
    config = os.path.join(ctx.out, "configs", s["name"] + ".yaml")
    write_config(config, s["input"])
    proc, wall = ctx.log.run([ctx.subscale, "run", config, f"threads={ctx.threads}", "--out", folder, "-q"],
                             ctx.timeout)
    if proc is None or proc.returncode != 0:
        return dict(sub_status=failure(proc, ctx.timeout), sub_wall_s=f"{wall:.2f}")
    try:
        check_dimensions(folder, s["data"].shape[1], s["name"])
        m = evaluate(ctx.subscale, folder, s["truth"], s["data"].shape[0],
                     os.path.join(ctx.out, "scores", s["name"] + ".json"), ctx.log, ctx.timeout)
    except RuntimeError as e:
        return dict(sub_status=str(e)[:120], sub_wall_s=f"{wall:.2f}")
    row = dict(sub_status="ok", sub_e4sc=m["e4sc"], sub_f1=m["f1"], sub_clusters=m["found_clusters"],
               sub_coverage=m["coverage"], sub_wall_s=f"{wall:.2f}")
    if "raw" in m:
        row.update(raw_e4sc=m["raw"]["e4sc"], raw_f1=m["raw"]["f1"], raw_clusters=m["raw"]["found_clusters"])
    return row


def run_without_test(ctx, s):
    """Merge's clusters with the default run's resolved parameters and no test."""
    config = os.path.join(ctx.out, "runs", s["name"], "config.yaml")
    if not os.path.exists(config):
        return dict(nt_status="no default run")
    folder = os.path.join(ctx.out, "runs", s["name"] + "-no-test")
    shutil.rmtree(folder, ignore_errors=True)
    command = [ctx.subscale, "run", config, "significance.enabled=false", "consolidate=off",
               f"threads={ctx.threads}", "--out", folder, "-q"]
    proc, wall = ctx.log.run(command, ctx.timeout)
    if proc is None or proc.returncode != 0:
        return dict(nt_status=failure(proc, ctx.timeout), nt_wall_s=f"{wall:.2f}")
    try:
        m = evaluate(ctx.subscale, folder, s["truth"], s["data"].shape[0],
                     os.path.join(ctx.out, "scores", s["name"] + "-no-test.json"), ctx.log, ctx.timeout)
    except RuntimeError as e:
        return dict(nt_status=str(e)[:120], nt_wall_s=f"{wall:.2f}")
    return dict(nt_status="ok", nt_e4sc=m["e4sc"], nt_f1=m["f1"], nt_clusters=m["found_clusters"],
                nt_wall_s=f"{wall:.2f}")


def elki_runs(ctx, s):
    """Every setting of run_elki.SETTINGS on the set; after `max_timeouts` timeouts of an
    algorithm its remaining settings are skipped (recorded as such)."""
    n, d = s["data"].shape
    csv_path = os.path.abspath(os.path.join(ctx.out, "elki", s["name"] + ".csv"))
    shape = run_elki.write_csv(s["h5"], csv_path)
    runner = types.SimpleNamespace(out=os.path.join(ctx.out, "elki"), timeout=ctx.elki_timeout,
                                   subscale=ctx.subscale)
    rows = []
    for algorithm in ctx.algorithms:
        timeouts = 0
        for index, template in enumerate(run_elki.SETTINGS[algorithm]):
            setting = [t.format(k=s["classes"], k2=2 * s["classes"], l=d) for t in template]
            row = dict(data=s["name"], algorithm=algorithm, setting_index=index,
                       setting=" ".join(setting) or "defaults")
            if timeouts >= ctx.max_timeouts:
                rows.append(dict(row, e4sc=0.0, f1=0.0, clusters="", seconds=0.0, status="skipped"))
                continue
            r = run_elki.run_setting(runner, algorithm, setting, csv_path, shape, s["truth"], s["classes"])
            timeouts += r["status"] == "timeout"
            rows.append(dict(row, **r))
            print(f"  {s['name']:14} {algorithm:8} #{index} E4SC {r['e4sc']:.3f} F1 {r['f1']:.3f} "
                  f"{r['seconds']:.1f} s {r['status']}", file=sys.stderr, flush=True)
    os.remove(csv_path)
    return rows


def elki_summary(rows):
    """The median over the algorithms of the default setting's E4SC and F1 (a timeout or error
    scores 0), and the best run of all by (E4SC + F1) / 2 with its algorithm and setting."""
    if not rows:
        return {}
    defaults = [r for r in rows if int(r["setting_index"]) == 0]
    ran = [r for r in rows if r["status"] != "skipped"]
    best = max(ran, key=lambda r: (float(r["e4sc"]) + float(r["f1"])) / 2)
    return dict(elki_default_e4sc=median([float(r["e4sc"]) for r in defaults]),
                elki_default_f1=median([float(r["f1"]) for r in defaults]),
                elki_best_e4sc=float(best["e4sc"]), elki_best_f1=float(best["f1"]),
                elki_best_algorithm=best["algorithm"], elki_best_setting=best["setting"], elki_runs=len(ran),
                elki_timeouts=sum(r["status"] == "timeout" for r in rows),
                elki_errors=sum(r["status"].startswith("error") for r in rows))


def kmeans_clusters(data, k, seed):
    """k-means on min-max normalised columns (a constant column stays 0): each cluster in every
    dimension, as [(dims, sorted ids)]."""
    from sklearn.cluster import KMeans

    lo, span = data.min(axis=0), np.ptp(data, axis=0)
    scaled = (data - lo) / np.where(span > 0, span, 1.0)
    labels = KMeans(n_clusters=k, n_init=10, random_state=seed).fit_predict(scaled)
    return [(list(range(data.shape[1])), np.flatnonzero(labels == c).tolist()) for c in range(k)]


def run_kmeans(ctx, s):
    clusters = kmeans_clusters(s["data"], s["classes"], ctx.seed)
    workdir = os.path.join(ctx.out, "scores", s["name"] + "-kmeans")
    os.makedirs(workdir, exist_ok=True)
    n, d = s["data"].shape
    e4sc, f1 = run_elki.score(ctx.subscale, clusters, d, n, s["truth"], workdir)
    return dict(kmeans_e4sc=e4sc, kmeans_f1=f1, kmeans_clusters=sum(1 for _, ids in clusters if ids))


# ---- the tables --------------------------------------------------------------------------------

def pair(row, a, b):
    """'E4SC / F1' of a method, or '-' where it has none."""
    if row.get(a) in (None, "") or row.get(b) in (None, ""):
        return "-"
    return f"{float(row[a]):.3f} / {float(row[b]):.3f}"


def ratio(row, key, reference):
    """subscale's score over ELKI's median default; '-' where that is 0 or missing."""
    if row.get(key) in (None, "") or not row.get(reference):
        return "-"
    return f"{float(row[key]) / float(row[reference]):.2f}"


def value(row, key, fmt="{}"):
    return "-" if row.get(key) in (None, "") else fmt.format(row[key])


def markdown(rows, ctx):
    lines = ["# Real-world data: each class a hidden cluster in the full space", "",
             f"`{ctx.subscale}`, threads={ctx.threads}; ELKI 0.7.1, one JVM core, {ctx.elki_timeout:g} s per run "
             f"(after {ctx.max_timeouts} timeout(s) an algorithm's other settings on that set are skipped); "
             f"k-means: scikit-learn, n_init=10, random_state={ctx.seed}, min-max normalised columns.", "",
             "E4SC / F1 (OpenSubspace's F1-Merge) against the classes, each a cluster in every dimension. "
             "subscale: a config holding only `input.path`; merge (run): that run's clusters_raw.txt; "
             "merge (no test): the run's config.yaml with `significance.enabled=false consolidate=off`. "
             "ELKI default: median over P3C, DOC, PROCLUS, SUBCLU, CLIQUE, DiSH of the default setting (a "
             "timeout or error scores 0); ELKI best: the best of every setting by (E4SC + F1) / 2.", "",
             "| data | n x d | classes | subscale | clusters | coverage | wall s | merge (run) | clusters | "
             "merge (no test) | clusters | ELKI default | ELKI best | best algorithm | k-means | "
             "E4SC / F1 over ELKI default |",
             "|---|---|---:|---|---:|---:|---:|---|---:|---|---:|---|---|---|---|---|"]
    for r in rows:
        status = "" if r.get("sub_status") == "ok" else f" ({r.get('sub_status')})"
        nt = pair(r, "nt_e4sc", "nt_f1") if r.get("nt_status") == "ok" else r.get("nt_status", "-")
        lines.append(
            f"| {r['data']} | {r['n']} x {r['d']} | {r['classes']} | {pair(r, 'sub_e4sc', 'sub_f1')}{status} | "
            f"{value(r, 'sub_clusters')} | {value(r, 'sub_coverage', '{:.3f}')} | {value(r, 'sub_wall_s')} | "
            f"{pair(r, 'raw_e4sc', 'raw_f1')} | {value(r, 'raw_clusters')} | {nt} | {value(r, 'nt_clusters')} | "
            f"{pair(r, 'elki_default_e4sc', 'elki_default_f1')} | {pair(r, 'elki_best_e4sc', 'elki_best_f1')} | "
            f"{value(r, 'elki_best_algorithm')} | {pair(r, 'kmeans_e4sc', 'kmeans_f1')} | "
            f"{ratio(r, 'sub_e4sc', 'elki_default_e4sc')} / {ratio(r, 'sub_f1', 'elki_default_f1')} |")
    lines += ["", "ELKI per set: runs made, timeouts, errors, and the best setting.", "",
              "| data | runs | timeouts | errors | best setting |", "|---|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['data']} | {value(r, 'elki_runs')} | {value(r, 'elki_timeouts')} | "
                     f"{value(r, 'elki_errors')} | {value(r, 'elki_best_algorithm')} "
                     f"{value(r, 'elki_best_setting')} |")
    mismatched = [r["data"] for r in rows if not r["truth_is_classes"]]
    lines += ["", "The study's .true files hold exactly the ARFF files' classes"
              + (f", except: {', '.join(mismatched)}." if mismatched else "."), "",
              "Significance of the classes: no command and no Python call scores a given cluster under the "
              "project's test (`subscale evaluate` scores against a truth or labels; the test's score exists "
              "only for the clusters a run finds, /clusters/score in results.h5), so none is given here."]
    return "\n".join(lines) + "\n"


def write_outputs(out, rows, elki_rows, ctx):
    with open(os.path.join(out, "real_world.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(out, "elki_runs.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=ELKI_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(elki_rows)
    text = markdown(rows, ctx)
    with open(os.path.join(out, "real_world.md"), "w") as f:
        f.write(text)
    return text


# ---- the command line --------------------------------------------------------------------------

def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscale", required=True, help="the subscale binary")
    parser.add_argument("--out", required=True, help="folder for the runs, the data as HDF5 and the tables")
    parser.add_argument("--opensubspace", help="folder of the study's real sets (NAME.arff + NAME.true)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per subscale run (default 600)")
    parser.add_argument("--elki-timeout", type=float, default=120, help="seconds per ELKI run (default 120)")
    parser.add_argument("--max-timeouts", type=int, default=1,
                        help="after this many timeouts of an ELKI algorithm on a set, skip its other settings there")
    parser.add_argument("--algorithms", default=",".join(run_elki.SETTINGS), help="ELKI algorithms; '' for none")
    parser.add_argument("--seed", type=int, default=1, help="k-means' random_state (default 1)")
    parser.add_argument("--only", default="", help="comma-separated data sets (default all)")
    args = parser.parse_args()
    args.subscale = os.path.abspath(args.subscale)
    args.out = os.path.abspath(args.out)
    args.algorithms = [a for a in args.algorithms.split(",") if a]
    for a in args.algorithms:
        if a not in run_elki.SETTINGS:
            sys.exit(f"unknown ELKI algorithm '{a}'; known: {', '.join(run_elki.SETTINGS)}")
    if args.algorithms and (shutil.which("java") is None or not os.path.exists(run_elki.JARS[0])):
        sys.exit("ELKI is not installed: apt-get install -y elki (Debian's package, 0.7.1), or --algorithms ''")
    return args


def data_sets(args):
    sets = []
    if args.opensubspace and os.path.isdir(args.opensubspace):
        sets += opensubspace_sets(args.opensubspace, args.out)
    else:
        print(f"the OpenSubspace real sets are skipped: {args.opensubspace or 'no --opensubspace'} "
              "is not a folder", file=sys.stderr)
    sets += sklearn_sets(args.out)
    only = {n for n in args.only.split(",") if n}
    return [s for s in sets if not only or s["name"] in only]


def main():
    args = parse_args()
    for sub in ("data", "truth", "configs", "runs", "scores", "elki"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    args.log = Log(os.path.join(args.out, "commands.log"))
    rows, elki_rows = [], []
    for s in data_sets(args):
        n, d = s["data"].shape
        print(f"{s['name']}: {n} x {d}, {s['classes']} classes", file=sys.stderr, flush=True)
        row = dict(data=s["name"], source=s["source"], n=n, d=d, classes=s["classes"],
                   truth_is_classes=s["truth_is_classes"])
        row.update(run_subscale(args, s))
        row.update(run_without_test(args, s))
        runs = elki_runs(args, s) if args.algorithms else []
        elki_rows += runs
        row.update(elki_summary(runs))
        row.update(run_kmeans(args, s))
        rows.append(row)
        write_outputs(args.out, rows, elki_rows, args)  # after every set: a stopped run keeps its rows
    print(write_outputs(args.out, rows, elki_rows, args))


if __name__ == "__main__":
    main()
