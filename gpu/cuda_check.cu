#include "gpu/cuda_check.hpp"

namespace subscale::gpu {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  std::string message = std::string("CUDA call failed: ") + call + " at " + file + ":" + std::to_string(line) + ": " +
                        cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  if (status == cudaErrorMemoryAllocation) {
    message += ". The device ran out of memory: lower memory.device_bytes or raise partitions.count.";
    throw ResourceError(message);
  }
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    throw ResourceError(message + ". Use backend: cpu on machines without a usable GPU.");
  }
  throw Error(ExitCode::other, message);
}

}  // namespace subscale::gpu
