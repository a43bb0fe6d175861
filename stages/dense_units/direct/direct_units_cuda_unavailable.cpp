// Built instead of direct mode's *_cuda.cu files without the CUDA backend
// (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/dense_units/direct/direct_units.hpp"

namespace subscale {

DenseUnitsResult run_direct_units_cuda(const DirectSpace&, const UnitPlan&, const DenseUnitsParams&,
                                       dense_units::direct::DirectWalkOutput&, const UnitProgress&,
                                       std::span<const UnitRange>, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("dense_units (direct mode)", "backend: cpu or auto");
}

}  // namespace subscale
