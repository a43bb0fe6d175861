#include "stages/dense_units/table/partition_plan.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace subscale {

PartitionScheme parse_partition_scheme(const std::string& name) {
  if (name == "adaptive") return PartitionScheme::adaptive;
  if (name == "equal") return PartitionScheme::equal;
  throw UsageError("partitions.scheme is '" + name + "'; valid values: adaptive, equal");
}

const char* to_string(PartitionScheme scheme) { return scheme == PartitionScheme::adaptive ? "adaptive" : "equal"; }

std::size_t PartitionPlan::find(std::uint64_t signature) const noexcept {
  return static_cast<std::size_t>(std::upper_bound(lower.begin(), lower.end(), signature) - lower.begin()) - 1;
}

PartitionPlan equal_partitions(std::size_t count, std::uint64_t range_low, std::uint64_t range_high) {
  PartitionPlan plan;
  plan.scheme = PartitionScheme::equal;
  plan.lower.push_back(0);
  const unsigned __int128 width = static_cast<unsigned __int128>(range_high - range_low) + 1;
  for (std::size_t p = 1; p < count; ++p)
    plan.lower.push_back(range_low + static_cast<std::uint64_t>(width * p / count));
  return plan;
}

PartitionPlan adaptive_partitions(std::size_t count, std::vector<std::uint64_t>& sample) {
  PartitionPlan plan;
  plan.scheme = PartitionScheme::adaptive;
  plan.lower.push_back(0);
  std::sort(sample.begin(), sample.end());
  for (std::size_t p = 1; p < count && !sample.empty(); ++p) {
    const std::uint64_t boundary = sample[p * sample.size() / count];
    // Repeated sample values would give empty partitions; keep boundaries strictly increasing.
    if (boundary > plan.lower.back()) plan.lower.push_back(boundary);
  }
  return plan;
}

}  // namespace subscale
