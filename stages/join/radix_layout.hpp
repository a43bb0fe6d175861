#pragma once
// How many radix passes a join makes and how many hash bits each pass scatters by. The passes
// run least significant digit first, each a stable scatter over the whole relation, so after
// the last pass the tuples are ordered by partition id (the low total_bits() bits of the hash)
// and, within a partition, by their input position. Every partition of a pass is handled by the
// same kernel launch (the seed's recursion into one launch per small partition is what capped
// it at 35 M tuples/s).
#include <cstdint>
#include <vector>

#include "stages/join/join_options.hpp"

namespace subscale::join {

struct RadixLayout {
  std::vector<int> pass_bits;  // pass k scatters by hash bits [shift(k), shift(k) + pass_bits[k])

  int passes() const noexcept { return static_cast<int>(pass_bits.size()); }
  int total_bits() const noexcept;
  int shift(int pass) const noexcept;
  std::uint32_t partitions() const noexcept { return 1U << total_bits(); }
};

// The average R partition the automatic layout aims at: half of what a GPU thread block's
// shared-memory table holds (kFastTableTuples), so that nearly all partitions of uniform data
// are built in shared memory.
inline constexpr std::uint32_t kTargetPartitionTuples = 1024;

// Throws UsageError unless the layout has 1..kMaxRadixPasses passes of 1..kMaxRadixBitsPerPass
// bits and at most kMaxPartitionBits in all.
void validate(const RadixLayout& layout);

// Resolves the options' radix_bits / passes (0 = auto) for a build side of r_rows tuples.
RadixLayout choose_radix_layout(std::uint64_t r_rows, const JoinOptions& options);

}  // namespace subscale::join
