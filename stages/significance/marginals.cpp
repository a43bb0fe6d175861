#include "stages/significance/marginals.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

#include "stages/significance/resolution.hpp"

namespace subscale::significance {

template <class T>
Marginals Marginals::of(const ColumnMatrix<T>& values) {
  Marginals m;
  m.points_ = static_cast<std::uint32_t>(values.rows());
  const auto d = static_cast<std::uint32_t>(values.cols());
  m.sorted_.resize(d);
  m.order_.resize(d);
  m.ties_.resize(d);
  m.distinct_.resize(d);
  m.level_gaps_.resize(d);
  tbb::parallel_for(std::uint32_t{0}, d, [&](std::uint32_t j) { m.sort_column(j, values.col(j).data()); });
  return m;
}

template <class T>
void Marginals::sort_column(std::uint32_t dimension, const T* values) {
  auto& order = order_[dimension];
  order.resize(points_);
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [values](std::uint32_t a, std::uint32_t b) { return values[a] < values[b]; });
  auto& column = sorted_[dimension];
  column.resize(points_);
  std::uint32_t distinct = 0;
  for (std::uint32_t i = 0; i < points_; ++i) {
    column[i] = static_cast<double>(values[order[i]]);
    distinct += (i == 0 || column[i] != column[i - 1]) ? 1 : 0;
  }
  distinct_[dimension] = distinct;
  level_gaps_[dimension] = grid_of_sorted(column).gap;
  auto& ties = ties_[dimension];
  ties.resize(points_);
  for (std::uint32_t first = 0; first < points_;) {
    std::uint32_t last = first + 1;
    while (last < points_ && column[last] == column[first]) ++last;
    for (std::uint32_t i = first; i < last; ++i) ties[order[i]] = last - first;
    first = last;
  }
}

std::pair<std::uint32_t, std::uint32_t> Marginals::range(std::uint32_t dimension, double lo, double hi) const {
  const auto& column = sorted_[dimension];
  const auto first = std::lower_bound(column.begin(), column.end(), lo);
  const auto last = std::upper_bound(first, column.end(), hi);
  return {static_cast<std::uint32_t>(first - column.begin()), static_cast<std::uint32_t>(last - column.begin())};
}

std::uint32_t Marginals::count(std::uint32_t dimension, double lo, double hi) const {
  const auto [first, last] = range(dimension, lo, hi);
  return last - first;
}

double Marginals::mass(std::uint32_t dimension, double lo, double hi) const {
  return static_cast<double>(count(dimension, lo, hi)) / static_cast<double>(points_);
}

template Marginals Marginals::of(const ColumnMatrix<float>&);
template Marginals Marginals::of(const ColumnMatrix<double>&);

}  // namespace subscale::significance
