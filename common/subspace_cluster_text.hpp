#pragma once
// The original SUBSCALE text form of a list of subspace clusters, one a line:
// {d1, d2}-[p1, p2, ...]. Runs on tie-heavy data have millions of subspaces and clusters, so the
// text is made by blocks: threads format blocks of clusters into reused buffers with
// std::to_chars while the blocks already formatted are handed on in order, so the whole text is
// never held at once and writing it overlaps formatting it.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale {

// Receives the text block by block, in order, from one thread at a time.
using TextSink = std::function<void(std::string_view)>;

void write_subspace_clusters_text(const std::vector<SubspaceCluster>& clusters, const TextSink& sink);
std::string subspace_clusters_text(const std::vector<SubspaceCluster>& clusters);

}  // namespace subscale
