#pragma once
// Whether a CUDA device can be used. Compiled in every build: without the CUDA backend it
// reports that no device is available, so callers and tests need no #ifdefs.
#include <cstdint>
#include <string>

#include "common/backend.hpp"

namespace subscale::gpu {

struct DeviceInfo {
  bool available = false;
  std::string name;  // e.g. "NVIDIA H100 80GB HBM3"
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
  int multiprocessors = 0;
  std::string reason;  // why no device is available, when available is false
};

// True when the project was built with the CUDA backend.
bool cuda_backend_built() noexcept;

// Queries device 0 (or the device CUDA_VISIBLE_DEVICES exposes first).
DeviceInfo query_device();

// The one "auto" rule: the CUDA backend when it is built and a device answers, else the CPU.
inline Backend automatic_backend() {
  return cuda_backend_built() && query_device().available ? Backend::cuda : Backend::cpu;
}

}  // namespace subscale::gpu
