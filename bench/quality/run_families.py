#!/usr/bin/python3
"""Score `subscale run` on a suite made by families.py (or any folder of NAME.h5 + NAME.true).

    bench/quality/run_families.py --subscale build/subscale --suite /work/suite/train --out runs/fam
    bench/quality/run_families.py --subscale build/subscale --suite /work/suite/train --out runs/fam \\
        epsilon=0.004 min_points=4                  # a fixed setting: extra key=value overrides
    bench/quality/run_families.py --subscale build/subscale --suite /work/suite/train --out runs/grid --grid

Each file runs with a config that holds ONLY `input.path` and `ground_truth.path` (the defaults do
the rest), plus the overrides given on the command line and `threads`. `--grid` instead runs the
72-setting grid of configs/opensubspace_*.yaml on each file (settings whose `subscale plan` walk
estimate is over --grid-max-nodes are skipped) and keeps the best per file by (E4SC + F1) / 2.

Writes OUT/results.md and OUT/results.csv: family, file, E4SC, F1, clusters found, hidden
clusters, seconds, status; per-family medians and the overall median. A run that fails or times
out scores 0 in the medians (its status says why). Standard library only.
"""

import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

GRID = {
    "epsilon": [0.002, 0.003, 0.005],
    "min_points": [3, 4],
    "merge.epsilon": [0.01, 0.02, 0.05],
    "merge.min_points": [16, 32, 64, 96],
}
COLUMNS = ["part", "family", "file", "e4sc", "f1", "clusters", "hidden", "seconds", "status", "setting"]


