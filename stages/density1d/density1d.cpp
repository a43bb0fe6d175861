#include "stages/density1d/density1d.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

namespace subscale {
namespace {

template <class T>
std::vector<std::uint32_t> sorted_order(const T* values, std::uint32_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [values](std::uint32_t a, std::uint32_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  return order;
}

// Two-pointer sweeps over the sorted values: forward window ends, and the neighbourhood sizes
// |N(p)| = (first position >= x + eps) - (first position > x - eps).
template <class T>
void windows_and_cores(const std::vector<T>& x, T eps, std::vector<std::uint32_t>& window_end,
                       std::vector<std::uint32_t>& neighbours) {
  const std::uint32_t n = static_cast<std::uint32_t>(x.size());
  window_end.resize(n);
  neighbours.resize(n);
  std::uint32_t h = 0, lo = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (h < i + 1) h = i + 1;
    while (h < n && x[h] - x[i] < eps) ++h;
    while (x[i] - x[lo] >= eps) ++lo;
    window_end[i] = h;
    neighbours[i] = h - lo;
  }
}

}  // namespace

template <class T>
DimensionDensity density_of_dimension(const T* values, std::uint32_t n, const Density1dParams& params) {
  DimensionDensity result;
  const T eps = held_epsilon<T>(params.epsilon);
  result.order = sorted_order(values, n);
  std::vector<T> x(n);
  for (std::uint32_t i = 0; i < n; ++i) x[i] = values[result.order[i]];
  std::vector<std::uint32_t> neighbours;
  windows_and_cores(x, eps, result.window_end, neighbours);

  // Cluster ids of core points by position: a new cluster starts where the gap to the previous
  // core point is >= eps.
  std::vector<std::int32_t> by_position(n, -1);
  std::int64_t last_core = -1;
  std::int32_t cluster = -1;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (neighbours[i] < params.min_points) continue;
    if (last_core < 0 || x[i] - x[static_cast<std::uint32_t>(last_core)] >= eps) ++cluster;
    by_position[i] = cluster;
    last_core = i;
    ++result.core_points;
  }
  result.clusters = static_cast<std::uint32_t>(cluster + 1);

  // Border points: the nearest preceding core point wins if within eps, else the nearest
  // following one.
  std::vector<std::int32_t> border(n, -1);
  std::int64_t previous_core = -1;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (by_position[i] >= 0) {
      previous_core = i;
    } else if (previous_core >= 0 && x[i] - x[static_cast<std::uint32_t>(previous_core)] < eps) {
      border[i] = by_position[static_cast<std::uint32_t>(previous_core)];
    }
  }
  std::int64_t next_core = -1;
  for (std::uint32_t i = n; i-- > 0;) {
    if (by_position[i] >= 0) {
      next_core = i;
    } else if (border[i] < 0 && next_core >= 0 && x[static_cast<std::uint32_t>(next_core)] - x[i] < eps) {
      border[i] = by_position[static_cast<std::uint32_t>(next_core)];
    }
  }
  result.labels.assign(n, -1);
  for (std::uint32_t i = 0; i < n; ++i)
    result.labels[result.order[i]] = by_position[i] >= 0 ? by_position[i] : border[i];
  return result;
}

template <class T>
Density1dResult run_density1d(const ColumnMatrix<T>& values, const Density1dParams& params) {
  Density1dResult result;
  const auto n = static_cast<std::uint32_t>(values.rows());
  result.dimensions.resize(static_cast<std::size_t>(values.cols()));
  tbb::parallel_for(std::size_t{0}, result.dimensions.size(), [&](std::size_t j) {
    result.dimensions[j] = density_of_dimension(values.col(static_cast<Eigen::Index>(j)).data(), n, params);
  });
  return result;
}

template DimensionDensity density_of_dimension(const float*, std::uint32_t, const Density1dParams&);
template DimensionDensity density_of_dimension(const double*, std::uint32_t, const Density1dParams&);
template Density1dResult run_density1d(const Matrix32&, const Density1dParams&);
template Density1dResult run_density1d(const Matrix&, const Density1dParams&);

std::ostream& operator<<(std::ostream& out, const DimensionDensity& dimension) {
  out << "DimensionDensity{points=" << dimension.order.size() << ", clusters=" << dimension.clusters
      << ", core_points=" << dimension.core_points << "}";
  return out;
}

}  // namespace subscale
