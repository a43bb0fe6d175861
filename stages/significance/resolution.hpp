#pragma once
// The resolution of columns on integer levels, and the per-column scale that lets epsilon serve them.
//
// A column whose distinct values lie on a grid (every gap between consecutive distinct values a
// whole number of level gaps g) holds no pair closer than g. The strict window |x - y| < epsilon
// then holds either one level (epsilon <= g) or whole neighbouring levels: a window slides over
// continuous values but sits on fixed bins over levels. A set of points with a range r < g shares
// one level only with probability 1 - r / g, per dimension, so where the continuous radius is a
// sizeable part of a gap, a cluster that spans a few levels breaks into its levels' cells in every
// dimension (a 200-level grid, epsilon one gap: E4SC 0.19). Where the gap is far wider than the
// radius (10 levels), one level is the right window: neighbouring levels would double its mass for
// almost nothing caught.
//
// So each grid column gets a reach in whole levels, from the continuous radius eps_c (epsilon's
// rule on the column spread evenly over its gaps, auto_parameters.hpp) and the gap g, r = eps_c / g:
// - the core links points `core` levels apart: 0 (one level) while r < 1/3, else floor(r) + 1, so
//   the window reaches past the continuous radius to the next whole level (the fixed bins then lose
//   no set of points closer than eps_c);
// - merge and the steps after it link points `search` = floor(merge radius / g) levels apart, the
//   continuous merge radius rounded down to whole levels: a wider reach on coarse levels chains the
//   background (each cell of a 10-level grid holds as many points as a cluster's neighbourhood).
// One global epsilon cannot give every column its reach, so the values are scaled per column: by
// epsilon / ((core + 1/2) g) in the copy the core reads and by merge_epsilon / ((search + 1/2) g)
// in the copy merge, consolidation and the test read. The half level keeps every pair of levels
// clear of the window's edge, whatever the rounding. The test is unchanged by the scaling: it reads
// only the order of the values in a column (marginals.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::significance {

struct ColumnGrid {
  double gap = 0;            // 0: not on a grid
  std::uint32_t levels = 0;  // of the grid from the smallest value to the largest
  bool on_grid() const noexcept { return gap > 0; }
};

// The grid of one column: its values on levels (max - min) / (levels - 1) apart, within a thousandth
// of a gap, with no more levels than points (a finer grid is continuous data for every purpose).
template <class T>
ColumnGrid grid_of(const T* column, std::size_t n);

template <class T>
std::vector<ColumnGrid> grids_of(const ColumnMatrix<T>& values);

// The same from a column's values sorted ascending (ties kept).
ColumnGrid grid_of_sorted(const std::vector<double>& sorted);

struct LevelReach {
  std::uint32_t dimension = 0;
  std::uint32_t core = 0;    // levels apart that are within epsilon in the core
  std::uint32_t search = 0;  // levels apart that are within merge.epsilon, in merge and after

  friend bool operator==(const LevelReach&, const LevelReach&) = default;
};

// The rule above; `radius` and `merge_radius` are the continuous ones (epsilon, merge.epsilon).
LevelReach reach_for(std::uint32_t dimension, double radius, double merge_radius, double gap);

// Per column: the factor of the core's copy and of the search's copy (1 where no reach is given).
struct ColumnScales {
  std::vector<double> core, search;
  bool any() const noexcept { return !core.empty(); }
};

// InputError for a reach whose dimension is out of range or whose column is not on a grid.
ColumnScales scales_for(const std::vector<LevelReach>& reaches, const std::vector<ColumnGrid>& grids, double epsilon,
                        double merge_epsilon);

template <class T>
ColumnMatrix<T> scaled(const ColumnMatrix<T>& values, const std::vector<double>& factors);

// A sorted column's points spread evenly over their level's gap, for epsilon's rule: the spans of
// w consecutive values are then those of the continuous values the levels round, not zero inside a
// level and a whole gap across one.
std::vector<double> spread_over_gap(const std::vector<double>& sorted, double gap);

// "one level" / "up to 2 levels apart"
std::string reach_text(std::uint32_t levels);

}  // namespace subscale::significance
