#pragma once
// Stage merge (docs/method.md §9): DBSCAN on the points of every subspace the core found.
//
// Input: the normalised data matrix and the subspaces stage's list of (S, P_S).
// For every S: DBSCAN on P_S with coordinates restricted to S, Euclidean distance, neighbours at
// distance <= epsilon, min_points counting the point itself (scikit-learn's conventions; see
// subspace_dbscan.hpp for the exact tests and the border-point rule: a border point joins the
// cluster of its core neighbour with the smallest point id). Noise is dropped.
// Output: the clusters (S, sorted point ids), sorted by dimensions then points, their sizes and
// counters for the run summary. The output does not depend on the number of threads.
//
// Work: oneTBB spreads the subspaces over threads; a subspace with at least
// MergeParams::parallel_points points is also split inside. Neighbour queries use a grid over up
// to three dimensions of S (cell_index.hpp), so most pairs of far-apart points are never compared.
//
// A caller that will look at only some of the clusters passes a ClusterSieve: every cluster is
// found and counted, and those the sieve sets aside are never assembled into the output (on
// tie-heavy data merge finds tens of millions of pairs and triples of points that no test can keep,
// and assembling them costs more than finding them).
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/stage_progress.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/merge/subspace_dbscan.hpp"

namespace subscale::merge {

struct MergeParams {
  double epsilon = 0.0;                // merge.epsilon: neighbours at Euclidean distance <= epsilon
  std::size_t min_points = 0;          // merge.min_points: neighbours (itself included) a core point needs
  std::size_t parallel_points = 4096;  // subspaces this large are split across threads too
};

struct MergeStats {
  std::uint64_t subspaces = 0;              // subspaces clustered
  std::uint64_t points_visited = 0;         // sum of |P_S|
  std::uint64_t distance_computations = 0;  // pairs whose distance in S was computed
  std::uint64_t clusters = 0;               // clusters found
  std::uint64_t clusters_set_aside = 0;     // of them, those a ClusterSieve did not keep
  std::uint64_t core_points = 0;            // these three sum to points_visited
  std::uint64_t border_points = 0;
  std::uint64_t noise_points = 0;
};

// Which of merge's clusters go into its output.
class ClusterSieve {
 public:
  virtual ~ClusterSieve() = default;
  // Called once before any keep(), with the number of clusters merge found in all (in a cluster
  // run: on every process, the sum over the processes).
  virtual void prepare(std::uint64_t found) = 0;
  // Whether the cluster of `points` (sorted ids) in subspace `dimensions` is kept. Called from
  // several threads at once.
  virtual bool keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const = 0;
  // Before prepare(), while merge is still finding clusters: false only where keep() will be false
  // once prepared with any number found of at least `found_at_least` (merge then never builds the
  // cluster's list). Called from several threads at once.
  virtual bool may_keep(std::span<const std::uint32_t> /*dimensions*/, std::span<const std::uint32_t> /*points*/,
                        std::uint64_t /*found_at_least*/) const {
    return true;
  }
};

// Every subspace's DBSCAN clusters, before they are sieved and assembled.
struct FoundClusters {
  std::vector<SubspaceDbscanResult> per_subspace;  // per_subspace[s] belongs to the input's subspace s
  MergeStats stats;                                // clusters_set_aside: those not built
};

struct MergeResult {
  std::vector<SubspaceCluster> clusters;  // sorted by dimensions, then points (those kept)
  std::vector<std::uint64_t> sizes;       // sizes[i] == clusters[i].points.size()
  MergeStats stats;
};

// Throws UsageError for a bad epsilon or min_points (naming merge.epsilon / merge.min_points) and
// InputError for a subspace whose dimensions or points are out of range or not sorted.
// T is the held precision. The distance test runs in it: differences, their squares and the sum
// in T, against epsilon rounded once to T (held_epsilon) and squared in T. Merge runs on the CPU
// only, so this is the one definition of a neighbour in either precision.
// `progress` counts the subspaces' points as they are clustered (one phase, sum of |P_S|).
// With a `sieve`, it is prepared with the number of clusters found and the output holds those it
// keeps (MergeStats::clusters counts all, clusters_set_aside the rest).
template <class T>
MergeResult merge_subspaces(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces,
                            const MergeParams& params, const StageProgress& progress = {},
                            ClusterSieve* sieve = nullptr);

// merge_subspaces in two steps, for a cluster run that sums the number found over its processes
// before it sieves: find (the checks and the DBSCANs), then assemble `found` (of `subspaces`, the
// same list) into the sorted output, keeping what `sieve` keeps once prepared with `found_in_all`.
// With `sieve`, clusters its may_keep() refuses, given the number found so far on this process,
// are counted (MergeStats::clusters_set_aside) but not built.
template <class T>
FoundClusters find_clusters(const ColumnMatrix<T>& values, const std::vector<SubspaceCluster>& subspaces,
                            const MergeParams& params, const StageProgress& progress = {},
                            const ClusterSieve* sieve = nullptr);
MergeResult assemble_clusters(FoundClusters found, const std::vector<SubspaceCluster>& subspaces,
                              ClusterSieve* sieve = nullptr, std::uint64_t found_in_all = 0);

}  // namespace subscale::merge
