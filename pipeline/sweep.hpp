#pragma once
// A sweep: every combination of the config's lists run one after another, each into its own
// folder, with sweep.csv and sweep.md tabling them (rewritten after each run).
#include <filesystem>

#include "distributed/communicator.hpp"
#include "pipeline/commands/command_options.hpp"
#include "pipeline/config.hpp"

namespace subscale::pipeline {

// A failed combination does not stop the others; the first failure is thrown at the end.
std::filesystem::path run_sweep(const Config& config, const std::filesystem::path& folder,
                                const CommandOptions& options, const distributed::Communicator& comm);

}  // namespace subscale::pipeline
