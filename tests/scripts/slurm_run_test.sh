#!/usr/bin/env bash
# scripts/slurm/run.sbatch, submit-run's and submit-sweep's sbatch calls without Slurm: fake srun,
# mpirun, sbatch and scontrol on PATH record their arguments and run the program. Checks: the
# defaults fit a partition of one node and one CPU a task, and the threads follow the CPUs the job
# was given; the program is found beside the scripts (also from Slurm's spool copy of run.sbatch)
# from any folder, SUBSCALE overriding it; the checkpoint is removed after success (kept with
# KEEP_CHECKPOINT=1) and leaves no checkpoints/ folder; CHECKPOINT_DIR naming no checkpoint is
# refused; a resumed checkpoint writes into the run folder its first job was given; LAUNCHER=mpirun
# as root passes --allow-run-as-root; submit-run and submit-sweep refuse a bad override before
# queueing anything; submit-sweep gives the user's sbatch options to the gather job too and asks
# GPUs only with GPUS=N.
#   slurm_run_test.sh SOURCE_DIR SUBSCALE
set -uo pipefail
source_dir="${1:?usage: slurm_run_test.sh SOURCE_DIR SUBSCALE}"
export SUBSCALE="${2:?usage: slurm_run_test.sh SOURCE_DIR SUBSCALE}"
scripts="$source_dir/scripts/slurm"
config="$source_dir/configs/quickstart.yaml"
. "$(dirname "$0")/test_lib.sh"
mkdir -p "$work/bin"
# The launchers' own options come before the program: the first argument that is a program.
for launcher in srun mpirun; do
  cat > "$work/bin/$launcher" <<FAKE
