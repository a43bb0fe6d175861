// The groups no cluster of merge crosses: known groups on hand-made points, and on random data
// every DBSCAN cluster inside one group, and merge on a group's points alone finding the same
// clusters there as merge on all of the subspace's points.
#include "stages/merge/point_groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "stages/merge/merge.hpp"
#include "stages/merge/subspace_dbscan.hpp"

namespace subscale::merge {
namespace {

// Every group as a sorted set, the groups sorted: the partition without the order it came in.
std::set<std::vector<std::uint32_t>> as_sets(const PointGroups& groups) {
  std::set<std::vector<std::uint32_t>> out;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::uint32_t> members(groups.group(g).begin(), groups.group(g).end());
    std::sort(members.begin(), members.end());
    out.insert(members);
  }
  return out;
}

SubspaceCluster all_points(const Matrix& m, std::vector<std::uint32_t> dimensions) {
  SubspaceCluster s{std::move(dimensions), {}};
  for (std::uint32_t i = 0; i < m.rows(); ++i) s.points.push_back(i);
  return s;
}

TEST(PointGroups, CutsEveryDimensionAtGapsWiderThanEpsilon) {
  // Dimension 0: {0, 1, 2} close, {3, 4} far off. Dimension 1: 0 and 1 close, 2 far from them.
  Matrix m(5, 2);
  m << 0.10, 0.50,  //
      0.12, 0.52,   //
      0.14, 0.90,   //
      0.80, 0.10,   //
      0.81, 0.95;
  std::uint64_t aside = 0;
  const auto groups = point_groups(m, all_points(m, {0, 1}), 0.05, 1, aside);
  EXPECT_EQ(as_sets(groups), (std::set<std::vector<std::uint32_t>>{{0, 1}, {2}, {3}, {4}}));
  EXPECT_EQ(aside, 0u);
}

TEST(PointGroups, ACutInOneDimensionOpensAGapInAnother) {
  // In dimension 0 the points chain 0-1-2 only through point 1; in dimension 1 point 1 is far from
  // both, so once it is cut off there, 0 and 2 (0.08 apart in dimension 0) fall apart too.
  Matrix m(3, 2);
  m << 0.10, 0.20,  //
      0.14, 0.70,   //
      0.18, 0.22;
  std::uint64_t aside = 0;
  const auto groups = point_groups(m, all_points(m, {0, 1}), 0.05, 1, aside);
  EXPECT_EQ(as_sets(groups), (std::set<std::vector<std::uint32_t>>{{0}, {1}, {2}}));
}

TEST(PointGroups, SmallPiecesAreSetAsideAndCounted) {
  Matrix m(6, 1);
  m << 0.10, 0.11, 0.12, 0.50, 0.90, 0.91;
  std::uint64_t aside = 0;
  const auto groups = point_groups(m, all_points(m, {0}), 0.05, 3, aside);
  EXPECT_EQ(as_sets(groups), (std::set<std::vector<std::uint32_t>>{{0, 1, 2}}));
  EXPECT_EQ(aside, 2u);  // {3} and {4, 5}
}

TEST(PointGroups, AGapExactlyEpsilonWideDoesNotCut) {
  // Merge calls two points exactly epsilon apart neighbours (<=); so must the cut.
  Matrix32 m(2, 1);
  m << 0.25f, 0.5f;
  SubspaceCluster s{{0}, {0, 1}};
  std::uint64_t aside = 0;
  EXPECT_EQ(point_groups(m, s, 0.25, 1, aside).size(), 1u);
  EXPECT_EQ(dbscan_in_subspace(m, s, 0.25, 2, false).clusters.size(), 1u);
}

// Random integer levels (many ties, many exact gaps) in a few dimensions, a subset of the points.
Matrix tied_levels(std::size_t n, std::size_t d, int levels, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> level(0, levels - 1);
  Matrix m(n, d);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = level(rng) / static_cast<double>(levels - 1);
  return m;
}

template <class M>
void expect_merge_unchanged_on_the_groups(const M& m, double epsilon, std::size_t min_points, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    SubspaceCluster s;
    for (std::uint32_t j = 0; j < m.cols(); ++j)
      if (rng() % 2 == 0) s.dimensions.push_back(j);
    if (s.dimensions.empty()) s.dimensions.push_back(0);
    for (std::uint32_t i = 0; i < m.rows(); ++i)
      if (rng() % 3 != 0) s.points.push_back(i);
    std::uint64_t aside = 0;
    const auto groups = point_groups(m, s, epsilon, 1, aside);
    std::map<std::uint32_t, std::size_t> group_of;
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (const auto p : groups.group(g)) group_of[p] = g;
    ASSERT_EQ(group_of.size(), s.points.size());
    const auto full = dbscan_in_subspace(m, s, epsilon, min_points, false);
    for (const auto& cluster : full.clusters)
      for (const auto p : cluster) ASSERT_EQ(group_of[p], group_of[cluster.front()]) << "a cluster crosses groups";
    // Merge on every other group's points alone: exactly the full run's clusters in those groups.
    SubspaceCluster some{s.dimensions, {}};
    for (const auto p : s.points)
      if (group_of[p] % 2 == 0) some.points.push_back(p);
    std::vector<std::vector<std::uint32_t>> expected;
    for (const auto& cluster : full.clusters)
      if (group_of[cluster.front()] % 2 == 0) expected.push_back(cluster);
    EXPECT_EQ(dbscan_in_subspace(m, some, epsilon, min_points, false).clusters, expected);
  }
}

TEST(PointGroups, NoClusterOfMergeCrossesAGroupOnTiedLevels) {
  const Matrix m = tied_levels(300, 5, 12, 7);
  for (const double epsilon : {0.05, 1.0 / 11, 0.15})
    for (const std::size_t min_points : {2u, 4u}) expect_merge_unchanged_on_the_groups(m, epsilon, min_points, 8);
}

TEST(PointGroups, NoClusterOfMergeCrossesAGroupInFloat32) {
  const Matrix32 m = tied_levels(300, 4, 40, 9).cast<float>();
  for (const double epsilon : {1.0 / 39, 0.06}) expect_merge_unchanged_on_the_groups(m, epsilon, 3, 10);
}

}  // namespace
}  // namespace subscale::merge
