#include "gpu/execution_stream.hpp"

namespace subscale::gpu {

ExecutionStream::~ExecutionStream() = default;

ExecutionContext ExecutionStream::context(std::uint64_t device_bytes) { return {nullptr, device_bytes}; }

}  // namespace subscale::gpu
