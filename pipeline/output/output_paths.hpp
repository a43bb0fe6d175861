#pragma once
// What every subcommand checks before it reads or writes anything: none of its outputs is one of
// its inputs, no two of its outputs are one file, and no output lands in the folder of a run (a
// run's folder holds the files that run wrote and nothing else, see claimed_folder.hpp). Paths are
// compared as files (io/same_file.hpp), not as text.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace subscale::pipeline {

struct NamedPath {
  std::filesystem::path path;
  std::string setting;  // how the user gave it, for the message: "output.file", "--json", "table.file"
  // `subscale report` rewrites its own run's report.html; nothing else may write into a run's folder.
  bool run_report = false;
};

// Throws UsageError (exit 2) naming both paths and what to change. An empty path is skipped.
void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// The folder of a run or a sweep that `path` would be written into (its own folder or one above it:
// a folder whose summary.json is a run's, or that holds a sweep's sweep.csv and sweep.md), if any.
std::optional<std::filesystem::path> run_folder_around(const std::filesystem::path& path);

}  // namespace subscale::pipeline
