#include "stages/significance/keep_significant.hpp"

#include <tbb/parallel_for.h>

#include <cmath>

#include "stages/significance/subspace_bound.hpp"

namespace subscale::significance {

template <class T>
Kept keep_significant(const ColumnMatrix<T>& values, const Marginals& marginals,
                      const std::vector<SubspaceCluster>& clusters, const TestParams& params) {
  const auto scores = score_clusters(values, marginals, clusters);
  Kept kept;
  kept.indices = kept_by_score(scores, params);
  for (const auto i : kept.indices) kept.scores.push_back(scores[i]);
  return kept;
}

std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, const std::vector<SubspaceCluster>& subspaces,
                                          std::uint32_t min_size, const TestParams& params) {
  double threshold = -std::log10(params.alpha);
  if (params.correction == Correction::fdr && !subspaces.empty())
    threshold -= std::log10(static_cast<double>(subspaces.size()));
  std::vector<char> can(subspaces.size(), 0);
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t i) {
    can[i] = best_possible_score(marginals, subspaces[i], min_size, threshold) >= threshold ? 1 : 0;
  });
  return {can.begin(), can.end()};
}

template Kept keep_significant(const ColumnMatrix<float>&, const Marginals&, const std::vector<SubspaceCluster>&,
                               const TestParams&);
template Kept keep_significant(const ColumnMatrix<double>&, const Marginals&, const std::vector<SubspaceCluster>&,
                               const TestParams&);
}  // namespace subscale::significance
