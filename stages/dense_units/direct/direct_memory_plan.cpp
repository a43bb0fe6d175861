#include "stages/dense_units/direct/direct_memory_plan.hpp"

#include <algorithm>
#include <cmath>

#include "stages/dense_units/direct/direct_subspace_map.hpp"

namespace subscale {
namespace {

std::uint64_t saturating_table_bytes(std::uint64_t subspaces, std::uint64_t bytes_per_subspace) {
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(subspaces, bytes_per_subspace, &bytes) || __builtin_mul_overflow(bytes, 2, &bytes))
    return ~std::uint64_t{0};
  return bytes;
}

// Subspaces have at least two dimensions: 2^d - d - 1 sets, saturating.
std::uint64_t dimension_sets(std::uint32_t dimensions) {
  if (dimensions >= 64) return ~std::uint64_t{0};
  return (std::uint64_t{1} << dimensions) - dimensions - 1;
}

}  // namespace

std::uint64_t DirectMemoryPlan::table_bytes_at_least() const {
  return saturating_table_bytes(subspaces_at_least, bytes_per_subspace);
}

std::uint64_t DirectMemoryPlan::table_bytes_at_most() const {
  return saturating_table_bytes(subspaces_at_most, bytes_per_subspace);
}

DirectMemoryPlan plan_direct_memory(const DirectSpace& space, const DirectWalkEstimate& estimate) {
  DirectMemoryPlan plan;
  plan.bytes_per_subspace =
      dense_units::direct::DirectSubspaceMap::bytes_per_entry(space.key_words(), space.point_words());
  plan.exact = estimate.exact;
  plan.subspaces_at_least = estimate.sampled_subspaces;
  const double units = std::ceil(std::max(estimate.multi_units, 0.0));
  const std::uint64_t unit_bound = units >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(units);
  plan.subspaces_at_most =
      estimate.exact ? estimate.sampled_subspaces : std::min(unit_bound, dimension_sets(space.dimensions));
  plan.subspaces_at_most = std::max(plan.subspaces_at_most, plan.subspaces_at_least);
  plan.values_bytes = space.rows_bytes() + (space.sorted.size() + space.window_end.size()) * 4;
  return plan;
}

}  // namespace subscale
