#include "stages/significance/pooled_pairs.hpp"

#include <tbb/parallel_for.h>

#include <bit>
#include <cmath>

#include "stages/significance/binomial_tail.hpp"

namespace subscale::significance {
namespace {

std::uint64_t memberships_of(const std::vector<SubspaceCluster>& subspaces) {
  std::uint64_t total = 0;
  for (const auto& s : subspaces) {
    const std::uint64_t k = s.dimensions.size();
    total += k * (k - (k > 0 ? 1 : 0)) / 2 * s.points.size();
  }
  return total;
}

// The pairs {a, b > a}: one bit set of the points per b, filled from every subspace holding a.
std::vector<SubspaceCluster> pairs_from(std::uint32_t a, const std::vector<std::uint32_t>& holding,
                                        const std::vector<SubspaceCluster>& subspaces, std::uint32_t points,
                                        std::uint32_t dimensions) {
  const std::size_t words = (points + 63) / 64;
  std::vector<std::vector<std::uint64_t>> bits(dimensions);
  for (const auto i : holding) {
    const auto& s = subspaces[i];
    for (const auto b : s.dimensions) {
      if (b <= a) continue;
      auto& row = bits[b];
      if (row.empty()) row.assign(words, 0);
      for (const auto p : s.points) row[p / 64] |= std::uint64_t{1} << (p % 64);
    }
  }
  std::vector<SubspaceCluster> out;
  for (std::uint32_t b = a + 1; b < dimensions; ++b) {
    if (bits[b].empty()) continue;
    SubspaceCluster pair{{a, b}, {}};
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t word = bits[b][w]; word != 0; word &= word - 1)
        pair.points.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
    out.push_back(std::move(pair));
  }
  return out;
}

}  // namespace

PooledPairs pool_into_pairs(const std::vector<SubspaceCluster>& subspaces, std::uint32_t points,
                            std::uint32_t dimensions, std::uint64_t budget) {
  PooledPairs pooled;
  pooled.memberships = memberships_of(subspaces);
  if (pooled.memberships > budget) {
    pooled.over_budget = true;
    return pooled;
  }
  std::vector<std::vector<std::uint32_t>> holding(dimensions);  // subspaces by their dimensions but the last
  for (std::uint32_t i = 0; i < subspaces.size(); ++i) {
    const auto& dims = subspaces[i].dimensions;
    for (std::size_t k = 0; k + 1 < dims.size(); ++k) holding[dims[k]].push_back(i);
  }
  std::vector<std::vector<SubspaceCluster>> by_first(dimensions);
  tbb::parallel_for(std::uint32_t{0}, dimensions, [&](std::uint32_t a) {
    if (!holding[a].empty()) by_first[a] = pairs_from(a, holding[a], subspaces, points, dimensions);
  });
  for (auto& list : by_first)
    for (auto& pair : list) pooled.pairs.push_back(std::move(pair));
  return pooled;
}

double chance_dimensions(double units, std::uint32_t points, std::uint32_t min_points) {
  if (points < min_points) return 0;
  return units / std::exp(log_choose(points, min_points));
}

}  // namespace subscale::significance
