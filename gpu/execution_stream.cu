#include <cuda_runtime.h>

#include "gpu/execution_stream.hpp"

namespace subscale::gpu {

ExecutionStream::~ExecutionStream() {
  if (stream_) cudaStreamDestroy(stream_);  // no check: a destructor must not throw
}

ExecutionContext ExecutionStream::context(std::uint64_t device_bytes) {
  // Without a usable device the stage gets the null stream and says itself why it cannot run.
  if (!stream_ && cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) {
    stream_ = nullptr;
    cudaGetLastError();  // not sticky: clear it so the stage's own checks start clean
  }
  return {stream_, device_bytes};
}

}  // namespace subscale::gpu
