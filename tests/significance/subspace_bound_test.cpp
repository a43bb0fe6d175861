#include "stages/significance/subspace_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "significance_test_data.hpp"
#include "stages/significance/cluster_score.hpp"

namespace subscale::significance {
namespace {

using testing::plant;
using testing::uniform_noise;

// 300 random subsets of the subspace's points of at least min_size points, each point kept with a
// chance from 0.1 to 1.
std::vector<SubspaceCluster> random_subsets(const SubspaceCluster& subspace, std::size_t min_size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<SubspaceCluster> subsets;
  for (int trial = 0; trial < 300; ++trial) {
    SubspaceCluster subset{subspace.dimensions, {}};
    const double keep = (trial % 10 + 1) / 10.0;
    for (const auto p : subspace.points)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < keep) subset.points.push_back(p);
    if (subset.points.size() >= min_size) subsets.push_back(std::move(subset));
  }
  return subsets;
}

TEST(SubspaceBound, NoSubsetScoresAboveTheBound) {
  Matrix m = uniform_noise(400, 8, 21);
  plant(m, {1, 6}, 0, 60, 0.05, 22);
  for (Eigen::Index i = 100; i < 140; ++i) m(i, 1) = 0.3;  // a tie group inside the subspace's points
  const auto marginals = Marginals::of(m);
  SubspaceCluster subspace{{1, 6}, {}};
  for (std::uint32_t i = 0; i < 160; ++i) subspace.points.push_back(i);
  const double bound = best_possible_score(marginals, subspace, 4);
  for (const auto& subset : random_subsets(subspace, 4, 23))
    EXPECT_LE(score_cluster(m, marginals, subset).score, bound + 1e-9);
  // The planted 60 alone reach a high score; the bound is above it.
  SubspaceCluster planted{{1, 6}, {}};
  for (std::uint32_t i = 0; i < 60; ++i) planted.points.push_back(i);
  EXPECT_GT(score_cluster(m, marginals, planted).score, 2.0);
}

TEST(SubspaceBound, SmallChanceSubspaceCannotPass) {
  const Matrix m = uniform_noise(2000, 50, 31);
  const auto marginals = Marginals::of(m);
  const SubspaceCluster tiny{{3, 17}, {5, 80, 400, 1200, 1700, 1999}};
  EXPECT_LT(best_possible_score(marginals, tiny, 4), 2.0);
}

TEST(SubspaceBound, OnASampleNoPredictionScoresAboveTheBound) {
  // A sample of 1% of an input: the bound before merge bounds what its clusters predict for the
  // input, so it skips no subspace that could hold a cluster predicted to pass.
  Matrix m = uniform_noise(2000, 20, 51);
  plant(m, {2, 7}, 0, 25, 0.08, 52);
  const auto marginals = Marginals::of(m);
  SubspaceCluster subspace{{2, 7}, {}};
  for (std::uint32_t i = 0; i < 60; ++i) subspace.points.push_back(i);
  const double bound = best_possible_score(marginals, subspace, 4, 0.0, 100.0);
  EXPECT_GT(bound, best_possible_score(marginals, subspace, 4));
  for (const auto& subset : random_subsets(subspace, 4, 53))
    EXPECT_LE(predicted_for_input(score_cluster(m, marginals, subset), 2000, 100.0).score, bound + 1e-9);
  // Ten points predict nothing for the input (10 - 3 sqrt(10) < 1), however tight they are.
  const SubspaceCluster ten{{2, 7}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
  EXPECT_GT(best_possible_score(marginals, ten, 4), 0.0);
  EXPECT_EQ(best_possible_score(marginals, ten, 4, 0.0, 100.0), 0.0);
}

TEST(SubspaceBound, TieFloorsTightenTheBound) {
  Matrix m = uniform_noise(300, 3, 41);
  for (Eigen::Index i = 0; i < 270; ++i) m(i, 0) = 0.5;
  for (Eigen::Index i = 0; i < 270; ++i) m(i, 1) = 0.5;
  const auto marginals = Marginals::of(m);
  SubspaceCluster majority{{0, 1}, {}};
  for (std::uint32_t i = 0; i < 40; ++i) majority.points.push_back(i);
  // Without floors 40 points in 2 dimensions could be strong; all share 90% values, so not here.
  EXPECT_GT(best_possible_score(300, 3, 2, 300, 40), 2.0);
  EXPECT_EQ(best_possible_score(marginals, majority, 4), 0.0);
}

TEST(SubspaceBound, TheBoundsOfAListAreEachSubspacesOwnExactly) {
  // Subspaces of every kind the list meets: tied and untied, of one to twelve dimensions, a few
  // points or many, below min_size, with and without a sample; each value is best_possible_score's.
  Matrix m = uniform_noise(500, 14, 61);
  for (Eigen::Index i = 0; i < 200; ++i) m(i, 3) = 0.25;
  plant(m, {1, 5, 9}, 0, 50, 0.03, 62);
  const auto marginals = Marginals::of(m);
  std::mt19937_64 rng(63);
  std::vector<SubspaceCluster> list;
  for (int t = 0; t < 400; ++t) {
    SubspaceCluster s;
    for (std::uint32_t j = 0; j < 14; ++j)
      if (std::uniform_int_distribution<int>(0, 13)(rng) < 1 + t % 12) s.dimensions.push_back(j);
    if (s.dimensions.empty()) s.dimensions.push_back(static_cast<std::uint32_t>(t % 14));
    const std::uint32_t size = t % 5 == 0 ? 200 : 1 + static_cast<std::uint32_t>(t % 9);
    for (std::uint32_t p = 0; p < size; ++p) s.points.push_back((p * 7 + static_cast<std::uint32_t>(t)) % 500);
    std::sort(s.points.begin(), s.points.end());
    s.points.erase(std::unique(s.points.begin(), s.points.end()), s.points.end());
    list.push_back(std::move(s));
  }
  std::vector<const SubspaceCluster*> view;
  for (const auto& s : list) view.push_back(&s);
  for (const double scale : {1.0, 20.0}) {
    const SubspaceBounds bounds(marginals, view, 4, scale);
    for (const double enough : {0.0, 2.0, 1e9})
      for (const auto& s : list)
        EXPECT_EQ(bounds.best_possible_score(s, enough), best_possible_score(marginals, s, 4, enough, scale));
  }
}

TEST(SubspaceBound, SmallestPassingSize) {
  const std::uint32_t k = smallest_passing_size(1000, 20, 2, 1000, 2.0);
  EXPECT_GE(best_possible_score(1000, 20, 2, 1000, k), 2.0);
  EXPECT_LT(best_possible_score(1000, 20, 2, 1000, k - 1), 2.0);
  // More dimensions need fewer points; coarser levels (fewer boxes) need fewer too.
  EXPECT_LE(smallest_passing_size(1000, 20, 4, 1000, 2.0), k);
  EXPECT_LE(smallest_passing_size(1000, 20, 2, 20, 2.0), k);
}

}  // namespace
}  // namespace subscale::significance
