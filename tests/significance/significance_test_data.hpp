#pragma once
// Small data sets for the significance tests: uniform noise with optional planted boxes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::significance::testing {

inline Matrix uniform_noise(std::size_t n, std::size_t d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Matrix m(n, d);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = u(rng);
  return m;
}

// Integer levels with a skewed law (level i drawn in proportion to 1 / (i + 1)), scaled into
// [0, 1]: the ties that let a bound settle most of a tree.
inline Matrix skewed_levels(std::size_t n, std::size_t d, std::size_t levels, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> weights(levels);
  for (std::size_t i = 0; i < levels; ++i) weights[i] = 1.0 / static_cast<double>(i + 1);
  std::discrete_distribution<std::size_t> level(weights.begin(), weights.end());
  Matrix m(n, d);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      m(i, j) = static_cast<double>(level(rng)) / static_cast<double>(levels - 1);
  return m;
}

// Points first..first+count-1 moved into a box of the given width in `dimensions`.
inline SubspaceCluster plant(Matrix& m, std::vector<std::uint32_t> dimensions, std::uint32_t first, std::uint32_t count,
                             double width, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  SubspaceCluster cluster{dimensions, {}};
  for (const auto j : dimensions) {
    const double lo = u(rng) * (1 - width);
    for (std::uint32_t i = first; i < first + count; ++i) m(i, j) = lo + u(rng) * width;
  }
  for (std::uint32_t i = first; i < first + count; ++i) cluster.points.push_back(i);
  return cluster;
}

// The k nearest points to `center` in the (max-norm) subspace, center included, for each k of `ks`:
// what a search for dense places would report in pure noise. Points at the same distance are taken
// by index. The distances are computed and sorted once for all ks, from the matrix's columns: the
// noise-rate tests ask for 144,000 of these groups, which one k at a time through Eigen's element
// access took most of their 40 s in the sanitizer build (its tests are compiled at -O0); now 6 s,
// the same groups (each compared with the one-k-at-a-time version when this was written).
inline std::vector<SubspaceCluster> nearest_each(const Matrix& m, const std::vector<std::uint32_t>& dims,
                                                 std::uint32_t center, const std::vector<std::size_t>& ks) {
  const auto n = static_cast<std::size_t>(m.rows());
  std::vector<double> distance(n, 0.0);
  for (const auto j : dims) {
    const double* column = m.data() + static_cast<std::size_t>(j) * n;  // column-major
    for (std::size_t i = 0; i < n; ++i) distance[i] = std::max(distance[i], std::abs(column[i] - column[center]));
  }
  std::vector<std::pair<double, std::uint32_t>> by_distance;
  by_distance.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) by_distance.emplace_back(distance[i], i);
  const std::size_t most = *std::max_element(ks.begin(), ks.end());
  // Plain pointers and one comparison: std::pair's through its iterators is slow at -O0.
  std::pair<double, std::uint32_t>* first = by_distance.data();
  std::partial_sort(first, first + most, first + n, [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  });
  std::vector<SubspaceCluster> out;
  for (const std::size_t k : ks) {
    SubspaceCluster c{dims, {}};
    for (std::size_t i = 0; i < k; ++i) c.points.push_back(by_distance[i].second);
    std::sort(c.points.begin(), c.points.end());
    out.push_back(std::move(c));
  }
  return out;
}

inline SubspaceCluster nearest(const Matrix& m, const std::vector<std::uint32_t>& dims, std::uint32_t center,
                               std::size_t k) {
  return nearest_each(m, dims, center, {k}).front();
}

}  // namespace subscale::significance::testing
