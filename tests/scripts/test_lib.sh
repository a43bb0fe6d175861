# Shared by the shell tests (sourced): a scratch folder removed at exit (kept with KEEP_WORK=1) and
# check DESCRIPTION COMMAND..., which counts failures for the final `finish`.
work=$(mktemp -d)
trap '[ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work"' EXIT
failures=0
check() {
  if "${@:2}"; then echo "ok:   $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi
}
finish() {
  echo "$failures failure(s)"
  [ "$failures" = 0 ]
}
