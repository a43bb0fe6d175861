#include "stages/significance/auto_parameters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "significance_test_data.hpp"
#include "stages/significance/binomial_tail.hpp"

namespace subscale::significance {
namespace {

// Windows counted the slow way: every position, every later point within epsilon.
double brute_units(const Matrix& m, double epsilon, std::uint32_t min_points) {
  double total = 0;
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    std::vector<double> c(m.col(j).data(), m.col(j).data() + m.rows());
    std::sort(c.begin(), c.end());
    for (std::size_t i = 0; i < c.size(); ++i) {
      std::size_t w = 0;
      while (i + w < c.size() && c[i + w] - c[i] < epsilon) ++w;
      if (w >= min_points) total += std::exp(log_choose(w - 1, min_points - 1));
    }
  }
  return total;
}

TEST(AutoParameters, EpsilonFollowsTheSpacingOfUniformData) {
  // n uniform points: 8 consecutive values span about 7 / n.
  for (const std::size_t n : {300, 3000}) {
    const Matrix m = testing::uniform_noise(n, 6, 61 + n);
    const double median = window_span_quantile(m, 8, 0.5, 0.5);
    EXPECT_NEAR(median * static_cast<double>(n), 7.0, 1.5) << n;
    // The 60th percentile the default takes: a little above, as the spans are Gamma(7)-like.
    const double eps = window_span_quantile(m, 8, 0.6, 0.5);
    EXPECT_GT(eps, median);
    EXPECT_LT(eps, 1.2 * median);
  }
}

TEST(AutoParameters, TheWindowIsAShareOfThePointsOnLargeData) {
  AutoRequest request;
  EXPECT_EQ(window_for(request, 300), 8U);
  EXPECT_EQ(window_for(request, 1600), 8U);
  EXPECT_EQ(window_for(request, 1601), 9U);
  EXPECT_EQ(window_for(request, 6000), 30U);
  // The same distribution sampled with 4x the points: the same radius, not a quarter of it.
  const auto small = choose_core_parameters(testing::uniform_noise(2000, 4, 81), request);
  const auto large = choose_core_parameters(testing::uniform_noise(8000, 4, 82), request);
  EXPECT_NEAR(large.epsilon / small.epsilon, 1.0, 0.15);
  EXPECT_NE(large.epsilon_reason.find("60th percentile of the spans of 40 consecutive values"), std::string::npos)
      << large.epsilon_reason;
}

TEST(AutoParameters, EpsilonIsTheLevelGapOnIntegerLevels) {
  Matrix m(400, 3);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = static_cast<double>((i * (j + 3)) % 11) / 10.0;
  EXPECT_NEAR(window_span_quantile(m, 8, 0.6, 0.5), 0.1, 1e-12);
}

TEST(AutoParameters, NoTwoAdjacentLevelsAreWithinEpsilonWhateverTheRounding) {
  // 60 levels scaled to [0, 1]: (l + 1) / 59 - l / 59 takes several values an ulp apart. Epsilon
  // is the smallest of them, so the strict test |x - y| < epsilon holds for no adjacent pair.
  Matrix m(1200, 2);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = static_cast<double>((i * (j + 7)) % 60) / 59.0;
  const double eps = window_span_quantile(m, 8, 0.6, 0.5);
  bool rounding_differs = false;
  for (int l = 0; l + 1 < 60; ++l) {
    const double gap = (l + 1) / 59.0 - l / 59.0;
    EXPECT_GE(gap, eps) << l;
    rounding_differs = rounding_differs || gap != eps;
  }
  EXPECT_TRUE(rounding_differs);  // else this test would not test the rule
  EXPECT_NEAR(eps, 1.0 / 59.0, 1e-12);
}

TEST(AutoParameters, PlannedUnitsMatchACountByHand) {
  const Matrix m = testing::uniform_noise(250, 3, 71);
  for (const std::uint32_t mp : {2U, 3U, 4U})
    EXPECT_NEAR(planned_units(m, 0.03, mp, 1.0), brute_units(m, 0.03, mp), 1e-6 * brute_units(m, 0.03, mp));
}

TEST(AutoParameters, BackgroundValuesAreNotCounted) {
  Matrix m = testing::uniform_noise(300, 2, 72);
  for (Eigen::Index i = 0; i < 200; ++i) m(i, 0) = 0.0;  // two thirds share one value
  const double with = planned_units(m, 0.01, 3, 1.0);
  const double without = planned_units(m, 0.01, 3, 0.5);
  EXPECT_GT(with, 199.0 * 198 / 2);  // the tie group alone: C(199, 2) units at its first point
  EXPECT_LT(without, 5000.0);
}

TEST(AutoParameters, TieGroupsLowerMinPoints) {
  // Ten levels on every dimension: windows of ~60 tied points; C(59, 3) units each is too many.
  Matrix m(600, 8);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = static_cast<double>((i * (2 * j + 1) + j) % 10) / 9.0;
  AutoRequest request;
  request.unit_budget = 1e6;
  const auto choice = choose_core_parameters(m, request);
  EXPECT_LT(choice.min_points, 4U);
  EXPECT_LE(choice.dense_units, 1e6);
  EXPECT_NEAR(choice.epsilon, 1.0 / 9.0, 1e-12);
  // Continuous data of the same size keeps 4.
  const auto continuous = choose_core_parameters(testing::uniform_noise(600, 8, 73), request);
  EXPECT_EQ(continuous.min_points, 4U);
}

TEST(AutoParameters, GivenValuesAreKept) {
  const Matrix m = testing::uniform_noise(200, 3, 74);
  AutoRequest request;
  request.epsilon = 0.05;
  request.min_points = 5;
  const auto choice = choose_core_parameters(m, request);
  EXPECT_EQ(choice.epsilon, 0.05);
  EXPECT_EQ(choice.min_points, 5U);
  EXPECT_EQ(choice.epsilon_reason, "given");
}

TEST(AutoParameters, OverBudgetEvenAtTwoHalvesEpsilon) {
  const Matrix m = testing::uniform_noise(2000, 4, 75);
  AutoRequest request;
  request.unit_budget = 2000;  // below what the median spacing gives even with pairs
  const auto choice = choose_core_parameters(m, request);
  EXPECT_EQ(choice.min_points, 2U);
  EXPECT_LE(choice.dense_units, 2000.0);
  EXPECT_LT(choice.epsilon, window_span_quantile(m, 8, 0.6, 0.5));
}

}  // namespace
}  // namespace subscale::significance

