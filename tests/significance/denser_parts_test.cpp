#include "stages/significance/denser_parts.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <random>

#include "significance_test_data.hpp"
#include "stages/merge/subspace_dbscan.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/keep_significant.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::skewed_levels;
using testing::uniform_noise;

constexpr double kThreshold = 2.0;  // -log10 of the default alpha, 0.01

SubspaceCluster every_point(const Matrix& m, std::vector<std::uint32_t> dimensions) {
  SubspaceCluster all{std::move(dimensions), std::vector<std::uint32_t>(static_cast<std::size_t>(m.rows()))};
  std::iota(all.points.begin(), all.points.end(), 0u);
  return all;
}

std::size_t shared_points(const SubspaceCluster& a, const SubspaceCluster& b) {
  std::vector<std::uint32_t> both;
  std::set_intersection(a.points.begin(), a.points.end(), b.points.begin(), b.points.end(), std::back_inserter(both));
  return both.size();
}

// 3,000 uniform points in 4 dimensions, 150 of them planted in a square of width 0.05 in (0, 1):
// merge at min_points 2 and epsilon 0.02 over every point of (0, 1) links them all into one.
struct Chained {
  Matrix m = uniform_noise(3000, 4, 21);
  SubspaceCluster planted = plant(m, {0, 1}, 0, 150, 0.05, 22);
  SubspaceCluster chained = every_point(m, {0, 1});
};

TEST(DenserParts, APlantedClusterChainedToTheBackgroundComesOutOfIt) {
  const Chained data;
  const auto marginals = Marginals::of(data.m);
  ASSERT_LT(score_cluster(data.m, marginals, data.chained).score, kThreshold);
  const auto found = denser_parts(data.m, marginals, {data.chained}, 0.02, 2, TestParams{});
  ASSERT_EQ(found.parts.size(), 1u);
  EXPECT_EQ(found.clusters_split, 1u);
  const SubspaceCluster& part = found.parts.front();
  EXPECT_EQ(part.dimensions, data.chained.dimensions);
  EXPECT_GE(score_cluster(data.m, marginals, part).score, kThreshold);
  EXPECT_GE(shared_points(part, data.planted), 135u);  // 90% of the planted points
  EXPECT_GE(10 * shared_points(part, data.planted), 9 * part.points.size());
}

TEST(DenserParts, TwoClustersChainedTogetherComeOutAsTwo) {
  Matrix m = uniform_noise(3000, 4, 31);
  const auto first = plant(m, {0, 1}, 0, 150, 0.05, 32);
  const auto second = plant(m, {0, 1}, 150, 150, 0.05, 33);
  const auto marginals = Marginals::of(m);
  const auto found = denser_parts(m, marginals, {every_point(m, {0, 1})}, 0.02, 2, TestParams{});
  ASSERT_EQ(found.parts.size(), 2u);
  // One part for each planted cluster, in either order.
  const bool in_order = shared_points(found.parts[0], first) > shared_points(found.parts[0], second);
  EXPECT_GE(shared_points(found.parts[in_order ? 0 : 1], first), 135u);
  EXPECT_GE(shared_points(found.parts[in_order ? 1 : 0], second), 135u);
}

TEST(DenserParts, EveryPartPassesAndLiesInsideItsClusterAndNoneOverlap) {
  std::size_t parts = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    Matrix m = uniform_noise(2000, 3, 40 + seed);
    plant(m, {0, 2}, 0, 60 + 20 * static_cast<std::uint32_t>(seed), 0.04 + 0.01 * static_cast<double>(seed % 3),
          50 + seed);
    const auto marginals = Marginals::of(m);
    const auto source = every_point(m, {0, 2});
    const auto found = denser_parts(m, marginals, {source}, 0.02, 2, TestParams{});
    parts += found.parts.size();
    for (std::size_t i = 0; i < found.parts.size(); ++i) {
      const auto& part = found.parts[i];
      ASSERT_TRUE(std::is_sorted(part.points.begin(), part.points.end()));
      EXPECT_TRUE(std::includes(source.points.begin(), source.points.end(), part.points.begin(), part.points.end()));
      EXPECT_GE(score_cluster(m, marginals, part).score, kThreshold);
      for (std::size_t j = i + 1; j < found.parts.size(); ++j) EXPECT_EQ(shared_points(part, found.parts[j]), 0u);
    }
  }
  EXPECT_GE(parts, 6u);  // each planted cluster is found
}

