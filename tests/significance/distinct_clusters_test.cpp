#include "stages/significance/distinct_clusters.hpp"

#include <gtest/gtest.h>

#include <random>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/keep_significant.hpp"
#include "stages/significance/weak_dimensions.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::uniform_noise;

SubspaceCluster range(std::vector<std::uint32_t> dims, std::uint32_t first, std::uint32_t last) {
  SubspaceCluster c{std::move(dims), {}};
  for (std::uint32_t i = first; i < last; ++i) c.points.push_back(i);
  return c;
}

TEST(DistinctClusters, PieceOfAStrongerClusterIsDropped) {
  Matrix m = uniform_noise(600, 10, 81);
  const auto whole = plant(m, {1, 4, 7}, 0, 120, 0.04, 82);
  const auto marginals = Marginals::of(m);
  // The same cluster's first 60 points in two of its dimensions.
  const auto piece = range({1, 4}, 0, 60);
  EXPECT_EQ(distinct_clusters(m, marginals, {whole, piece}, 0.5, 2.0), (std::vector<std::size_t>{0}));
}

TEST(DistinctClusters, NestedClusterDenserInMoreDimensionsIsKept) {
  Matrix m = uniform_noise(800, 12, 83);
  const auto outer = plant(m, {0, 2, 5}, 0, 300, 0.05, 84);
  // Half of those points also close together in three more dimensions.
  auto inner = plant(m, {8, 9, 11}, 0, 150, 0.05, 85);
  inner.dimensions = {0, 2, 5, 8, 9, 11};
  const auto marginals = Marginals::of(m);
  EXPECT_GT(score_given(m, marginals, inner, outer), 10.0);
  EXPECT_EQ(distinct_clusters(m, marginals, {outer, inner}, 0.5, 2.0), (std::vector<std::size_t>{0, 1}));
}

// The parent of a nested cluster, weaker than the child: its points outside the child are a
// cluster of their own.
TEST(DistinctClusters, ParentWeakerThanItsNestedChildIsKept) {
  Matrix m = uniform_noise(1500, 6, 102);
  auto parent = plant(m, {0, 1, 4}, 0, 300, 0.12, 103);
  auto child = plant(m, {3}, 0, 150, 0.02, 104);
  child.dimensions = {0, 1, 3, 4};
  const auto marginals = Marginals::of(m);
  ASSERT_GT(score_cluster(m, marginals, child).score, score_cluster(m, marginals, parent).score);
  EXPECT_EQ(distinct_clusters(m, marginals, {child, parent}, 0.5, 2.0), (std::vector<std::size_t>{0, 1}));
}

// Two clusters sharing half their points, and the union of their points in their common
// dimensions: nothing of the union lies outside the two.
TEST(DistinctClusters, UnionOfTwoOverlappingClustersIsDropped) {
  Matrix m = uniform_noise(1200, 8, 105);
  plant(m, {0, 1, 2}, 0, 200, 0.04, 106);               // shared by both
  const auto a = plant(m, {5, 6}, 0, 150, 0.04, 107);   // a: points 0-149 in 0, 1, 2, 5, 6
  const auto b = plant(m, {3, 7}, 50, 150, 0.04, 108);  // b: points 50-199 in 0, 1, 2, 3, 7
  const SubspaceCluster first{{0, 1, 2, 5, 6}, a.points}, second{{0, 1, 2, 3, 7}, b.points};
  const auto whole = range({0, 1, 2}, 0, 200);
  const auto marginals = Marginals::of(m);
  EXPECT_EQ(distinct_clusters(m, marginals, {first, second, whole}, 0.5, 2.0), (std::vector<std::size_t>{0, 1}));
}

