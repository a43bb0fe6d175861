#pragma once
// `subscale run`: config -> load -> normalize -> core -> merge -> consolidate -> evaluate -> run
// folder, for one configuration or every combination of a sweep.
#include <filesystem>

#include "pipeline/commands/command_options.hpp"

namespace subscale::pipeline {

// Runs one config (or every combination of a sweep). Returns the folder written.
std::filesystem::path run_command(const CommandOptions& options);

}  // namespace subscale::pipeline
