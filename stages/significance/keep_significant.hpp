#pragma once
// The significance test applied to whole lists: the subspaces before merge (can any of their
// clusters pass?), merge's clusters and the consolidated clusters (which pass, strongest first).
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/selection.hpp"

namespace subscale::significance {

struct Kept {
  std::vector<std::size_t> indices;  // into the input list, strongest first (ties by index)
  std::vector<ClusterScore> scores;  // scores[i] belongs to indices[i]
};

template <class T>
Kept keep_significant(const ColumnMatrix<T>& values, const Marginals& marginals,
                      const std::vector<SubspaceCluster>& clusters, const TestParams& params);

// can[i]: whether some cluster of at least min_size points of subspaces[i] could pass (the bound
// of subspace_bound.hpp against the Bonferroni threshold; with fdr, against the loosest threshold
// the step-up could reach with one kept cluster per subspace).
std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, const std::vector<SubspaceCluster>& subspaces,
                                          std::uint32_t min_size, const TestParams& params);

// The elements of `list` at `indices`, in that order (moved out of `list`).
template <class V>
std::vector<V> take(std::vector<V>& list, const std::vector<std::size_t>& indices) {
  std::vector<V> out;
  out.reserve(indices.size());
  for (const auto i : indices) out.push_back(std::move(list[i]));
  return out;
}

}  // namespace subscale::significance
