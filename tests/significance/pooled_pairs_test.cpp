#include "stages/significance/pooled_pairs.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace subscale::significance {
namespace {

// Random subspaces of 1-6 of `d` dimensions holding 1-5 of `n` points.
std::vector<SubspaceCluster> random_subspaces(std::size_t count, std::uint32_t n, std::uint32_t d, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<SubspaceCluster> out;
  for (std::size_t i = 0; i < count; ++i) {
    std::set<std::uint32_t> dims, points;
    const auto k = 1 + random() % 6, m = 1 + random() % 5;
    while (dims.size() < k) dims.insert(static_cast<std::uint32_t>(random() % d));
    while (points.size() < m) points.insert(static_cast<std::uint32_t>(random() % n));
    out.push_back({{dims.begin(), dims.end()}, {points.begin(), points.end()}});
  }
  return out;
}

void expect_pairs_of(const std::vector<SubspaceCluster>& subspaces, std::uint32_t n, std::uint32_t d) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::set<std::uint32_t>> expected;
  std::uint64_t additions = 0;
  for (const auto& s : subspaces)
    for (std::size_t i = 0; i < s.dimensions.size(); ++i)
      for (std::size_t j = i + 1; j < s.dimensions.size(); ++j) {
        expected[{s.dimensions[i], s.dimensions[j]}].insert(s.points.begin(), s.points.end());
        additions += s.points.size();
      }
  const auto pooled = pool_into_pairs(subspaces, n, d, additions);
  EXPECT_FALSE(pooled.over_budget);
  EXPECT_EQ(pooled.memberships, additions);
  ASSERT_EQ(pooled.pairs.size(), expected.size());
  auto want = expected.begin();
  for (const auto& pair : pooled.pairs) {  // ordered by (a, b), as the map
    EXPECT_EQ(pair.dimensions, (std::vector<std::uint32_t>{want->first.first, want->first.second}));
    EXPECT_EQ(pair.points, (std::vector<std::uint32_t>{want->second.begin(), want->second.end()}));
    ++want;
  }
}

void expect_pairs_of_every_subspace(std::size_t count, std::uint32_t n, std::uint32_t d, std::uint64_t seed) {
  expect_pairs_of(random_subspaces(count, n, d, seed), n, d);
}

TEST(PooledPairs, EachPairHoldsThePointsOfEverySubspaceHoldingBoth) {
  expect_pairs_of_every_subspace(400, 130, 9, 11);  // more than two words of bits per pair
}

// The subspaces holding each dimension are listed a chunk of them at a time, in parallel: many
// chunks give the same pairs.
TEST(PooledPairs, ManySubspacesGiveTheSamePairs) { expect_pairs_of_every_subspace(40'000, 200, 30, 5); }

// A dimension in every subspace (a common level) is most of the work; its pairs are cut into
// blocks of second dimensions, as many as the threads call for: any number gives the same pairs.
TEST(PooledPairs, ADimensionInEverySubspaceGivesTheSamePairsOnAnyNumberOfThreads) {
  constexpr std::uint32_t n = 300, d = 160;
  auto subspaces = random_subspaces(20'000, n, d, 17);
  for (auto& s : subspaces)
    if (s.dimensions.front() != 0) s.dimensions.insert(s.dimensions.begin(), 0);
  for (const int threads : {1, 2, 8, 32}) {
    SCOPED_TRACE(threads);
    tbb::task_arena(threads).execute([&] { expect_pairs_of(subspaces, n, d); });
  }
}

TEST(PooledPairs, OverTheBudgetNothingIsPooled) {
  const auto subspaces = random_subspaces(50, 40, 6, 12);
  const auto pooled = pool_into_pairs(subspaces, 40, 6, 3);
  EXPECT_TRUE(pooled.over_budget);
  EXPECT_GT(pooled.memberships, 3U);
  EXPECT_TRUE(pooled.pairs.empty());
}

TEST(PooledPairs, OneDimensionalAndEmptyInputsMakeNoPair) {
  EXPECT_TRUE(pool_into_pairs({}, 10, 4, 100).pairs.empty());
  const std::vector<SubspaceCluster> single{{{2}, {0, 1, 2}}};
  const auto pooled = pool_into_pairs(single, 10, 4, 100);
  EXPECT_TRUE(pooled.pairs.empty());
  EXPECT_EQ(pooled.memberships, 0U);
}

TEST(PooledPairs, ChanceDimensionsAreUnitsOverTheSetsOfThatSize) {
  EXPECT_NEAR(chance_dimensions(4950.0 * 3, 100, 2), 3.0, 1e-9);  // C(100, 2) = 4950
  EXPECT_NEAR(chance_dimensions(161700.0, 100, 3), 1.0, 1e-9);    // C(100, 3) = 161700
  EXPECT_EQ(chance_dimensions(10.0, 2, 3), 0.0);                  // fewer points than a unit
}

}  // namespace
}  // namespace subscale::significance
