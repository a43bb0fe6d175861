# Shared by the Slurm scripts (sourced, not run): the program they run and the threads of a task.

# slurm_subscale SCRIPTS_DIR: prints the program's absolute path: $SUBSCALE (relative to the
# working folder), else build/subscale of the checkout whose scripts/slurm is SCRIPTS_DIR, so that
# a job submitted from any folder runs the build beside the scripts. Fails, saying so, when no
# program is there.
slurm_subscale() {
  local program="${SUBSCALE:-$1/../../build/subscale}"
  if [ ! -x "$program" ] || [ -d "$program" ]; then
    echo "subscale: no program at $program: build it (scripts/setup), or set SUBSCALE=PATH to the subscale binary" >&2
    return 2
  fi
  printf '%s/%s\n' "$(cd "$(dirname "$program")" && pwd)" "$(basename "$program")"
}

# slurm_threads: the CPUs the job gave this task: SLURM_CPUS_PER_TASK when --cpus-per-task was
# given, else this task's share of the node's (SLURM_CPUS_ON_NODE over SLURM_NTASKS_PER_NODE);
# nothing outside Slurm, where the config's threads apply.
slurm_threads() {
  if [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then
    echo "$SLURM_CPUS_PER_TASK"
    return 0
  fi
  [ -n "${SLURM_CPUS_ON_NODE:-}" ] || return 0
  local tasks="${SLURM_NTASKS_PER_NODE:-1}"
  case "$tasks" in '' | *[!0-9]* | 0) tasks=1 ;; esac
  local share=$((SLURM_CPUS_ON_NODE / tasks))
  [ "$share" -ge 1 ] || share=1
  echo "$share"
}

# slurm_check SUBSCALE CONFIG [key=value ...] [--out DIR]: the run's config and overrides as
# `subscale run --check` takes them (keys, values, every sweep point, the input files), so that a
# mistake fails at submission, not when the job starts. On failure subscale's message is on stderr
# and its exit code returned.
slurm_check() {
  "$1" run "${@:2}" --check < /dev/null > /dev/null
}
