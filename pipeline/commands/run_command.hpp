#pragma once
// `subscale run`: config -> load -> normalize -> core -> merge -> consolidate -> evaluate -> run
// folder, for one configuration or every combination of a sweep.
#include <filesystem>

#include "pipeline/settings/run_options.hpp"

namespace subscale::pipeline {

// Runs one config (or every combination of a sweep). Returns the folder written.
std::filesystem::path run_command(const RunOptions& options);

}  // namespace subscale::pipeline
