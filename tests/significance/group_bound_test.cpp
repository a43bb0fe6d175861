// The bound per group of a subspace's points, before merge: it never drops a group holding a
// cluster that merge and the test would keep (compared with the path without it on generated
// data), and on hand-made data it drops exactly the groups it should.
#include "stages/significance/group_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>

#include "significance_test_data.hpp"
#include "stages/merge/merge.hpp"
#include "stages/significance/keep_significant.hpp"

namespace subscale::significance {
namespace {

using Found = std::set<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>>;

// Merge's clusters of `subspaces` that the test keeps (the Bonferroni test over them).
template <class T>
Found significant_merge_clusters(const ColumnMatrix<T>& m, const Marginals& marginals,
                                 const std::vector<SubspaceCluster>& subspaces, const merge::MergeParams& params,
                                 const TestParams& test) {
  const auto merged = merge::merge_subspaces(m, subspaces, params);
  Found out;
  for (const auto i : keep_significant(m, marginals, merged.clusters, test).indices)
    out.insert({merged.clusters[i].dimensions, merged.clusters[i].points});
  return out;
}

// The subspaces the subspace bound lets through (the list the group bound starts from).
std::vector<SubspaceCluster> through_subspace_bound(const Marginals& marginals,
                                                    const std::vector<SubspaceCluster>& subspaces,
                                                    std::uint32_t min_size, const TestParams& test) {
  const auto can = subspaces_that_can_pass(marginals, subspaces, min_size, test);
  std::vector<SubspaceCluster> kept;
  for (std::size_t i = 0; i < subspaces.size(); ++i)
    if (can[i]) kept.push_back(subspaces[i]);
  return kept;
}

// Skewed integer levels (level 0 the most common, as in tie-heavy real data) with clusters planted
// on a level or two of their own dimensions. The subspaces are what the core hands merge on such
// data: each planted cluster's own subspace with its points and 100 others, and every pair of
// dimensions with a few dozen points at random (their upper levels sparse, so gaps open there),
// some with a planted cluster's points too.
struct TiedData {
  Matrix values;
  std::vector<SubspaceCluster> subspaces;
};

TiedData tied_data(std::uint64_t seed) {
  constexpr std::uint32_t n = 900, d = 8, levels = 30;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  TiedData data{Matrix(n, d), {}};
  for (std::uint32_t j = 0; j < d; ++j)
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto level = static_cast<std::uint32_t>(std::pow(u(rng), 2.0) * levels);
      data.values(i, j) = std::min(level, levels - 1) / static_cast<double>(levels - 1);
    }
  const auto with_random = [&](SubspaceCluster s, std::size_t count) {
    std::set<std::uint32_t> points(s.points.begin(), s.points.end());
    for (std::size_t k = 0; k < count; ++k) points.insert(static_cast<std::uint32_t>(rng() % n));
    s.points.assign(points.begin(), points.end());
    return s;
  };
  const std::vector<std::vector<std::uint32_t>> planted{{0, 3}, {1, 5, 6}, {2, 7}};
  std::vector<SubspaceCluster> clusters;
  for (std::size_t c = 0; c < planted.size(); ++c) {
    const auto first = 100 + 200 * static_cast<std::uint32_t>(c), size = 50 + 10 * static_cast<std::uint32_t>(c);
    for (const auto j : planted[c]) {
      const auto level = 10 + static_cast<std::uint32_t>(u(rng) * 15);
      for (std::uint32_t i = first; i < first + size; ++i)
        data.values(i, j) = (level + (u(rng) < 0.5 ? 1 : 0)) / static_cast<double>(levels - 1);
    }
    SubspaceCluster own{planted[c], {}};
    for (std::uint32_t i = first; i < first + size; ++i) own.points.push_back(i);
    clusters.push_back(own);
    data.subspaces.push_back(with_random(own, 100));
  }
  for (std::uint32_t a = 0; a < d; ++a)
    for (std::uint32_t b = a + 1; b < d; ++b) {
      data.subspaces.push_back(with_random({{a, b}, {}}, 40));
      data.subspaces.push_back(with_random({{a, b}, clusters[(a + b) % clusters.size()].points}, 60));
    }
  return data;
}

TEST(GroupBound, KeepsEveryClusterThePathWithoutItKeeps) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const TiedData data = tied_data(seed);
    const auto marginals = Marginals::of(data.values);
    const TestParams test;
    for (const double epsilon : {1.5 / 29, 2.5 / 29})
      for (const std::uint32_t min_points : {2u, 4u}) {
        const merge::MergeParams params{epsilon, min_points};
        auto subspaces = through_subspace_bound(marginals, data.subspaces, std::max(min_points, 2u), test);
        const auto without = significant_merge_clusters(data.values, marginals, subspaces, params, test);
        const auto counts =
            keep_passing_groups(data.values, marginals, subspaces, std::max(min_points, 2u), epsilon, test);
        const auto with = significant_merge_clusters(data.values, marginals, subspaces, params, test);
        EXPECT_EQ(with, without) << "seed " << seed << ", epsilon " << epsilon << ", min_points " << min_points;
        EXPECT_FALSE(without.empty());                 // the planted clusters are found: the comparison means something
        EXPECT_GT(counts.groups, counts.groups_kept);  // and the bound did drop groups
        EXPECT_GT(counts.points_dropped, 0u);
      }
  }
}

