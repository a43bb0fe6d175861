#include "stages/significance/binomial_tail.hpp"

#include <cmath>
#include <limits>

namespace subscale::significance {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// Terms smaller than this fraction of the running sum no longer change it in double precision.
const double kNegligible = std::log(1e-17);

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

// ln(1 - e^x) for x <= 0, accurate at both ends.
double log1m_exp(double x) {
  if (x == 0) return kNegInf;
  return x > -0.693 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
}

struct Terms {
  std::uint64_t n;
  double log_p, log_q;
  double at(std::uint64_t i) const {
    // 0 * ln 0 is 0: the term for i == n with q == 0 (p == 1) is p^n.
    const double tail = (n - i) == 0 ? 0.0 : static_cast<double>(n - i) * log_q;
    const double head = i == 0 ? 0.0 : static_cast<double>(i) * log_p;
    return log_choose(n, i) + head + tail;
  }
};

// Sum of terms from `from` stepping by `step` (+1 or -1) within [lo, hi], starting at the largest
// term of that range (the terms are unimodal, so `from` is the largest when it is on the far side
// of the mode) until they become negligible.
// Each next term from the last by the ratio of neighbours, t(i+1) / t(i) = (n - i) / (i + 1) * p / q,
// so only the first costs lgamma calls.
double sum_from(const Terms& terms, std::uint64_t from, std::uint64_t lo, std::uint64_t hi, int step) {
  double sum = kNegInf;
  double term = terms.at(from);
  const double odds = terms.log_p - terms.log_q;
  const auto n = static_cast<double>(terms.n);
  for (std::uint64_t i = from;;) {
    sum = log_add(sum, term);
    if (term - sum < kNegligible && term != kNegInf) break;
    if ((step > 0 && i == hi) || (step < 0 && i == lo)) break;
    const auto x = static_cast<double>(i);
    if (step > 0) {
      term += std::log((n - x) / (x + 1)) + odds;
      ++i;
    } else {
      term += std::log(x / (n - x + 1)) - odds;
      --i;
    }
  }
  return sum;
}

}  // namespace

double log_choose(std::uint64_t n, std::uint64_t k) {
  if (k > n) return kNegInf;
  return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
         std::lgamma(static_cast<double>(n - k) + 1);
}

double log_binomial_upper_tail(std::uint64_t n, double log_p, std::uint64_t k) {
  if (k == 0) return 0.0;
  if (k > n) return kNegInf;
  if (log_p == kNegInf) return kNegInf;
  if (log_p >= 0) return 0.0;
  const Terms terms{n, log_p, log1m_exp(log_p)};
  const double mode = std::floor(static_cast<double>(n + 1) * std::exp(log_p));
  if (static_cast<double>(k) > mode) return sum_from(terms, k, k, n, +1);
  // k at or below the mode: the tail is at least about one half; 1 - the lower tail keeps the
  // digits, the lower tail summed from k - 1 downwards where its terms are largest.
  const double lower = sum_from(terms, k - 1, 0, k - 1, -1);
  return lower >= 0 ? kNegInf : log1m_exp(lower);
}

double predicted_log_tail(std::uint64_t n, double log_p, std::uint64_t k, double scale) {
  if (scale == 1.0) return log_binomial_upper_tail(n, log_p, k);
  const double lowered = static_cast<double>(k) - 3.0 * std::sqrt(static_cast<double>(k));
  if (lowered < 1.0) return 0.0;
  return scale * log_binomial_upper_tail(n, log_p, static_cast<std::uint64_t>(lowered));
}

}  // namespace subscale::significance
