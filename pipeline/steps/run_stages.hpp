#pragma once
// The stages after load, in order: the core (run_core, or the distributed executor with several
// processes or a checkpoint), merge, consolidate, evaluate; each step's time and log line.
#include <cstdint>
#include <functional>
#include <string>

#include "distributed/communicator.hpp"
#include "pipeline/log/run_log.hpp"
#include "pipeline/output/run_report.hpp"
#include "pipeline/settings/run_settings.hpp"
#include "pipeline/steps/input_loading.hpp"

namespace subscale::pipeline {

// Hooks of a caller into the stages (a library run's progress and cancellation, library_run.hpp):
// the stage that starts (dense_units with its unit count) and the units done, the latter from
// worker threads. Either may throw to stop the run.
struct RunObserver {
  std::function<void(const std::string& stage, std::uint64_t total)> on_stage;
  std::function<void(std::uint64_t units)> on_units;

  void stage(const std::string& name, std::uint64_t total = 0) const {
    if (on_stage) on_stage(name, total);
  }
  void units(std::uint64_t done) const {
    if (on_units) on_units(done);
  }
};

// Returns false on the processes that only helped (everything after merge is the root's).
bool run_stages(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report,
                const distributed::Communicator& comm, const RunObserver& observer = {});

}  // namespace subscale::pipeline
