#pragma once
// The CUDA backend of the join stage, callable from plain C++ (no CUDA types here). Built from
// radix_partition_cuda.cu and hash_join_cuda.cu when the CUDA backend is; otherwise join_cuda_unavailable.cpp
// defines the same functions to throw a ResourceError that says why. Both run on context.stream.
#include <cstdint>
#include <span>

#include "gpu/execution_context.hpp"
#include "stages/join/join_output.hpp"
#include "stages/join/join_settings.hpp"
#include "stages/join/partitioned_keys.hpp"

namespace subscale::join {

// Copies the keys to the device, partitions them there, and copies the result back (used to
// compare the device passes with the CPU ones bit for bit).
PartitionedKeys radix_partition_cuda(std::span<const std::uint64_t> keys, const RadixLayout& layout, JoinHash hash,
                                     const gpu::ExecutionContext& context);

// The whole join on the device; the pairs come back to the host batch by batch through the sink.
// Refuses (ResourceError) before allocating anything when the plan does not fit the budget.
void hash_join_cuda(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                    const JoinSettings& settings, const PairSink& sink, JoinTimings& timings,
                    const gpu::ExecutionContext& context);

}  // namespace subscale::join
