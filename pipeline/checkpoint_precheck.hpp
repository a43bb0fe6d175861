#pragma once
// A checkpoint that cannot serve the run is refused before the input is read: the settings it was
// made for are compared with this run's first (the input data's own hash can only be compared
// once the data are loaded, and the core does that), and a fresh run refuses a folder that
// already holds a checkpoint. The run folder is then never made for a run that cannot go ahead.
#include "distributed/distributed_core.hpp"

namespace subscale::pipeline {

// Throws what the core would throw later: UsageError (exit 2) for another run's checkpoint or a
// fresh run into an existing one, InputError (exit 3) for a damaged manifest.
void precheck_checkpoint(const distributed::CheckpointOptions& options);

}  // namespace subscale::pipeline
