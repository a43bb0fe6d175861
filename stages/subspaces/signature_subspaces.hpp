#pragma once
// dense_units on the signature or exact path streamed into the subspaces stage: the units of each
// partition go into the accumulator as soon as they are found, so they are never all held at once.
// One call for a whole run (pipeline's run_core) and for a process's share (distributed/).
#include "common/backend.hpp"
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/subspaces/subspaces.hpp"

namespace subscale {

// Walks the partitions `params` selects on `backend` (cpu or cuda, with `gpu`) into `into`; the
// time spent adding batches to it (the subspaces stage's share of the walk) is added to
// accumulate_seconds.
DenseUnitsResult accumulate_dense_units(const UnitPlan& plan, const Density1dResult& density,
                                        const DenseUnitsParams& params, Backend backend, const UnitProgress& on_units,
                                        SubspaceAccumulator& into, double& accumulate_seconds,
                                        const gpu::ExecutionContext& gpu);

}  // namespace subscale
