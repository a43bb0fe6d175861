#pragma once
// The device memory a GPU dense_units run may take (both modes): memory.device_bytes, capped at
// 90% of the free memory; by default that 90%, the rest left to CUB, the driver and fragmentation.
#include <algorithm>
#include <cstdint>

#include "gpu/device_info.hpp"
#include "stages/dense_units/dense_units.hpp"

namespace subscale {

inline std::uint64_t device_budget(const DenseUnitsParams& params, const gpu::DeviceInfo& device) {
  const std::uint64_t automatic = device.free_bytes / 10 * 9;
  return params.device_bytes > 0 ? std::min(params.device_bytes, automatic) : automatic;
}

}  // namespace subscale
