#pragma once
// Small datasets for the core tests: random values on a coarse grid so that ties and exact
// eps-distances occur, plus planted groups of points that are close in several dimensions so
// that multi-dimensional units exist.
#include <algorithm>
#include <cstdint>
#include <random>

#include "common/dataset.hpp"

namespace subscale::testing {

inline Matrix tied_data(std::uint32_t n, std::uint32_t d, std::uint64_t seed, std::uint32_t grid = 200) {
  std::mt19937_64 rng(seed);
  Matrix values(n, d);
  for (std::uint32_t j = 0; j < d; ++j)
    for (std::uint32_t i = 0; i < n; ++i) values(i, j) = static_cast<double>(rng() % (grid + 1)) / grid;
  // Planted groups: 3 groups of 8 points close in 3-4 shared dimensions.
  for (std::uint32_t g = 0; g < 3 && 8 * (g + 1) <= n; ++g) {
    const double centre = static_cast<double>(rng() % grid) / grid;
    for (std::uint32_t j = g; j < std::min(d, g + 3 + g % 2); ++j)
      for (std::uint32_t i = 8 * g; i < 8 * (g + 1); ++i)
        values(i, j) = std::min(1.0, centre + static_cast<double>(rng() % 3) / grid);
  }
  return values;
}

// Dimensions on a grid of step 1/60 (tie dimensions at an epsilon below it: close means equal)
// beside every third dimension on a grid of 1/1000, across word boundaries when d > 64.
inline Matrix mixed_tie_data(std::uint32_t n, std::uint32_t d, std::uint64_t seed) {
  Matrix values = tied_data(n, d, seed, 60);
  const Matrix fine = tied_data(n, d, seed + 100, 1000);
  for (std::uint32_t j = 0; j < d; j += 3)
    for (std::uint32_t i = 0; i < n; ++i) values(i, j) = fine(i, j);
  return values;
}

// Values on a grid of step eps / 2, each moved by up to 4e-8 (about one float ulp near 1): spans of
// two steps land within a few 1e-8 of eps, where rounding the values to float32 (and eps to
// float(eps)) turns many of them across it. Dense units, windows and subspaces then differ
// between float32 and float64, while each precision stays self-consistent. Values lie in [0, 1].
inline Matrix near_epsilon_data(std::uint32_t n, std::uint32_t d, std::uint64_t seed, double eps,
                                std::uint32_t levels = 7) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-4e-8, 4e-8);
  Matrix values(n, d);
  for (std::uint32_t j = 0; j < d; ++j)
    for (std::uint32_t i = 0; i < n; ++i) {
      const double level = static_cast<double>(rng() % levels) * eps / 2 + 0.25;
      values(i, j) = std::clamp(level + jitter(rng), 0.0, 1.0);
    }
  return values;
}

}  // namespace subscale::testing
