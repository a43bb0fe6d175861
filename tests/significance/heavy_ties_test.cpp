#include "stages/significance/heavy_ties.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "significance_test_data.hpp"

namespace subscale::significance {
namespace {

TEST(HeavyTies, MajorityValueIsSpreadBeyondReach) {
  Matrix m = testing::uniform_noise(200, 3, 51);
  for (Eigen::Index i = 0; i < 150; ++i) m(i, 1) = 0.0;  // 75% zeros
  for (Eigen::Index i = 0; i < 200; ++i) m(i, 2) = 1.0;  // constant
  const Matrix before = m;
  ASSERT_TRUE(has_heavy_ties(m, 0.5));
  const auto moved = spread_heavy_ties(m, 0.5, 0.01);
  EXPECT_EQ(moved.dimensions, 2U);
  EXPECT_EQ(moved.points, 350U);
  EXPECT_EQ(m.col(0), before.col(0));
  for (Eigen::Index i = 150; i < 200; ++i) EXPECT_EQ(m(i, 1), before(i, 1));
  for (const Eigen::Index j : {1, 2}) {
    std::vector<double> column(m.col(j).data(), m.col(j).data() + m.rows());
    std::sort(column.begin(), column.end());
    std::size_t close = 0;
    for (std::size_t i = 1; i < column.size(); ++i) close += column[i] - column[i - 1] < 0.01 ? 1 : 0;
    // Only the untouched values of column 1 (uniform, 50 of them) can still be close.
    EXPECT_LT(close, j == 2 ? 1U : 50U) << j;
  }
  EXPECT_FALSE(has_heavy_ties(m, 0.5));
}

TEST(HeavyTies, GroupsAtOrBelowTheBoundStay) {
  Matrix m = testing::uniform_noise(100, 1, 52);
  for (Eigen::Index i = 0; i < 50; ++i) m(i, 0) = 0.5;
  const Matrix before = m;
  EXPECT_FALSE(has_heavy_ties(m, 0.5));
  EXPECT_EQ(spread_heavy_ties(m, 0.5, 0.01).points, 0U);
  EXPECT_EQ(m, before);
}

}  // namespace
}  // namespace subscale::significance
