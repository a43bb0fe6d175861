#pragma once
// The stages after load, in order: the core (run_core, or the distributed executor with several
// processes or a checkpoint), merge, consolidate, evaluate; each step's time and log line.
#include "distributed/communicator.hpp"
#include "pipeline/input_loading.hpp"
#include "pipeline/run_log.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/run_settings.hpp"

namespace subscale::pipeline {

// Returns false on the processes that only helped (everything after merge is the root's).
bool run_stages(const RunSettings& settings, const LoadedInput& input, RunLog& log, RunReport& report,
                const distributed::Communicator& comm);

}  // namespace subscale::pipeline
