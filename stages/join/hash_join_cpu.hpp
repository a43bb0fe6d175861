#pragma once
// The oneTBB backend of hash_join: radix partitioning, one chained table per partition built
// once, then work items (partition, chunk of S) probed in parallel twice: first counting the
// pairs per item (so the output is sized exactly and planned against the budget), then writing
// them at their prefix-sum offsets. Deterministic: same input, same pairs in the same order.
#include <cstdint>
#include <span>

#include "stages/join/join_output.hpp"
#include "stages/join/join_settings.hpp"

namespace subscale::join {

void hash_join_cpu(std::span<const std::uint64_t> r_keys, std::span<const std::uint64_t> s_keys,
                   const JoinSettings& settings, const PairSink& sink, JoinTimings& timings);

}  // namespace subscale::join
