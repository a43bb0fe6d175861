#include "stages/density1d/density1d.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

// Brute-force 1-D DBSCAN under docs/method.md §3: O(n^2) neighbourhoods, union-find of core points, border
// points to the nearest preceding core neighbour in sorted order, else the nearest following one.
std::vector<std::int32_t> brute_force_labels(const std::vector<double>& x, double eps, std::uint32_t m) {
  const auto n = static_cast<std::uint32_t>(x.size());
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return x[a] < x[b] || (x[a] == x[b] && a < b); });
  std::vector<std::uint32_t> position(n);
  for (std::uint32_t i = 0; i < n; ++i) position[order[i]] = i;
  std::vector<bool> core(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    std::uint32_t count = 0;
    for (std::uint32_t q = 0; q < n; ++q) count += std::abs(x[q] - x[p]) < eps;
    core[p] = count >= m;
  }
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (std::uint32_t p = 0; p < n; ++p)
    for (std::uint32_t q = 0; q < n; ++q)
      if (core[p] && core[q] && std::abs(x[q] - x[p]) < eps) parent[find(p)] = find(q);
  // Number clusters by their first core point in sorted order.
  std::vector<std::int32_t> id_of_root(n, -1), labels(n, -1);
  std::int32_t next = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t p = order[i];
    if (!core[p]) continue;
    if (id_of_root[find(p)] < 0) id_of_root[find(p)] = next++;
    labels[p] = id_of_root[find(p)];
  }
  for (std::uint32_t p = 0; p < n; ++p) {
    if (core[p]) continue;
    std::int64_t best_before = -1, best_after = -1;
    for (std::uint32_t q = 0; q < n; ++q) {
      if (!core[q] || !(std::abs(x[q] - x[p]) < eps)) continue;
      if (position[q] < position[p] && (best_before < 0 || position[q] > position[best_before])) best_before = q;
      if (position[q] > position[p] && (best_after < 0 || position[q] < position[best_after])) best_after = q;
    }
    if (best_before >= 0)
      labels[p] = labels[best_before];
    else if (best_after >= 0)
      labels[p] = labels[best_after];
  }
  return labels;
}

TEST(Density1d, MatchesBruteForceOnTiedData) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Matrix values = testing::tied_data(150, 4, seed, 60);
    for (double eps : {0.01, 1.0 / 60, 0.05}) {
      for (std::uint32_t m : {2u, 3u, 5u}) {
        const Density1dResult result = run_density1d(values, {eps, m});
        for (std::uint32_t j = 0; j < 4; ++j) {
          std::vector<double> x(values.col(j).data(), values.col(j).data() + values.rows());
          EXPECT_EQ(result.dimensions[j].labels, brute_force_labels(x, eps, m))
              << "seed=" << seed << " eps=" << eps << " m=" << m << " dim=" << j;
        }
      }
    }
  }
}

TEST(Density1d, WindowsAreStrictAndSortedByValueThenId) {
  // Binary fractions, so differences are exact: a gap of exactly eps is outside the window.
  const std::vector<double> x{0.5, 0.125, 0.5, 0.25, 0.375, 0.125};
  const DimensionDensity result = density_of_dimension(x.data(), 6, {0.125, 2});
  EXPECT_EQ(result.order, (std::vector<std::uint32_t>{1, 5, 3, 4, 0, 2}));
  EXPECT_EQ(result.window_end, (std::vector<std::uint32_t>{2, 2, 3, 4, 6, 6}));
  // Cores (|N| >= 2): the two 0.125s and the two 0.5s; 0.25 and 0.375 are noise.
  EXPECT_EQ(result.labels, (std::vector<std::int32_t>{1, 0, 1, -1, -1, 0}));
  EXPECT_EQ(result.clusters, 2u);
}

}  // namespace
}  // namespace subscale