TEST(GroupBound, DropsTheGroupsOfAHandMadeSubspaceThatCannotPass) {
  // Subspace {0, 1} of 400 points: 60 in a tight box at (0.2, 0.2), 60 sharing the most common value
  // of both dimensions (0.9 for 70% of the points: their clusters gather nowhere), 3 at (0.6, 0.6)
  // (too few to pass), and the rest spread over (0.4, 0.8) in dimension 0, far from them all.
  Matrix m = testing::uniform_noise(400, 2, 5);
  for (Eigen::Index i = 0; i < 400; ++i) m(i, 0) = 0.4 + 0.4 * m(i, 0);
  for (Eigen::Index i = 120; i < 400; ++i) m(i, 1) = 0.9;
  for (Eigen::Index i = 0; i < 60; ++i) m(i, 0) = 0.2 + 0.0001 * i, m(i, 1) = 0.2 + 0.0001 * i;
  for (Eigen::Index i = 60; i < 120; ++i) m(i, 0) = 0.9, m(i, 1) = 0.9;
  for (Eigen::Index i = 120; i < 123; ++i) m(i, 0) = 0.6, m(i, 1) = 0.6;
  const auto marginals = Marginals::of(m);
  std::vector<SubspaceCluster> subspaces{{{0, 1}, {}}};
  for (std::uint32_t i = 0; i < 400; ++i) subspaces[0].points.push_back(i);
  const auto counts = keep_passing_groups(m, marginals, subspaces, 4, 0.01, TestParams{});
  ASSERT_EQ(subspaces.size(), 1u);
  std::vector<std::uint32_t> planted;
  for (std::uint32_t i = 0; i < 60; ++i) planted.push_back(i);
  EXPECT_EQ(subspaces[0].points, planted);
  EXPECT_EQ(counts.groups_kept, 1u);
  EXPECT_EQ(counts.points_dropped, 340u);
  EXPECT_EQ(counts.subspaces_dropped, 0u);
}

TEST(GroupBound, ASubspaceWithNoGroupThatCanPassIsDropped) {
  const Matrix m = testing::uniform_noise(500, 3, 6);
  const auto marginals = Marginals::of(m);
  std::vector<SubspaceCluster> subspaces{{{0, 2}, {}}, {{1, 2}, {}}};
  for (std::uint32_t i = 0; i < 500; ++i) subspaces[0].points.push_back(i), subspaces[1].points.push_back(i);
  // At this radius uniform noise falls apart into pieces of a point or two: none can pass.
  const auto counts = keep_passing_groups(m, marginals, subspaces, 4, 0.0005, TestParams{});
  EXPECT_TRUE(subspaces.empty());
  EXPECT_EQ(counts.subspaces_dropped, 2u);
  EXPECT_EQ(counts.groups_kept, 0u);
}

TEST(GroupBound, LeavesTheListAsItIsWithFdr) {
  const Matrix m = testing::uniform_noise(500, 3, 6);
  const auto marginals = Marginals::of(m);
  std::vector<SubspaceCluster> subspaces{{{0, 2}, {0, 1, 2, 3, 4, 5}}};
  const auto before = subspaces;
  TestParams fdr;
  fdr.correction = Correction::fdr;
  const auto counts = keep_passing_groups(m, marginals, subspaces, 4, 0.0005, fdr);
  EXPECT_EQ(subspaces.size(), 1u);
  EXPECT_EQ(subspaces[0].points, before[0].points);
  EXPECT_EQ(counts.groups, 0u);
}

}  // namespace
}  // namespace subscale::significance
