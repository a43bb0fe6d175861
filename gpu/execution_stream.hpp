#pragma once
// The stream a caller makes once for the GPU stages it runs, non-blocking with respect to the
// legacy default stream. It is created by the first context() call, so a run that stays on the CPU
// never touches the device (making a stream makes the process's CUDA context: a quarter of a
// second). Builds without CUDA, and machines without a usable device, get the null stream (the
// stage then says why it cannot run). Not for several threads at once.
#include <cstdint>

#include "gpu/execution_context.hpp"

namespace subscale::gpu {

class ExecutionStream {
 public:
  ExecutionStream() = default;
  ExecutionStream(const ExecutionStream&) = delete;
  ExecutionStream& operator=(const ExecutionStream&) = delete;
  ~ExecutionStream();

  // The context of a GPU stage: this stream (made now if it does not exist yet) and the budget.
  ExecutionContext context(std::uint64_t device_bytes = 0);

 private:
  // Unused where CUDA is not built (execution_stream_unavailable.cpp), and clang says so.
  [[maybe_unused]] CUstream_st* stream_ = nullptr;
};

}  // namespace subscale::gpu