// Two clusters of disjoint points in one box of three dimensions, each dense in three more of its
// own: the union of their points in the three, with one point more of the first than of the
// second, so that it shares half of its points with the first alone.
struct TwoClustersAndTheirUnion {
  Matrix m = uniform_noise(1500, 10, 113);
  SubspaceCluster first, second, both;
  TwoClustersAndTheirUnion() {
    both = plant(m, {0, 1, 2}, 0, 301, 0.05, 114);
    first = plant(m, {3, 4, 5}, 0, 151, 0.04, 115);
    second = plant(m, {6, 7, 8}, 151, 150, 0.04, 116);
    first.dimensions = {0, 1, 2, 3, 4, 5};
    second.dimensions = {0, 1, 2, 6, 7, 8};
  }
};

TEST(DistinctClusters, UnionOfTwoClustersInTheirCommonDimensionsIsDroppedWhenWeaker) {
  const TwoClustersAndTheirUnion data;
  const auto marginals = Marginals::of(data.m);
  EXPECT_EQ(distinct_clusters(data.m, marginals, {data.first, data.second, data.both}, 0.5, 2.0),
            (std::vector<std::size_t>{0, 1}));
}

TEST(DistinctClusters, UnionOfTwoClustersInTheirCommonDimensionsIsDroppedWhenStronger) {
  const TwoClustersAndTheirUnion data;
  const auto marginals = Marginals::of(data.m);
  EXPECT_EQ(distinct_clusters(data.m, marginals, {data.both, data.first, data.second}, 0.5, 2.0),
            (std::vector<std::size_t>{1, 2}));
}