namespace subscale::significance {
namespace {

// n points on `levels` integer levels in every dimension, normalised, with a level holding
// `heavy` of each column's points (level 0) where heavy > 0.
Matrix grid_data(std::size_t n, std::size_t d, std::uint32_t levels, std::uint64_t seed, double heavy = 0) {
  Matrix m = testing::uniform_noise(n, d, seed);
  const Matrix coin = testing::uniform_noise(n, d, seed + 1);
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      m(i, j) = coin(i, j) < heavy ? 0.0 : std::floor(m(i, j) * levels) / static_cast<double>(levels - 1);
    m(0, j) = 0, m(1, j) = 1;
  }
  return m;
}

AutoRequest with_levels() {
  AutoRequest request;
  request.levels = true;
  request.fold_repeats = true;
  return request;
}

TEST(AutoLevels, AFineGridLinksAdjacentLevelsAndACoarseOneKeepsOne) {
  // 200 levels, 3000 points: the continuous radius is about one gap, so one level would break any
  // cluster spanning a few; on 10 levels it is a twentieth of a gap.
  const auto fine = choose_core_parameters(grid_data(3000, 4, 200, 1), with_levels());
  ASSERT_EQ(fine.levels.size(), 4U);
  for (const auto& r : fine.levels) {
    EXPECT_EQ(r.core, 1U);
    EXPECT_EQ(r.search, 3U);
  }
  EXPECT_NEAR(fine.epsilon * 199, 1.0, 0.1);
  EXPECT_NE(fine.levels_reason.find("200 levels in 4"), std::string::npos) << fine.levels_reason;
  const auto coarse = choose_core_parameters(grid_data(1500, 4, 10, 2), with_levels());
  ASSERT_EQ(coarse.levels.size(), 4U);
  EXPECT_EQ(coarse.levels[0].core, 0U);
  EXPECT_EQ(coarse.levels[0].search, 0U);
  EXPECT_GE(coarse.min_points, 3U);
}

TEST(AutoLevels, ContinuousDataChoosesAsBefore) {
  const Matrix m = testing::uniform_noise(1200, 5, 3);
  const auto before = choose_core_parameters(m, AutoRequest{});
  const auto now = choose_core_parameters(m, with_levels());
  EXPECT_EQ(now.epsilon, before.epsilon);
  EXPECT_EQ(now.min_points, before.min_points);
  EXPECT_EQ(now.dense_units, before.dense_units);
  EXPECT_TRUE(now.levels.empty());
  EXPECT_TRUE(now.levels_reason.empty());
}

TEST(AutoLevels, UnitsAreCountedOnTheScaledValuesTheCoreReads) {
  const Matrix m = grid_data(2000, 3, 100, 4);
  const auto choice = choose_core_parameters(m, with_levels());
  ASSERT_EQ(choice.levels.size(), 3U);
  const auto grids = grids_of(m);
  const auto scales = scales_for(choice.levels, grids, choice.epsilon, 4 * choice.epsilon);
  EXPECT_DOUBLE_EQ(choice.dense_units, planned_units(scaled(m, scales.core), choice.epsilon, choice.min_points, 0.5));
}

TEST(AutoLevels, RepeatedColumnsLeaveTheChoiceAsWithoutThem) {
  const Matrix base = grid_data(1500, 3, 200, 5);
  Matrix doubled(base.rows(), 5);
  doubled << base, base.col(0), (1.0 - base.col(2).array()).matrix();
  const auto without = choose_core_parameters(base, with_levels());
  const auto with = choose_core_parameters(doubled, with_levels());
  EXPECT_EQ(with.folded_columns, 2U);
  EXPECT_EQ(with.epsilon, without.epsilon);
  EXPECT_EQ(with.min_points, without.min_points);
  EXPECT_EQ(with.dense_units, without.dense_units);
  ASSERT_EQ(with.levels.size(), 5U);
  EXPECT_EQ(with.levels[3].dimension, 3U);
  EXPECT_EQ(with.levels[3].core, without.levels[0].core);
}

TEST(AutoLevels, MinPointsBelowThreeSaysWhichTieGroupIsToBlame) {
  // A level holding 40% of every column: every 3 of its points is a unit.
  const auto choice = choose_core_parameters(grid_data(2000, 6, 100, 6, 0.4), with_levels());
  ASSERT_EQ(choice.min_points, 2U);
  EXPECT_TRUE(choice.budget_limited);
  EXPECT_NE(choice.min_points_reason.find("3 would make"), std::string::npos) << choice.min_points_reason;
  EXPECT_NE(choice.min_points_reason.find("most common value holds"), std::string::npos) << choice.min_points_reason;
}

}  // namespace
}  // namespace subscale::significance
