#include <cuda_runtime.h>

#include "gpu/device_info.hpp"

namespace subscale::gpu {

bool cuda_backend_built() noexcept { return true; }

DeviceInfo query_device() {
  DeviceInfo info;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    info.reason = status != cudaSuccess ? std::string("no usable CUDA device: ") + cudaGetErrorString(status)
                                        : std::string("no CUDA device is present");
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return info;
  }
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    info.reason = "cudaGetDeviceProperties failed on device 0";
    cudaGetLastError();
    return info;
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    info.reason = "cudaMemGetInfo failed on device 0";
    cudaGetLastError();
    return info;
  }
  info.available = true;
  info.name = properties.name;
  info.free_bytes = free_bytes;
  info.total_bytes = total_bytes;
  info.multiprocessors = properties.multiProcessorCount;
  return info;
}

}  // namespace subscale::gpu
