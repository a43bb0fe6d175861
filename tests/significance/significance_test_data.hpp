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

// The k nearest points to `center` in the (max-norm) subspace, center included: what a search for
// dense places would report in pure noise.
inline SubspaceCluster nearest(const Matrix& m, const std::vector<std::uint32_t>& dims, std::uint32_t center,
                               std::size_t k) {
  std::vector<std::pair<double, std::uint32_t>> by_distance;
  for (std::uint32_t i = 0; i < m.rows(); ++i) {
    double d = 0;
    for (const auto j : dims) d = std::max(d, std::abs(m(i, j) - m(center, j)));
    by_distance.emplace_back(d, i);
  }
  std::partial_sort(by_distance.begin(), by_distance.begin() + static_cast<std::ptrdiff_t>(k), by_distance.end());
  SubspaceCluster c{dims, {}};
  for (std::size_t i = 0; i < k; ++i) c.points.push_back(by_distance[i].second);
  std::sort(c.points.begin(), c.points.end());
  return c;
}

}  // namespace subscale::significance::testing
