// Built when the project has no CUDA backend: asking for the GPU is a clear resource error.
#include "common/error.hpp"
#include "stages/dense_units/dense_units_gpu.hpp"

namespace subscale {

DenseUnitsResult run_dense_units_gpu(const UnitPlan&, const Density1dResult&, const SignatureKeys&,
                                     const DenseUnitsParams&, const UnitProgress&, const UnitSink&,
                                     const SubspaceSink&) {
  throw ResourceError(
      "backend: cuda was asked for, but this build has no CUDA backend (nvcc was not found when it was "
      "configured); use backend: cpu or auto, or rebuild on a machine with the CUDA toolkit");
}

}  // namespace subscale
