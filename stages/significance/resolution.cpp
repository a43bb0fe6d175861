#include "stages/significance/resolution.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace subscale::significance {
namespace {

// In gaps: how far a gap between distinct values may be from a whole number of levels. Rounding
// of normalised values is about 1e-16 (1e-7 in float32) of the range; a continuous column fails
// at its first gap.
constexpr double kGridTolerance = 1e-3;
// The core reaches the next level where the continuous radius is at least this share of a gap.
constexpr double kAdjacentShare = 1.0 / 3.0;
// Relative: far above the rounding of a ratio of two doubles, far below any real difference.
constexpr double kRatioRounding = 1e-9;

}  // namespace

template <class T>
ColumnGrid grid_of(const T* column, std::size_t n) {
  std::vector<double> sorted(column, column + n);
  std::sort(sorted.begin(), sorted.end());
  return grid_of_sorted(sorted);
}

ColumnGrid grid_of_sorted(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<double> sorted = values;
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (sorted.size() < 2) return {};
  double smallest = sorted[1] - sorted[0];
  for (std::size_t i = 2; i < sorted.size(); ++i) smallest = std::min(smallest, sorted[i] - sorted[i - 1]);
  const double range = sorted.back() - sorted.front();
  const double steps = std::round(range / smallest);
  if (!(steps >= 1) || steps + 1 > static_cast<double>(n)) return {};
  const double gap = range / steps;
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const double q = (sorted[i] - sorted.front()) / gap;
    if (std::abs(q - std::round(q)) > kGridTolerance) return {};
  }
  return {gap, static_cast<std::uint32_t>(steps) + 1};
}

template <class T>
std::vector<ColumnGrid> grids_of(const ColumnMatrix<T>& values) {
  std::vector<ColumnGrid> grids(static_cast<std::size_t>(values.cols()));
  tbb::parallel_for(std::size_t{0}, grids.size(), [&](std::size_t j) {
    grids[j] = grid_of(values.col(static_cast<Eigen::Index>(j)).data(), static_cast<std::size_t>(values.rows()));
  });
  return grids;
}

LevelReach reach_for(std::uint32_t dimension, double radius, double merge_radius, double gap) {
  // Radii in gaps, as exact arithmetic has them: spans of points spread over a level are whole
  // fractions of its gap (7/28 of it), and floating point computes four of those as 0.99999...
  const auto in_gaps = [gap](double length) { return length / gap * (1 + kRatioRounding); };
  LevelReach reach{dimension, 0, 0};
  const double r = in_gaps(radius);
  if (r >= kAdjacentShare) reach.core = static_cast<std::uint32_t>(std::min(std::floor(r) + 1, 1e9));
  reach.search = static_cast<std::uint32_t>(std::min(std::floor(in_gaps(merge_radius)), 1e9));
  return reach;
}

ColumnScales scales_for(const std::vector<LevelReach>& reaches, const std::vector<ColumnGrid>& grids, double epsilon,
                        double merge_epsilon) {
  ColumnScales scales;
  if (reaches.empty()) return scales;
  scales.core.assign(grids.size(), 1.0);
  scales.search.assign(grids.size(), 1.0);
  for (const auto& reach : reaches) {
    if (reach.dimension >= grids.size())
      throw InputError("levels: dimension " + std::to_string(reach.dimension) + " is out of range (the data has " +
                       std::to_string(grids.size()) + " dimensions)");
    const ColumnGrid& grid = grids[reach.dimension];
    if (!grid.on_grid())
      throw InputError("levels: the values of dimension " + std::to_string(reach.dimension) +
                       " are not on a grid of levels; leave it out of the list or set levels: auto");
    scales.core[reach.dimension] = epsilon / ((reach.core + 0.5) * grid.gap);
    scales.search[reach.dimension] = merge_epsilon / ((reach.search + 0.5) * grid.gap);
  }
  return scales;
}

template <class T>
ColumnMatrix<T> scaled(const ColumnMatrix<T>& values, const std::vector<double>& factors) {
  ColumnMatrix<T> out(values.rows(), values.cols());
  tbb::parallel_for(Eigen::Index{0}, values.cols(), [&](Eigen::Index j) {
    const double factor = factors[static_cast<std::size_t>(j)];
    for (Eigen::Index i = 0; i < values.rows(); ++i)
      out(i, j) = factor == 1.0 ? values(i, j) : static_cast<T>(static_cast<double>(values(i, j)) * factor);
  });
  return out;
}

std::vector<double> spread_over_gap(const std::vector<double>& sorted, double gap) {
  std::vector<double> out(sorted.size());
  for (std::size_t first = 0; first < sorted.size();) {
    std::size_t last = first + 1;
    while (last < sorted.size() && sorted[last] == sorted[first]) ++last;
    const double count = static_cast<double>(last - first);
    for (std::size_t i = first; i < last; ++i)
      out[i] = sorted[first] + gap * ((static_cast<double>(i - first) + 0.5) / count - 0.5);
    first = last;
  }
  return out;
}

std::string reach_text(std::uint32_t levels) {
  return levels == 0   ? "one level"
         : levels == 1 ? "adjacent levels"
                       : "up to " + std::to_string(levels) + " levels apart";
}

template ColumnGrid grid_of(const float*, std::size_t);
template ColumnGrid grid_of(const double*, std::size_t);
template std::vector<ColumnGrid> grids_of(const ColumnMatrix<float>&);
template std::vector<ColumnGrid> grids_of(const ColumnMatrix<double>&);
template ColumnMatrix<float> scaled(const ColumnMatrix<float>&, const std::vector<double>&);
template ColumnMatrix<double> scaled(const ColumnMatrix<double>&, const std::vector<double>&);

}  // namespace subscale::significance
