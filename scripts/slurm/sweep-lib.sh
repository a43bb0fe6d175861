# Shared by the sweep scripts (sourced, not run): reading POINTS and naming each point's files.
# POINTS holds one point a line, its key=value overrides separated by spaces, e.g.
#   epsilon=0.002 min_points=4
# Blank lines and lines whose first non-space character is '#' are skipped; the points are numbered
# 0, 1, ... in the order of the remaining lines.

# The points of POINTS, one a line, without the spaces at either end.
sweep_points() {
  sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e '/^#/d' "$1"
}

# The name of a point's run folder, status file and checkpoint: point-<12 hex digits of the SHA-1 of
# its overrides>. A point whose overrides change gets other files, so it can never meet the
# results or the checkpoint of what it was before.
sweep_point_name() {
  printf '%s' "$1" | tr -s '[:space:]' ' ' | sha1sum | cut -c1-12 | sed 's/^/point-/'
}

# sweep_prepare CONFIG POINTS SWEEP_DIR: starts a new submission of a sweep. Writes
# SWEEP_DIR/points.tsv (a line a point: its name, a tab, its overrides), SWEEP_DIR/config (the
# config's absolute path) and SWEEP_DIR/submission (a new id; a point counts as done only when its
# status file carries this id). Prints how many points there are; fails on no points or on a
# point given twice.
sweep_prepare() {
  local config="$1" points="$2" sweep="$3" line name count=0
  [ -f "$config" ] || { echo "sweep: $config: no such config file" >&2; return 2; }
  [ -f "$points" ] || { echo "sweep: $points: no such points file" >&2; return 2; }
  mkdir -p "$sweep/logs"
  local table="$sweep/points.tsv.new"
  : > "$table"
  while IFS= read -r line; do
    name=$(sweep_point_name "$line")
    if cut -f1 "$table" | grep -qx "$name"; then
      echo "sweep: $points gives the point '$line' twice; give each point once" >&2
      rm -f "$table"
      return 2
    fi
    printf '%s\t%s\n' "$name" "$line" >> "$table"
    count=$((count + 1))
  done < <(sweep_points "$points")
  if [ "$count" = 0 ]; then
    echo "sweep: $points has no points (one a line, key=value overrides; blank and # lines are skipped)" >&2
    rm -f "$table"
    return 2
  fi
  mv "$table" "$sweep/points.tsv"
  realpath "$config" > "$sweep/config"
  printf '%s-%s-%s\n' "$(date +%Y%m%dT%H%M%S)" "$$" "$RANDOM" > "$sweep/submission"
  echo "$count"
}
