// The gathering pass (stages/consolidate/gather_join.hpp) against the plain pairwise rounds it
// comes before, and its own rules on hand-made cases; the join's account of what changed
// (cluster_union.hpp) against the joined points.
#include "stages/consolidate/gather_join.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "stages/consolidate/cluster_union.hpp"
#include "stages/consolidate/consolidate.hpp"
#include "stages/consolidate/point_holders.hpp"
#include "stages/consolidate/sorted_ids.hpp"

namespace subscale::consolidate {
namespace {

using Ids = std::vector<std::uint32_t>;

// Points uniform in [0, 1]; hidden clusters placed as dense boxes (random inside the box).
struct HiddenScene {
  Matrix values;
  std::vector<Ids> dims, points;

  HiddenScene(std::size_t n, std::size_t d, std::uint64_t seed) : values(n, d) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (Eigen::Index j = 0; j < values.cols(); ++j)
      for (Eigen::Index i = 0; i < values.rows(); ++i) values(i, j) = unit(random);
  }

  void hide(Ids cluster_dims, std::uint32_t first, std::uint32_t count, double centre, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> offset(-0.025, 0.025);
    Ids ids;
    for (std::uint32_t p = first; p < first + count; ++p) {
      ids.push_back(p);
      for (std::uint32_t k : cluster_dims) values(p, k) = centre + offset(random);
    }
    dims.push_back(std::move(cluster_dims));
    points.push_back(std::move(ids));
  }

  // Every 2-D projection of every hidden cluster, each keeping a random 85% of its points, as
  // merge reports them (sorted by dimensions, then points).
  std::vector<SubspaceCluster> projections(std::uint64_t seed) const {
    std::mt19937_64 random(seed);
    std::vector<SubspaceCluster> out;
    for (std::size_t c = 0; c < dims.size(); ++c)
      for (std::size_t a = 0; a < dims[c].size(); ++a)
        for (std::size_t b = a + 1; b < dims[c].size(); ++b) {
          SubspaceCluster projection{{dims[c][a], dims[c][b]}, {}};
          for (std::uint32_t p : points[c])
            if (random() % 100 < 85) projection.points.push_back(p);
          out.push_back(std::move(projection));
        }
    std::sort(out.begin(), out.end(), [](const SubspaceCluster& x, const SubspaceCluster& y) {
      return x.dimensions != y.dimensions ? x.dimensions < y.dimensions : x.points < y.points;
    });
    return out;
  }
};

double jaccard(const Ids& a, const Ids& b) {
  const std::size_t shared = a.size() + b.size() - sorted_union(a, b).size();
  return static_cast<double>(shared) / static_cast<double>(sorted_union(a, b).size());
}

// Gathering changes how pairs are found and tried, not what a join is: on projections of hidden
// clusters both ways find the same clusters in the same subspaces, with nearly the same points.
TEST(GatherJoin, FindsTheClustersThePairwiseRoundsFind) {
  HiddenScene scene(1200, 14, 3);
  scene.hide({0, 1, 2, 3, 4}, 0, 150, 0.3, 1);
  scene.hide({3, 4, 5, 6, 7, 8}, 150, 120, 0.6, 2);
  scene.hide({9, 10, 11, 12}, 270, 200, 0.45, 3);
  scene.hide({9, 10, 13}, 100, 140, 0.8, 4);  // shares points with the first two, not dimensions
  const std::vector<SubspaceCluster> input = scene.projections(5);
  ConsolidateParams pairwise;
  pairwise.gather = false;
  const ConsolidateResult plain = consolidate_clusters(scene.values, input, pairwise);
  const ConsolidateResult gathered = consolidate_clusters(scene.values, input, {});
  ASSERT_EQ(plain.clusters.size(), 4u);
  ASSERT_EQ(gathered.clusters.size(), plain.clusters.size());
  for (std::size_t c = 0; c < plain.clusters.size(); ++c) {
    EXPECT_EQ(gathered.clusters[c].dimensions, plain.clusters[c].dimensions) << c;
    EXPECT_GE(jaccard(gathered.clusters[c].points, plain.clusters[c].points), 0.95) << c;
    EXPECT_EQ(gathered.sources[c], plain.sources[c]) << c;
  }
  EXPECT_EQ(gathered.stats.joins, plain.stats.joins);
  // Each projection meets the few gathered clusters, not the other projections of its cluster.
  EXPECT_LT(gathered.stats.candidate_pairs, plain.stats.candidate_pairs / 2);
}

TEST(GatherJoin, AClusterWhosePointsAndDimensionsAreHeldIsAbsorbed) {
  HiddenScene scene(400, 6, 7);
  scene.hide({0, 1, 2, 3}, 0, 100, 0.5, 1);
  Ids half(scene.points[0].begin(), scene.points[0].begin() + 50);
  // The larger comes first (interest 400 against 100), so the smaller meets it gathered.
  std::vector<WorkingCluster<double>> input(2);
  const ColumnSorter<double> columns(scene.values);
  input[0].dimensions = {0, 1};
  input[0].points = half;
  input[1].dimensions = {0, 1, 2, 3};
  input[1].points = scene.points[0];
  for (auto& c : input) {
    for (std::uint32_t k : c.dimensions) c.columns.push_back(columns.rank_set(c.points, k));
    c.reference_span = 0.05;
  }
  input[0].reference_span = 0.07;
  JoinCounters counters;
  const auto out = gather_clusters(columns, input, ConsolidateParams{}, counters);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dimensions, (Ids{0, 1, 2, 3}));
  EXPECT_EQ(out[0].points, scene.points[0]);  // as it stood: no box trimmed again
  EXPECT_EQ(out[0].sources, 2u);
  EXPECT_EQ(out[0].reference_span, 0.07);  // the wider of the two
  EXPECT_EQ(counters.joins, 1u);
  EXPECT_EQ(counters.candidate_pairs, 1u);
  EXPECT_EQ(counters.rejected, 0u);
}

