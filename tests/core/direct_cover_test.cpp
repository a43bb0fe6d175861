// The CPU walk that passes over covered subtrees (direct_host_cover.hpp) against the walk that
// visits every unit: the same subspaces, bit for bit, with and without the pair table, in float64
// and float32, for m from 2 to 6, masks of one to three words, tie dimensions beside others, on
// one thread and on several. Each case must pass over some subtrees, so that the test covers the
// skipping and not just the walk.
#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <string>

#include "stages/dense_units/direct/direct_pair_table.hpp"
#include "stages/dense_units/direct/direct_units.hpp"
#include "stages/density1d/density1d.hpp"
#include "stages/subspaces/subspaces.hpp"
#include "tests/core/core_test_data.hpp"

namespace subscale {
namespace {

struct CoverOutcome {
  std::string subspaces;
  DenseUnitsResult result;
};

template <class T>
CoverOutcome walk(const ColumnMatrix<T>& values, double eps, std::uint32_t m, std::uint64_t table_bytes,
                  bool skip_covered, int threads) {
  const Density1dResult density = run_density1d(values, {eps, m});
  const UnitPlan plan(density, m);
  const DirectSpace space(values, plan, density, eps);
  dense_units::direct::DirectSubspaceMap map(space.key_words(), space.point_words());
  DenseUnitsResult result;
  tbb::task_arena(threads).execute(
      [&] { result = run_direct_units_cpu(space, plan, map, {}, {}, table_bytes, skip_covered); });
  return {subspaces_text(map.to_subspaces()), result};
}

// The first line where two subspace listings differ (a whole listing is too long to print).
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const std::size_t line = a.rfind('\n', at) == std::string::npos ? 0 : a.rfind('\n', at) + 1;
  return "'" + a.substr(line, a.find('\n', line) - line) + "' against '" + b.substr(line, b.find('\n', line) - line) +
         "'";
}

template <class T>
void expect_same_subspaces(const ColumnMatrix<T>& values, double eps, std::uint32_t m, const std::string& what) {
  for (const std::uint64_t table_bytes : {std::uint64_t{1}, kDirectPairTableBytes}) {  // without, with the table
    const std::string how = what + (table_bytes == 1 ? ", no pair table" : ", pair table");
    const CoverOutcome all = walk(values, eps, m, table_bytes, false, 2);
    ASSERT_TRUE(all.result.multi_units_counted) << how;
    ASSERT_EQ(all.result.walk_covered, 0u) << how;
    ASSERT_GT(all.result.distinct_multi_units, 0u) << how << ": the case has units in two or more dimensions";
    for (const int threads : {1, 2}) {
      const CoverOutcome skipped = walk(values, eps, m, table_bytes, true, threads);
      const std::string at = how + ", " + std::to_string(threads) + " thread(s)";
      EXPECT_TRUE(skipped.subspaces == all.subspaces)
          << at << ": " << first_difference(skipped.subspaces, all.subspaces);
      EXPECT_FALSE(skipped.result.multi_units_counted) << at;
      EXPECT_GT(skipped.result.walk_covered, 0u) << at << ": some subtree was passed over";
      EXPECT_LT(skipped.result.walk_nodes, all.result.walk_nodes) << at;
      EXPECT_LT(skipped.result.distinct_multi_units, all.result.distinct_multi_units) << at;
    }
  }
}

TEST(DirectCover, PassesOverCoveredSubtreesAndKeepsTheSubspaces) {
  for (std::uint32_t m : {4u, 5u})
    expect_same_subspaces(testing::tied_data(220, 8, 3, 60), 0.04, m, "tied m=" + std::to_string(m));
  // m = 3 has only the prefix above the leaves, asked with kCoverLeavesAtLeast candidates below it.
  expect_same_subspaces(testing::tied_data(220, 8, 3, 60), 0.1, 3, "tied m=3");
  const Matrix mixed = testing::mixed_tie_data(180, 70, 5);
  expect_same_subspaces(mixed, 0.02, 4, "mixed m=4");
  expect_same_subspaces(testing::tied_data(75, 130, 9, 12), 0.09, 4, "three words");  // 409 subtrees passed over
}

TEST(DirectCover, KeepsTheSubspacesInFloat32AndNearEpsilon) {
  // Spans within rounding of epsilon: the held precision decides D(U), and covering must follow it.
  // 100 points: m = 3 still passes over about 200 subtrees (120 points: about 750, in 1.6 times the time).
  const Matrix near = testing::near_epsilon_data(100, 12, 4, 0.02);
  for (std::uint32_t m : {3u, 4u}) {
    expect_same_subspaces(near, 0.02, m, "near epsilon, float64, m=" + std::to_string(m));
    expect_same_subspaces(Matrix32(near.cast<float>()), 0.02, m, "near epsilon, float32, m=" + std::to_string(m));
  }
}

TEST(DirectCover, MinPointsTwoAndSixKeepTheSubspaces) {
  // m = 2 has no prefix to test, m = 6 four levels of them.
  const Matrix tied = testing::tied_data(160, 8, 7, 40);
  for (std::uint32_t m : {2u, 6u}) {
    const CoverOutcome all = walk(tied, 0.05, m, kDirectPairTableBytes, false, 2);
    const CoverOutcome skipped = walk(tied, 0.05, m, kDirectPairTableBytes, true, 2);
    EXPECT_TRUE(skipped.subspaces == all.subspaces)
        << "m=" << m << ": " << first_difference(skipped.subspaces, all.subspaces);
    EXPECT_GT(all.result.distinct_multi_units, 0u) << "m=" << m;
    if (m == 2) {
      EXPECT_EQ(skipped.result.walk_covered, 0u);
    } else {
      EXPECT_GT(skipped.result.walk_covered, 0u);
    }
  }
}

}  // namespace
}  // namespace subscale
