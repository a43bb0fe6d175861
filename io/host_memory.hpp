#pragma once
// How much host memory a process can still take, and the check that refuses an allocation that
// cannot fit before it is made (a clear resource error instead of the kernel's OOM killer).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace subscale::io {

// MemAvailable from /proc/meminfo, lowered to what the cgroup's memory.max leaves when the process
// runs under a limit (containers, Slurm). The environment variable SUBSCALE_AVAILABLE_MEMORY (a
// size: 1073741824, 2G, 512M, 8GB, 1.5GiB) replaces it: for tests and fuzzers, and for machines
// whose limit is elsewhere; a value that is not a size is a UsageError.
std::uint64_t available_host_memory();

// "1073741824", "2G" and "512M" (binary, as Slurm reads them), "8GB" (decimal), "1.5 GiB"; nothing
// when the text is not a size.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// The product of `extents` times `element_bytes`, or nothing when it overflows 64 bits.
std::optional<std::uint64_t> checked_bytes(const std::vector<std::uint64_t>& extents, std::uint64_t element_bytes);

// Throws ResourceError (exit 4) naming `what`, the bytes it needs and the bytes available when
// `bytes` (nothing: beyond 2^64) is more than available_host_memory().
void check_host_allocation(std::optional<std::uint64_t> bytes, const std::string& what);

// "1.5 GiB", "12.0 MiB", "512 bytes".
std::string describe_bytes(std::uint64_t bytes);

}  // namespace subscale::io
