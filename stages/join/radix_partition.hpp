#pragma once
// Radix partitioning of a key column into (key, row) pairs ordered by partition id (see
// radix_layout.hpp). Both backends produce the same arrays bit for bit: each pass is a stable
// scatter, and a stable partition is unique whatever the chunking.
#include <cstdint>
#include <span>

#include "gpu/execution_context.hpp"
#include "stages/join/join_options.hpp"
#include "stages/join/partitioned_keys.hpp"
#include "stages/join/radix_layout.hpp"

namespace subscale::join {

// `context`: the stream of the cuda backend (gpu/execution_context.hpp).
PartitionedKeys radix_partition(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash,
                                Backend backend, const gpu::ExecutionContext& context = {});

// The oneTBB implementation (the cpu backend of radix_partition).
PartitionedKeys radix_partition_cpu(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash);

}  // namespace subscale::join
