#pragma once
// Partitions of the signature space (docs/method.md §6). When the table does not fit the memory budget the
// 64-bit primary signature range is cut into partitions processed one after another, each holding
// only the units whose signature falls into it. `adaptive` places the boundaries at quantiles of
// a sample of real signatures so each partition receives about the same number of units; `equal`
// cuts the range of possible sums into equal widths, as the original SUBSCALE code.
#include <cstdint>
#include <string>
#include <vector>

namespace subscale {

enum class PartitionScheme { adaptive, equal };

PartitionScheme parse_partition_scheme(const std::string& name);
const char* to_string(PartitionScheme scheme);

struct PartitionPlan {
  PartitionScheme scheme = PartitionScheme::adaptive;
  // lower[p] is the first signature of partition p; partition p ends where p + 1 starts, the
  // last one at 2^64. lower[0] == 0, so every signature falls in exactly one partition.
  std::vector<std::uint64_t> lower;

  std::size_t count() const noexcept { return lower.size(); }
  bool contains(std::size_t p, std::uint64_t signature) const noexcept {
    return signature >= lower[p] && (p + 1 == lower.size() || signature < lower[p + 1]);
  }
  std::size_t find(std::uint64_t signature) const noexcept;
};

// Equal widths over [range_low, range_high] (the range of possible sums).
PartitionPlan equal_partitions(std::size_t count, std::uint64_t range_low, std::uint64_t range_high);

// Boundaries at the quantiles of `sample` (which is sorted in place).
PartitionPlan adaptive_partitions(std::size_t count, std::vector<std::uint64_t>& sample);

}  // namespace subscale
