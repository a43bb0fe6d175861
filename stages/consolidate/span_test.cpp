#include "stages/consolidate/span_test.hpp"

#include <algorithm>
#include <cmath>

namespace subscale::consolidate {

Interval central_span(const Matrix& values, std::span<const std::uint32_t> points, std::uint32_t dimension,
                      double fraction, std::vector<double>& scratch) {
  if (points.empty()) return {};
  scratch.resize(points.size());
  const auto column = values.col(static_cast<Eigen::Index>(dimension));
  for (std::size_t i = 0; i < points.size(); ++i) scratch[i] = column(static_cast<Eigen::Index>(points[i]));
  const double last = static_cast<double>(points.size() - 1);
  const auto low_at = static_cast<std::size_t>(std::floor((1.0 - fraction) / 2.0 * last));
  const auto high_at = std::min(points.size() - 1, static_cast<std::size_t>(std::ceil((1.0 + fraction) / 2.0 * last)));
  // Order statistics are values, not positions: any selection algorithm gives the same ones.
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(high_at), scratch.end());
  const double high = scratch[high_at];
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(low_at),
                   scratch.begin() + static_cast<std::ptrdiff_t>(high_at));
  return {scratch[low_at], high};
}

std::vector<Interval> central_spans(const Matrix& values, std::span<const std::uint32_t> points,
                                    std::span<const std::uint32_t> dimensions, double fraction,
                                    std::vector<double>& scratch) {
  std::vector<Interval> spans;
  spans.reserve(dimensions.size());
  for (std::uint32_t k : dimensions) spans.push_back(central_span(values, points, k, fraction, scratch));
  return spans;
}

std::vector<std::uint32_t> points_in_box(const Matrix& values, std::span<const std::uint32_t> points,
                                         std::span<const std::uint32_t> dimensions, std::span<const Interval> spans) {
  std::vector<Interval> box;
  box.reserve(dimensions.size());
  for (const Interval& span : spans) {
    const double half = span.width() / 2.0;
    box.push_back({span.low - half, span.high + half});
  }
  std::vector<std::uint32_t> inside;
  inside.reserve(points.size());
  for (std::uint32_t p : points) {
    bool in = true;
    for (std::size_t t = 0; t < dimensions.size() && in; ++t) {
      const double x = values(static_cast<Eigen::Index>(p), static_cast<Eigen::Index>(dimensions[t]));
      in = x >= box[t].low && x <= box[t].high;
    }
    if (in) inside.push_back(p);
  }
  return inside;
}

}  // namespace subscale::consolidate
