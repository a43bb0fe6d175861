#pragma once
// A checkpoint that cannot serve the run is refused before the input is read: the settings it was
// made for are compared with this run's first, and a fresh run refuses a folder that already holds
// a checkpoint; the input data's hash, once the data are loaded, before the run folder is begun.
// A run that cannot go ahead never makes its folder.
#include "common/held_values.hpp"
#include "distributed/distributed_core.hpp"

namespace subscale::pipeline {

// Throws what the core would throw later: UsageError (exit 2) for another run's checkpoint or a
// fresh run into an existing one, InputError (exit 3) for a damaged manifest. Without `held` the
// input data are not compared (before loading); with it, they are too (after loading, before the
// run folder is begun).
void precheck_checkpoint(const distributed::CheckpointOptions& options, const HeldValues* held = nullptr);

}  // namespace subscale::pipeline
