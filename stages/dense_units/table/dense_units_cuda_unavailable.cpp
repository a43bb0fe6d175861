// Built instead of the table modes' *_cuda.cu files without the CUDA backend
// (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/dense_units/table/dense_units_cuda.hpp"

namespace subscale {

DenseUnitsResult run_dense_units_cuda(const UnitPlan&, const Density1dResult&, const SignatureKeys&,
                                      const DenseUnitsParams&, const UnitProgress&, const UnitSink&,
                                      const SubspaceSink&, const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("dense_units", "backend: cpu or auto");
}

}  // namespace subscale
