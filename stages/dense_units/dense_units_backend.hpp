#pragma once
// The dense_units stage on the backend its caller chose (cpu or cuda, never automatic): the one
// place where the stage picks its CPU or CUDA part, for a whole run and for a process's share.
#include <span>

#include "common/backend.hpp"
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/dense_units/table/signature_keys.hpp"

namespace subscale {

// Direct mode: the walk of the units in `only` (all when empty), ORed into output.map (or, when
// output.list_on_device and the device held every subspace, listed into output.listed). `gpu`:
// the cuda backend's stream and budget (gpu/execution_context.hpp).
DenseUnitsResult walk_direct_units(const DirectSpace& space, const UnitPlan& plan, const DenseUnitsParams& params,
                                   Backend backend, dense_units::direct::DirectWalkOutput& output,
                                   const UnitProgress& on_units, std::span<const UnitRange> only,
                                   const gpu::ExecutionContext& gpu);

// The signature or exact path on the partitions `params` selects. Batches go to `sink`, subspaces
// the device grouped to `subspace_sink`, single units found on the CPU to `concurrent_sink`.
DenseUnitsResult find_dense_units(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                  const DenseUnitsParams& params, Backend backend, const UnitProgress& on_units,
                                  const UnitSink& sink, const SubspaceSink& subspace_sink,
                                  const ConcurrentUnitSink& concurrent_sink, const gpu::ExecutionContext& gpu);

}  // namespace subscale
