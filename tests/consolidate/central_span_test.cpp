// The span test's pieces against values worked out by hand.
#include "stages/consolidate/central_span.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace subscale::consolidate {
namespace {

Matrix column_of(const std::vector<double>& values) {
  Matrix m(static_cast<Eigen::Index>(values.size()), 1);
  for (std::size_t i = 0; i < values.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = values[i];
  return m;
}

TEST(CentralSpan, CentralPositionsHoldTheCentralFraction) {
  // 21 values, fraction 0.9: floor(0.05 * 20) = 1, ceil(0.95 * 20) = 19 (although 0.05 * 20 is
  // 0.9999999999999998 in floating point).
  EXPECT_EQ(central_positions(21, 0.9).low, 1u);
  EXPECT_EQ(central_positions(21, 0.9).high, 19u);
  // Fraction 1: the whole range.
  EXPECT_EQ(central_positions(21, 1.0).low, 0u);
  EXPECT_EQ(central_positions(21, 1.0).high, 20u);
  // A tiny fraction: the median's neighbourhood; one value: itself.
  EXPECT_EQ(central_positions(21, 1e-9).low, 9u);
  EXPECT_EQ(central_positions(21, 1e-9).high, 11u);
  EXPECT_EQ(central_positions(1, 0.9).low, 0u);
  EXPECT_EQ(central_positions(1, 0.9).high, 0u);
}

TEST(CentralSpan, CentralSpanIgnoresTheOutliers) {
  // 0.40 .. 0.60 in steps of 0.01 (21 values) but the two ends moved far away.
  std::vector<double> values;
  for (int i = 0; i <= 20; ++i) values.push_back(0.40 + 0.01 * i);
  values.front() = 0.0;
  values.back() = 1.0;
  const std::vector<double> shuffled = {values[7],  values[20], values[3], values[0],  values[11], values[19],
                                        values[5],  values[14], values[1], values[9],  values[17], values[2],
                                        values[13], values[8],  values[4], values[16], values[10], values[6],
                                        values[18], values[12], values[15]};
  const Matrix m = column_of(shuffled);
  std::vector<std::uint32_t> all;
  for (std::uint32_t i = 0; i < 21; ++i) all.push_back(i);
  std::vector<double> scratch;
  const Interval span = central_span(m, all, 0, 0.9, scratch);
  EXPECT_DOUBLE_EQ(span.low, 0.41);
  EXPECT_DOUBLE_EQ(span.high, 0.59);
  const Interval whole = central_span(m, all, 0, 1.0, scratch);
  EXPECT_DOUBLE_EQ(whole.low, 0.0);
  EXPECT_DOUBLE_EQ(whole.high, 1.0);
  EXPECT_DOUBLE_EQ(central_span_of_sorted(values, 0.9).low, 0.41);
  EXPECT_DOUBLE_EQ(central_span_of_sorted(values, 0.9).high, 0.59);
  EXPECT_DOUBLE_EQ(central_span_of_sorted(std::vector<double>{}, 0.9).width(), 0.0);
  EXPECT_DOUBLE_EQ(central_span(m, {}, 0, 0.9, scratch).width(), 0.0);
}

TEST(CentralSpan, TheBoxIsTheCentralSpanDoubledAboutItsCentre) {
  // Span [0.25, 0.5]: box [0.125, 0.625], ends included (all exact in binary).
  const Matrix m = column_of({0.124, 0.125, 0.3, 0.625, 0.626, 0.5});
  const std::vector<std::uint32_t> points = {0, 1, 2, 3, 4, 5};
  const std::vector<std::uint32_t> dims = {0};
  const std::vector<Interval<double>> spans = {{0.25, 0.5}};
  EXPECT_EQ(points_in_box(m, points, dims, spans), (std::vector<std::uint32_t>{1, 2, 3, 5}));
}

}  // namespace
}  // namespace subscale::consolidate
