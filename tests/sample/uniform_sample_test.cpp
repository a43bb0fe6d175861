#include "stages/sample/uniform_sample.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace subscale::sample {
namespace {

TEST(UniformSample, TheDrawOrderIsAPermutationFixedByTheSeed) {
  const auto order = draw_order(10000, 7);
  std::vector<std::uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> all(10000);
  std::iota(all.begin(), all.end(), 0U);
  EXPECT_EQ(sorted, all);
  EXPECT_EQ(order, draw_order(10000, 7));
  EXPECT_NE(order, draw_order(10000, 8));
}

TEST(UniformSample, SmallerSamplesOfOneSeedLieInsideLargerOnes) {
  const auto order = draw_order(5000, 3);
  const auto small = first_rows(order, 100), large = first_rows(order, 1000);
  EXPECT_TRUE(std::is_sorted(large.begin(), large.end()));
  EXPECT_EQ(small.size(), 100u);
  EXPECT_TRUE(std::includes(large.begin(), large.end(), small.begin(), small.end()));
  EXPECT_EQ(first_rows(order, 9999).size(), 5000u);
}

TEST(UniformSample, EveryRowIsAboutEquallyLikely) {
  // 200 rows, samples of 50 under 400 seeds: each row is drawn 100 times on average (sd about 8.7).
  std::vector<int> drawn(200, 0);
  for (std::uint64_t seed = 0; seed < 400; ++seed)
    for (const auto row : first_rows(draw_order(200, seed), 50)) ++drawn[row];
  for (const int count : drawn) {
    EXPECT_GT(count, 60);
    EXPECT_LT(count, 140);
  }
  // Neither the low rows nor the high ones are favoured.
  EXPECT_NEAR(std::accumulate(drawn.begin(), drawn.begin() + 100, 0), 10000, 400);
}

TEST(UniformSample, TakeRowsCopiesTheRowsInOrder) {
  Matrix values(5, 2);
  values << 0, 10, 1, 11, 2, 12, 3, 13, 4, 14;
  const Matrix taken = take_rows(values, {1, 3, 4});
  ASSERT_EQ(taken.rows(), 3);
  EXPECT_EQ(taken(0, 0), 1);
  EXPECT_EQ(taken(1, 1), 13);
  EXPECT_EQ(taken(2, 0), 4);
}

}  // namespace
}  // namespace subscale::sample
