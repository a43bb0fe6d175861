// Built instead of density1d_cuda.cu without the CUDA backend (gpu/cuda_unavailable.hpp).
#include "gpu/cuda_unavailable.hpp"
#include "stages/density1d/density1d_cuda.hpp"

namespace subscale {

template <class T>
Density1dResult run_density1d_cuda(const ColumnMatrix<T>&, const Density1dParams&, const Density1dCudaOptions&,
                                   const gpu::ExecutionContext&) {
  gpu::throw_cuda_unavailable("density1d", "backend: cpu or auto");
}

template Density1dResult run_density1d_cuda(const Matrix32&, const Density1dParams&, const Density1dCudaOptions&,
                                            const gpu::ExecutionContext&);
template Density1dResult run_density1d_cuda(const Matrix&, const Density1dParams&, const Density1dCudaOptions&,
                                            const gpu::ExecutionContext&);

}  // namespace subscale
