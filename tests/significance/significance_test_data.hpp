#pragma once
// Small data sets for the significance tests: uniform noise with optional planted boxes.
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

}  // namespace subscale::significance::testing
