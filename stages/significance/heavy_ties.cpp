#include "stages/significance/heavy_ties.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

namespace subscale::significance {
namespace {

// [first, last) runs of equal values in `order` (ids sorted by value) holding more than `limit`.
template <class T>
std::vector<std::pair<std::size_t, std::size_t>> heavy_runs(const T* column, const std::vector<std::uint32_t>& order,
                                                            double limit) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first + 1;
    while (last < order.size() && column[order[last]] == column[order[first]]) ++last;
    if (static_cast<double>(last - first) > limit) runs.emplace_back(first, last);
    first = last;
  }
  return runs;
}

template <class T>
std::vector<std::uint32_t> sorted_ids(const T* column, std::size_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [column](std::uint32_t a, std::uint32_t b) { return column[a] < column[b]; });
  return order;
}

}  // namespace

template <class T>
HeavyTies spread_heavy_ties(ColumnMatrix<T>& values, double max_mass, double epsilon) {
  const auto n = static_cast<std::size_t>(values.rows());
  const double limit = max_mass * static_cast<double>(n);
  std::atomic<std::uint32_t> dimensions{0};
  std::atomic<std::uint64_t> points{0};
  tbb::parallel_for(Eigen::Index{0}, values.cols(), [&](Eigen::Index j) {
    T* column = values.col(j).data();
    const auto order = sorted_ids(column, n);
    const auto runs = heavy_runs(column, order, limit);
    if (runs.empty() || n == 0) return;
    // Beyond the column's largest value, each moved point 2 epsilon from the next: no span < epsilon.
    double next = static_cast<double>(column[order.back()]) + 2 * epsilon;
    std::uint64_t moved = 0;
    for (const auto& [first, last] : runs)
      for (std::size_t pos = first; pos < last; ++pos, next += 2 * epsilon) {
        column[order[pos]] = static_cast<T>(next);
        ++moved;
      }
    dimensions += 1;
    points += moved;
  });
  return {dimensions.load(), points.load()};
}

template <class T>
bool has_heavy_ties(const ColumnMatrix<T>& values, double max_mass) {
  const auto n = static_cast<std::size_t>(values.rows());
  std::atomic<bool> found{false};
  tbb::parallel_for(Eigen::Index{0}, values.cols(), [&](Eigen::Index j) {
    if (found) return;
    const T* column = values.col(j).data();
    if (!heavy_runs(column, sorted_ids(column, n), max_mass * static_cast<double>(n)).empty()) found = true;
  });
  return found;
}

template HeavyTies spread_heavy_ties(ColumnMatrix<float>&, double, double);
template HeavyTies spread_heavy_ties(ColumnMatrix<double>&, double, double);
template bool has_heavy_ties(const ColumnMatrix<float>&, double);
template bool has_heavy_ties(const ColumnMatrix<double>&, double);

}  // namespace subscale::significance
