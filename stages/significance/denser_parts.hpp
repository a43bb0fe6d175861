#pragma once
// A merge cluster that fails the test can hold a cluster that would pass, chained to the chance
// points around it. Where the core's units cover most of a subspace's background (min_points 2 on
// uniform data does: a pair of chance neighbours in two dimensions is common), merge's DBSCAN at
// min_points 2 links the background into one cluster spanning the subspace, and the planted
// cluster inside it is lost: 200 points in a 0.05 x 0.05 square among 10,000 uniform points in 20
// dimensions come out of merge as part of a 6,000-point cluster covering the whole square [0, 1]^2.
//
// So a failing cluster of at least kSplitPoints points is clustered again inside its own points,
// in its subspace, at the same epsilon and twice the min_points, and each part that comes out is
// split the same way, doubling min_points each time (up to kMaxSplitMinPoints): a tree of ever
// denser parts. The parts chosen are those of the tree's best cut (the excess-of-mass choice of
// HDBSCAN, with the test's score as a part's worth): a part that passes is chosen where its score
// is at least the sum of the best choices inside it, so a part holding two clusters gives way to
// the two, and a chance clump inside a cluster does not replace it. A failing cluster's neighbours
// are searched once and kept for its whole tree (merge/neighbour_graph.hpp) where they fit 2^24
// edges; the parts are the same either way.
//
// The test stays valid: a part's box is a box of its subspace with data values at its ends, which
// the search correction counts (docs/significance.md §3). It runs with significance on and
// `significance.denser_parts: true` (the default). The parts join the consolidated clusters, not
// merge's: as pieces for consolidation they would link its joins into chains (on pendigits 346
// parts made its 13 clusters 4).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::significance {

inline constexpr std::size_t kSplitPoints = 32;
inline constexpr std::size_t kMaxSplitMinPoints = 256;

struct DenserParts {
  std::vector<SubspaceCluster> parts;  // by the cluster they come from, then by first point
  std::size_t clusters_split = 0;      // failing clusters that gave at least one part
};

// The chosen parts of every cluster of `clusters` with at least kSplitPoints points that fails the
// Bonferroni test at params.alpha (a cluster gathering in fewer than two dimensions fails), split
// at `epsilon` from min_points 2 x `min_points` up. The result does not depend on the number of
// threads. Clusters' dimensions and points sorted and in range (callers check).
// Whether a part of `points` points or fewer (and `min_points` or more) in `dimensions` could pass
// `params`, by its size alone (subspace_bound.hpp without tie floors): most chance clusters of
// tie-heavy data cannot, and then neither can any part of them.
bool part_can_pass(const Marginals& marginals, std::span<const std::uint32_t> dimensions, std::size_t points,
                   std::size_t min_points, const TestParams& params);

template <class T>
DenserParts denser_parts(const ColumnMatrix<T>& values, const Marginals& marginals,
                         const std::vector<SubspaceCluster>& clusters, double epsilon, std::size_t min_points,
                         const TestParams& params);

}  // namespace subscale::significance
