#pragma once
// The CUDA backend of dense_units: same inputs, same result as run_dense_units_cpu, bit for bit.
// Defined by dense_units_cuda.cu, or by dense_units_cuda_unavailable.cpp in a build without CUDA.
#include "gpu/execution_context.hpp"
#include "stages/dense_units/dense_units.hpp"

namespace subscale {

// Throws ResourceError (exit 4) when the build has no CUDA backend or no device is usable. With a
// subspace sink, units are grouped into subspaces on the device and handed over as (S, points)
// at the end; only units of subspaces beyond the device's room go to the unit sink. Runs with
// `context` (gpu/execution_context.hpp).
DenseUnitsResult run_dense_units_cuda(const UnitPlan& plan, const Density1dResult& density, const SignatureKeys& keys,
                                      const DenseUnitsParams& params, const UnitProgress& progress = {},
                                      const UnitSink& sink = {}, const SubspaceSink& subspace_sink = {},
                                      const gpu::ExecutionContext& context = {});

}  // namespace subscale