#!/bin/bash
echo "\$*" >> "$work/$launcher.calls"
while [ \$# -gt 0 ] && { [ ! -x "\$1" ] || [ -d "\$1" ]; }; do shift; done
exec "\$@"
FAKE
done
# The job's record names the script as submitted; run.sbatch asks for it when run from a copy.
cat > "$work/bin/scontrol" <<FAKE
#!/bin/bash
echo "   Command=\${SUBMITTED_SCRIPT:-none}"
FAKE
cat > "$work/bin/sbatch" <<FAKE
#!/bin/bash
echo "\$*" >> "$work/sbatch.calls"
echo \$((1000 + \$(wc -l < "$work/sbatch.calls")))
FAKE
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH"
cd "$work"
export SLURM_JOB_NAME=subscale SLURM_CPUS_PER_TASK=1

# What the scripts ask of Slurm by default: one node, at most one CPU a task.
directive() {  # directive SCRIPT OPTION: the value of its #SBATCH --OPTION=VALUE line, if any
  sed -n "s/^#SBATCH --$2=//p" "$1"
}
for script in run.sbatch sweep-array.sbatch; do
  check "$script asks for one node" test "$(directive "$scripts/$script" nodes)" = 1
  cpus=$(directive "$scripts/$script" cpus-per-task)
  check "$script asks for at most one CPU a task (${cpus:-none})" test "${cpus:-1}" -le 1
  check "$script asks for no GPU" test -z "$(grep -- '^#SBATCH --gpu' "$scripts/$script")"
done

SLURM_JOB_ID=100 bash "$scripts/run.sbatch" "$config" > job100.out 2>&1
check "a fresh job succeeds" test $? = 0
check "it writes runs/subscale-100" test -f runs/subscale-100/summary.json
check "its checkpoint is removed after success" test ! -e checkpoints/subscale-100
check "srun gets --mpi=pmix" grep -q -- "--mpi=pmix" srun.calls

KEEP_CHECKPOINT=1 SLURM_JOB_ID=101 bash "$scripts/run.sbatch" "$config" > job101.out 2>&1
check "KEEP_CHECKPOINT=1 keeps it" test -f checkpoints/subscale-101/manifest.json
rm -rf runs/subscale-101/summary.json
CHECKPOINT_DIR=checkpoints/subscale-101 SLURM_JOB_ID=102 bash "$scripts/run.sbatch" "$config" > job102.out 2>&1
check "a resubmitted job resumes the checkpoint" grep -q "resuming from checkpoints/subscale-101 into runs/subscale-101" job102.out
check "into the first job's run folder" test -f runs/subscale-101/summary.json
check "and makes no folder of its own" test ! -e runs/subscale-102
check "the resumed checkpoint is removed after success" test ! -e checkpoints/subscale-101

CHECKPOINT_DIR=checkpoints/subscale-10l SLURM_JOB_ID=103 bash "$scripts/run.sbatch" "$config" > job103.out 2>&1
check "a mistyped CHECKPOINT_DIR is refused with exit 2" test $? = 2
check "naming the variable" grep -q "CHECKPOINT_DIR=checkpoints/subscale-10l holds no checkpoint" job103.out
check "and starting nothing" test ! -e runs/subscale-103

# The threads follow the CPUs Slurm gave the task, also without --cpus-per-task.
env -u SLURM_CPUS_PER_TASK SLURM_CPUS_ON_NODE=1 SLURM_JOB_ID=110 bash "$scripts/run.sbatch" "$config" > job110.out 2>&1
check "a job on one CPU runs" test -f runs/subscale-110/summary.json
check "with one thread" grep -q "threads=1 .*--out runs/subscale-110" srun.calls
env -u SLURM_CPUS_PER_TASK SLURM_CPUS_ON_NODE=4 SLURM_NTASKS_PER_NODE=2 SLURM_JOB_ID=111 \
  bash "$scripts/run.sbatch" "$config" > job111.out 2>&1
check "two tasks on a node of 4 CPUs get 2 threads each" grep -q "threads=2 .*--out runs/subscale-111" srun.calls

# The program is the build beside the scripts, whatever folder the job starts in: a copy of the
# checkout whose build/subscale is the program under test.
checkout="$work/checkout"
mkdir -p "$checkout/scripts" "$checkout/build" "$work/elsewhere"
cp -r "$scripts" "$checkout/scripts/slurm"
ln -s "$SUBSCALE" "$checkout/build/subscale"
(cd "$work/elsewhere" && env -u SUBSCALE SLURM_JOB_ID=120 bash "$checkout/scripts/slurm/run.sbatch" "$config") \
  > job120.out 2>&1
check "submitted from another folder, the checkout's program runs" test -f elsewhere/runs/subscale-120/summary.json
check "the program beside the scripts" grep -q " $checkout/build/subscale run " srun.calls
check "no checkpoints/ folder is left where it was submitted" test ! -e elsewhere/checkpoints
mkdir -p spool
cp "$scripts/run.sbatch" spool/slurm_script
(cd "$work/elsewhere" && env -u SUBSCALE SUBMITTED_SCRIPT="$checkout/scripts/slurm/run.sbatch" SLURM_JOB_ID=121 \
  bash "$work/spool/slurm_script" "$config") > job121.out 2>&1
check "Slurm's spool copy finds the checkout through the job's record" \
  test -f elsewhere/runs/subscale-121/summary.json
(cd "$work/elsewhere" && env -u SUBSCALE SLURM_JOB_ID=122 bash "$work/spool/slurm_script" "$config") > job122.out 2>&1
check "a copy that cannot find the scripts is refused with exit 2" test $? = 2
check "saying what to do" grep -q "submit-run" job122.out
env SUBSCALE="$work/no-such-program" SLURM_JOB_ID=123 bash "$scripts/run.sbatch" "$config" > job123.out 2>&1
check "SUBSCALE overrides the program (here: one that is not there, exit 2)" test $? = 2
check "naming SUBSCALE" grep -q "SUBSCALE=PATH" job123.out

# submit-run checks the overrides before it queues the job.
: > sbatch.calls
bash "$checkout/scripts/slurm/submit-run" "$config" epsilon=abc --partition=cpu > submit-run.out 2>&1
check "submit-run refuses epsilon=abc with exit 2" test $? = 2
check "naming the key" grep -q "epsilon" submit-run.out
check "and queues nothing" test ! -s sbatch.calls
env -u SUBSCALE bash "$checkout/scripts/slurm/submit-run" "$config" epsilon=0.004 --partition=cpu > submit-run.out 2>&1
check "submit-run queues a good run" test "$(wc -l < sbatch.calls)" = 1
check "its sbatch options to sbatch, its overrides to the script" \
  grep -q -- "--partition=cpu $checkout/scripts/slurm/run.sbatch $config epsilon=0.004" sbatch.calls

LAUNCHER=mpirun SLURM_JOB_ID=104 bash "$scripts/run.sbatch" "$config" > job104.out 2>&1
check "LAUNCHER=mpirun runs" test -f runs/subscale-104/summary.json
if [ "$(id -u)" = 0 ]; then
  check "as root mpirun gets --allow-run-as-root" grep -q -- "--allow-run-as-root" mpirun.calls
else
  check "as a user mpirun gets no --allow-run-as-root" test -z "$(grep -- --allow-run-as-root mpirun.calls)"
fi

printf 'epsilon=0.003\nepsilon=abc\n' > bad-points
: > sbatch.calls
bash "$scripts/submit-sweep" "$config" bad-points bad-sweep > submit.out 2>&1
check "submit-sweep refuses a point with epsilon=abc with exit 2" test $? = 2
check "naming the point" grep -q "point 1 (epsilon=abc)" submit.out
check "and queues nothing" test ! -s sbatch.calls
printf 'epsilon=0.003\n' > points
bash "$scripts/submit-sweep" "$config" points sweep --partition=cpu --account=me > submit.out 2>&1
check "submit-sweep queues two jobs" test "$(wc -l < sbatch.calls)" = 2
check "the array gets the user's options" grep -q -- "--array=0-0 .*--partition=cpu --account=me" sbatch.calls
check "the gather job gets them too" grep -q -- "--dependency=afterany:1001 .*--partition=cpu --account=me" sbatch.calls
check "the gather job fits one node and one CPU" grep -q -- "--dependency=.*--nodes=1 --ntasks=1 --cpus-per-task=1" sbatch.calls
check "no GPU is asked by default" test -z "$(grep -- --gpus sbatch.calls)"
: > sbatch.calls
GPUS=2 bash "$scripts/submit-sweep" "$config" points sweep > submit.out 2>&1
check "GPUS=2 asks two GPUs for the array" grep -q -- "--array=0-0 --gpus=2" sbatch.calls
check "and none for the gather" test -z "$(grep -- "--dependency.*--gpus" sbatch.calls)"

finish
