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
