#!/usr/bin/env python3
"""Quality of subscale on the OpenSubspace suites: each suite's best setting from its sweep, then
every file of the suite with it (bench/RESULTS.md, "OpenSubspace suites, one config for all").

For each suite (dbsizescale, dimscale, noisescale):
  1. runs the sweep of configs/opensubspace_<suite>.yaml on its representative file;
  2. ranks the sweep's runs by the mean of F1 and E4SC (F1 alone does not penalise a hidden
     cluster split into many projections, E4SC does; the mean rewards both), ties to the faster;
  3. takes the best-ranked setting whose dense units (`subscale plan`) stay under --max-units on
     every file of the suite, so the largest file can run on this machine;
  4. runs every file of the suite with that setting and records F1, E4SC, RNIA, CE, coverage,
     counts and times (the pipeline's own total from summary.json and the wall time of the
     process, which adds reading the ARFF text and starting up). When the run consolidates
     (consolidate.enabled, the default), the measures are the consolidated clusters' and merge's
     raw clusters are scored beside them (raw_*), with the consolidate stage's time against the
     core's.
Writes <out>/quality.md (the tables, ready for bench/RESULTS.md) and <out>/quality.csv.

Python 3 standard library only. Run from the repository root:
  bench/quality/run_quality.py --subscale build/subscale --out runs/quality
"""
import argparse
import csv
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

SUITES = ["dbsizescale", "dimscale", "noisescale"]
MEASURES = ["f1", "e4sc", "rnia", "ce", "coverage"]


def natural_key(path):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


def run(command, log=None):
    """Runs a command; returns (stdout, wall seconds); exits with its message when it fails."""
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if log:
        log.write("$ " + " ".join(command) + f"\n# {seconds:.2f} s, exit {result.returncode}\n")
        log.flush()
    if result.returncode != 0:
        sys.exit(f"run_quality: failed ({result.returncode}): {' '.join(command)}\n{result.stdout}{result.stderr}")
    return result.stdout, seconds