// The parent of two nested clusters that holds a cluster of its own outside them stays.
TEST(DistinctClusters, ParentOfTwoNestedClustersWithPointsOfItsOwnIsKept) {
  Matrix m = uniform_noise(1500, 10, 117);
  const auto parent = plant(m, {0, 1, 2}, 0, 450, 0.06, 118);
  auto first = plant(m, {3, 4, 5}, 0, 150, 0.04, 119);
  auto second = plant(m, {6, 7, 8}, 150, 150, 0.04, 120);
  first.dimensions = {0, 1, 2, 3, 4, 5};
  second.dimensions = {0, 1, 2, 6, 7, 8};
  const auto marginals = Marginals::of(m);
  EXPECT_EQ(distinct_clusters(m, marginals, {parent, first, second}, 0.5, 2.0), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(DistinctClusters, SharedPointsInOtherDimensionsAreKept) {
  Matrix m = uniform_noise(600, 10, 86);
  const auto a = plant(m, {0, 1}, 0, 100, 0.04, 87);
  const auto b = plant(m, {5, 6, 7}, 0, 100, 0.04, 88);
  EXPECT_EQ(distinct_clusters(m, Marginals::of(m), {a, b}, 0.5, 2.0), (std::vector<std::size_t>{0, 1}));
}

// Half of the points on one narrow interval of two dimensions: the other half fill the rest of
// both, twice as densely as the whole data's marginals say, and any box of them there looks like a
// cluster under those marginals.
struct HalfOnANarrowInterval {
  Matrix m;
  SubspaceCluster stronger{{0, 1}, {}};
  std::mt19937_64 rng;
  explicit HalfOnANarrowInterval(std::uint64_t seed) : m(uniform_noise(4000, 6, seed)), rng(seed + 1) {
    std::uniform_real_distribution<double> narrow(0.9, 1.0), wide(0.0, 0.9);
    for (std::uint32_t i = 0; i < 4000; ++i) {
      const bool member = i % 2 == 0;
      for (const Eigen::Index j : {0, 1}) m(i, j) = member ? narrow(rng) : wide(rng);
      if (member) stronger.points.push_back(i);
    }
  }
};

TEST(DistinctClusters, BackgroundBesideAStrongerClusterInItsDimensionsIsDropped) {
  const HalfOnANarrowInterval data(109);
  SubspaceCluster beside{{0, 1}, {}};  // the others in [0, 0.6)^2: about 44% of them, 22% of all
  for (std::uint32_t i = 1; i < 4000; i += 2)
    if (data.m(i, 0) < 0.6 && data.m(i, 1) < 0.6) beside.points.push_back(i);
  const auto marginals = Marginals::of(data.m);
  ASSERT_GT(score_cluster(data.m, marginals, beside).score, 10.0);  // 2x the marginals' prediction
  EXPECT_EQ(distinct_clusters(data.m, marginals, {data.stronger, beside}, 0.5, 2.0), (std::vector<std::size_t>{0}));
}

// A real cluster among those other points is no background: it is kept.
TEST(DistinctClusters, ClusterBesideAStrongerClusterInItsDimensionsIsKept) {
  HalfOnANarrowInterval data(111);
  SubspaceCluster planted{{0, 1}, {}};
  std::uniform_real_distribution<double> box(0.2, 0.25);
  for (std::uint32_t i = 1; i < 301; i += 2) {
    for (const Eigen::Index j : {0, 1}) data.m(i, j) = box(data.rng);
    planted.points.push_back(i);
  }
  const auto marginals = Marginals::of(data.m);
  EXPECT_EQ(distinct_clusters(data.m, marginals, {data.stronger, planted}, 0.5, 2.0), (std::vector<std::size_t>{0, 1}));
}

TEST(WeakDimensions, PieceInADimensionTooManyBecomesTheWholeCluster) {
  Matrix m = uniform_noise(600, 10, 89);
  const auto whole = plant(m, {1, 4, 7}, 0, 150, 0.04, 90);
  for (Eigen::Index i = 0; i < 40; ++i) m(i, 9) = 0.5;  // 40 of its points share a value in dimension 9
  const auto marginals = Marginals::of(m);
  auto piece = range({1, 4, 7, 9}, 0, 40);
  const auto refined = drop_weak_dimensions(m, marginals, piece, 0.5);
  EXPECT_EQ(refined.dimensions, whole.dimensions);
  // The 40 points' box covers most of the cluster's in each dimension; widening takes the rest.
  EXPECT_GE(refined.points.size(), 100U);
  const auto widened = widen_while_stronger(m, marginals, refined);
  EXPECT_GE(widened.points.size(), 148U);
  EXPECT_LE(widened.points.size(), 153U);  // a chance point or two may share the box
}

// 48 points in 6 of 300 dimensions, carried into every dimension (what consolidation's extension
// does with a wide reference span): the search correction of a 300-dimensional box outweighs any
// p-value, so the score is 0 and stays 0 for one dimension less; the climb must still go down.
TEST(WeakDimensions, AClusterInEveryDimensionLosesTheChanceOnes) {
  Matrix m = uniform_noise(150, 300, 93);
  const auto whole = plant(m, {3, 50, 120, 121, 200, 299}, 0, 48, 0.01, 94);
  const auto marginals = Marginals::of(m);
  SubspaceCluster everywhere{{}, whole.points};
  for (std::uint32_t j = 0; j < 300; ++j) everywhere.dimensions.push_back(j);
  ASSERT_EQ(score_cluster(m, marginals, everywhere).score, 0.0);
  const auto refined = drop_weak_dimensions(m, marginals, everywhere, 0.5);
  EXPECT_EQ(refined.dimensions, whole.dimensions);
  EXPECT_EQ(refined.points, whole.points);
  EXPECT_GT(score_cluster(m, marginals, refined).score, 50.0);
}

TEST(WeakDimensions, AClusterInTwoOfItsDimensionsTakesBackTheOthers) {
  Matrix m = uniform_noise(800, 40, 95);
  const auto whole = plant(m, {2, 9, 17, 30, 31, 38}, 0, 120, 0.03, 96);
  const auto marginals = Marginals::of(m);
  const SubspaceCluster part{{9, 31}, whole.points};
  const auto extended = add_strong_dimensions(m, marginals, part, 0.5);
  EXPECT_EQ(extended.dimensions, whole.dimensions);  // and no chance dimension
  EXPECT_EQ(extended.points, whole.points);
  EXPECT_GT(score_cluster(m, marginals, extended).score, score_cluster(m, marginals, part).score);
}

// A cluster in dimensions 0 and 1 whose points avoid, in dimension 2, the top of the range where
// another cluster sits: its interval there (and its central 90%) holds over half the points, and
// under independent marginals 150 points missing 40% of the mass is strong evidence; yet it is no
// dimension of the cluster, which does not gather there.
TEST(WeakDimensions, ADimensionTheClusterOnlyAvoidsIsDropped) {
  Matrix m = uniform_noise(600, 4, 97);
  const auto a = plant(m, {0, 1}, 0, 150, 0.04, 98);
  std::mt19937_64 random(100);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (Eigen::Index i = 150; i < 300; ++i) m(i, 2) = 0.9 + 0.05 * u(random);  // the other cluster
  for (Eigen::Index i = 0; i < 150; ++i) m(i, 2) = 0.7 * u(random);
  const auto marginals = Marginals::of(m);
  const SubspaceCluster carried{{0, 1, 2}, a.points};
  EXPECT_EQ(drop_weak_dimensions(m, marginals, carried, 1.0).dimensions,
            carried.dimensions);  // the test alone keeps it
  const auto refined = drop_weak_dimensions(m, marginals, carried, 0.5);
  EXPECT_EQ(refined.dimensions, a.dimensions);
  EXPECT_EQ(add_strong_dimensions(m, marginals, refined, 0.5).dimensions, a.dimensions);
  EXPECT_EQ(add_strong_dimensions(m, marginals, refined, 1.0).dimensions, carried.dimensions);
}

// Two halves of unequal size, each in its own corner of dimensions 0 and 1: the larger one's box
// holds 58% of the points in each dimension and twice what independent marginals predict, so the
// test alone calls it significant; it gathers in neither dimension, and is no subspace cluster.
TEST(WeakDimensions, AClusterGatheringInFewerThanTwoDimensionsNeverPasses) {
  Matrix m = uniform_noise(600, 3, 101);
  for (Eigen::Index i = 0; i < 600; ++i)
    for (Eigen::Index j = 0; j < 2; ++j) m(i, j) = i < 350 ? 0.6 * m(i, j) : 0.6 + 0.4 * m(i, j);
  const auto marginals = Marginals::of(m);
  const auto larger = range({0, 1}, 0, 350);
  TestParams params;
  params.background_share = 1.0;
  EXPECT_EQ(keep_significant(m, marginals, {larger}, params).indices.size(), 1U);
  params.background_share = 0.5;
  EXPECT_EQ(gathering_dimensions(m, marginals, larger, 0.5), 0U);
  EXPECT_TRUE(keep_significant(m, marginals, {larger}, params).indices.empty());
  EXPECT_EQ(consolidation_candidates(m, marginals, {larger}, params, 10).kept.indices.size(), 0U);
}

TEST(WeakDimensions, WideningRecoversTheClusterFromAPart) {
  Matrix m = uniform_noise(1000, 16, 91);
  std::vector<std::uint32_t> dims{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const auto whole = plant(m, dims, 0, 150, 0.06, 92);
  const auto marginals = Marginals::of(m);
  // The 40 points nearest the box's centre: a box narrower than the cluster in every dimension.
  std::vector<std::pair<double, std::uint32_t>> by_distance;
  for (std::uint32_t p = 0; p < 150; ++p) {
    double worst = 0;
    for (const auto j : dims) {
      double lo = 1, hi = 0;
      for (std::uint32_t q = 0; q < 150; ++q) lo = std::min(lo, m(q, j)), hi = std::max(hi, m(q, j));
      worst = std::max(worst, std::abs(m(p, j) - (lo + hi) / 2) / (hi - lo));
    }
    by_distance.emplace_back(worst, p);
  }
  std::sort(by_distance.begin(), by_distance.end());
  SubspaceCluster part{dims, {}};
  for (std::size_t i = 0; i < 40; ++i) part.points.push_back(by_distance[i].second);
  std::sort(part.points.begin(), part.points.end());
  const auto widened = widen_while_stronger(m, marginals, part);
  EXPECT_GE(widened.points.size(), 145U);
  EXPECT_LE(widened.points.size(), 155U);
}

}  // namespace
}  // namespace subscale::significance
