#include "bench/merge/exact_subspaces.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace subscale::bench {
namespace {

std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  std::uint64_t r = 1;
  for (std::uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;  // exact at every step
  return r;
}

unsigned bits_for(std::uint64_t count) { return count <= 1 ? 1 : static_cast<unsigned>(std::bit_width(count - 1)); }

}  // namespace

ExactSubspaces exact_subspaces(const Matrix& values, double epsilon, std::size_t min_points) {
  const std::size_t n = static_cast<std::size_t>(values.rows()), d = static_cast<std::size_t>(values.cols());
  const unsigned id_bits = bits_for(n), dim_bits = bits_for(d);
  if (d > 64 || min_points * id_bits + dim_bits > 64 || min_points < 2) {
    throw std::runtime_error("exact_subspaces: n = " + std::to_string(n) + ", d = " + std::to_string(d) +
                             ", m = " + std::to_string(min_points) + " do not fit a 64-bit unit key");
  }

  // Sorted order and window ends per dimension, and the number of units each dimension yields.
  std::vector<std::vector<std::uint32_t>> order(d);
  std::vector<std::vector<std::uint32_t>> window_end(d);
  std::vector<std::uint64_t> units_per_dim(d, 0);
  tbb::parallel_for(std::size_t{0}, d, [&](std::size_t j) {
    auto& o = order[j];
    o.resize(n);
    std::iota(o.begin(), o.end(), 0u);
    const double* x = values.col(static_cast<Eigen::Index>(j)).data();
    std::sort(o.begin(), o.end(), [&](std::uint32_t a, std::uint32_t b) { return x[a] != x[b] ? x[a] < x[b] : a < b; });
    window_end[j].resize(n);
    std::size_t h = 0;
    for (std::size_t i = 0; i < n; ++i) {
      h = std::max(h, i + 1);
      while (h < n && x[o[h]] - x[o[i]] < epsilon) ++h;
      window_end[j][i] = static_cast<std::uint32_t>(h);
      units_per_dim[j] += binomial(h - i - 1, min_points - 1);
    }
  });
  std::vector<std::uint64_t> offset(d + 1, 0);
  for (std::size_t j = 0; j < d; ++j) offset[j + 1] = offset[j] + units_per_dim[j];

  ExactSubspaces result;
  result.dense_units = offset[d];
  std::vector<std::uint64_t> keys(offset[d]);
  const std::size_t k = min_points - 1;
  tbb::parallel_for(std::size_t{0}, d, [&](std::size_t j) {
    std::uint64_t out = offset[j];
    std::vector<std::uint32_t> pick(k), ids(min_points);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t w = window_end[j][i] - i - 1;  // positions after i inside the window
      if (w < k) continue;
      for (std::size_t t = 0; t < k; ++t) pick[t] = static_cast<std::uint32_t>(t);
      for (;;) {
        ids[0] = order[j][i];
        for (std::size_t t = 0; t < k; ++t) ids[t + 1] = order[j][i + 1 + pick[t]];
        std::sort(ids.begin(), ids.end());
        std::uint64_t key = 0;
        for (std::uint32_t id : ids) key = (key << id_bits) | id;
        keys[out++] = (key << dim_bits) | j;
        // Next k-subset of 0..w-1 in lexicographic order.
        std::size_t t = k;
        while (t > 0 && pick[t - 1] == w - k + t - 1) --t;
        if (t == 0) break;
        ++pick[t - 1];
        for (std::size_t u = t; u < k; ++u) pick[u] = pick[u - 1] + 1;
      }
    }
  });
  tbb::parallel_sort(keys.begin(), keys.end());

  // Runs of one unit: its dimensions form the subspace.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> points_of_mask;
  const std::uint64_t dim_mask = (std::uint64_t{1} << dim_bits) - 1;
  const std::uint64_t id_mask = (std::uint64_t{1} << id_bits) - 1;
  for (std::size_t a = 0; a < keys.size();) {
    const std::uint64_t unit = keys[a] >> dim_bits;
    std::uint64_t mask = 0;
    std::size_t b = a;
    for (; b < keys.size() && (keys[b] >> dim_bits) == unit; ++b) mask |= std::uint64_t{1} << (keys[b] & dim_mask);
    if (b - a >= 2) {
      ++result.multi_dimensional_units;
      auto& points = points_of_mask[mask];
      for (std::size_t t = 0; t < min_points; ++t)
        points.push_back(static_cast<std::uint32_t>((unit >> (t * id_bits)) & id_mask));
      if (points.size() > 4 * n) {  // keep memory bounded: fold repeats now and then
        std::sort(points.begin(), points.end());
        points.erase(std::unique(points.begin(), points.end()), points.end());
      }
    }
    a = b;
  }
  for (auto& [mask, points] : points_of_mask) {
    SubspaceCluster s;
    for (std::uint32_t j = 0; j < d; ++j)
      if (mask >> j & 1) s.dimensions.push_back(j);
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    s.points = std::move(points);
    result.subspaces.push_back(std::move(s));
  }
  std::sort(result.subspaces.begin(), result.subspaces.end(), [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.dimensions.size() != b.dimensions.size() ? a.dimensions.size() > b.dimensions.size()
                                                      : a.dimensions < b.dimensions;
  });
  return result;
}

}  // namespace subscale::bench
