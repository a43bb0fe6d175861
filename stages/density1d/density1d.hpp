#pragma once
// Stage density1d (docs/method.md §3): 1-D DBSCAN on every dimension.
//
// For dimension j the points are sorted by (x_j, point id). N_j(p) = {q : |x_qj - x_pj| < eps}
// (strict, as the original SUBSCALE code), p included; p is core when |N_j(p)| >= m. Clusters are
// core points chained by gaps < eps plus the border points within eps of a core point; a border
// point reachable from two clusters joins the one whose core point precedes it in sorted order.
// The forward window of sorted position i is positions i .. h-1, h the first position with
// x[h] - x[i] >= eps.
#include <cstdint>
#include <ostream>
#include <vector>

#include "common/dataset.hpp"
#include "common/held_values.hpp"

namespace subscale {

struct DimensionDensity {
  std::vector<std::uint32_t> order;       // point ids sorted by (value, id)
  std::vector<std::uint32_t> window_end;  // per sorted position i: h (exclusive end of W(i))
  std::vector<std::int32_t> labels;       // per point id: 1-D cluster (0, 1, ...) or -1 = noise
  std::uint32_t clusters = 0;
  std::uint64_t core_points = 0;
};

struct Density1dParams {
  double epsilon = 0;
  std::uint32_t min_points = 0;
};

struct Density1dResult {
  std::vector<DimensionDensity> dimensions;
};

// Parallel over dimensions (oneTBB, in the caller's task arena). T is the held precision (float
// or double): spans are computed and compared with epsilon in T (common/held_values.hpp).
template <class T>
Density1dResult run_density1d(const ColumnMatrix<T>& values, const Density1dParams& params);

// One dimension; exposed for tests.
template <class T>
DimensionDensity density_of_dimension(const T* values, std::uint32_t n, const Density1dParams& params);

std::ostream& operator<<(std::ostream& out, const DimensionDensity& dimension);

}  // namespace subscale
