#pragma once
// DBSCAN in a subspace of two dimensions whose columns hold few distinct values (integer levels,
// ratings, counts): the same clusters as dbscan_in_subspace, found on a grid of the two columns'
// levels instead of through a hash table of places and a sorted cell index.
//
// Why: on tie-heavy data the pooling of the significance test (docs/significance.md) sends every
// pair of dimensions to merge, 124,750 of them for 500 columns, each with most of the points.
// There a place (coincident_points.hpp) is a cell of the grid of levels, found by indexing an
// array, and the places within epsilon of one are the occupied cells of a small block of levels
// around it: the levels within epsilon of each of its two values, which are contiguous because
// a single term of the distance test grows with the gap between the levels. Every pair of places
// is then decided by merge's own test (neighbour_test.hpp) on their coordinates, so core points,
// clusters and borders are exactly those of dbscan_in_subspace; only which pairs are looked at
// differs.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/merge/subspace_dbscan.hpp"

namespace subscale::merge {

// The most levels a column may have for the grid (its level numbers fit 16 bits, and a grid of
// two such columns fits kMaxGridCells).
inline constexpr std::size_t kMaxLevels = 2048;
inline constexpr std::size_t kMaxGridCells = std::size_t{1} << 22;

// One column's distinct values and, for merge's radius, the levels each one reaches: level b is
// reached from level a when the single term (a - b)^2 of the distance test, in T, is within the
// held radius squared; those b are reach_low[a] .. reach_high[a].
template <class T>
struct ColumnLevels {
  std::vector<T> values;                  // distinct, ascending (-0 and +0 are one value)
  std::vector<std::uint16_t> level;       // per row of the data: its value's index in `values`
  std::vector<std::uint16_t> reach_low;   // per level
  std::vector<std::uint16_t> reach_high;  // per level
  double mean_reach = 0;                  // levels reached per point, on average over the rows
};

// The levels of `column`, or nothing when it has more than `max_levels` distinct values.
template <class T>
std::optional<ColumnLevels<T>> column_levels(const ColumnMatrix<T>& values, std::uint32_t column, double epsilon,
                                             std::size_t max_levels = kMaxLevels);

// Whether the grid serves the subspace of these two columns: its cells fit kMaxGridCells and a
// place looks at few cells on average (a radius of many levels on a sparse grid looks at more
// empty cells than the cell index compares points).
template <class T>
bool level_grid_serves(const ColumnLevels<T>& first, const ColumnLevels<T>& second);

// The levels of every column of `subspaces`' two-dimensional subspaces, indexed by column (nothing
// for the other columns and those with too many values); all nothing when those subspaces hold
// too few points to pay for reading the columns.
template <class T>
std::vector<std::optional<ColumnLevels<T>>> levels_for_pairs(const ColumnMatrix<T>& values,
                                                             const std::vector<SubspaceCluster>& subspaces,
                                                             double epsilon);

// Reused by one thread across subspaces: one entry per cell of the largest grid seen, each 0
// between calls.
struct LevelGridScratch {
  std::vector<std::uint32_t> place_of_cell;
};

// dbscan_in_subspace for `subspace` (two dimensions, `first` the levels of the lower one, `second`
// of the other; points sorted ascending), the same result and counters but distance_computations,
// which count the pairs tested here; with `filter`, only the clusters it accepts are built.
template <class T>
SubspaceDbscanResult dbscan_on_level_grid(const ColumnLevels<T>& first, const ColumnLevels<T>& second,
                                          const SubspaceCluster& subspace, double epsilon, std::size_t min_points,
                                          LevelGridScratch& scratch, const ClusterFilter* filter = nullptr);

}  // namespace subscale::merge
