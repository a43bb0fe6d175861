// Built when the project has no CUDA backend: asking for the GPU is a clear resource error.
#include "common/error.hpp"
#include "stages/density1d/density1d_gpu.hpp"

namespace subscale {

template <class T>
Density1dResult run_density1d_gpu(const ColumnMatrix<T>&, const Density1dParams&, const Density1dGpuOptions&) {
  throw ResourceError(
      "density1d on the GPU was asked for, but this build has no CUDA backend (nvcc was not found when it was "
      "configured); use backend: cpu or auto, or rebuild on a machine with the CUDA toolkit");
}

template Density1dResult run_density1d_gpu(const Matrix32&, const Density1dParams&, const Density1dGpuOptions&);
template Density1dResult run_density1d_gpu(const Matrix&, const Density1dParams&, const Density1dGpuOptions&);

}  // namespace subscale
