#pragma once
// One hidden cluster, one reported cluster.
//
// After consolidation a hidden cluster can still come out as a few significant pieces: the same
// points in its subspace plus one dimension where a part of them happens to share a common value,
// or a part of its points in a part of its subspace. Each piece is significant (it is a part of a
// real cluster), but it says nothing the strongest piece does not. Taken strongest first, a cluster
// is dropped when a kept cluster holds at least `overlap` of its points and at least `overlap` of
// its dimensions. Clusters that share points but lie in mostly different subspaces (a point can
// belong to one cluster in some dimensions and to another in others) are both kept.
#include <cstdint>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::significance {

// `clusters` strongest first; returns the indices kept, in that order. overlap in (0, 1].
std::vector<std::size_t> distinct_clusters(const std::vector<SubspaceCluster>& clusters, double overlap);

}  // namespace subscale::significance