// c brings no dimension and two points: both far outside g's box, it is absorbed and g stands
// as it is; one of them inside the box, the join is computed and takes that one in.
TEST(GatherJoin, PointsOutsideTheBoxAreNotJoinedIn) {
  HiddenScene scene(400, 6, 7);
  scene.hide({0, 1, 2, 3}, 0, 100, 0.5, 1);
  const Ids& cluster = scene.points[0];
  scene.values(300, 0) = scene.values(300, 1) = 0.51;                // inside the box in c's dimensions,
  scene.values(300, 2) = scene.values(300, 3) = 0.9;                 // far outside in g's others
  for (std::uint32_t k = 0; k < 4; ++k) scene.values(301, k) = 0.5;  // inside in every one
  const ColumnSorter<double> columns(scene.values);
  const auto working = [&](Ids dims, Ids points) {
    WorkingCluster<double> c;
    c.dimensions = std::move(dims);
    c.points = std::move(points);
    for (std::uint32_t k : c.dimensions) c.columns.push_back(columns.rank_set(c.points, k));
    c.reference_span = 0.05;
    return c;
  };
  Ids with_outside(cluster.begin(), cluster.begin() + 60);
  with_outside.push_back(300);
  Ids with_inside = with_outside;
  with_inside.push_back(301);
  {
    JoinCounters counters;
    const auto out = gather_clusters(columns, {working({0, 1, 2, 3}, cluster), working({0, 1}, with_outside)},
                                     ConsolidateParams{}, counters);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].points, cluster);  // as it stood
    EXPECT_EQ(out[0].sources, 2u);
    EXPECT_EQ(counters.joins, 1u);
  }
  {
    JoinCounters counters;
    const auto out = gather_clusters(columns, {working({0, 1, 2, 3}, cluster), working({0, 1}, with_inside)},
                                     ConsolidateParams{}, counters);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(std::binary_search(out[0].points.begin(), out[0].points.end(), 301u));
    EXPECT_FALSE(std::binary_search(out[0].points.begin(), out[0].points.end(), 300u));
    EXPECT_EQ(out[0].sources, 2u);
  }
}

TEST(GatherJoin, ARefusedCandidateLeavesTheNextOneToTry) {
  // A (dims 0, 1; points 0..99) and B (dims 2, 3; points 100..199) are gathered first; C (dims
  // 4, 5; points 0..59 and 100..159) meets both (overlap 0.6 each: 60 of A's or B's 100). Joined
  // with A its points 100..159 spread A's dimensions: refused. With B its points 0..59 spread B's:
  // refused too. C stands alone.
  HiddenScene scene(500, 6, 9);
  scene.hide({0, 1}, 0, 100, 0.3, 1);
  scene.hide({2, 3}, 100, 100, 0.7, 2);
  Ids c_points;
  for (std::uint32_t p = 0; p < 60; ++p) c_points.push_back(p);
  for (std::uint32_t p = 100; p < 160; ++p) c_points.push_back(p);
  for (std::uint32_t p : c_points) scene.values(p, 4) = scene.values(p, 5) = 0.5 + 0.0002 * p;
  const std::vector<SubspaceCluster> input = {{{0, 1}, scene.points[0]}, {{2, 3}, scene.points[1]}, {{4, 5}, c_points}};
  ConsolidateParams params;
  params.extend_dimensions = false;
  const ConsolidateResult r = consolidate_clusters(scene.values, input, params);
  EXPECT_EQ(r.clusters.size(), 3u);
  EXPECT_EQ(r.stats.joins, 0u);
  EXPECT_GE(r.stats.rejected_joins, 2u);  // both candidates were tried
}

