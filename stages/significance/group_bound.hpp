#pragma once
// Before merge, per group of a subspace's points: can any cluster of merge in the group pass?
//
// The subspace bound (subspace_bound.hpp) bounds every cluster of P_S by |P_S| and by the tie
// floors of all of P_S. A DBSCAN cluster lies within one group of merge::point_groups (a union of
// connected components of merge's neighbour graph, cut at every gap wider than merge.epsilon in any
// dimension of S), so the same argument holds per group G: a cluster of G has at most |G| points,
// and its box holds each member's whole tie group, so f_j >= t_j(G), the smallest mass of a single
// value among G's points. And a cluster gathers in dimension j only where its box holds at most
// background_share of the points (keep_significant.hpp); where t_j(G) is more than that, none of
// G's clusters gathers in j, and one gathering in fewer than two dimensions fails. A group whose
// best case fails holds no cluster that could pass; merge then reads only the points of the groups
// that can (and skips the subspace when none can). Merge on those points finds exactly the
// clusters it finds in those groups on all of P_S (point_groups.hpp), so every cluster that could
// pass is still found, the same.
//
// The groups are tested against the Bonferroni threshold only: with fdr the loosest threshold the
// step-up could reach depends on how many clusters merge makes, which is not known before it runs,
// so there the list is left as the subspace bound made it.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::significance {

struct GroupBoundCounts {
  std::uint64_t groups = 0;             // the groups the subspaces' points fell into
  std::uint64_t groups_kept = 0;        // of them, those where some cluster could pass
  std::uint64_t points_dropped = 0;     // points of the subspaces that merge no longer reads
  std::uint64_t subspaces_dropped = 0;  // subspaces left with no group that could pass
};

// Keeps, of every subspace in `subspaces`, only the points of its groups (at `merge_epsilon`) some
// cluster of at least `min_size` points of which could pass; drops the subspaces left with none.
// The order of the subspaces kept does not change; each one's points stay sorted.
template <class T>
GroupBoundCounts keep_passing_groups(const ColumnMatrix<T>& values, const Marginals& marginals,
                                     std::vector<SubspaceCluster>& subspaces, std::uint32_t min_size,
                                     double merge_epsilon, const TestParams& params);

}  // namespace subscale::significance
