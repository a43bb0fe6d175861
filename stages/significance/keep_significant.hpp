#pragma once
// The significance test applied to whole lists: the subspaces before merge (can any of their
// clusters pass?), merge's clusters and the consolidated clusters (which pass, strongest first).
#include <cstdint>
#include <span>
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

// Merge's clusters worth consolidating: the significant ones (strongest first), then, up to
// `budget` more, those not yet significant whose raw p-value passes a Bonferroni test over the
// clusters tested alone, the closest to significance first. A cluster of s dimensions comes out of
// merge as projections, each with a part of its points and so far weaker than the cluster it will
// be joined into; dropping every projection that is not significant on its own loses the small
// clusters (a 40-point cluster in 3 of 25 dimensions among 1,500 points: its 2-D projections
// hold 22 points each). The budget bounds consolidation's work where merge finds hundreds of
// thousands of chance clusters. `significant` says how many of the kept lead the list. When none
// is kept, `closest` holds the `closest_count` clusters nearest to passing (lowest corrected
// p-value, ties by index), so that an empty result can name them. `tested`: how many clusters the
// candidates' Bonferroni test counts, when more were tested than `clusters` holds (merge's sieve
// sets aside clusters that could be neither, merge_sieve.hpp); 0: clusters.size().
struct Candidates {
  Kept kept;
  std::size_t significant = 0;
  Kept closest;
};
// One cluster's score with the rule below applied: a cluster gathering in fewer than two
// dimensions scores 0 with a raw p-value of 1, whatever its box.
template <class T>
ClusterScore gathering_score(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                             const TestParams& params);

template <class T>
Candidates consolidation_candidates(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    const std::vector<SubspaceCluster>& clusters, const TestParams& params,
                                    std::size_t budget, std::size_t closest_count = 0, std::uint64_t tested = 0);

// can[i]: whether some cluster of at least min_size points of subspaces[i] could pass (the bound
// of subspace_bound.hpp against the Bonferroni threshold; with fdr, against the loosest threshold
// the step-up could reach with one kept cluster per subspace).
std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, const std::vector<SubspaceCluster>& subspaces,
                                          std::uint32_t min_size, const TestParams& params);
std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, std::span<const SubspaceCluster* const> subspaces,
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
