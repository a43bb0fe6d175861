#include "gpu/device_info.hpp"

namespace subscale::gpu {

bool cuda_backend_built() noexcept { return false; }

DeviceInfo query_device() {
  DeviceInfo info;
  info.reason = "this build has no CUDA backend (nvcc was not found when it was configured)";
  return info;
}

}  // namespace subscale::gpu
