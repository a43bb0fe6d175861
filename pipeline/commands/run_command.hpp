#pragma once
// `subscale run`: config -> load -> normalize -> core -> merge -> consolidate -> evaluate -> run
// folder, for one configuration or every combination of a sweep.
#include <filesystem>

#include "pipeline/settings/run_options.hpp"

namespace subscale::pipeline {

// Runs one config (or every combination of a sweep). Returns the folder written.
std::filesystem::path run_command(const RunOptions& options);

// `run --check`: the config and the overrides as a run would take them (every key, value and sweep
// combination, the input files there, the --out folder's safety), then one line on stdout; nothing
// read beyond that, nothing written. Throws the error the run would give.
void check_run_command(const RunOptions& options);

}  // namespace subscale::pipeline
