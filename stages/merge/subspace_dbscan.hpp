#pragma once
// DBSCAN on the points P_S of one subspace S, coordinates restricted to S.
//
// Conventions (scikit-learn's DBSCAN, which the original pipeline used for this step):
// - q is a neighbour of p when the Euclidean distance in S is <= epsilon, tested as
//   sum over S's dimensions, in ascending order, of (x_p - x_q)^2 <= epsilon^2 in double.
// - p is a core point when it has at least min_points neighbours, p itself included.
// - Core points within epsilon of each other are in the same cluster (transitively); these
//   clusters of core points are exactly scikit-learn's.
// - Border rule (made deterministic here; scikit-learn gives a border point to whichever
//   cluster reaches it first): a non-core point with at least one core neighbour joins the
//   cluster of its core neighbour with the smallest point id.
// - Points with no core neighbour are noise and are dropped.
// Points at one place (coincident_points.hpp) are compared once, weighted by their number: the
// same clusters, and on integer levels a fraction of the distance computations.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::merge {

struct SubspaceDbscanCounters {
  std::uint64_t distance_computations = 0;
  std::uint64_t core_points = 0;
  std::uint64_t border_points = 0;
  std::uint64_t noise_points = 0;
  std::uint64_t clusters_left_out = 0;  // found, but refused by the caller's ClusterFilter
};

struct SubspaceDbscanResult {
  std::vector<std::vector<std::uint32_t>> clusters;  // point ids, each sorted; clusters by first id
  SubspaceDbscanCounters counters;
};

// Which of a subspace's clusters (their sorted point ids) are built; the others are only counted.
using ClusterFilter = std::function<bool(std::span<const std::uint32_t>)>;

// The clusters' lists, built from each position's place (`place_of_position`, a position of
// `points`), each place's cluster (`cluster_of_place`, kNoCluster for noise) and the clusters'
// sizes: all of them, or those `filter` (where given) accepts.
inline constexpr std::uint32_t kNoCluster = 0xffffffffu;
void build_clusters(std::span<const std::uint32_t> points, std::span<const std::uint32_t> place_of_position,
                    std::span<const std::uint32_t> cluster_of_place, std::span<const std::size_t> sizes,
                    const ClusterFilter* filter, SubspaceDbscanResult& result);

// `subspace.points` must be sorted ascending and index rows of `values`; `subspace.dimensions`
// index its columns (merge_subspaces checks both). With `parallel`, the work inside this one
// subspace is spread over oneTBB's threads; the result does not depend on it.
// T is the held precision (see merge_subspaces for what the distance test computes in it).
// With `filter`, only the clusters it accepts are built (counters.clusters_left_out counts the rest).
template <class T>
SubspaceDbscanResult dbscan_in_subspace(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, double epsilon,
                                        std::size_t min_points, bool parallel, const ClusterFilter* filter = nullptr);

}  // namespace subscale::merge
