#pragma once
// The reference the core's modes are tested against: every m-subset of the points, its D(U) from
// the definition (the dimensions where its span is below eps), and the units of two or more
// dimensions grouped by D(U). Only for tiny data: it visits C(n, m) subsets.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/dense_units/enumeration/combinadic.hpp"

namespace subscale::testing {

struct BruteForceSubspaces {
  std::vector<SubspaceCluster> subspaces;  // sorted by |S| descending, then S
  std::uint64_t multi_units = 0;           // units dense in two or more dimensions
};

inline BruteForceSubspaces brute_force_subspaces(const Matrix& values, double eps, std::uint32_t m) {
  const auto n = static_cast<std::uint32_t>(values.rows());
  const auto d = static_cast<std::uint32_t>(values.cols());
  std::map<std::vector<std::uint32_t>, std::set<std::uint32_t>> by_subspace;
  BruteForceSubspaces out;
  std::vector<std::uint32_t> c(m);
  for (std::uint32_t i = 0; i < m; ++i) c[i] = i;
  do {
    std::vector<std::uint32_t> dims;
    for (std::uint32_t j = 0; j < d; ++j) {
      double lo = values(c[0], j), hi = lo;
      for (auto p : c) lo = std::min(lo, values(p, j)), hi = std::max(hi, values(p, j));
      if (hi - lo < eps) dims.push_back(j);
    }
    if (dims.size() >= 2) {
      by_subspace[dims].insert(c.begin(), c.end());
      ++out.multi_units;
    }
  } while (combinadic::next_colex(c.data(), m, n));
  for (auto& [dims, points] : by_subspace) out.subspaces.push_back({dims, {points.begin(), points.end()}});
  std::stable_sort(out.subspaces.begin(), out.subspaces.end(),
                   [](const auto& a, const auto& b) { return a.dimensions.size() > b.dimensions.size(); });
  return out;
}

}  // namespace subscale::testing