def read_sweep(path):
    """The sweep.csv rows that ran, with the setting (the key columns) and the measures."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"run_quality: {path} has no rows")
    keys = []
    for column in rows[0].keys():
        if column == "dense_units":
            break
        keys.append(column)
    ok = [r for r in rows if r["status"] == "ok" and r["f1"] != ""]
    return keys, rows, ok


def score(row):
    return (float(row["f1"]) + float(row["e4sc"])) / 2


def plan_units(subscale, config, setting, data, truth, log):
    out, _ = run([subscale, "plan", config, *setting, f"input.path={data}", f"ground_truth.path={truth}", "-q"], log)
    match = re.search(r"total dense units: (\d+)", out)
    if not match:
        sys.exit(f"run_quality: no 'total dense units' in the plan of {data}:\n{out}")
    return int(match.group(1))


def machine_lines(subscale):
    cpu = "unknown"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True).stdout.strip()
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return [
        f"- Machine: {os.cpu_count()} CPUs (`nproc`: {len(os.sched_getaffinity(0))}), {cpu}, "
        f"{memory:.0f} GiB memory, {platform.system()} {platform.release()}",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Commit: `{commit}`" + (" (working tree has changes by others in progress)" if dirty else ""),
        f"- Binary: `{subscale}`",
    ]


def fmt(value, digits=3):
    return f"{float(value):.{digits}f}"


def run_suite(args, config, suite, files, setting, out, log, table_rows):
    """Runs every file of the suite with one setting; appends a row per file to table_rows."""
    for data in files:
        truth = data.with_suffix(".true")
        run_dir = out / suite / data.stem
        command = [args.subscale, "run", config, *setting, f"input.path={data}", f"ground_truth.path={truth}",
                   "--out", str(run_dir), "-q"]
        _, wall = run(command, log)
        summary = json.loads((run_dir / "summary.json").read_text())
        quality = summary["evaluation"]
        raw = summary.get("evaluation_raw", quality)
        timings = summary["timings_seconds"]
        core_s = sum(timings.get(s, 0) for s in ("density1d", "plan", "dense_units", "subspaces"))
        table_rows.append({
            "suite": suite, "file": data.stem, "points": summary["points"], "dims": summary["dimensions"],
            **{m: quality[m] for m in MEASURES},
            **{"raw_" + m: raw[m] for m in MEASURES},
            "hidden": quality["hidden_clusters"], "found": quality["found_clusters"],
            "raw_found": raw["found_clusters"],
            "subspaces": summary["counts"]["subspaces"], "dense_units": summary["counts"]["dense_units"],
            "core_s": core_s, "merge_s": timings.get("merge", 0),
            "consolidate_s": timings.get("consolidate", 0),
            "consolidate_over_core": timings.get("consolidate", 0) / core_s if core_s > 0 else 0,
            "total_s": timings["total"], "wall_s": wall,
            "setting": " ".join(setting),
        })
        r = table_rows[-1]
        print(f"  {data.stem}: F1 {r['f1']:.3f} E4SC {r['e4sc']:.3f} (raw {r['raw_f1']:.3f}, {r['raw_e4sc']:.3f}) "
              f"in {wall:.2f} s", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subscale", default="build/subscale", help="the subscale binary")
    parser.add_argument("--data", default="../shared/datasets/opensubspace", help="folder of the synth_* suites")
    parser.add_argument("--configs", default="configs", help="folder of opensubspace_<suite>.yaml")
    parser.add_argument("--out", default="runs/quality", help="folder for the runs and the tables")
    parser.add_argument("--suites", default=",".join(SUITES), help="comma-separated suites")
    parser.add_argument("--max-units", type=float, default=200e6,
                        help="largest number of dense units a file may need with the chosen setting")
    parser.add_argument("--reuse-sweeps", action="store_true",
                        help="read <out>/sweep-<suite>/sweep.csv when present instead of sweeping again")
    parser.add_argument("--setting", action="append", default=[], metavar="SUITE=KEY=VALUE,...",
                        help="run SUITE with this setting instead of sweeping for one, e.g. "
                             "dimscale=epsilon=0.005,min_points=3,merge.epsilon=0.05,merge.min_points=96")
    args = parser.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / "commands.log", "a")
    md = ["### Setup", ""] + machine_lines(args.subscale) + [""]
    table_rows = []
    choice_lines = []
    given = {}
    for text in args.setting:
        suite, _, pairs = text.partition("=")
        given[suite] = [pair for pair in pairs.split(",") if pair]
    for suite in args.suites.split(","):
        config = str(Path(args.configs) / f"opensubspace_{suite}.yaml")
        folder = Path(args.data) / f"synth_{suite}"
        files = sorted(folder.glob("*.arff"), key=natural_key)
        if not files:
            sys.exit(f"run_quality: no .arff files in {folder}")
        if suite in given:
            setting = given[suite]
            largest = max(plan_units(args.subscale, config, setting, f, f.with_suffix(".true"), log) for f in files)
            choice_lines.append(f"- **{suite}**: given `{' '.join(setting)}` (no sweep; at most "
                                f"{largest / 1e6:.1f} M dense units on the suite's largest file)")
            run_suite(args, config, suite, files, setting, out, log, table_rows)
            continue
        sweep_dir = out / f"sweep-{suite}"
        sweep_seconds = None
        if not (args.reuse_sweeps and (sweep_dir / "sweep.csv").exists()):
            print(f"[{suite}] sweep: {config}", file=sys.stderr)
            _, sweep_seconds = run([args.subscale, "run", config, "--out", str(sweep_dir), "-q"], log)
        keys, rows, ok = read_sweep(sweep_dir / "sweep.csv")
        ranked = sorted(ok, key=lambda r: (-score(r), float(r["seconds"])))

        chosen, skipped = None, []
        for row in ranked:
            setting = [f"{k}={row[k]}" for k in keys]
            largest = max(plan_units(args.subscale, config, setting, f, f.with_suffix(".true"), log) for f in files)
            if largest <= args.max_units:
                chosen = (row, setting, largest)
                break
            skipped.append(f"{' '.join(setting)} (needs {largest / 1e6:.0f} M units)")
        if not chosen:
            sys.exit(f"run_quality: no setting of the {suite} sweep stays under {args.max_units:.0f} dense units")
        row, setting, largest = chosen
        swept = next((json.loads(s.read_text())["input"] for s in sorted(sweep_dir.glob("*/summary.json"))), "?")
        line = (f"- **{suite}** ({len(rows)} runs on {Path(swept).stem}"
                + (f", {sweep_seconds:.0f} s" if sweep_seconds else "") + f"): best `{' '.join(setting)}` "
                f"(F1 {fmt(row['f1'])}, E4SC {fmt(row['e4sc'])} on the sweep's file; "
                f"at most {largest / 1e6:.1f} M dense units on the suite's largest file)")
        if skipped:
            line += "; ranked higher but over --max-units: " + "; ".join(skipped)
        choice_lines.append(line)
        print(line, file=sys.stderr)

        run_suite(args, config, suite, files, setting, out, log, table_rows)

    with open(out / "quality.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table_rows[0].keys()))
        writer.writeheader()
        writer.writerows(table_rows)

    md += ["### Settings chosen by the sweeps", ""] + choice_lines + [""]
    md += ["### Every file with its suite's setting", "",
           "| suite | file | points | dims | F1 | E4SC | RNIA | CE | coverage | hidden | found | subspaces | "
           "dense units | core s | merge s | total s | wall s |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in table_rows:
        md.append(f"| {r['suite']} | {r['file']} | {r['points']} | {r['dims']} | " +
                  " | ".join(fmt(r[m]) for m in MEASURES) +
                  f" | {r['hidden']} | {r['found']} | {r['subspaces']} | {r['dense_units'] / 1e6:.1f} M | "
                  f"{r['core_s']:.2f} | {r['merge_s']:.2f} | {r['total_s']:.2f} | {r['wall_s']:.2f} |")
    md.append("")
    md += ["### Raw (merge) and consolidated clusters side by side", "",
           "Each pair of columns: merge's raw clusters, then the consolidated ones (the run's clusters). "
           "`cons / core`: the consolidate stage's time over the core's (density1d, plan, dense_units, subspaces).",
           "",
           "| suite | file | F1 raw | F1 | E4SC raw | E4SC | RNIA raw | RNIA | CE raw | CE | coverage raw | coverage | "
           "clusters raw | clusters | core s | merge s | consolidate s | cons / core |",
           "|---|---|" + "---:|" * 16]
    for r in table_rows:
        cells = []
        for m in MEASURES:
            cells += [fmt(r["raw_" + m]), fmt(r[m])]
        md.append(f"| {r['suite']} | {r['file']} | " + " | ".join(cells) +
                  f" | {r['raw_found']} | {r['found']} | {r['core_s']:.3f} | {r['merge_s']:.3f} | "
                  f"{r['consolidate_s']:.4f} | {100 * r['consolidate_over_core']:.1f}% |")
    md.append("")
    (out / "quality.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
