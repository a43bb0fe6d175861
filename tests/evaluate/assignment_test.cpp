// The Hungarian method against trying every one-to-one matching.
#include "stages/evaluate/assignment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

namespace subscale::evaluate {
namespace {

// Every injective map from the shorter side into the longer: permutations of the longer side's
// indices, the first `short` of them used.
std::int64_t brute_force(const std::vector<std::int64_t>& w, std::size_t rows, std::size_t columns) {
  const bool by_rows = rows <= columns;
  const std::size_t small = by_rows ? rows : columns, large = by_rows ? columns : rows;
  std::vector<std::size_t> perm(large);
  std::iota(perm.begin(), perm.end(), 0);
  std::int64_t best = 0;
  do {
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < small; ++i) sum += by_rows ? w[i * columns + perm[i]] : w[perm[i] * columns + i];
    best = std::max(best, sum);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

TEST(Assignment, MatchesBruteForceOnRandomMatrices) {
  std::mt19937_64 random(17);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t rows = 1 + random() % 6, columns = 1 + random() % 6;
    std::vector<std::int64_t> w(rows * columns);
    for (auto& x : w) x = static_cast<std::int64_t>(random() % (trial % 3 == 0 ? 3 : 1000));  // many ties too
    const Assignment a = max_weight_assignment(w, rows, columns);
    EXPECT_EQ(a.total, brute_force(w, rows, columns)) << "trial " << trial;
    // The reported matching is one-to-one and sums to the total.
    std::vector<bool> taken(columns, false);
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      const std::int64_t j = a.column_of_row[i];
      if (j < 0) continue;
      ASSERT_LT(static_cast<std::size_t>(j), columns);
      EXPECT_FALSE(taken[static_cast<std::size_t>(j)]);
      taken[static_cast<std::size_t>(j)] = true;
      sum += w[i * columns + static_cast<std::size_t>(j)];
    }
    EXPECT_EQ(sum, a.total);
  }
}

TEST(Assignment, HandExample) {
  // Greedy would take 9 (row 0, column 0) and then 1: 10. The best is 8 + 7 = 15.
  const std::vector<std::int64_t> w{9, 8, 7, 1};
  const Assignment a = max_weight_assignment(w, 2, 2);
  EXPECT_EQ(a.total, 15);
  EXPECT_EQ(a.column_of_row, (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(max_weight_assignment({}, 0, 4).total, 0);
  EXPECT_EQ(max_weight_assignment({}, 3, 0).column_of_row, (std::vector<std::int64_t>{-1, -1, -1}));
}

}  // namespace
}  // namespace subscale::evaluate
