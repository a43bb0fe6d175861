#pragma once
// The run as a library call: the pipeline of `subscale run` on a matrix in memory (read in place,
// see stages/load/matrix_view.hpp) with the command line's config keys, returning what the run
// produced instead of writing a folder. A second thread may watch its progress and cancel it
// through a RunControl. Used by the Python package; the result equals the command line's.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/error.hpp"
#include "common/subspace_cluster.hpp"
#include "pipeline/output/run_report.hpp"
#include "stages/load/matrix_view.hpp"

namespace subscale::pipeline {

// Thrown inside a run that was cancelled, at the next point where the run looks (a work item of
// dense_units, or a stage boundary).
struct RunCancelled : Error {
  RunCancelled() : Error(ExitCode::other, "the run was cancelled") {}
};

// Shared by the thread that runs and one that watches: the stage the run is in, the work done of
// it (dense units; 0 of 0 for stages that do not count), and the request to stop.
class RunControl {
 public:
  struct Snapshot {
    std::string stage;
    std::uint64_t done = 0, total = 0;
  };

  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
  void throw_if_cancelled() const {
    if (cancelled()) throw RunCancelled();
  }
  void enter(const std::string& stage, std::uint64_t total = 0);
  // From any worker thread; throws RunCancelled once cancel() was called.
  void advance(std::uint64_t amount);
  Snapshot snapshot() const;

 private:
  std::atomic<bool> cancelled_{false};
  std::atomic<std::uint64_t> done_{0}, total_{0};
  mutable std::mutex stage_mutex_;
  std::string stage_ = "load";
};

struct MemoryInput {
  std::variant<load::MatrixView<double>, load::MatrixView<float>> values;
  std::vector<std::string> column_names;              // may be empty
  std::optional<std::vector<SubspaceCluster>> truth;  // hidden clusters to evaluate against
  std::string name = "X";                             // for messages: "X, row 3 (index 2), ..."
};

struct LibraryRun {
  RunReport report;
  std::string config_yaml;            // the resolved config, as config.yaml would hold it
  std::string summary_json;           // as summary.json would hold it
  std::string log;                    // as log.txt would hold it
  std::vector<std::string> warnings;  // about the workload, said before the work (log.txt has them too)
};

// overrides: "key=value" as on the command line (input.*, join.*, filter.*, checkpoint.* and
// output.* are refused: the data are in memory and nothing is written). Errors as the command
// line's (UsageError, InputError, ResourceError); RunCancelled after control.cancel().
LibraryRun run_library(const std::vector<std::string>& overrides, const MemoryInput& input, RunControl& control);

// What `subscale plan` prints, as values.
struct LibraryPlan {
  std::size_t points = 0, dimensions = 0;
  std::string mode;
  std::uint64_t total_units = 0;
  std::vector<std::uint64_t> units_per_dimension;
  std::uint32_t largest_window = 0;
  std::size_t held_bytes = 0;
  std::size_t sample_points = 0;  // the sample the clusters would be found on; 0: every point
  std::string sample_reason;
  // direct mode: the walk's estimate from a sample of windows (exact when every window was walked)
  bool walk_exact = false;
  double walk_nodes = 0, multi_units = 0;
  std::uint64_t subspaces_at_least = 0, table_bytes_at_least = 0;
  // signature and exact modes
  std::size_t partitions = 0;
  double false_match_probability = 0;
};

LibraryPlan plan_library(const std::vector<std::string>& overrides, const MemoryInput& input);

}  // namespace subscale::pipeline
