#include <gtest/gtest.h>

#include <algorithm>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/keep_significant.hpp"

namespace subscale::significance {
namespace {

using testing::nearest;
using testing::plant;
using testing::uniform_noise;

// Chance groups of pure noise: the nearest 30-50 points to a few centres in pairs of dimensions.
std::vector<SubspaceCluster> chance_groups(const Matrix& m) {
  std::vector<SubspaceCluster> groups;
  for (std::uint32_t c = 0; c < 12; ++c) groups.push_back(nearest(m, {c % 4, (c + 1) % 4}, c * 7, 30 + 5 * (c % 5)));
  return groups;
}

// Where no cluster is even a candidate, the ones closest to passing come out for the empty
// result to name: the lowest corrected p-values, as scoring each alone ranks them.
TEST(ConsolidationCandidates, WithNoCandidateTheClosestComeLowestCorrectedPFirst) {
  const Matrix m = uniform_noise(400, 4, 201);
  const auto marginals = Marginals::of(m);
  const auto groups = chance_groups(m);
  const TestParams params;
  const auto out = consolidation_candidates(m, marginals, groups, params, 100, 5);
  ASSERT_TRUE(out.kept.indices.empty());
  ASSERT_EQ(out.closest.indices.size(), 5U);
  ASSERT_EQ(out.closest.scores.size(), 5U);
  const auto scores = score_clusters(m, marginals, groups);
  std::vector<std::size_t> order(groups.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto corrected = [&](std::size_t i) { return scores[i].log10_p + scores[i].log10_search; };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return corrected(a) < corrected(b); });
  order.resize(5);
  ASSERT_LT(corrected(order[0]), corrected(order[4]));  // an order to get right, not ties
  EXPECT_EQ(out.closest.indices, order);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(out.closest.scores[i].log10_p, scores[order[i]].log10_p);
}

TEST(ConsolidationCandidates, NothingIsNamedWhereAClusterIsKeptOrNoneIsAskedFor) {
  Matrix m = uniform_noise(400, 4, 202);
  auto groups = chance_groups(m);
  const TestParams params;
  EXPECT_TRUE(consolidation_candidates(m, Marginals::of(m), groups, params, 100, 0).closest.indices.empty());
  groups.push_back(plant(m, {0, 1}, 300, 80, 0.05, 203));
  const auto out = consolidation_candidates(m, Marginals::of(m), groups, params, 100, 5);
  EXPECT_FALSE(out.kept.indices.empty());
  EXPECT_TRUE(out.closest.indices.empty());
}

}  // namespace
}  // namespace subscale::significance
