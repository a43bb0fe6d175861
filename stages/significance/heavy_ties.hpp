#pragma once
// Keeps the background of a dimension out of the core's work.
//
// A value that more than `max_mass` of all points share (a pixel that is 0 in most images, a
// constant feature) is the dimension's background, not a region: a box containing it has
// f_j > max_mass in that dimension, so the dimension adds little evidence to any cluster under the
// significance test, while every set of min_points points of the tie group is a dense unit, and
// such groups that co-occur across dimensions make the core's work explode (scikit-learn's digits:
// 8 T dense units at epsilon 0.001). In the copy the core reads, the points of such a group get
// distinct values 2 epsilon apart beyond the column's largest value, so no unit of theirs is dense
// in that dimension; merge, the test and consolidation read the real values (consolidation's
// extension can still add the dimension to a cluster found from its other dimensions).
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::significance {

struct HeavyTies {
  std::uint32_t dimensions = 0;  // dimensions with at least one heavy group
  std::uint64_t points = 0;      // (point, dimension) pairs moved out of the core's reach
};

// Changes `values` in place (the caller passes the core's copy). max_mass in (0, 1].
template <class T>
HeavyTies spread_heavy_ties(ColumnMatrix<T>& values, double max_mass, double epsilon);

// Whether any dimension has a value shared by more than max_mass of the points (no copy needed
// when none does).
template <class T>
bool has_heavy_ties(const ColumnMatrix<T>& values, double max_mass);

}  // namespace subscale::significance
