#pragma once
// The output of dense_units: every unit found in two or more dimensions, with the set D(U) of
// dimensions it was found in. Stored flat (one allocation per array, not per unit): unit u has
// points[u*m .. u*m+m) (ascending ids) and dimensions[dimension_begin[u] .. dimension_begin[u+1])
// (ascending).
#include <cstdint>
#include <ostream>
#include <span>
#include <vector>

namespace subscale {

struct MaximalUnits {
  std::uint32_t min_points = 0;
  std::vector<std::uint32_t> points;
  std::vector<std::uint64_t> dimension_begin{0};
  std::vector<std::uint32_t> dimensions;

  std::size_t size() const noexcept { return dimension_begin.size() - 1; }
  std::span<const std::uint32_t> unit_points(std::size_t u) const {
    return {points.data() + u * min_points, min_points};
  }
  std::span<const std::uint32_t> unit_dimensions(std::size_t u) const {
    return {dimensions.data() + dimension_begin[u], dimensions.data() + dimension_begin[u + 1]};
  }
  void add(std::span<const std::uint32_t> unit_points, std::span<const std::uint32_t> unit_dimensions) {
    points.insert(points.end(), unit_points.begin(), unit_points.end());
    dimensions.insert(dimensions.end(), unit_dimensions.begin(), unit_dimensions.end());
    dimension_begin.push_back(dimensions.size());
  }
  void append(const MaximalUnits& other) {
    points.insert(points.end(), other.points.begin(), other.points.end());
    const std::uint64_t base = dimensions.size();
    dimensions.insert(dimensions.end(), other.dimensions.begin(), other.dimensions.end());
    for (std::size_t u = 1; u < other.dimension_begin.size(); ++u)
      dimension_begin.push_back(base + other.dimension_begin[u]);
  }
};

inline std::ostream& operator<<(std::ostream& out, const MaximalUnits& units) {
  for (std::size_t u = 0; u < units.size(); ++u) {
    out << '{';
    const auto dims = units.unit_dimensions(u);
    for (std::size_t i = 0; i < dims.size(); ++i) out << (i ? ", " : "") << dims[i];
    out << "}-[";
    const auto points = units.unit_points(u);
    for (std::size_t i = 0; i < points.size(); ++i) out << (i ? ", " : "") << points[i];
    out << "]\n";
  }
  return out;
}

}  // namespace subscale
