#pragma once
// The run log's account of the core: each step's call closes the step before it (its time in the
// report, its one-line summary in the log), the memory budget is checked as soon as the plan knows
// the count, and dense_units' progress is shown while it runs.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "pipeline/log/core_time_guard.hpp"
#include "pipeline/log/progress.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "stages/core/core.hpp"

namespace subscale::pipeline {

class CoreStepLog {
 public:
  CoreStepLog(const RunSettings& settings, std::size_t dimensions, RunLog& log, RunReport& report)
      : settings_(settings), dimensions_(dimensions), log_(log), report_(report) {}

  // run_core's StepListener and UnitProgress.
  void step(const std::string& step, const CoreResult& so_far);
  void advance(std::uint64_t done) {
    if (bar_) bar_->advance(done);
    if (guard_) guard_->advance(done);
  }
  // Since the last step began.
  double seconds_in_step() const;

 private:
  const RunSettings& settings_;
  std::size_t dimensions_;
  RunLog& log_;
  RunReport& report_;
  std::optional<ProgressBar> bar_;
  std::optional<CoreTimeGuard> guard_;
  std::optional<StageHeartbeat> heartbeat_;  // density1d and plan, which count no work
  std::uint64_t planned_units_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace subscale::pipeline
