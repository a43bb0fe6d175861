#!/usr/bin/env bash
# Every test finds the repository's files through tests/source_root.hpp (SUBSCALE_SOURCE_ROOT, else
# the build's source folder): a test that reads the compiled-in SUBSCALE_SOURCE_DIR itself fails
# where the tree has been copied elsewhere, as the GPU bundle does.
#   source_root_lint_test.sh SOURCE_DIR
source_dir="${1:?usage: source_root_lint_test.sh SOURCE_DIR}"
found=$(grep -rln "SUBSCALE_SOURCE_DIR" "$source_dir/tests" --include='*.cpp' --include='*.hpp' --include='*.cu' |
  grep -v "/tests/source_root.hpp$")
if [ -n "$found" ]; then
  echo "these tests read SUBSCALE_SOURCE_DIR instead of subscale::testing::source_root():"
  echo "$found"
  exit 1
fi
echo "every test finds the tree through tests/source_root.hpp"
