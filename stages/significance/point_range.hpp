#pragma once
// [min, max] of some points' values in one dimension: a cluster's box, one side at a time. Kept
// as double, which holds every float exactly, so boxes are the same in either held precision.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>

#include "common/dataset.hpp"

namespace subscale::significance {

struct PointRange {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool holds(double x) const noexcept { return x >= lo && x <= hi; }
};

template <class T>
PointRange range_of(const ColumnMatrix<T>& values, std::span<const std::uint32_t> points, std::uint32_t dimension) {
  PointRange range;
  const T* column = values.col(dimension).data();
  for (const auto p : points) {
    const auto x = static_cast<double>(column[p]);
    range.lo = std::min(range.lo, x);
    range.hi = std::max(range.hi, x);
  }
  return range;
}

}  // namespace subscale::significance
