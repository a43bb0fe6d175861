#pragma once
// Stage join (docs/stages.md §3): the equi-join of two relations R and S on a 64-bit key, as radix
// partitioning followed by build (R) and probe (S) per partition. The result is the multiset of
// (R row, S row) pairs with r_keys[R row] == s_keys[S row], the same as a sort-merge join's,
// duplicates and skew included. Backends: cpu (oneTBB) and cuda, behind the same call.
#include <cstdint>
#include <span>

#include "gpu/execution_context.hpp"
#include "stages/join/join_options.hpp"
#include "stages/join/join_output.hpp"
#include "stages/join/join_settings.hpp"

namespace subscale::join {

// Resolves "auto" in the options for a join whose build side has r_rows tuples. Throws
// UsageError for invalid options and ResourceError when the cuda backend is asked for but was
// not built or no device is available. The cuda backend's budget is gpu::device_budget of
// options.memory_budget_bytes, or of context.device_bytes when that is 0.
JoinSettings resolve_settings(const JoinOptions& options, std::uint64_t r_rows,
                              const gpu::ExecutionContext& context = {});

// The pairs in one pair of vectors. The output must fit host memory (ResourceError otherwise,
// before it is allocated); with options.sort_output they are ordered by (S row, R row). `context`:
// the stream and budget of the cuda backend (gpu/execution_context.hpp).
JoinPairs hash_join(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                    const JoinOptions& options, JoinTimings* timings = nullptr,
                    const gpu::ExecutionContext& context = {});

// The pairs batch by batch, each batch fitting the backend's memory budget (sort_output is
// ignored here: order across batches is the work items' order).
void hash_join_batches(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                       const JoinOptions& options, const PairSink& sink, JoinTimings* timings = nullptr,
                       const gpu::ExecutionContext& context = {});

// Orders pairs by (S row, R row), in parallel.
void sort_pairs(JoinPairs& pairs);

}  // namespace subscale::join
