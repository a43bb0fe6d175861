#!/usr/bin/env bash
# The Slurm sweep's logic without Slurm: POINTS parsing (blank and # lines skipped), each point run
# by scripts/slurm/sweep-task as an array task would (its stage lines in its output), and
# scripts/slurm/gather-sweep's table and final "finished" line. A row is ok only when this
# submission's run of that point succeeded: a re-run that fails, or a point that never ran, shows as
# failed even where an earlier submission left results.
#   slurm_sweep_test.sh SOURCE_DIR SUBSCALE
set -uo pipefail
source_dir="${1:?usage: slurm_sweep_test.sh SOURCE_DIR SUBSCALE}"
export SUBSCALE="${2:?usage: slurm_sweep_test.sh SOURCE_DIR SUBSCALE}"
scripts="$source_dir/scripts/slurm"
config="$source_dir/configs/quickstart.yaml"
. "$(dirname "$0")/test_lib.sh"
row() {  # row SWEEP N: the sweep.csv row of point N
  awk -F, -v n="$2" 'NR > 1 && $1 == n' "$1/sweep.csv"
}
. "$scripts/sweep-lib.sh"
export THREADS=1

# Blank and comment lines are no points; the points keep their order.
printf '# c\nepsilon=0.003\n\n   \n  # another comment\nepsilon=0.005\n' > "$work/points"
check "two points in a file with comments and blank lines" test "$(sweep_points "$work/points" | wc -l)" = 2
sweep="$work/sweep"
count=$(sweep_prepare "$config" "$work/points" "$sweep")
check "sweep_prepare counts 2 points" test "$count" = 2
check "point 1 is epsilon=0.005" test "$(sed -n 2p "$sweep/points.tsv" | cut -f2)" = "epsilon=0.005"
for task in 0 1; do "$scripts/sweep-task" "$sweep" "$task" > "$sweep/logs/task-$task.out" 2>&1; done
"$scripts/gather-sweep" "$sweep" > "$work/gather.out"
check "the first gather succeeds" test $? = 0
check "and says the sweep finished" grep -q "gather-sweep: finished: 2 points, 2 ok, 0 failed" "$work/gather.out"
check "sweep.md says so too" grep -q "The sweep finished: 2 points, 2 ok, 0 failed." "$sweep/sweep.md"
check "a task's output holds the run's stage lines" grep -q "^merge " "$sweep/logs/task-0.out"
check "row 0 is epsilon=0.003, ok" grep -q '^0,epsilon=0.003,point-.*,ok$' "$sweep/sweep.csv"
check "row 1 is epsilon=0.005, ok" grep -q '^1,epsilon=0.005,point-.*,ok$' "$sweep/sweep.csv"
check "the checkpoints of successful runs are removed, their folder too" test ! -e "$sweep/checkpoints"
units_005=$(row "$sweep" 1 | cut -d, -f4)

# Point 1 changed (0.005 -> 0.0045): its row has the new point's own numbers.
printf 'epsilon=0.003\nepsilon=0.0045\n' > "$work/points"
sweep_prepare "$config" "$work/points" "$sweep" > /dev/null
for task in 0 1; do "$scripts/sweep-task" "$sweep" "$task" > "$sweep/logs/task-$task.out" 2>&1; done
"$scripts/gather-sweep" "$sweep" > "$work/gather.out"
check "the gather of the changed sweep succeeds" test $? = 0
check "row 1 is epsilon=0.0045, ok" grep -q '^1,epsilon=0.0045,point-.*,ok$' "$sweep/sweep.csv"
units_0045=$(row "$sweep" 1 | cut -d, -f4)
check "row 1's dense units are the new point's ($units_0045, not $units_005)" test "$units_0045" != "$units_005"

# A re-run whose point 0 fails (a bad override) and whose point 1 never starts: both failed, though
# both folders still hold the previous submission's summary.json.
printf 'epsilon=0.003 no_such_key=1\nepsilon=0.0045\n' > "$work/points"
sweep_prepare "$config" "$work/points" "$sweep" > /dev/null
"$scripts/sweep-task" "$sweep" 0 > "$sweep/logs/task-0.out" 2>&1
check "the failing task exits non-zero" test $? != 0
"$scripts/gather-sweep" "$sweep" > "$work/gather.out"
check "the gather reports failures" test $? = 1
check "row 0 failed with the run's exit status" grep -q '^0,.*failed: exit [1-9]' "$sweep/sweep.csv"
check "row 1 failed: did not run in this submission" grep -q '^1,.*failed: did not run' "$sweep/sweep.csv"
check "no row is ok" test -z "$(grep ',ok$' "$sweep/sweep.csv")"
check "the summary says 2 failed" grep -q 'finished: 2 points, 0 ok, 2 failed' "$work/gather.out"
check "the old run of point 1 is still there" test -f "$sweep/$(sed -n 2p "$sweep/points.tsv" | cut -f1)/summary.json"

# A task killed mid-run leaves "running": failed, not ok.
sweep_prepare "$config" "$work/points" "$sweep" > /dev/null
name=$(sed -n 2p "$sweep/points.tsv" | cut -f1)
echo "$(cat "$sweep/submission") running" > "$sweep/$name.status"
"$scripts/gather-sweep" "$sweep" > /dev/null
check "a killed task's row says it did not finish" grep -q '^1,.*failed: started but did not finish' "$sweep/sweep.csv"

# Refused: no points, a point given twice.
printf '# only a comment\n\n' > "$work/empty"
check "a POINTS file without points is refused" bash -c ". '$scripts/sweep-lib.sh'; ! sweep_prepare '$config' '$work/empty' '$work/s2' 2>/dev/null"
printf 'epsilon=0.003\nepsilon=0.003\n' > "$work/twice"
check "a point given twice is refused" bash -c ". '$scripts/sweep-lib.sh'; ! sweep_prepare '$config' '$work/twice' '$work/s3' 2>/dev/null"

finish
