#!/usr/bin/env bash
# scripts/slurm/run.sbatch and submit-sweep's sbatch calls without Slurm: fake srun, mpirun and
# sbatch on PATH record their arguments and run the program. Checks: the checkpoint is removed after
# success (kept with KEEP_CHECKPOINT=1); CHECKPOINT_DIR naming no checkpoint is refused; a resumed
# checkpoint writes into the run folder its first job was given; LAUNCHER=mpirun as root passes
# --allow-run-as-root; submit-sweep gives the user's sbatch options to the gather job too and asks
# GPUs only with GPUS=N.
#   slurm_run_test.sh SOURCE_DIR SUBSCALE
set -uo pipefail
source_dir="${1:?usage: slurm_run_test.sh SOURCE_DIR SUBSCALE}"
export SUBSCALE="${2:?usage: slurm_run_test.sh SOURCE_DIR SUBSCALE}"
scripts="$source_dir/scripts/slurm"
config="$source_dir/configs/quickstart.yaml"
. "$(dirname "$0")/test_lib.sh"
mkdir -p "$work/bin"
for launcher in srun mpirun; do
  cat > "$work/bin/$launcher" <<FAKE
#!/bin/bash
echo "\$*" >> "$work/$launcher.calls"
while [ "\$1" != "$SUBSCALE" ]; do shift; done
exec "\$@"
FAKE
done
cat > "$work/bin/sbatch" <<FAKE
#!/bin/bash
echo "\$*" >> "$work/sbatch.calls"
echo \$((1000 + \$(wc -l < "$work/sbatch.calls")))
FAKE
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH"
cd "$work"
export SLURM_JOB_NAME=subscale SLURM_CPUS_PER_TASK=1

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

LAUNCHER=mpirun SLURM_JOB_ID=104 bash "$scripts/run.sbatch" "$config" > job104.out 2>&1
check "LAUNCHER=mpirun runs" test -f runs/subscale-104/summary.json
if [ "$(id -u)" = 0 ]; then
  check "as root mpirun gets --allow-run-as-root" grep -q -- "--allow-run-as-root" mpirun.calls
else
  check "as a user mpirun gets no --allow-run-as-root" test -z "$(grep -- --allow-run-as-root mpirun.calls)"
fi

printf 'epsilon=0.003\n' > points
bash "$scripts/submit-sweep" "$config" points sweep --partition=cpu --account=me > submit.out 2>&1
check "submit-sweep queues two jobs" test "$(wc -l < sbatch.calls)" = 2
check "the array gets the user's options" grep -q -- "--array=0-0 .*--partition=cpu --account=me" sbatch.calls
check "the gather job gets them too" grep -q -- "--dependency=afterany:1001 .*--partition=cpu --account=me" sbatch.calls
check "no GPU is asked by default" test -z "$(grep -- --gpus sbatch.calls)"
: > sbatch.calls
GPUS=2 bash "$scripts/submit-sweep" "$config" points sweep > submit.out 2>&1
check "GPUS=2 asks two GPUs for the array" grep -q -- "--array=0-0 --gpus=2" sbatch.calls
check "and none for the gather" test -z "$(grep -- "--dependency.*--gpus" sbatch.calls)"

finish
