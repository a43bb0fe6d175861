#include "stages/significance/merge_sieve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/denser_parts.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

const double kLn10 = std::log(10.0);
// Sizes below this are judged by a table of each size's largest mass; larger ones by the tail.
constexpr std::uint32_t kTableSizes = 128;
// The bound and the score sum the same logarithms in another order: a cluster is set aside only
// when its bound falls short by more than this (log10).
constexpr double kMargin = 1e-6;
// The largest n for which ln(i / n) is kept for every i (8 MiB).
constexpr std::uint32_t kLogTableShares = std::uint32_t{1} << 20;

}  // namespace

MergeSieve::MergeSieve(const Marginals& marginals, const TestParams& test, const TestParams* parts_test,
                       std::size_t parts_min_points, std::uint64_t sieve_from)
    : marginals_(marginals), params_(test), parts_min_points_(parts_min_points), sieve_from_(sieve_from) {
  if (parts_test) parts_test_ = *parts_test;
  const std::uint32_t d = marginals.dimensions();
  least_search_.resize(d + 1);
  for (std::uint32_t s = 0; s <= d; ++s) least_search_[s] = log_search_size(d, s, 1) / kLn10;
  // Lowered by twice the margin, so that no rounding between the table and the tail can refuse
  // early what keep() would keep.
  early_ = limits_for(std::max<std::uint64_t>(sieve_from_, 1), 2 * kMargin);
  // Tens of millions of clusters take a logarithm per dimension each: of a share out of n, read
  // from this table where n is small enough to hold one (the same values std::log gives).
  const std::uint32_t n = marginals.points();
  if (n <= kLogTableShares) {
    log_share_.resize(static_cast<std::size_t>(n) + 1);
    for (std::uint32_t i = 0; i <= n; ++i) log_share_[i] = std::log(static_cast<double>(i) / static_cast<double>(n));
  }
}

double MergeSieve::best_raw(std::uint32_t k, double log_q) const {
  return -predicted_log_tail(marginals_.points(), std::min(log_q, 0.0), k, params_.sample_scale) / kLn10;
}

MergeSieve::Limits MergeSieve::limits_for(std::uint64_t found, double slack) const {
  Limits limits;
  // The clusters tested are merge's and the denser parts: at least `found`, so this threshold is
  // at most the candidates' own.
  limits.candidate_raw =
      -std::log10(params_.alpha) + std::log10(static_cast<double>(std::max<std::uint64_t>(found, 1))) - slack;
  limits.log_q_limit.assign(kTableSizes, -std::numeric_limits<double>::infinity());
  for (std::uint32_t k = 1; k < kTableSizes && k <= marginals_.points(); ++k) {
    double lo = -1e4, hi = 0;  // best_raw falls as the mass rises
    if (best_raw(k, hi) >= limits.candidate_raw) {
      limits.log_q_limit[k] = 0;
      continue;
    }
    if (best_raw(k, lo) < limits.candidate_raw) continue;
    for (int step = 0; step < 100; ++step) {
      const double mid = 0.5 * (lo + hi);
      (best_raw(k, mid) >= limits.candidate_raw ? lo : hi) = mid;
    }
    limits.log_q_limit[k] = hi;  // the side that keeps a little more
  }
  return limits;
}

void MergeSieve::prepare(std::uint64_t found) {
  keep_all_ = found < sieve_from_;
  prepared_ = limits_for(found, 0.0);
}

double MergeSieve::log_floors(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const {
  const auto k = static_cast<std::uint32_t>(points.size());
  double log_q = 0;
  for (const auto j : dimensions) {
    std::uint32_t floor = k;
    for (const auto p : points) floor = std::max(floor, marginals_.tie_count(j, p));
    log_q += floor < log_share_.size()
                 ? log_share_[floor]
                 : std::log(static_cast<double>(floor) / static_cast<double>(marginals_.points()));
  }
  return log_q;
}

bool MergeSieve::keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points) const {
  return keep_all_ || keeps(dimensions, points, prepared_);
}

bool MergeSieve::may_keep(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points,
                          std::uint64_t found_at_least) const {
  return found_at_least < sieve_from_ || keeps(dimensions, points, early_);
}

bool MergeSieve::keeps(std::span<const std::uint32_t> dimensions, std::span<const std::uint32_t> points,
                       const Limits& limits) const {
  const auto k = static_cast<std::uint32_t>(points.size());
  if (parts_test_ && k >= kSplitPoints && part_can_pass(marginals_, dimensions, k, parts_min_points_, *parts_test_))
    return true;
  const double log_q = log_floors(dimensions, points);
  const double threshold = -std::log10(params_.alpha);
  const std::size_t s = dimensions.size();
  // Where even the smallest family of s dimensions asks more than a candidate needs, the
  // candidates' threshold is the lower one, and the table settles it.
  if (k < kTableSizes && s < least_search_.size() && threshold + least_search_[s] >= limits.candidate_raw) {
    const double limit = limits.log_q_limit[k];
    return limit > -std::numeric_limits<double>::infinity() && log_q <= limit + 1e-9 * std::max(1.0, std::abs(limit));
  }
  const double search = log_search_size(marginals_, dimensions) / kLn10;
  return best_raw(k, log_q) + kMargin >= std::min(limits.candidate_raw, threshold + search);
}

}  // namespace subscale::significance
