// Built when the project has no CUDA backend: asking for the GPU is a clear resource error.
#include "common/error.hpp"
#include "stages/dense_units/dense_units_gpu.hpp"
#include "stages/dense_units/direct_units.hpp"

namespace subscale {
namespace {

[[noreturn]] void no_cuda_backend() {
  throw ResourceError(
      "backend: cuda was asked for, but this build has no CUDA backend (nvcc was not found when it was "
      "configured); use backend: cpu or auto, or rebuild on a machine with the CUDA toolkit");
}

}  // namespace

DenseUnitsResult run_dense_units_gpu(const UnitPlan&, const Density1dResult&, const SignatureKeys&,
                                     const DenseUnitsParams&, const UnitProgress&, const UnitSink&,
                                     const SubspaceSink&) {
  no_cuda_backend();
}

DenseUnitsResult run_direct_units_gpu(const DirectSpace&, const UnitPlan&, const DenseUnitsParams&,
                                      direct::DirectWalkOutput&, const UnitProgress&, std::span<const UnitRange>) {
  no_cuda_backend();
}

}  // namespace subscale
