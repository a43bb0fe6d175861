#include "pipeline/output/output_paths.hpp"

#include "common/error.hpp"
#include "io/same_file.hpp"
#include "pipeline/output/claimed_folder.hpp"

namespace subscale::pipeline {
namespace {

namespace fs = std::filesystem;

std::string shown(const NamedPath& named) { return named.setting + " (" + named.path.string() + ")"; }

bool holds_run_summary(const fs::path& folder) {
  std::error_code error;
  return fs::is_regular_file(folder / "summary.json", error) && is_run_summary(folder / "summary.json");
}

// A sweep's folder holds its two tables (and a run's folder per point).
bool is_run_or_sweep(const fs::path& folder) {
  std::error_code error;
  return holds_run_summary(folder) ||
         (fs::is_regular_file(folder / "sweep.csv", error) && fs::is_regular_file(folder / "sweep.md", error));
}

}  // namespace

std::optional<fs::path> run_folder_around(const fs::path& path) {
  for (fs::path folder = io::resolved_path(path).parent_path();; folder = folder.parent_path()) {
    if (is_run_or_sweep(folder)) return folder;
    if (folder == folder.root_path() || folder.empty()) return std::nullopt;
  }
}

void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& output = outputs[i];
    if (output.path.empty()) continue;
    for (const NamedPath& input : inputs)
      if (!input.path.empty() && io::same_file(output.path, input.path))
        throw UsageError(shown(output) + " and " + shown(input) +
                         " are the same file: writing the output would replace the input it is made from; give " +
                         output.setting + " another path");
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].path.empty() && io::same_file(output.path, outputs[j].path))
        throw UsageError(shown(outputs[j]) + " and " + shown(output) +
                         " are the same file: one output would replace the other; give " + output.setting +
                         " another path");
    if (output.run_report) continue;
    if (const auto run = run_folder_around(output.path)) {
      const fs::path beside = run->parent_path() / (run->filename().string() + "-" + output.path.filename().string());
      throw UsageError(shown(output) + " is inside " + run->string() +
                       ", the folder of a run (it holds the run's summary.json or a sweep's sweep.csv): a run's "
                       "folder keeps only the files the run wrote, and a finished run's files are never replaced; "
                       "write " +
                       output.setting + " outside it, e.g. " + beside.string());
    }
  }
}

}  // namespace subscale::pipeline
