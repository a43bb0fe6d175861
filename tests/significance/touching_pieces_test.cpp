#include "stages/significance/touching_pieces.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {
namespace {

using testing::uniform_noise;

// Points first..last-1 laid on the diagonal of dimensions (x, y) from `from` to `to` (evenly, a
// small offset across), the other dimensions left as they are.
SubspaceCluster diagonal(Matrix& m, std::uint32_t x, std::uint32_t y, std::uint32_t first, std::uint32_t last,
                         double from, double to) {
  SubspaceCluster c{{std::min(x, y), std::max(x, y)}, {}};
  const double step = (to - from) / static_cast<double>(last - first);
  for (std::uint32_t i = first; i < last; ++i) {
    const double t = from + step * static_cast<double>(i - first);
    m(i, x) = t;
    m(i, y) = t + ((i % 2 == 0) ? 0.002 : -0.002);
    c.points.push_back(i);
  }
  return c;
}

// The two pieces most tests use: one stretched cluster in (1, 4), rows 0-99 on [0.30, 0.34] and
// rows 100-199 on [0.35, 0.39] of the diagonal, a gap of about 0.015 between them.
std::pair<SubspaceCluster, SubspaceCluster> touching_pair(Matrix& m) {
  auto low = diagonal(m, 1, 4, 0, 100, 0.30, 0.34);
  auto high = diagonal(m, 1, 4, 100, 200, 0.35, 0.39);
  return {std::move(low), std::move(high)};
}

std::vector<ClusterScore> scores_of(const Matrix& m, const Marginals& marginals,
                                    const std::vector<SubspaceCluster>& clusters) {
  std::vector<ClusterScore> out;
  for (const auto& c : clusters) out.push_back(score_cluster(m, marginals, c));
  return out;
}

// Every cluster a lead with a source of 1, scored on m, merge's radius 0.03.
TouchingPieces join_as_leads(const Matrix& m, const std::vector<SubspaceCluster>& clusters, double threshold = 2.0) {
  const auto marginals = Marginals::of(m);
  return join_touching_pieces(m, marginals, clusters, scores_of(m, marginals, clusters),
                              std::vector<std::uint32_t>(clusters.size(), 1), std::vector<bool>(clusters.size(), true),
                              0.03, threshold);
}

// Brute force: every pair, the Euclidean distance over the dimensions.
bool touch_by_every_pair(const Matrix& m, const std::vector<std::uint32_t>& dims, const std::vector<std::uint32_t>& a,
                         const std::vector<std::uint32_t>& b, double epsilon) {
  for (const auto p : a)
    for (const auto q : b) {
      double sum = 0;
      for (const auto j : dims) sum += (m(p, j) - m(q, j)) * (m(p, j) - m(q, j));
      if (sum <= epsilon * epsilon) return true;
    }
  return false;
}

TEST(TouchingPieces, TwoPiecesOfADiagonalClusterAcrossAGapBecomeOne) {
  Matrix m = uniform_noise(1000, 6, 11);
  const auto [low, high] = touching_pair(m);
  const auto marginals = Marginals::of(m);
  const std::vector<SubspaceCluster> pieces{low, high};
  const auto out =
      join_touching_pieces(m, marginals, pieces, scores_of(m, marginals, pieces), {3, 2}, {true, true}, 0.03, 2.0);
  ASSERT_EQ(out.clusters.size(), 1U);
  EXPECT_EQ(out.joins, 1U);
  EXPECT_EQ(out.clusters[0].dimensions, (std::vector<std::uint32_t>{1, 4}));
  std::vector<std::uint32_t> all(200);
  for (std::uint32_t i = 0; i < 200; ++i) all[i] = i;
  EXPECT_EQ(out.clusters[0].points, all);
  EXPECT_EQ(out.sources, (std::vector<std::uint32_t>{5}));
  EXPECT_DOUBLE_EQ(out.scores[0].score, score_cluster(m, marginals, out.clusters[0]).score);
}

TEST(TouchingPieces, ClustersFurtherApartThanTheRadiusStayApart) {
  Matrix m = uniform_noise(1000, 6, 12);
  const auto low = diagonal(m, 1, 4, 0, 100, 0.10, 0.14);
  const auto high = diagonal(m, 1, 4, 100, 200, 0.50, 0.54);
  const auto out = join_as_leads(m, {low, high});
  EXPECT_EQ(out.joins, 0U);
  ASSERT_EQ(out.clusters.size(), 2U);
  EXPECT_EQ(out.clusters[0].points.size() + out.clusters[1].points.size(), 200U);
}

TEST(TouchingPieces, TouchingClustersOfOtherSubspacesStayApart) {
  Matrix m = uniform_noise(1000, 6, 13);
  auto [a, b] = touching_pair(m);
  b.dimensions = {1, 4, 5};
  for (const auto p : b.points) m(p, 5) = 0.5;
  const auto out = join_as_leads(m, {a, b});
  EXPECT_EQ(out.joins, 0U);
  EXPECT_EQ(out.clusters.size(), 2U);
}

TEST(TouchingPieces, AUnionThatFailsTheTestIsNotMade) {
  Matrix m = uniform_noise(1000, 6, 14);
  const auto [low, high] = touching_pair(m);
  SubspaceCluster both{{1, 4}, low.points};
  both.points.insert(both.points.end(), high.points.begin(), high.points.end());
  const double union_score = score_cluster(m, Marginals::of(m), both).score;
  const auto out = join_as_leads(m, {low, high}, union_score + 1.0);
  EXPECT_EQ(out.joins, 0U);
  EXPECT_EQ(out.clusters.size(), 2U);
}

TEST(TouchingPieces, TheResultIsStrongestFirst) {
  Matrix m = uniform_noise(1500, 6, 15);
  // A stretched cluster of two pieces in (1, 4) and a compact one in (0, 2), given strongest first:
  // the union of the pieces scores below each piece, and the list is ordered again.
  const auto [low, high] = touching_pair(m);
  const auto compact = diagonal(m, 0, 2, 200, 300, 0.60, 0.64);
  const auto marginals = Marginals::of(m);
  std::vector<SubspaceCluster> pieces{low, high, compact};
  auto scores = scores_of(m, marginals, pieces);
  std::vector<std::size_t> order{0, 1, 2};
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return scores[a].score > scores[b].score; });
  std::vector<SubspaceCluster> sorted;
  std::vector<ClusterScore> sorted_scores;
  for (const auto k : order) {
    sorted.push_back(pieces[k]);
    sorted_scores.push_back(scores[k]);
  }
  const auto out = join_touching_pieces(m, marginals, sorted, sorted_scores, {1, 1, 1}, {true, true, true}, 0.03, 2.0);
  EXPECT_EQ(out.joins, 1U);
  ASSERT_EQ(out.clusters.size(), 2U);
  EXPECT_GE(out.scores[0].score, out.scores[1].score);
}

