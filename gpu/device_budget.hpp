#pragma once
// The one rule for the device memory a GPU stage may take: what its caller asked for
// (ExecutionContext::device_bytes), capped at 90% of the memory free when the stage starts; when
// nothing was asked, that 90%. The other 10% is left to CUB's scratch, the driver and
// fragmentation. Each stage spends its budget by its own plan (README.md).
#include <algorithm>
#include <cstdint>

namespace subscale::gpu {

inline std::uint64_t device_budget(std::uint64_t asked_bytes, std::uint64_t free_bytes) {
  const std::uint64_t automatic = free_bytes / 10 * 9;
  return asked_bytes > 0 ? std::min(asked_bytes, automatic) : automatic;
}

}  // namespace subscale::gpu
