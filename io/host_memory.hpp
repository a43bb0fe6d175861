#pragma once
// How much host memory a process can still take, and the check that refuses an allocation that
// cannot fit before it is made (a clear resource error instead of the kernel's OOM killer).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace subscale::io {

// MemAvailable from /proc/meminfo, lowered to what the cgroup's memory.max leaves when the process
// runs under a limit (containers, Slurm). The environment variable SUBSCALE_AVAILABLE_MEMORY (a
// number of bytes) replaces it: for tests and fuzzers, and for machines whose limit is elsewhere.
std::uint64_t available_host_memory();

// The product of `extents` times `element_bytes`, or nothing when it overflows 64 bits.
std::optional<std::uint64_t> checked_bytes(const std::vector<std::uint64_t>& extents, std::uint64_t element_bytes);

// Throws ResourceError (exit 4) naming `what`, the bytes it needs and the bytes available when
// `bytes` (nothing: beyond 2^64) is more than available_host_memory().
void check_host_allocation(std::optional<std::uint64_t> bytes, const std::string& what);

// "1.5 GiB", "12.0 MiB", "512 bytes".
std::string describe_bytes(std::uint64_t bytes);

}  // namespace subscale::io
