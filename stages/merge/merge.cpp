#include "stages/merge/merge.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "stages/merge/level_grid.hpp"

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

// Every subspace checked (on pooled tie-heavy data a hundred million points, a tenth of a second
// on one thread); a bad list is named as a serial check would name it, by its first bad subspace.
template <class T>
void check_subspaces(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces) {
  std::vector<char> bad(subspaces.size(), 0);
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t s) {
    try {
      check_subspace(values, subspaces[s], s);
    } catch (const InputError&) {
      bad[s] = 1;
    }
  });
  const auto first = static_cast<std::size_t>(std::find(bad.begin(), bad.end(), 1) - bad.begin());
  if (first < subspaces.size()) check_subspace(values, subspaces[first], first);
}

}  // namespace

template <class T>
FoundClusters find_clusters(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces,
                            const MergeParams& params, const StageProgress& progress, const ClusterSieve* sieve) {
  check_params(params);
  std::uint64_t points = 0;
  check_subspaces(values, subspaces);
  for (const auto& subspace : subspaces) points += subspace.points.size();
  progress.begin("", points, "points");

  FoundClusters found;
  found.per_subspace.resize(subspaces.size());
  const auto levels = levels_for_pairs(values, subspaces, params.epsilon);
  tbb::enumerable_thread_specific<LevelGridScratch> scratch;
  // The clusters found so far by every thread: at least that many are found in all, which is what
  // the sieve's early answer needs. Which clusters are left out early then depends on the threads'
  // timing; what the sieve keeps in the end does not (may_keep never refuses what keep keeps).
  std::atomic<std::uint64_t> found_so_far{0};
  // Grain 1: subspaces differ in size by orders of magnitude; work stealing evens it out.
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, subspaces.size(), 1), [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t s = range.begin(); s != range.end(); ++s) {
          const SubspaceCluster& subspace = subspaces[s];
          const std::uint64_t at_least = found_so_far.load(std::memory_order_relaxed);
          const ClusterFilter filter = [&](std::span<const std::uint32_t> points) {
            return sieve->may_keep(subspace.dimensions, points, at_least);
          };
          const ClusterFilter* early = sieve ? &filter : nullptr;
          const auto* first = subspace.dimensions.size() == 2 ? &levels[subspace.dimensions[0]] : nullptr;
          const auto* second = first ? &levels[subspace.dimensions[1]] : nullptr;
          auto& one = found.per_subspace[s];
          if (first && *first && *second && level_grid_serves(**first, **second)) {
            one = dbscan_on_level_grid(**first, **second, subspace, params.epsilon, params.min_points, scratch.local(),
                                       early);
          } else {
            const bool split = subspace.points.size() >= params.parallel_points;
            one = dbscan_in_subspace(values, subspace, params.epsilon, params.min_points, split, early);
          }
          found_so_far.fetch_add(one.clusters.size() + one.counters.clusters_left_out, std::memory_order_relaxed);
          progress.advance(subspace.points.size());
        }
      });
  MergeStats& stats = found.stats;
  stats.subspaces = subspaces.size();
  for (std::size_t s = 0; s < subspaces.size(); ++s) {
    const SubspaceDbscanResult& one = found.per_subspace[s];
    stats.points_visited += subspaces[s].points.size();
    stats.distance_computations += one.counters.distance_computations;
    stats.core_points += one.counters.core_points;
    stats.border_points += one.counters.border_points;
    stats.noise_points += one.counters.noise_points;
    stats.clusters += one.clusters.size() + one.counters.clusters_left_out;
    stats.clusters_set_aside += one.counters.clusters_left_out;
  }
  return found;
}

MergeResult assemble_clusters(FoundClusters found, const std::vector<SubspaceCluster>& subspaces, ClusterSieve* sieve,
                              std::uint64_t found_in_all) {
  auto& per_subspace = found.per_subspace;
  MergeResult result;
  result.stats = found.stats;
  if (sieve) {
    sieve->prepare(found_in_all);
    std::vector<std::uint64_t> set_aside(per_subspace.size(), 0);
    tbb::parallel_for(std::size_t{0}, per_subspace.size(), [&](std::size_t s) {
      set_aside[s] = std::erase_if(per_subspace[s].clusters, [&](const std::vector<std::uint32_t>& points) {
        return !sieve->keep(subspaces[s].dimensions, points);
      });
    });
    for (const auto n : set_aside) result.stats.clusters_set_aside += n;
  }

  // Output order: by dimensions, then points. Clusters of one subspace share its dimensions and
  // are already sorted by points, so sorting the subspaces is enough.
  std::vector<std::size_t> order(subspaces.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return subspaces[a].dimensions != subspaces[b].dimensions ? subspaces[a].dimensions < subspaces[b].dimensions
                                                              : a < b;
  });
  result.clusters.reserve(result.stats.clusters - result.stats.clusters_set_aside);
  for (std::size_t s : order)
    for (auto& points : per_subspace[s].clusters)
      result.clusters.push_back({subspaces[s].dimensions, std::move(points)});
  // Only when the input names a subspace twice can clusters of different subspaces interleave.
  const auto before = [](const SubspaceCluster& a, const SubspaceCluster& b) {
    return a.dimensions != b.dimensions ? a.dimensions < b.dimensions : a.points < b.points;
  };
  if (!std::is_sorted(result.clusters.begin(), result.clusters.end(), before)) {
    std::sort(result.clusters.begin(), result.clusters.end(), before);
  }
  result.sizes.reserve(result.clusters.size());
  for (const auto& cluster : result.clusters) result.sizes.push_back(cluster.points.size());
  return result;
}

template <class T>
MergeResult merge_subspaces(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces,
                            const MergeParams& params, const StageProgress& progress, ClusterSieve* sieve) {
  FoundClusters found = find_clusters(values, subspaces, params, progress, sieve);
  const std::uint64_t count = found.stats.clusters;
  return assemble_clusters(std::move(found), subspaces, sieve, count);
}

template MergeResult merge_subspaces(const Matrix32&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&, ClusterSieve*);
template MergeResult merge_subspaces(const Matrix&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&, ClusterSieve*);
template FoundClusters find_clusters(const Matrix32&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&, const ClusterSieve*);
template FoundClusters find_clusters(const Matrix&, const std::vector<SubspaceCluster>&, const MergeParams&,
                                     const StageProgress&, const ClusterSieve*);

}  // namespace subscale::merge
