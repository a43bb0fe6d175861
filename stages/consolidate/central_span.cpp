#include "stages/consolidate/central_span.hpp"

#include <algorithm>
#include <cmath>

namespace subscale::consolidate {

CentralPositions central_positions(std::size_t n, double fraction) {
  // The slack keeps a product that is a whole number on paper (0.05 * 20) from rounding to the
  // position next to it (0.9999999999999998 floors to 0).
  constexpr double slack = 1e-9;
  const double last = static_cast<double>(n - 1);
  const auto low = static_cast<std::size_t>(std::max(0.0, std::floor((1.0 - fraction) / 2.0 * last + slack)));
  const auto high = std::min(n - 1, static_cast<std::size_t>(std::ceil((1.0 + fraction) / 2.0 * last - slack)));
  return {std::min(low, high), high};
}

template <class T>
Interval<T> central_span_of_sorted(const std::vector<T>& sorted, double fraction) {
  if (sorted.empty()) return {};
  const CentralPositions at = central_positions(sorted.size(), fraction);
  return {sorted[at.low], sorted[at.high]};
}

template <class T>
Interval<T> central_span(const ColumnMatrix<T>& values, std::span<const std::uint32_t> points, std::uint32_t dimension,
                         double fraction, std::vector<T>& scratch) {
  if (points.empty()) return {};
  scratch.resize(points.size());
  const auto column = values.col(static_cast<Eigen::Index>(dimension));
  for (std::size_t i = 0; i < points.size(); ++i) scratch[i] = column(static_cast<Eigen::Index>(points[i]));
  const CentralPositions at = central_positions(points.size(), fraction);
  // Order statistics are values, not positions: any selection algorithm gives the same ones.
  const auto high = scratch.begin() + static_cast<std::ptrdiff_t>(at.high);
  std::nth_element(scratch.begin(), high, scratch.end());
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(at.low), high);
  return {scratch[at.low], *high};
}

template <class T>
std::vector<std::uint32_t> points_in_box(const ColumnMatrix<T>& values, std::span<const std::uint32_t> points,
                                         std::span<const std::uint32_t> dimensions,
                                         const std::vector<Interval<T>>& spans) {
  std::vector<Interval<T>> box;
  box.reserve(dimensions.size());
  for (const Interval<T>& span : spans) {
    const T half = span.width() / T(2);
    box.push_back({span.low - half, span.high + half});
  }
  std::vector<std::uint32_t> inside;
  inside.reserve(points.size());
  for (std::uint32_t p : points) {
    bool in = true;
    for (std::size_t t = 0; t < dimensions.size() && in; ++t) {
      const T x = values(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(dimensions[t]));
      in = x >= box[t].low && x <= box[t].high;
    }
    if (in) inside.push_back(p);
  }
  return inside;
}

#define SUBSCALE_SPAN_TEST_FOR(T)                                                                                  \
  template Interval<T> central_span_of_sorted(const std::vector<T>&, double);                                      \
  template Interval<T> central_span(const ColumnMatrix<T>&, std::span<const std::uint32_t>, std::uint32_t, double, \
                                    std::vector<T>&);                                                              \
  template std::vector<std::uint32_t> points_in_box(const ColumnMatrix<T>&, std::span<const std::uint32_t>,        \
                                                    std::span<const std::uint32_t>, const std::vector<Interval<T>>&);
SUBSCALE_SPAN_TEST_FOR(float)
SUBSCALE_SPAN_TEST_FOR(double)
#undef SUBSCALE_SPAN_TEST_FOR

}  // namespace subscale::consolidate
