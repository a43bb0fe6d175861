#include "stages/merge/level_grid.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "common/held_values.hpp"
#include "stages/merge/neighbour_test.hpp"
#include "stages/merge/serial_union_find.hpp"

namespace subscale::merge {
// Named, not anonymous: the unity build puts this file beside others with helpers of these names.
namespace level_grid {

constexpr std::uint32_t kNoPlace = std::numeric_limits<std::uint32_t>::max();

// Looked-at cells per place, on average, up to which the grid is cheaper than the cell index
// (a block of 5 x 5 levels).
constexpr double kMostCellsPerPlace = 25.0;

constexpr std::uint64_t kPairPointsPerRowRead = 4;

}  // namespace level_grid

template <class T>
std::optional<ColumnLevels<T>> column_levels(const ColumnMatrix<T>& values, std::uint32_t column, double epsilon,
                                             std::size_t max_levels) {
  const T* data = values.col(column).data();
  const auto rows = static_cast<std::size_t>(values.rows());
  std::unordered_set<T> distinct;
  for (std::size_t i = 0; i < rows; ++i) {
    distinct.insert(data[i] + T(0));  // -0 and +0 are one value: their differences are the same
    if (distinct.size() > max_levels) return std::nullopt;
  }
  ColumnLevels<T> out;
  out.values.assign(distinct.begin(), distinct.end());
  std::sort(out.values.begin(), out.values.end());
  out.level.resize(rows);
  for (std::size_t i = 0; i < rows; ++i)
    out.level[i] = static_cast<std::uint16_t>(std::lower_bound(out.values.begin(), out.values.end(), data[i] + T(0)) -
                                              out.values.begin());
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;
  // (a - b)^2 in T grows with the gap between the sorted levels (rounding is monotone), so the
  // levels a single term lets through are a contiguous run around each level.
  const auto within_one = [&](std::size_t a, std::size_t b) {
    const T diff = out.values[a] - out.values[b];
    return diff * diff <= limit;
  };
  const std::size_t levels = out.values.size();
  out.reach_low.resize(levels);
  out.reach_high.resize(levels);
  std::size_t low = 0, high = 0;
  for (std::size_t a = 0; a < levels; ++a) {
    while (!within_one(low, a)) ++low;
    high = std::max(high, a);
    while (high + 1 < levels && within_one(high + 1, a)) ++high;
    out.reach_low[a] = static_cast<std::uint16_t>(low);
    out.reach_high[a] = static_cast<std::uint16_t>(high);
  }
  double reached = 0;
  for (std::size_t i = 0; i < rows; ++i) reached += out.reach_high[out.level[i]] - out.reach_low[out.level[i]] + 1;
  out.mean_reach = rows ? reached / static_cast<double>(rows) : 0.0;
  return out;
}

template <class T>
std::vector<std::optional<ColumnLevels<T>>> levels_for_pairs(const ColumnMatrix<T>& values,
                                                             const std::vector<SubspaceCluster>& subspaces,
                                                             double epsilon) {
  std::vector<std::optional<ColumnLevels<T>>> levels(static_cast<std::size_t>(values.cols()));
  std::vector<std::uint8_t> needed(levels.size(), 0);
  std::uint64_t points_in_pairs = 0;
  for (const auto& subspace : subspaces) {
    if (subspace.dimensions.size() != 2) continue;
    for (const auto j : subspace.dimensions) needed[j] = 1;
    points_in_pairs += subspace.points.size();
  }
  std::vector<std::uint32_t> columns;
  for (std::uint32_t j = 0; j < needed.size(); ++j)
    if (needed[j]) columns.push_back(j);
  // Reading a column costs a pass over every row; the grid saves a few operations per point of a
  // pair, so it pays where the pairs hold several times the rows of the columns they read.
  if (points_in_pairs < level_grid::kPairPointsPerRowRead * static_cast<std::uint64_t>(values.rows()) * columns.size())
    return levels;
  tbb::parallel_for(std::size_t{0}, columns.size(),
                    [&](std::size_t c) { levels[columns[c]] = column_levels(values, columns[c], epsilon); });
  return levels;
}

template <class T>
bool level_grid_serves(const ColumnLevels<T>& first, const ColumnLevels<T>& second) {
  return first.values.size() * second.values.size() <= kMaxGridCells &&
         first.mean_reach * second.mean_reach <= level_grid::kMostCellsPerPlace;
}

template <class T>
SubspaceDbscanResult dbscan_on_level_grid(const ColumnLevels<T>& first, const ColumnLevels<T>& second,
                                          const SubspaceCluster& subspace, double epsilon, std::size_t min_points,
                                          LevelGridScratch& scratch, const ClusterFilter* filter) {
  SubspaceDbscanResult result;
  const std::size_t count = subspace.points.size();
  if (count == 0) return result;
  const std::size_t columns = second.values.size();
  auto& cell_place = scratch.place_of_cell;  // place + 1, 0 for none
  if (cell_place.size() < first.values.size() * columns) cell_place.resize(first.values.size() * columns, 0);

  // Places in order of their first point, as coincident_points numbers them; each at its pair of
  // levels.
  struct Place {
    std::uint32_t a, b;
  };
  std::vector<std::uint32_t> place(count), weight;
  std::vector<Place> at;
  for (std::size_t p = 0; p < count; ++p) {
    const std::uint32_t id = subspace.points[p];
    const std::uint32_t a = first.level[id], b = second.level[id];
    std::uint32_t& slot = cell_place[static_cast<std::size_t>(a) * columns + b];
    if (slot == 0) {
      at.push_back({a, b});
      weight.push_back(0);
      slot = static_cast<std::uint32_t>(at.size());
    }
    place[p] = slot - 1;
    ++weight[place[p]];
  }
  const std::size_t places = at.size();
  const T held = held_epsilon<T>(epsilon);
  const T limit = held * held;
  std::uint64_t distances = 0;
  // Calls visit(r2, within) for every other place in r's block of levels until it returns false;
  // `within` tests the pair by merge's definition.
  const auto for_each_near = [&](std::uint32_t r, auto&& visit) {
    const auto [a, b] = at[r];
    const T here[2] = {first.values[a], second.values[b]};
    for (std::uint32_t a2 = first.reach_low[a]; a2 <= first.reach_high[a]; ++a2) {
      const std::uint32_t* row = cell_place.data() + static_cast<std::size_t>(a2) * columns;
      for (std::uint32_t b2 = second.reach_low[b]; b2 <= second.reach_high[b]; ++b2) {
        const std::uint32_t other = row[b2];
        if (other == 0 || other - 1 == r) continue;
        const auto is_near = [&] {
          ++distances;
          const T there[2] = {first.values[a2], second.values[b2]};
          return within(here, there, 2, limit);
        };
        if (!visit(other - 1, is_near)) return;
      }
    }
  };

  // Core places: a place counts its own points and those of every place within epsilon.
  std::vector<std::uint8_t> core(places, 0);
  for (std::uint32_t r = 0; r < places; ++r) {
    std::size_t neighbours = weight[r];
    if (neighbours < min_points)
      for_each_near(r, [&](std::uint32_t r2, auto&& is_near) {
        if (is_near()) neighbours += weight[r2];
        return neighbours < min_points;
      });
    core[r] = neighbours >= min_points ? 1 : 0;
  }
  // Core places within epsilon join; a border place goes with its core neighbour of the smallest
  // first point, which is the smallest place number.
  SerialUnionFind sets(places);
  std::vector<std::uint32_t> attach(places, level_grid::kNoPlace);
  for (std::uint32_t r = 0; r < places; ++r) {
    if (core[r]) {
      for_each_near(r, [&](std::uint32_t r2, auto&& is_near) {
        if (r2 > r && core[r2] && sets.find(r) != sets.find(r2) && is_near()) sets.unite(r, r2);
        return true;
      });
    } else {
      std::uint32_t best = level_grid::kNoPlace;
      for_each_near(r, [&](std::uint32_t r2, auto&& is_near) {
        if (core[r2] && r2 < best && is_near()) best = r2;
        return true;
      });
      attach[r] = best;
    }
  }
  for (const Place& cell : at) cell_place[static_cast<std::size_t>(cell.a) * columns + cell.b] = 0;
  result.counters.distance_computations = distances;

  // Clusters numbered as their first place comes, as dbscan_in_subspace numbers them.
  std::vector<std::uint32_t> cluster_of_root(places, level_grid::kNoPlace),
      cluster_of_place(places, level_grid::kNoPlace);
  std::vector<std::size_t> sizes;
  for (std::uint32_t r = 0; r < places; ++r) {
    std::uint32_t anchor = level_grid::kNoPlace;
    if (core[r]) {
      anchor = r;
      result.counters.core_points += weight[r];
    } else if (attach[r] != level_grid::kNoPlace) {
      anchor = attach[r];
      result.counters.border_points += weight[r];
    } else {
      result.counters.noise_points += weight[r];
      continue;
    }
    const std::uint32_t root = sets.find(anchor);
    if (cluster_of_root[root] == level_grid::kNoPlace) {
      cluster_of_root[root] = static_cast<std::uint32_t>(sizes.size());
      sizes.push_back(0);
    }
    cluster_of_place[r] = cluster_of_root[root];
    sizes[cluster_of_place[r]] += weight[r];
  }
  build_clusters(subspace.points, place, cluster_of_place, sizes, filter, result);
  return result;
}

template std::optional<ColumnLevels<float>> column_levels(const Matrix32&, std::uint32_t, double, std::size_t);
template std::optional<ColumnLevels<double>> column_levels(const Matrix&, std::uint32_t, double, std::size_t);
template std::vector<std::optional<ColumnLevels<float>>> levels_for_pairs(const Matrix32&,
                                                                          const std::vector<SubspaceCluster>&, double);
template std::vector<std::optional<ColumnLevels<double>>> levels_for_pairs(const Matrix&,
                                                                           const std::vector<SubspaceCluster>&, double);
template bool level_grid_serves(const ColumnLevels<float>&, const ColumnLevels<float>&);
template bool level_grid_serves(const ColumnLevels<double>&, const ColumnLevels<double>&);
template SubspaceDbscanResult dbscan_on_level_grid(const ColumnLevels<float>&, const ColumnLevels<float>&,
                                                   const SubspaceCluster&, double, std::size_t, LevelGridScratch&,
                                                   const ClusterFilter*);
template SubspaceDbscanResult dbscan_on_level_grid(const ColumnLevels<double>&, const ColumnLevels<double>&,
                                                   const SubspaceCluster&, double, std::size_t, LevelGridScratch&,
                                                   const ClusterFilter*);

}  // namespace subscale::merge
