#include "stages/merge/merge.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "stages/merge/subspace_dbscan.hpp"

namespace subscale::merge {
namespace {

void check_params(const MergeParams& params) {
  if (!(params.epsilon > 0.0) || !std::isfinite(params.epsilon)) {
    const std::string value = std::to_string(params.epsilon);
    throw ParameterErrorOf<UsageError>(Parameter::merge_epsilon, value,
                                       "must be a finite number > 0 (got " + value + ")");
  }
  if (params.min_points < 1) {
    const std::string value = std::to_string(params.min_points);
    throw ParameterErrorOf<UsageError>(Parameter::merge_min_points, value,
                                       "must be at least 1 (it counts the point itself); got " + value);
  }
}

// The sorted, in-range contract of the input, checked once before any work starts so that a
// bad list is refused with a message naming the first bad subspace.
template <class T>
void check_subspace(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, std::size_t which) {
  const auto where = [&] { return "merge: subspace #" + std::to_string(which) + " of the input"; };
  const auto rows = static_cast<std::size_t>(values.rows());
  const auto cols = static_cast<std::size_t>(values.cols());
  for (std::size_t i = 0; i < subspace.dimensions.size(); ++i) {
    if (subspace.dimensions[i] >= cols) {
      throw InputError(where() + " names dimension " + std::to_string(subspace.dimensions[i]) + ", but the data has " +
                       std::to_string(cols) + " dimensions");
    }
    if (i > 0 && subspace.dimensions[i] <= subspace.dimensions[i - 1]) {
      throw InputError(where() + " has dimensions that are not sorted ascending without repeats (at position " +
                       std::to_string(i) + ")");
    }
  }
  for (std::size_t i = 0; i < subspace.points.size(); ++i) {
    if (subspace.points[i] >= rows) {
      throw InputError(where() + " names point " + std::to_string(subspace.points[i]) + ", but the data has " +
                       std::to_string(rows) + " points");
    }
    if (i > 0 && subspace.points[i] <= subspace.points[i - 1]) {
      throw InputError(where() + " has points that are not sorted ascending without repeats (at position " +
                       std::to_string(i) + ")");
    }
  }
}

}  // namespace

template <class T>
MergeResult merge_subspaces(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces,
                            const MergeParams& params, const StageProgress& progress) {
  check_params(params);
  std::uint64_t points = 0;
  for (std::size_t s = 0; s < subspaces.size(); ++s) check_subspace(values, subspaces[s], s);
  for (const auto& subspace : subspaces) points += subspace.points.size();
  progress.begin("", points, "points");

  std::vector<SubspaceDbscanResult> per_subspace(subspaces.size());
  // Grain 1: subspaces differ in size by orders of magnitude; work stealing evens it out.
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, subspaces.size(), 1), [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t s = range.begin(); s != range.end(); ++s) {
          const bool split = subspaces[s].points.size() >= params.parallel_points;
          per_subspace[s] = dbscan_in_subspace(values, subspaces[s], params.epsilon, params.min_points, split);
          progress.advance(subspaces[s].points.size());
        }
      });

  // Output order: by dimensions, then points. Clusters of one subspace share its dimensions and
  // are already sorted by points, so sorting the subspaces is enough.
  std::vector<std::size_t> order(subspaces.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return subspaces[a].dimensions != subspaces[b].dimensions ? subspaces[a].dimensions < subspaces[b].dimensions
                                                              : a < b;
  });

  MergeResult result;
  MergeStats& stats = result.stats;
  stats.subspaces = subspaces.size();
  for (std::size_t s : order) {
    SubspaceDbscanResult& found = per_subspace[s];
    stats.points_visited += subspaces[s].points.size();
    stats.distance_computations += found.counters.distance_computations;
    stats.core_points += found.counters.core_points;
    stats.border_points += found.counters.border_points;
    stats.noise_points += found.counters.noise_points;
    for (auto& points : found.clusters) result.clusters.push_back({subspaces[s].dimensions, std::move(points)});
  }
  // Only when the input names a subspace twice can clusters of different subspaces interleave.
  const auto before = [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
  };
  if (!std::is_sorted(result.clusters.begin(), result.clusters.end(), before)) {
    std::sort(result.clusters.begin(), result.clusters.end(), before);
  }
  stats.clusters = result.clusters.size();
  result.sizes.reserve(result.clusters.size());
  for (const auto& cluster : result.clusters) result.sizes.push_back(cluster.points.size());
  return result;
}

template MergeResult merge_subspaces(const Matrix32&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&);
template MergeResult merge_subspaces(const Matrix&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&);

}  // namespace subscale::merge
