#pragma once
// Small datasets for the core tests: random values on a coarse grid so that ties and exact
// eps-distances occur, plus planted groups of points that are close in several dimensions so
// that multi-dimensional units exist.
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

}  // namespace subscale::testing
