// Built instead of the *_cuda.cu files of dense_units without the CUDA backend
// (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/dense_units/dense_units_cuda.hpp"
#include "stages/dense_units/direct_units.hpp"

namespace subscale {

DenseUnitsResult run_dense_units_gpu(const UnitPlan&, const Density1dResult&, const SignatureKeys&,
                                     const DenseUnitsParams&, const UnitProgress&, const UnitSink&, const SubspaceSink&,
                                     const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("dense_units", "backend: cpu or auto");
}

DenseUnitsResult run_direct_units_gpu(const DirectSpace&, const UnitPlan&, const DenseUnitsParams&,
                                      direct::DirectWalkOutput&, const UnitProgress&, std::span<const UnitRange>,
                                      const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("dense_units (direct mode)", "backend: cpu or auto");
}

}  // namespace subscale
