#include "stages/significance/trimmed_box.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <random>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::uniform_noise;

double strength(const Matrix& m, const Marginals& marginals, const SubspaceCluster& c) {
  const auto s = score_cluster(m, marginals, c);
  return -(s.log10_p + s.log10_search);
}

// The cluster without the points of the outermost value at one end of one of its dimensions.
SubspaceCluster peeled(const Matrix& m, const SubspaceCluster& c, std::uint32_t dimension, bool high) {
  double edge = high ? -INFINITY : INFINITY;
  for (const auto p : c.points) edge = high ? std::max(edge, m(p, dimension)) : std::min(edge, m(p, dimension));
  SubspaceCluster out{c.dimensions, {}};
  for (const auto p : c.points)
    if (m(p, dimension) != edge) out.points.push_back(p);
  return out;
}

// 400 uniform points in 5 dimensions, rows 0-29 planted in a box of width 0.02 in (1, 3), and rows
// 30 and 31 just beyond two of its ends: the cluster as DBSCAN hands it over, with the strays.
struct Strays {
  Matrix m = uniform_noise(400, 5, 11);
  SubspaceCluster planted = plant(m, {1, 3}, 0, 30, 0.02, 12);
  SubspaceCluster with_strays;
  Strays() {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto p : planted.points) lo = std::min(lo, m(p, 1)), hi = std::max(hi, m(p, 3));
    m(30, 1) = lo - 0.013, m(30, 3) = (hi + lo) / 2;
    m(31, 1) = lo + 0.01, m(31, 3) = hi + 0.015;
    with_strays = planted;
    with_strays.points.push_back(30), with_strays.points.push_back(31);
  }
};

TEST(TrimmedBox, StrayNeighboursAtTheEdgesAreTakenAwayAndTheClusterPasses) {
  const Strays data;
  const auto marginals = Marginals::of(data.m);
  ASSERT_LT(score_cluster(data.m, marginals, data.with_strays).score, 2.0);
  ASSERT_GT(score_cluster(data.m, marginals, data.planted).score, 2.0);
  const auto trimmed = trim_while_stronger(data.m, marginals, data.with_strays);
  EXPECT_EQ(trimmed.dimensions, data.with_strays.dimensions);
  EXPECT_GT(score_cluster(data.m, marginals, trimmed).score, 2.0);
  // Both strays are gone, and most of the planted points are still there.
  EXPECT_FALSE(std::binary_search(trimmed.points.begin(), trimmed.points.end(), 30u));
  EXPECT_FALSE(std::binary_search(trimmed.points.begin(), trimmed.points.end(), 31u));
  EXPECT_GE(trimmed.points.size(), 25u);
}

// Against brute force on random clusters: the result is a sorted subset holding at least half the
// points, no weaker than the input, and no removal of one outermost value raises it further.
TEST(TrimmedBox, TheResultIsALocalBestNoWeakerThanTheInput) {
  std::mt19937_64 rng(5);
  int narrowed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Matrix m = uniform_noise(300, 4, 100 + trial);
    SubspaceCluster c = plant(m, {0, 2}, 0, 20 + 3 * (trial % 7), 0.03 + 0.01 * (trial % 3), 200 + trial);
    for (int extra = 0; extra < trial % 4; ++extra) c.points.push_back(40 + static_cast<std::uint32_t>(rng() % 200));
    std::sort(c.points.begin(), c.points.end());
    c.points.erase(std::unique(c.points.begin(), c.points.end()), c.points.end());
    const auto marginals = Marginals::of(m);
    const auto trimmed = trim_while_stronger(m, marginals, c);
    ASSERT_TRUE(std::is_sorted(trimmed.points.begin(), trimmed.points.end()));
    ASSERT_TRUE(std::includes(c.points.begin(), c.points.end(), trimmed.points.begin(), trimmed.points.end()));
    ASSERT_GE(2 * trimmed.points.size(), c.points.size());
    const double after = strength(m, marginals, trimmed);
    narrowed += trimmed.points.size() < c.points.size();
    ASSERT_GE(after, strength(m, marginals, c) - 1e-9);
    for (const auto j : trimmed.dimensions)
      for (const bool high : {false, true}) {
        const auto further = peeled(m, trimmed, j, high);
        if (2 * further.points.size() < c.points.size()) continue;  // beyond what may be taken
        EXPECT_LE(strength(m, marginals, further), after + 1e-9) << "trial " << trial << ", dimension " << j;
      }
  }
  EXPECT_GE(narrowed, 20);  // most clusters lose points (32 of the 40)
}

TEST(TrimmedBox, AClusterOfThreePointsOrNoDimensionIsLeftAsItIs) {
  const Matrix m = uniform_noise(100, 3, 3);
  const auto marginals = Marginals::of(m);
  const SubspaceCluster three{{0, 1}, {4, 9, 17}};
  EXPECT_EQ(trim_while_stronger(m, marginals, three).points, three.points);
  const SubspaceCluster none{{}, {1, 2, 3, 4, 5}};
  EXPECT_EQ(trim_while_stronger(m, marginals, none).points, none.points);
}

TEST(TrimmedBox, ATightClusterWithoutStraysKeepsEveryPoint) {
  // 60 points on 3 levels in each of two dimensions, the rest of the data spread: taking away a
  // level removes a third of the points for a third of the box, which lowers the score.
  Matrix m = uniform_noise(500, 3, 21);
  SubspaceCluster c{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 60; ++i) {
    m(i, 0) = 0.5 + 0.001 * (i % 3);
    m(i, 1) = 0.2 + 0.001 * ((i / 3) % 3);
    c.points.push_back(i);
  }
  const auto marginals = Marginals::of(m);
  EXPECT_EQ(trim_while_stronger(m, marginals, c).points, c.points);
}

}  // namespace
}  // namespace subscale::significance
