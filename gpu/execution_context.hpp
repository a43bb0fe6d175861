#pragma once
// What a GPU stage runs with, made once by its caller (the pipeline, the distributed run, a
// command) and passed down to every GPU entry point, as libcudf passes a stream: the stage queues
// all its kernels and copies on `stream`, synchronises that stream (never the whole device) before
// the host reads a result, and sizes its allocations from device_budget(device_bytes, ...)
// (gpu/device_budget.hpp). Plain data without CUDA types, so plain C++ callers and builds without
// CUDA hold one too.
#include <cstdint>

struct CUstream_st;  // what cudaStream_t points to

namespace subscale::gpu {

struct ExecutionContext {
  CUstream_st* stream = nullptr;   // null: the legacy default stream
  std::uint64_t device_bytes = 0;  // the device memory asked for (memory.device_bytes); 0: automatic
};

}  // namespace subscale::gpu
