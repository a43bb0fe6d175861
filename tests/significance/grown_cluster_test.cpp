#include "stages/significance/grown_cluster.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::uniform_noise;

bool within(const Matrix& m, const std::vector<std::uint32_t>& dims, std::uint32_t a, std::uint32_t b, double eps) {
  double sum = 0;
  for (const auto j : dims) sum += (m(a, j) - m(b, j)) * (m(a, j) - m(b, j));
  return sum <= eps * eps;
}

// DBSCAN's expansion by every pair of points: the seed, and everything density-reachable from
// its core points.
std::vector<std::uint32_t> expanded_by_every_pair(const Matrix& m, const SubspaceCluster& seed, double eps,
                                                  std::size_t min_points) {
  const auto n = static_cast<std::uint32_t>(m.rows());
  std::vector<char> member(n, 0), done(n, 0);
  for (const auto p : seed.points) member[p] = 1;
  std::vector<std::uint32_t> frontier = seed.points;
  while (!frontier.empty()) {
    const auto p = frontier.back();
    frontier.pop_back();
    if (done[p]) continue;
    done[p] = 1;
    std::vector<std::uint32_t> around;
    for (std::uint32_t q = 0; q < n; ++q)
      if (within(m, seed.dimensions, p, q, eps)) around.push_back(q);
    if (around.size() < min_points) continue;
    for (const auto q : around) {
      member[q] = 1;
      frontier.push_back(q);
    }
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t p = 0; p < n; ++p)
    if (member[p]) out.push_back(p);
  return out;
}

TEST(GrownCluster, AFewPointsOfACubeGrowIntoTheWholeCube) {
  Matrix m = uniform_noise(4000, 6, 11);
  const SubspaceCluster cube = plant(m, {1, 3, 4}, 0, 60, 0.05, 12);
  const SubspaceCluster seed{cube.dimensions, {0, 1, 2, 3, 4}};
  const auto marginals = Marginals::of(m);
  const SubspaceCluster grown = grown_in_subspace(m, marginals, seed, {0.02, 2, 0});
  EXPECT_EQ(grown.dimensions, cube.dimensions);
  EXPECT_EQ(grown.points, expanded_by_every_pair(m, seed, 0.02, 2));
  EXPECT_TRUE(std::includes(grown.points.begin(), grown.points.end(), cube.points.begin(), cube.points.end()));
  EXPECT_LE(grown.points.size(), 66U);
  EXPECT_GT(score_cluster(m, marginals, grown).score, score_cluster(m, marginals, seed).score);
}

// The growth is looked for in a window around the cluster, widened until every point looked up
// has its neighbourhood inside it: a long cluster reached from one end needs several widenings.
TEST(GrownCluster, ALongClusterGrowsFromOneEndToTheOther) {
  Matrix m = uniform_noise(4000, 5, 61);
  for (std::uint32_t i = 0; i < 200; ++i) {
    m(i, 0) = 0.1 + 0.0025 * i;
    m(i, 2) = 0.40 + 0.01 * m(i, 2);
    m(i, 3) = 0.70 + 0.01 * m(i, 3);
  }
  const SubspaceCluster seed{{0, 2, 3}, {0, 1, 2, 3, 4}};
  const SubspaceCluster grown = grown_in_subspace(m, Marginals::of(m), seed, {0.02, 3, 0});
  EXPECT_EQ(grown.points, expanded_by_every_pair(m, seed, 0.02, 3));
  ASSERT_GE(grown.points.size(), 200U);
  EXPECT_EQ(grown.points[199], 199U);
}

TEST(GrownCluster, TheFloatValuesGrowTheSamePoints) {
  Matrix m = uniform_noise(3000, 5, 21);
  const SubspaceCluster cube = plant(m, {0, 2}, 0, 50, 0.04, 22);
  const SubspaceCluster seed{cube.dimensions, {0, 1, 2}};
  const Matrix32 held = m.cast<float>();
  const auto grown = grown_in_subspace(m, Marginals::of(m), seed, {0.01, 3, 0});
  EXPECT_GT(grown.points.size(), 40U);
  EXPECT_EQ(grown_in_subspace(held, Marginals::of(held), seed, {0.01, 3, 0}).points, grown.points);
}

// A piece of a cluster stretched along the diagonal of (1, 4): the whole cluster's box holds more
// background than the piece's, so the piece scores higher and stays as it is.
TEST(GrownCluster, APieceOfADiagonalClusterStaysAPiece) {
  Matrix m = uniform_noise(3000, 5, 31);
  SubspaceCluster piece{{1, 4}, {}};
  for (std::uint32_t i = 0; i < 600; ++i) {
    const double t = 0.2 + 0.0005 * i;
    m(i, 1) = t;
    m(i, 4) = t + ((i % 2 == 0) ? 0.002 : -0.002);
    if (i < 200) piece.points.push_back(i);
  }
  const auto marginals = Marginals::of(m);
  const std::vector<std::uint32_t> whole = expanded_by_every_pair(m, piece, 0.01, 3);
  ASSERT_GE(whole.size(), 600U);  // the growth would reach the whole cluster
  ASSERT_GT(score_cluster(m, marginals, piece).score, 2.0);
  ASSERT_EQ(score_cluster(m, marginals, SubspaceCluster{piece.dimensions, whole}).score, 0.0);
  EXPECT_EQ(grown_in_subspace(m, marginals, piece, {0.01, 3, 0}).points, piece.points);
}

// Where merge's radius links the background into one component, the growth would take most of
// the data: it is abandoned at half the points, and at any limit given.
TEST(GrownCluster, GrowthBeyondItsLimitIsAbandoned) {
  const Matrix m = uniform_noise(2000, 3, 41);
  const auto marginals = Marginals::of(m);
  const SubspaceCluster seed = testing::nearest(m, {0, 1}, 7, 12);
  EXPECT_EQ(grown_in_subspace(m, marginals, seed, {0.1, 3, 0}).points, seed.points);
  Matrix planted = uniform_noise(4000, 6, 11);
  plant(planted, {1, 3, 4}, 0, 60, 0.05, 12);
  const SubspaceCluster few{{1, 3, 4}, {0, 1, 2, 3, 4}};
  EXPECT_EQ(grown_in_subspace(planted, Marginals::of(planted), few, {0.02, 2, 20}).points, few.points);
}

TEST(GrownCluster, ARadiusThatIsNotPositiveIsAnError) {
  const Matrix m = uniform_noise(100, 3, 51);
  const SubspaceCluster seed{{0, 1}, {0, 1, 2}};
  EXPECT_THROW(grown_in_subspace(m, Marginals::of(m), seed, {0.0, 2, 0}), std::invalid_argument);
  EXPECT_THROW(grown_in_subspace(m, Marginals::of(m), seed, {-1.0, 2, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace subscale::significance
