#pragma once
// A sweep: every combination of the config's lists run one after another, each into its own
// folder, with sweep.csv and sweep.md tabling them: every point from the start, marked pending,
// running, ok or failed, rewritten as each run begins and ends; sweep.md's last line says whether
// the sweep finished. A point given twice is refused before any run (UsageError).
#include <filesystem>

#include "distributed/communicator.hpp"
#include "pipeline/run/run_folder.hpp"
#include "pipeline/settings/config.hpp"
#include "pipeline/settings/run_options.hpp"

namespace subscale::pipeline {

// A failed combination does not stop the others; the first failure is thrown at the end. On the
// root, `destination` is the sweep's claimed folder: each run writes into its own folder there, and
// the sweep is swapped into place at the end when any run began (none: no folder is left).
std::filesystem::path run_sweep(const Config& config, const RunDestination& destination, const RunOptions& options,
                                const distributed::Communicator& comm);

}  // namespace subscale::pipeline