TEST(TouchingPieces, TouchEqualsEveryPairCompared) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int touching = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Matrix m = uniform_noise(60, 4, static_cast<std::uint32_t>(100 + trial));
    std::vector<std::uint32_t> a, b;
    for (std::uint32_t i = 0; i < 60; ++i) (unit(rng) < 0.5 ? a : b).push_back(i);
    const std::vector<std::uint32_t> dims{0, 2, 3};
    const double epsilon = 0.01 + 0.1 * unit(rng);
    const bool expected = touch_by_every_pair(m, dims, a, b, epsilon);
    EXPECT_EQ(clusters_touch(m, dims, a, b, epsilon), expected) << trial;
    touching += expected ? 1 : 0;
  }
  // Both answers occur often, so the comparison covers each.
  EXPECT_GT(touching, 20);
  EXPECT_LT(touching, 180);
}

// A piece of a stronger cluster (not a lead) is taken in by the lead of its subspace that it
// touches; a piece no lead takes is left out; and pieces never take each other.
TEST(TouchingPieces, OnlyLeadsTakeInPiecesAndUntakenPiecesAreLeftOut) {
  Matrix m = uniform_noise(1500, 6, 18);
  const auto [lead, piece] = touching_pair(m);
  const auto stray = diagonal(m, 1, 4, 200, 300, 0.70, 0.74);
  auto other = diagonal(m, 0, 2, 300, 400, 0.10, 0.14);
  auto other_piece = diagonal(m, 0, 2, 400, 500, 0.15, 0.19);
  const auto marginals = Marginals::of(m);
  const std::vector<SubspaceCluster> clusters{lead, other, piece, stray, other_piece};
  const auto out = join_touching_pieces(m, marginals, clusters, scores_of(m, marginals, clusters), {1, 1, 1, 1, 1},
                                        {true, false, false, false, false}, 0.03, 2.0);
  EXPECT_EQ(out.joins, 1U);
  ASSERT_EQ(out.clusters.size(), 1U);
  EXPECT_EQ(out.clusters[0].dimensions, lead.dimensions);
  EXPECT_EQ(out.clusters[0].points.size(), 200U);
  EXPECT_EQ(out.sources, (std::vector<std::uint32_t>{2}));
}

TEST(TouchingPieces, ListsOfDifferentLengthsOrABadRadiusAreRefused) {
  Matrix m = uniform_noise(100, 3, 17);
  const auto marginals = Marginals::of(m);
  const std::vector<SubspaceCluster> one{{{0, 1}, {1, 2, 3}}};
  const auto scores = scores_of(m, marginals, one);
  EXPECT_THROW(join_touching_pieces(m, marginals, one, scores, {}, {true}, 0.03, 2.0), std::invalid_argument);
  EXPECT_THROW(join_touching_pieces(m, marginals, one, {}, {1}, {true}, 0.03, 2.0), std::invalid_argument);
  EXPECT_THROW(join_touching_pieces(m, marginals, one, scores, {1}, {}, 0.03, 2.0), std::invalid_argument);
  EXPECT_THROW(join_touching_pieces(m, marginals, one, scores, {1}, {true}, 0.0, 2.0), std::invalid_argument);
  EXPECT_THROW(join_touching_pieces(m, marginals, one, scores, {1}, {true}, std::nan(""), 2.0), std::invalid_argument);
}

}  // namespace
}  // namespace subscale::significance
