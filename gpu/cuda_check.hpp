#pragma once
// Every CUDA runtime call goes through SUBSCALE_CUDA_CHECK so a failure names the call, the file
// and line, and the CUDA error text. Out-of-memory becomes a ResourceError (exit code 4) so the
// caller can fall back to more partitions.
#include <cuda_runtime.h>

#include <string>

#include "common/error.hpp"

namespace subscale::gpu {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

}  // namespace subscale::gpu

#define SUBSCALE_CUDA_CHECK(call)                                                     \
  do {                                                                                \
    const cudaError_t subscale_status_ = (call);                                      \
    if (subscale_status_ != cudaSuccess)                                              \
      ::subscale::gpu::throw_cuda_error(subscale_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: reports launch-configuration errors at the launch site.
#define SUBSCALE_CUDA_CHECK_LAUNCH(kernel_name) SUBSCALE_CUDA_CHECK(cudaGetLastError())