def suite_files(suite):
    """(part, family, name, h5, true) for every NAME.h5 with a NAME.true beside it; the family is
    the manifest's, else the name up to its first '-'."""
    part = os.path.basename(os.path.normpath(suite))
    families = {}
    manifest = os.path.join(suite, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as f:
            families = {m["name"]: m["family"] for m in json.load(f)}
    found = []
    for entry in sorted(os.listdir(suite)):
        name, ext = os.path.splitext(entry)
        truth = os.path.join(suite, name + ".true")
        if ext == ".h5" and os.path.exists(truth):
            family = families.get(name, name.split("-")[0])
            found.append((part, family, name, os.path.abspath(os.path.join(suite, entry)), os.path.abspath(truth)))
    if not found:
        sys.exit(f"no NAME.h5 with NAME.true in {suite}: generate a suite with bench/quality/families.py")
    return found


def write_config(path, h5, truth):
    # Only the input and the ground truth: every other key takes the binary's default.
    with open(path, "w") as f:
        f.write(f"input:\n  path: {json.dumps(h5)}\nground_truth:\n  path: {json.dumps(truth)}\n")


def run_one(binary, config, folder, overrides, timeout):
    """Runs one setting; returns (evaluation dict or None, seconds, status)."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    command = [binary, "run", config, *overrides, "--out", folder]
    start = time.monotonic()
    try:
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - start, "timeout"
    seconds = time.monotonic() - start
    summary_path = os.path.join(folder, "summary.json")
    if proc.returncode != 0 or not os.path.exists(summary_path):
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        return None, seconds, f"error {proc.returncode}: {last[:120]}"
    with open(summary_path) as f:
        summary = json.load(f)
    evaluation = summary.get("evaluation")
    if not evaluation:
        return None, seconds, "no evaluation in summary.json"
    evaluation = dict(evaluation)
    evaluation["timings"] = summary.get("timings_seconds", {})
    evaluation["resolved"] = {k: summary.get(k) for k in ("epsilon", "min_points") if k in summary}
    return evaluation, seconds, "ok"


def row_from(part, family, name, evaluation, seconds, status, setting):
    row = dict(part=part, family=family, file=name, seconds=round(seconds, 2), status=status, setting=setting)
    if evaluation:
        row.update(e4sc=evaluation["e4sc"], f1=evaluation["f1"], clusters=evaluation["found_clusters"],
                   hidden=evaluation["hidden_clusters"])
    else:
        row.update(e4sc=0.0, f1=0.0, clusters="", hidden="")
    return row


def plan_nodes(binary, config, overrides, timeout):
    """The walk estimate of `subscale plan` (nodes), or None where plan fails."""
    try:
        proc = subprocess.run([binary, "plan", config, *overrides], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    text = proc.stdout + proc.stderr
    match = re.search(r"walk estimated: ([0-9.]+) ([kMGTP]?) ?nodes", text)
    if not match:
        match = re.search(r"total dense units: ([0-9]+)()", text)
        if not match:
            return None
    scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}[match.group(2)]
    return float(match.group(1)) * scale


def grid_settings():
    settings = [[]]
    for key, values in GRID.items():
        settings = [s + [f"{key}={v}"] for s in settings for v in values]
    return settings


def score_grid(args, part, family, name, config, folder):
    """Best of the grid for one file by (E4SC + F1) / 2; core settings too heavy for the cap are
    skipped, and the merge settings of a core setting that timed out are not tried."""
    best, tried, skipped = None, 0, 0
    core_timed_out = set()
    start = time.monotonic()
    for setting in grid_settings():
        core = tuple(setting[:2])
        if core in core_timed_out:
            skipped += 1
            continue
        overrides = setting + [f"threads={args.threads}"] + args.overrides
        nodes = plan_nodes(args.subscale, config, overrides, args.timeout)
        if nodes is None or nodes > args.grid_max_nodes:
            skipped += 1
            continue
        evaluation, seconds, status = run_one(args.subscale, config, os.path.join(folder, "grid"), overrides,
                                              args.grid_timeout)
        tried += 1
        if status == "timeout":
            core_timed_out.add(core)
        if evaluation is None:
            continue
        score = (evaluation["e4sc"] + evaluation["f1"]) / 2
        if best is None or score > best[0]:
            best = (score, evaluation, seconds, " ".join(setting))
    spent = time.monotonic() - start
    status = f"ok ({tried} run, {skipped} skipped, {spent:.0f} s)"
    if best is None:
        return row_from(part, family, name, None, 0.0, f"none finished ({tried} run, {skipped} skipped)", "")
    return row_from(part, family, name, best[1], best[2], status, best[3])


def median(values):
    return statistics.median(values) if values else float("nan")


def summary_tables(rows):
    """Per-family medians within each part, then each part's and the overall median."""
    lines = []
    parts = sorted({r["part"] for r in rows})
    lines.append("| part | family | files | median E4SC | median F1 | median clusters | not ok |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    family_medians = {}
    for part in parts:
        for family in sorted({r["family"] for r in rows if r["part"] == part}):
            group = [r for r in rows if r["part"] == part and r["family"] == family]
            e4sc, f1 = median([r["e4sc"] for r in group]), median([r["f1"] for r in group])
            clusters = [r["clusters"] for r in group if r["clusters"] != ""]
            failed = sum(1 for r in group if not r["status"].startswith("ok"))
            family_medians.setdefault(part, []).append((e4sc, f1))
            lines.append(f"| {part} | {family} | {len(group)} | {e4sc:.3f} | {f1:.3f} | "
                         f"{median(clusters) if clusters else '-'} | {failed} |")
    lines.append("")
    lines.append("| part | files | median E4SC (files) | median F1 (files) | median of family medians E4SC / F1 "
                 "| worst family E4SC / F1 | total s |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for part in parts + (["all"] if len(parts) > 1 else []):
        group = [r for r in rows if part == "all" or r["part"] == part]
        fams = [m for p in parts if part in ("all", p) for m in family_medians[p]]
        lines.append(
            f"| {part} | {len(group)} | {median([r['e4sc'] for r in group]):.3f} | "
            f"{median([r['f1'] for r in group]):.3f} | {median([m[0] for m in fams]):.3f} / "
            f"{median([m[1] for m in fams]):.3f} | {min(m[0] for m in fams):.3f} / {min(m[1] for m in fams):.3f} | "
            f"{sum(r['seconds'] for r in group):.1f} |")
    return lines


def write_tables(out, rows, header):
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: (f"{r[k]:.4f}" if k in ("e4sc", "f1") else r[k]) for k in COLUMNS})
    lines = [header, ""]
    lines.append("| part | family | file | E4SC | F1 | clusters | hidden | seconds | status | setting |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        status = r["status"].replace("|", "/")  # an error message must not split the Markdown row
        lines.append(f"| {r['part']} | {r['family']} | {r['file']} | {r['e4sc']:.3f} | {r['f1']:.3f} | "
                     f"{r['clusters']} | {r['hidden']} | {r['seconds']:.2f} | {status} | {r['setting']} |")
    lines.append("")
    lines.extend(summary_tables(rows))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscale", required=True, help="the subscale binary")
    parser.add_argument("--suite", required=True, action="append",
                        help="a suite folder (NAME.h5 + NAME.true); repeat for train and heldout")
    parser.add_argument("--out", required=True, help="output folder (runs, results.md, results.csv)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per run (default 120)")
    parser.add_argument("--threads", type=int, default=2, help="threads of each run (default 2)")
    parser.add_argument("--grid", action="store_true", help="best of the old 72-setting grid per file")
    parser.add_argument("--grid-max-nodes", type=float, default=2e8,
                        help="--grid skips settings whose plan walk estimate exceeds this (default 2e8)")
    parser.add_argument("--grid-timeout", type=float, default=60,
                        help="--grid: seconds per run; a core setting that times out skips its merge settings")
    parser.add_argument("--only", default="", help="comma-separated families to run (default all)")
    parser.add_argument("overrides", nargs="*", help="key=value overrides given to every run")
    args = parser.parse_args()
    args.subscale = os.path.abspath(args.subscale)
    for o in args.overrides:
        if "=" not in o:
            sys.exit(f"override '{o}' is not key=value")
    os.makedirs(args.out, exist_ok=True)
    only = {f for f in args.only.split(",") if f}
    files = [f for suite in args.suite for f in suite_files(suite) if not only or f[1] in only]
    mode = "best of the 72-setting grid" if args.grid else "config with only input.path"
    header = (f"# {mode}: {args.subscale} {' '.join(args.overrides)}\n\n"
              f"threads={args.threads}, timeout {args.grid_timeout if args.grid else args.timeout:g} s per run; "
              f"failed runs score 0." + (f" Grid: settings with a plan walk estimate over "
                                         f"{args.grid_max_nodes:g} nodes skipped." if args.grid else ""))
    rows = []
    for part, family, name, h5, truth in files:
        folder = os.path.join(os.path.abspath(args.out), part, name)
        os.makedirs(folder, exist_ok=True)
        config = os.path.join(folder, "config.yaml")
        write_config(config, h5, truth)
        if args.grid:
            row = score_grid(args, part, family, name, config, folder)
        else:
            overrides = [f"threads={args.threads}"] + args.overrides
            evaluation, seconds, status = run_one(args.subscale, config, os.path.join(folder, "run"), overrides,
                                                  args.timeout)
            row = row_from(part, family, name, evaluation, seconds, status, " ".join(args.overrides) or "defaults")
        rows.append(row)
        print(f"{part:8} {name:16} E4SC {row['e4sc']:.3f} F1 {row['f1']:.3f} clusters {row['clusters']} "
              f"{row['seconds']:.2f} s {row['status']}", file=sys.stderr, flush=True)
        write_tables(args.out, rows, header)  # after every file, so an interrupted run leaves its table
    print("\n".join(summary_tables(rows)))


if __name__ == "__main__":
    main()
