#pragma once
// Where every test finds the repository's files (configs/, datasets/, fuzz/, tests/...):
// SUBSCALE_SOURCE_ROOT when set, else the build's source folder when it holds the tree, else the
// working folder. The GPU bundle runs the tests from a copy of the tree on another machine, where
// the compiled-in source path does not exist.
#include <cstdlib>
#include <filesystem>

namespace subscale::testing {

inline std::filesystem::path source_root() {
  if (const char* root = std::getenv("SUBSCALE_SOURCE_ROOT")) return root;
  const std::filesystem::path configured = SUBSCALE_SOURCE_DIR;
  if (std::filesystem::exists(configured / "configs" / "quickstart.yaml")) return configured;
  return std::filesystem::current_path();
}

}  // namespace subscale::testing
