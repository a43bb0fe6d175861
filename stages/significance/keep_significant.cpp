#include "stages/significance/keep_significant.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "stages/significance/subspace_bound.hpp"
#include "stages/significance/weak_dimensions.hpp"

namespace subscale::significance {

template <class T>
ClusterScore gathering_score(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster,
                             const TestParams& params) {
  ClusterScore score = score_cluster(values, marginals, cluster, params.shapes);
  if (params.sample_scale > 1.0) score = predicted_for_input(score, marginals.points(), params.sample_scale);
  if (gathering_dimensions(values, marginals, cluster, params.background_share) < 2) score.score = 0, score.log10_p = 0;
  return score;
}

namespace {

// The scores, with those of clusters gathering in fewer than two dimensions set to fail: a box
// holding most of a dimension's points there is no cluster's, however unlikely under independent
// marginals (points of one cluster drawn from a skewed background avoid another cluster's level,
// and the box around them, two thirds of the points, comes out 10^-3 in two dimensions).
template <class T>
std::vector<ClusterScore> gathering_scores(const ColumnMatrix<T>& values, const Marginals& marginals,
                                           const std::vector<SubspaceCluster>& clusters, const TestParams& params) {
  std::vector<ClusterScore> scores(clusters.size());
  tbb::parallel_for(std::size_t{0}, clusters.size(),
                    [&](std::size_t i) { scores[i] = gathering_score(values, marginals, clusters[i], params); });
  return scores;
}

// The `count` lowest corrected p-values, lowest first (ties by index): scores are 0 for every
// cluster that fails, so only the corrected p-value tells how far each fell short.
Kept closest_to_passing(const std::vector<ClusterScore>& scores, std::size_t count) {
  std::vector<std::size_t> order(scores.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  count = std::min(count, order.size());
  const auto corrected = [&](std::size_t i) { return scores[i].log10_p + scores[i].log10_search; };
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
      [&](std::size_t a, std::size_t b) { return corrected(a) != corrected(b) ? corrected(a) < corrected(b) : a < b; });
  Kept out;
  out.indices.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
  for (const auto i : out.indices) out.scores.push_back(scores[i]);
  return out;
}

}  // namespace

template <class T>
Kept keep_significant(const ColumnMatrix<T>& values, const Marginals& marginals,
                      const std::vector<SubspaceCluster>& clusters, const TestParams& params) {
  const auto scores = gathering_scores(values, marginals, clusters, params);
  Kept kept;
  kept.indices = kept_by_score(scores, params);
  for (const auto i : kept.indices) kept.scores.push_back(scores[i]);
  return kept;
}

template <class T>
Candidates consolidation_candidates(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    const std::vector<SubspaceCluster>& clusters, const TestParams& params,
                                    std::size_t budget, std::size_t closest_count, std::uint64_t tested) {
  const auto scores = gathering_scores(values, marginals, clusters, params);
  Candidates out;
  out.kept.indices = kept_by_score(scores, params);
  out.significant = out.kept.indices.size();
  std::vector<bool> taken(scores.size(), false);
  for (const auto i : out.kept.indices) taken[i] = true;
  const double weak =
      std::log10(params.alpha) -
      std::log10(static_cast<double>(std::max<std::uint64_t>({tested, clusters.size(), std::uint64_t{1}})));
  std::vector<std::size_t> others;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (!taken[i] && scores[i].log10_p <= weak) others.push_back(i);
  const auto corrected = [&](std::size_t i) { return scores[i].log10_p + scores[i].log10_search; };
  std::stable_sort(others.begin(), others.end(),
                   [&](std::size_t a, std::size_t b) { return corrected(a) < corrected(b); });
  if (others.size() > budget) others.resize(budget);
  out.kept.indices.insert(out.kept.indices.end(), others.begin(), others.end());
  for (const auto i : out.kept.indices) out.kept.scores.push_back(scores[i]);
  if (out.kept.indices.empty()) out.closest = closest_to_passing(scores, closest_count);
  return out;
}

std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, const std::vector<SubspaceCluster>& subspaces,
                                          std::uint32_t min_size, const TestParams& params) {
  std::vector<const SubspaceCluster*> list;
  list.reserve(subspaces.size());
  for (const auto& s : subspaces) list.push_back(&s);
  return subspaces_that_can_pass(marginals, std::span<const SubspaceCluster* const>(list), min_size, params);
}

std::vector<bool> subspaces_that_can_pass(const Marginals& marginals, std::span<const SubspaceCluster* const> subspaces,
                                          std::uint32_t min_size, const TestParams& params) {
  double threshold = -std::log10(params.alpha);
  if (params.correction == Correction::fdr && !subspaces.empty())
    threshold -= std::log10(static_cast<double>(subspaces.size()));
  const SubspaceBounds bounds(marginals, subspaces, min_size, params.sample_scale);
  std::vector<char> can(subspaces.size(), 0);
  tbb::parallel_for(std::size_t{0}, subspaces.size(), [&](std::size_t i) {
    can[i] = bounds.best_possible_score(*subspaces[i], threshold) >= threshold ? 1 : 0;
  });
  return {can.begin(), can.end()};
}

template ClusterScore gathering_score(const ColumnMatrix<float>&, const Marginals&, const SubspaceCluster&,
                                      const TestParams&);
template ClusterScore gathering_score(const ColumnMatrix<double>&, const Marginals&, const SubspaceCluster&,
                                      const TestParams&);
template Candidates consolidation_candidates(const ColumnMatrix<float>&, const Marginals&,
                                             const std::vector<SubspaceCluster>&, const TestParams&, std::size_t,
                                             std::size_t, std::uint64_t);
template Candidates consolidation_candidates(const ColumnMatrix<double>&, const Marginals&,
                                             const std::vector<SubspaceCluster>&, const TestParams&, std::size_t,
                                             std::size_t, std::uint64_t);
template Kept keep_significant(const ColumnMatrix<float>&, const Marginals&, const std::vector<SubspaceCluster>&,
                               const TestParams&);
template Kept keep_significant(const ColumnMatrix<double>&, const Marginals&, const std::vector<SubspaceCluster>&,
                               const TestParams&);
}  // namespace subscale::significance
