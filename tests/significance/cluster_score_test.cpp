#include "stages/significance/cluster_score.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "significance_test_data.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

using testing::nearest;
using testing::plant;
using testing::uniform_noise;

TEST(ClusterScore, PlantedClusterIsKept) {
  Matrix m = uniform_noise(500, 10, 1);
  const auto cluster = plant(m, {2, 5, 7}, 0, 40, 0.05, 2);
  const auto marginals = Marginals::of(m);
  const auto score = score_cluster(m, marginals, cluster);
  EXPECT_EQ(score.points, 40U);
  EXPECT_GT(score.score, 20.0);  // far beyond -log10(0.01) = 2
  EXPECT_LT(score.log10_p, -score.log10_search);
}

TEST(ClusterScore, SamePointsSpreadAtRandomAreDropped) {
  Matrix m = uniform_noise(500, 10, 3);
  SubspaceCluster random_points{{2, 5, 7}, {}};
  for (std::uint32_t i = 0; i < 40; ++i) random_points.points.push_back(i * 12);
  const auto score = score_cluster(m, Marginals::of(m), random_points);
  EXPECT_EQ(score.score, 0.0);
}

TEST(ClusterScore, TightestChanceGroupIsDroppedOnlyWithTheSearchCorrection) {
  // The 12 nearest neighbours of a noise point in a 2-D subspace: a small box, a tiny raw p-value,
  // but such a box exists somewhere in any noise, and the search correction knows it.
  const Matrix m = uniform_noise(400, 6, 5);
  const auto marginals = Marginals::of(m);
  double best_raw = 0, best_score = 0;
  for (std::uint32_t center = 0; center < 400; ++center)
    for (const std::size_t k : {6, 10, 15}) {
      const auto s = score_cluster(m, marginals, nearest(m, {1, 4}, center, k));
      best_raw = std::min(best_raw, s.log10_p);
      best_score = std::max(best_score, s.score);
    }
  EXPECT_LT(best_raw, -2.5);   // "significant" at 0.01 alone, and after a correction for a few boxes
  EXPECT_LT(best_score, 2.0);  // not significant at alpha 0.01 once the search is priced in
}

// The points of `m` inside the box of `cluster` in its dimensions.
SubspaceCluster filled_box(const Matrix& m, const SubspaceCluster& cluster) {
  SubspaceCluster out{cluster.dimensions, {}};
  for (std::uint32_t p = 0; p < m.rows(); ++p) {
    bool inside = true;
    for (const auto j : cluster.dimensions) {
      double lo = 1, hi = 0;
      for (const auto q : cluster.points) lo = std::min(lo, m(q, j)), hi = std::max(hi, m(q, j));
      inside = inside && m(p, j) >= lo && m(p, j) <= hi;
    }
    if (inside) out.points.push_back(p);
  }
  return out;
}

TEST(ClusterScore, OnASampleAClusterIsJudgedByWhatItPredictsForTheInput) {
  // 25 points in a 0.08 x 0.08 square of 2 of 20 dimensions, among 2,000: about twice its box's
  // mass, too few to pass against the search over every box. As a sample of 1% of an input with
  // the same shares, it predicts a pass there, with the same box and family.
  Matrix m = uniform_noise(2000, 20, 11);
  const auto in_box = filled_box(m, plant(m, {3, 9}, 0, 25, 0.08, 4));
  const auto marginals = Marginals::of(m);
  const auto alone = score_cluster(m, marginals, in_box);
  EXPECT_EQ(alone.score, 0.0);
  const auto predicted = predicted_for_input(alone, 2000, 100.0);
  EXPECT_GT(predicted.score, 10.0);
  EXPECT_EQ(predicted.log10_search, alone.log10_search);
  EXPECT_EQ(predicted.log10_p0, alone.log10_p0);
  EXPECT_EQ(predicted_for_input(alone, 2000, 1.0).score, alone.score);
  // Ten of its points, however tight, predict nothing.
  const SubspaceCluster few{{3, 9}, std::vector<std::uint32_t>(in_box.points.begin(), in_box.points.begin() + 10)};
  EXPECT_EQ(predicted_for_input(score_cluster(m, marginals, few), 2000, 100.0).score, 0.0);
}

TEST(ClusterScore, ConstantFeatureAndMajorityValueYieldNoCluster) {
  Matrix m = uniform_noise(300, 4, 7);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    m(i, 0) = 0.25;                         // constant
    m(i, 1) = i % 10 == 0 ? m(i, 1) : 0.5;  // one value for 90% of the points
  }
  const auto marginals = Marginals::of(m);
  SubspaceCluster majority{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 300; ++i)
    if (i % 10 != 0) majority.points.push_back(i);
  EXPECT_EQ(score_cluster(m, marginals, majority).score, 0.0);
  // Four points sharing both common values are no news either.
  EXPECT_EQ(score_cluster(m, marginals, SubspaceCluster{{0, 1}, {1, 2, 3, 4}}).score, 0.0);
  // The tie group's mass, not its zero width, is what the test sees.
  EXPECT_NEAR(marginals.mass(1, 0.5, 0.5), 0.9, 1e-12);
  EXPECT_EQ(marginals.distinct(0), 1U);
}

TEST(ClusterScore, IntegerLevelsArePricedIn) {
  // Five levels: 30 points on one level of two dimensions is what independence predicts.
  Matrix m(300, 2);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    m(i, 0) = static_cast<double>(i % 5) / 4;
    m(i, 1) = static_cast<double>((i / 5) % 5) / 4;
  }
  SubspaceCluster same_level{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 300; ++i)
    if (i % 5 == 0 && (i / 5) % 5 == 0) same_level.points.push_back(i);
  ASSERT_EQ(same_level.points.size(), 12U);
  EXPECT_EQ(score_cluster(m, Marginals::of(m), same_level).score, 0.0);
}

TEST(ClusterScore, FloatAndDoubleAgreeOnHeldValues) {
  Matrix m = uniform_noise(200, 5, 11);
  const auto cluster = plant(m, {0, 3}, 10, 30, 0.04, 12);
  const Matrix32 f = m.cast<float>();
  const Matrix back = f.cast<double>();
  const auto a = score_cluster(f, Marginals::of(f), cluster);
  const auto b = score_cluster(back, Marginals::of(back), cluster);
  EXPECT_DOUBLE_EQ(a.score, b.score);
}

TEST(SearchCorrection, CountsBoxesSubspacesAndSizes) {
  Matrix m(4, 3);
  m << 0, 0, 0, 1, 0, 0, 2, 1, 0, 3, 1, 0;
  const auto marginals = Marginals::of(m);
  EXPECT_EQ(marginals.distinct(0), 4U);
  EXPECT_EQ(marginals.distinct(1), 2U);
  const std::vector<std::uint32_t> dims{0, 1};
  // d * C(3, 2) * (4*5/2) * (2*3/2) = 3 * 3 * 10 * 3
  EXPECT_NEAR(log_search_size(marginals, dims), std::log(270.0), 1e-12);
  EXPECT_NEAR(log_search_size(3, 2, 4), std::log(3.0 * 3 * 10 * 10), 1e-12);
}

}  // namespace
}  // namespace subscale::significance
