#pragma once
// The original SUBSCALE text form of a list of subspace clusters, one a line:
// {d1, d2}-[p1, p2, ...]. Written with std::to_chars into one buffer sized first, blocks of clusters in
// parallel, since runs on tie-heavy data have millions of subspaces and clusters.
#include <string>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale {

std::string subspace_clusters_text(const std::vector<SubspaceCluster>& clusters);

}  // namespace subscale
