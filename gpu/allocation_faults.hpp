#pragma once
// Device out-of-memory on demand, for tests of what each GPU stage does when an allocation fails.
// The environment variable SUBSCALE_FAIL_DEVICE_ALLOC selects the allocations that fail:
//   N    the Nth device allocation (1-based) from when the variable was set or last changed
//   N+   the Nth and every later one
// Every device allocation of the project goes through DeviceBuffer, which asks here first and
// reports a chosen one exactly as a real cudaErrorMemoryAllocation. Unset: no cost but a getenv.
#include <cstdint>

namespace subscale::gpu {

// Counts one device allocation; true when SUBSCALE_FAIL_DEVICE_ALLOC selects it. A malformed value
// is a UsageError.
bool next_device_allocation_fails();

// Starts counting again from 1 (tests that set the same value twice).
void reset_device_allocation_count();

// Device allocations counted since the variable was set or the count reset (0 while unset).
std::uint64_t device_allocations_counted();

}  // namespace subscale::gpu