// The holders' blocks against plain lists, through adds and removes that take points past the
// inline capacity and back.
TEST(PointHolders, EqualPlainListsThroughAddsAndRemoves) {
  constexpr std::uint32_t points = 40, clusters = 12;
  PointHolders holders(points);
  std::vector<Ids> plain(points);   // plain[p]: the clusters holding p
  std::vector<Ids> held(clusters);  // held[c]: the points c holds, sorted
  std::mt19937_64 random(8);
  for (int step = 0; step < 3000; ++step) {
    const auto c = static_cast<std::uint32_t>(random() % clusters);
    Ids change;
    for (std::uint32_t p = 0; p < points; ++p)
      if (random() % 4 == 0) change.push_back(p);
    if (random() % 2 == 0) {  // add the points c does not hold yet
      change = sorted_difference(change, held[c]);
      holders.add(c, change);
      for (std::uint32_t p : change) plain[p].push_back(c);
      held[c] = sorted_union(held[c], change);
    } else {  // remove some it holds
      change = sorted_difference(change, sorted_difference(change, held[c]));
      holders.remove(c, change);
      for (std::uint32_t p : change) std::erase(plain[p], c);
      held[c] = sorted_difference(held[c], change);
    }
    for (std::uint32_t p = 0; p < points; ++p) {
      Ids got;
      holders.for_each(p, [&](std::uint32_t h) { got.push_back(h); });
      std::sort(got.begin(), got.end());
      Ids expected = plain[p];
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(got, expected) << "step " << step << ", point " << p;
      ASSERT_EQ(holders.count(p), expected.size());
    }
  }
}

// The join's account of what changed: the larger side's points without those left out, with
// those taken in, are the joined points.
TEST(ClusterUnion, LeftOutAndTakenInGiveTheJoinedPoints) {
  HiddenScene scene(600, 6, 11);
  scene.hide({0, 1, 2, 3}, 0, 200, 0.5, 1);
  const ColumnSorter<double> columns(scene.values);
  const ConsolidateParams params;
  ClusterUnion<double> unite(columns, params);
  std::mt19937_64 random(4);
  int joins = 0;
  for (int trial = 0; trial < 40; ++trial) {
    WorkingCluster<double> x, y;
    x.dimensions = {0, 1, 2};
    y.dimensions = {static_cast<std::uint32_t>(trial % 3), 3};
    for (std::uint32_t p = 0; p < 200; ++p) {
      if (random() % 100 < 80) x.points.push_back(p);
      if (random() % 100 < 60) y.points.push_back(p);
    }
    // A few points from outside the cluster on either side: the box leaves them out.
    x.points.push_back(300 + static_cast<std::uint32_t>(trial));
    y.points.push_back(400 + static_cast<std::uint32_t>(trial));
    for (auto* c : {&x, &y}) {
      for (std::uint32_t k : c->dimensions) c->columns.push_back(columns.rank_set(c->points, k));
      c->reference_span = 0.05;
    }
    const bool x_larger = ClusterUnion<double>::larger(x, y) == &x;
    const Ids big = x_larger ? x.points : y.points;
    const Ids lacks = x_larger ? sorted_difference(y.points, x.points) : sorted_difference(x.points, y.points);
    const auto joined = unite.join(x, y, lacks);
    if (!joined) continue;
    ++joins;
    EXPECT_TRUE(std::is_sorted(unite.left_out().begin(), unite.left_out().end()));
    EXPECT_TRUE(std::includes(big.begin(), big.end(), unite.left_out().begin(), unite.left_out().end()));
    EXPECT_TRUE(std::includes(lacks.begin(), lacks.end(), unite.taken_in().begin(), unite.taken_in().end()));
    EXPECT_EQ(joined->points, sorted_union(sorted_difference(big, unite.left_out()), unite.taken_in())) << trial;
  }
  EXPECT_GE(joins, 30);
}

}  // namespace
}  // namespace subscale::consolidate
