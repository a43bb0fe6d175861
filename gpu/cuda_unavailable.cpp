#include "gpu/cuda_unavailable.hpp"

#include "common/error.hpp"

namespace subscale::gpu {

void throw_cuda_unavailable(const std::string& what, const std::string& cpu_setting) {
  throw ResourceError(what +
                      " was asked to run on the GPU, but this build has no CUDA backend (nvcc was not found when it "
                      "was configured): use " +
                      cpu_setting + ", or rebuild on a machine with the CUDA toolkit");
}

}  // namespace subscale::gpu
