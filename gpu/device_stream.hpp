#pragma once
// A CUDA stream owned by one object (non-blocking with respect to the default stream).
#include <cuda_runtime.h>

#include "gpu/cuda_check.hpp"

namespace subscale::gpu {

class DeviceStream {
 public:
  DeviceStream() { SUBSCALE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;
  ~DeviceStream() { cudaStreamDestroy(stream_); }  // no check: a destructor must not throw
  cudaStream_t get() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace subscale::gpu
