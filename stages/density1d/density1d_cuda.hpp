#pragma once
// The CUDA backend of density1d: the same result as run_density1d, bit for bit. Every dimension
// is sorted by (value, point id) with CUB's segmented radix sort (stable, over ids in ascending
// order, so ties keep id order; -0.0 is sorted as +0.0, as the CPU's comparison treats them),
// window ends and neighbourhood sizes come from a binary search per position, and the 1-D DBSCAN
// labels from one thread per dimension walking its sorted values. Dimensions go in batches that
// fit half the device budget (gpu/device_budget.hpp).
#include <cstdint>

#include "gpu/execution_context.hpp"
#include "stages/density1d/density1d.hpp"

namespace subscale {

struct Density1dCudaOptions {
  std::uint64_t batch_values = 0;  // values (points x dimensions) per batch; 0: from the device budget
};

// Throws ResourceError (exit 4) when the build has no CUDA backend or no device is usable.
// T is the held precision: spans are compared with epsilon in T, as on the CPU. Runs on
// context.stream.
template <class T>
Density1dResult run_density1d_cuda(const ColumnMatrix<T>& values, const Density1dParams& params,
                                   const Density1dCudaOptions& options = {}, const gpu::ExecutionContext& context = {});

}  // namespace subscale
