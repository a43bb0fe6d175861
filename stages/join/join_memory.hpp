#pragma once
// Memory planning for a join, done before anything is allocated. The working set of a backend
// (device memory for cuda, host memory for cpu) is a fixed part known from |R|, |S| and the
// layout (keys, partition buffers, worst-case tables, plan) plus an output buffer of 8 bytes per
// pair. A join whose fixed part and a minimal output buffer exceed the budget is refused with a
// ResourceError; an output larger than what is left is produced in batches ("split to fit").
#include <cstdint>
#include <string>

#include "stages/join/join_options.hpp"
#include "stages/join/join_settings.hpp"

namespace subscale::join {

inline constexpr std::uint64_t kBytesPerOutputPair = 2 * sizeof(std::uint32_t);
// The output buffer is never planned smaller than this many pairs (unless the output is smaller).
inline constexpr std::uint64_t kMinOutputBatchPairs = 1ULL << 16;

struct JoinMemoryPlan {
  std::uint64_t input_bytes = 0;      // the key columns copied to the device (cuda)
  std::uint64_t partition_bytes = 0;  // ping-pong (key, row) buffers of both relations
  std::uint64_t table_bytes = 0;      // worst case: every R partition needs a prebuilt table
  std::uint64_t plan_bytes = 0;       // offsets, work items, per-item counts, scan scratch
  std::uint64_t fixed_bytes() const noexcept { return input_bytes + partition_bytes + table_bytes + plan_bytes; }
};

JoinMemoryPlan plan_join_memory(std::uint64_t r_rows, std::uint64_t s_rows, const JoinSettings& settings,
                                Backend backend);

// Throws ResourceError (exit code 4) when the fixed part plus the smallest output buffer does not
// fit budget_bytes; the message gives the sizes and what to change.
void require_fits(const JoinMemoryPlan& plan, std::uint64_t r_rows, std::uint64_t s_rows, std::uint64_t budget_bytes,
                  Backend backend);

// Pairs per output batch once the exact output size is known.
std::uint64_t output_batch_pairs(const JoinMemoryPlan& plan, std::uint64_t budget_bytes, std::uint64_t total_pairs);

// The cpu backend's default budget: 80 % of physical memory (the cuda backend's is
// gpu::device_budget, see gpu/device_budget.hpp).
std::uint64_t default_host_memory_budget();

std::string format_bytes(std::uint64_t bytes);

}  // namespace subscale::join
