#pragma once
// The data's empirical marginals: every dimension's values, sorted, so that the mass of an
// interval (the fraction of all points whose value in that dimension lies in it) is two binary
// searches. The null model of the significance test is built from them: dimensions independent,
// each distributed as the data's own column. Ties and integer levels are therefore priced in: an
// interval around the most common value of a feature has a large mass, however narrow it is.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::significance {

class Marginals {
 public:
  Marginals() = default;
  // Sorts every column (in parallel over dimensions). T is the held precision; values are kept as
  // double, which holds every float exactly, so masses are the same in either precision.
  template <class T>
  static Marginals of(const ColumnMatrix<T>& values);

  std::uint32_t points() const noexcept { return points_; }
  std::uint32_t dimensions() const noexcept { return static_cast<std::uint32_t>(sorted_.size()); }
  // Points whose value in `dimension` lies in [lo, hi].
  std::uint32_t count(std::uint32_t dimension, double lo, double hi) const;
  // count / points, in (0, 1] for an interval that holds a data value.
  double mass(std::uint32_t dimension, double lo, double hi) const;
  // The number of distinct values in `dimension` (u_j): an interval with data values as its ends
  // is one of u_j (u_j + 1) / 2.
  std::uint32_t distinct(std::uint32_t dimension) const { return distinct_[dimension]; }
  std::span<const double> sorted(std::uint32_t dimension) const { return sorted_[dimension]; }
  // Point ids in the order of sorted(dimension) (ties by id).
  std::span<const std::uint32_t> order(std::uint32_t dimension) const { return order_[dimension]; }
  // The points that share point p's value in `dimension` (p included).
  std::uint32_t tie_count(std::uint32_t dimension, std::uint32_t point) const { return ties_[dimension][point]; }
  // The gap between the levels of `dimension` where its values lie on a grid of integer levels
  // (resolution.hpp), else 0.
  double level_gap(std::uint32_t dimension) const { return level_gaps_[dimension]; }
  // Sorted positions [first, last) of the values in [lo, hi].
  std::pair<std::uint32_t, std::uint32_t> range(std::uint32_t dimension, double lo, double hi) const;

 private:
  template <class T>
  void sort_column(std::uint32_t dimension, const T* values);

  std::uint32_t points_ = 0;
  std::vector<std::vector<double>> sorted_;
  std::vector<std::vector<std::uint32_t>> order_;
  std::vector<std::vector<std::uint32_t>> ties_;  // ties_[j][p]: points with p's value in dimension j
  std::vector<std::uint32_t> distinct_;
  std::vector<double> level_gaps_;
};

}  // namespace subscale::significance
