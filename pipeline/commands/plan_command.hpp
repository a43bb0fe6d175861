#pragma once
// `subscale plan`: what a run of the config would cost (dense units, partitions, memory), counted
// and sized by the same code as a run, without running it.
#include "pipeline/settings/run_options.hpp"

namespace subscale::pipeline {

// Prints what the run would cost (counts, partitions, memory) and stops.
void plan_command(const RunOptions& options);

}  // namespace subscale::pipeline
