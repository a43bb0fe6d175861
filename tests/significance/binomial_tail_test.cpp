#include "stages/significance/binomial_tail.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace subscale::significance {
namespace {

// Direct sum in long double of C(n,i) p^i (1-p)^(n-i) for i >= k.
long double direct_tail(unsigned n, long double p, unsigned k) {
  long double sum = 0;
  for (unsigned i = k; i <= n; ++i) {
    long double c = 1;
    for (unsigned t = 1; t <= i; ++t) c = c * (n - i + t) / t;
    sum += c * std::pow(p, static_cast<long double>(i)) * std::pow(1 - p, static_cast<long double>(n - i));
  }
  return sum;
}

TEST(BinomialTail, MatchesDirectSumOnSmallN) {
  for (unsigned n : {1U, 2U, 5U, 17U, 40U, 120U})
    for (double p : {1e-9, 0.001, 0.03, 0.25, 0.5, 0.77, 0.999})
      for (unsigned k = 0; k <= n; ++k) {
        const long double expected = direct_tail(n, p, k);
        const double got = std::exp(log_binomial_upper_tail(n, std::log(p), k));
        if (expected < 1e-300L) continue;
        EXPECT_NEAR(got / static_cast<double>(expected), 1.0, 1e-9) << "n " << n << " p " << p << " k " << k;
      }
}

TEST(BinomialTail, FarTailStaysInLogSpace) {
  // P(X >= n) = p^n exactly: 1000 * ln(1e-3) is far below the smallest double.
  const double log_p = std::log(1e-3);
  EXPECT_NEAR(log_binomial_upper_tail(1000, log_p, 1000), 1000 * log_p, 1e-6);
  // A p that underflows as a double is still fine as a logarithm.
  EXPECT_NEAR(log_binomial_upper_tail(10, -800.0, 10), -8000.0, 1e-6);
  EXPECT_NEAR(log_binomial_upper_tail(10, -800.0, 1), std::log(10.0) - 800.0, 1e-6);
}

TEST(BinomialTail, EdgeCases) {
  EXPECT_EQ(log_binomial_upper_tail(10, std::log(0.3), 0), 0.0);
  EXPECT_EQ(log_binomial_upper_tail(10, std::log(0.3), 11), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(log_binomial_upper_tail(10, 0.0, 10), 0.0);
  EXPECT_EQ(log_binomial_upper_tail(10, -std::numeric_limits<double>::infinity(), 1),
            -std::numeric_limits<double>::infinity());
  // Near the mean of a large n: one half, give or take.
  EXPECT_NEAR(std::exp(log_binomial_upper_tail(1000000, std::log(0.5), 500000)), 0.5, 0.01);
}

TEST(BinomialTail, ASamplePredictsTheInputsTailFromItsLoweredCount) {
  const double log_p = std::log(0.01);
  EXPECT_EQ(predicted_log_tail(2000, log_p, 40, 1.0), log_binomial_upper_tail(2000, log_p, 40));
  // 40 - 3 sqrt(40) = 21.03: the tail at 21, a hundred times over.
  EXPECT_DOUBLE_EQ(predicted_log_tail(2000, log_p, 40, 100.0), 100.0 * log_binomial_upper_tail(2000, log_p, 21));
  // A clump of 10 or fewer points predicts nothing (10 - 3 sqrt(10) < 1), however small its box.
  EXPECT_EQ(predicted_log_tail(2000, std::log(1e-9), 10, 100.0), 0.0);
  EXPECT_LT(predicted_log_tail(2000, std::log(1e-9), 11, 100.0), 0.0);
}

TEST(BinomialTail, LogChoose) {
  EXPECT_NEAR(log_choose(10, 3), std::log(120.0), 1e-12);
  EXPECT_EQ(log_choose(3, 4), -std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace subscale::significance