TEST(DenserParts, AClusterThatPassesIsLeftAlone) {
  const Chained data;
  const auto marginals = Marginals::of(data.m);
  ASSERT_GE(score_cluster(data.m, marginals, data.planted).score, kThreshold);
  EXPECT_TRUE(denser_parts(data.m, marginals, {data.planted}, 0.02, 2, TestParams{}).parts.empty());
}

TEST(DenserParts, UniformNoiseGivesNoPart) {
  const Matrix m = uniform_noise(3000, 4, 61);
  const auto marginals = Marginals::of(m);
  const auto found = denser_parts(
      m, marginals, {every_point(m, {0, 1}), every_point(m, {2, 3}), every_point(m, {0, 1, 3})}, 0.02, 2, TestParams{});
  EXPECT_TRUE(found.parts.empty());
  EXPECT_EQ(found.clusters_split, 0u);
}

TEST(DenserParts, TheResultDoesNotDependOnTheNumberOfThreads) {
  const Chained data;
  const auto marginals = Marginals::of(data.m);
  const std::vector<SubspaceCluster> clusters{data.chained, every_point(data.m, {0, 1, 2}), data.planted};
  const auto many = denser_parts(data.m, marginals, clusters, 0.02, 2, TestParams{});
  DenserParts one;
  {
    const tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    one = denser_parts(data.m, marginals, clusters, 0.02, 2, TestParams{});
  }
  EXPECT_EQ(one.parts, many.parts);
  EXPECT_EQ(one.clusters_split, many.clusters_split);
}

// The best cut of a cluster's tree built whole (every part split down to kMaxSplitMinPoints, no
// bound consulted): what denser_parts must return, whatever it skips.
struct ReferenceCut {
  double worth = 0;
  std::vector<SubspaceCluster> parts;
};

ReferenceCut reference_cut(const Matrix& m, const Marginals& marginals, const SubspaceCluster& cluster,
                           std::size_t min_points) {
  ReferenceCut cut;
  if (min_points > kMaxSplitMinPoints || cluster.points.size() < min_points) return cut;
  for (auto& members : merge::dbscan_in_subspace(m, cluster, 0.02, min_points, false).clusters) {
    SubspaceCluster part{cluster.dimensions, std::move(members)};
    ReferenceCut below = reference_cut(m, marginals, part, 2 * min_points);
    const double raw = gathering_score(m, marginals, part, TestParams{}).score;
    const double score = raw >= kThreshold ? raw : 0;
    if (score > 0 && score >= below.worth) {
      cut.worth += score;
      cut.parts.push_back(std::move(part));
    } else {
      cut.worth += below.worth;
      for (auto& chosen : below.parts) cut.parts.push_back(std::move(chosen));
    }
  }
  return cut;
}

TEST(DenserParts, ThePartsAreTheBestCutOfTheWholeTreeOnContinuousAndTiedData) {
  std::size_t parts = 0;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    const bool tied = seed % 2 == 1;
    Matrix m = tied ? skewed_levels(1500, 3, 20 + 10 * seed, 70 + seed) : uniform_noise(1500, 3, 70 + seed);
    plant(m, {0, 1}, 0, 40 + 10 * static_cast<std::uint32_t>(seed), 0.05, 80 + seed);
    const auto marginals = Marginals::of(m);
    const std::vector<SubspaceCluster> clusters{every_point(m, {0, 1}), every_point(m, {1, 2}),
                                                every_point(m, {0, 1, 2})};
    const auto found = denser_parts(m, marginals, clusters, 0.02, 2, TestParams{});
    std::vector<SubspaceCluster> expected;
    for (const auto& cluster : clusters) {
      if (gathering_score(m, marginals, cluster, TestParams{}).score >= kThreshold) continue;
      for (auto& part : reference_cut(m, marginals, cluster, 4).parts) expected.push_back(std::move(part));
    }
    EXPECT_EQ(found.parts, expected) << "seed " << seed;
    parts += found.parts.size();
  }
  EXPECT_GE(parts, 4u);  // not a comparison of empty lists
}

}  // namespace
}  // namespace subscale::significance
