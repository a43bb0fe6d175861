#include "stages/significance/subspace_bound.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "stages/significance/binomial_tail.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {
namespace {

// ln of the bound's tail for size k given the per-dimension floors (natural logs of masses).
double log_tail_bound(std::uint32_t n, const std::vector<double>& log_floors, std::uint32_t k, double scale) {
  const double log_share = std::log(static_cast<double>(k) / static_cast<double>(n));
  double log_q = 0;
  for (const double f : log_floors) log_q += std::max(log_share, f);
  return predicted_log_tail(n, log_q, k, scale);
}

// The sizes to try: |P_S| and the two next to k* when it lies in [min_size, largest).
std::vector<std::uint32_t> sizes_to_try(std::uint32_t n, std::size_t s, std::uint32_t min_size, std::uint32_t largest) {
  std::vector<std::uint32_t> sizes{largest};
  if (s >= 2) {
    const double sd = static_cast<double>(s);
    const double k_star = static_cast<double>(n) * std::exp(-sd / (sd - 1));
    for (const double k : {std::floor(k_star), std::ceil(k_star)})
      if (k >= min_size && k < largest) sizes.push_back(static_cast<std::uint32_t>(k));
  }
  return sizes;
}

}  // namespace

double best_score_within(std::uint32_t n, const std::vector<double>& log_floors, double log_m, std::uint32_t min_size,
                         std::uint32_t largest, double sample_scale) {
  if (largest < std::max<std::uint32_t>(min_size, 1)) return 0.0;
  double best = 0;
  // On a sample the prediction's lowered count moves the sizes' tails together (it rises with k as
  // k does), so the same sizes are tried.
  for (const auto k : sizes_to_try(n, log_floors.size(), min_size, largest))
    best = std::max(best, score_of(log_tail_bound(n, log_floors, k, sample_scale), log_m));
  return best;
}

std::vector<double> log_tie_floors(const Marginals& marginals, std::span<const std::uint32_t> dimensions,
                                   std::span<const std::uint32_t> points) {
  std::vector<double> log_floors;
  log_floors.reserve(dimensions.size());
  for (const auto j : dimensions) {
    std::uint32_t smallest_tie = marginals.points();
    for (const auto p : points) smallest_tie = std::min(smallest_tie, marginals.tie_count(j, p));
    log_floors.push_back(std::log(static_cast<double>(smallest_tie) / marginals.points()));
  }
  return log_floors;
}

double best_possible_score(const Marginals& marginals, const SubspaceCluster& subspace, std::uint32_t min_size,
                           double enough_below, double sample_scale) {
  const double log_m = log_search_size(marginals, subspace.dimensions);
  const auto largest = static_cast<std::uint32_t>(subspace.points.size());
  // Without the tie floors first: they only lower the bound, and most subspaces fail without them.
  const std::vector<double> no_floors(subspace.dimensions.size(), -std::numeric_limits<double>::infinity());
  const double loose = best_score_within(marginals.points(), no_floors, log_m, min_size, largest, sample_scale);
  if (loose < enough_below) return loose;
  return best_score_within(marginals.points(), log_tie_floors(marginals, subspace.dimensions, subspace.points), log_m,
                           min_size, largest, sample_scale);
}

SubspaceBounds::SubspaceBounds(const Marginals& marginals, std::span<const SubspaceCluster* const> subspaces,
                               std::uint32_t min_size, double sample_scale)
    : marginals_(marginals), search_(marginals), min_size_(min_size), sample_scale_(sample_scale) {
  const auto key_of = [](const SubspaceCluster& s) {
    return static_cast<std::uint64_t>(s.dimensions.size()) << 32 | static_cast<std::uint64_t>(s.points.size());
  };
  std::vector<std::uint64_t> keys;
  keys.reserve(subspaces.size());
  for (const auto* s : subspaces) keys.push_back(key_of(*s));
  tbb::parallel_sort(keys.begin(), keys.end());  // 1.7 M keys on tie-heavy data
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  tails_.resize(keys.size());
  const std::uint32_t n = marginals.points();
  tbb::parallel_for(std::size_t{0}, keys.size(), [&](std::size_t i) {
    Tails& t = tails_[i];
    t.key = keys[i];
    t.count = 0;
    const auto s = static_cast<std::size_t>(keys[i] >> 32);
    const auto largest = static_cast<std::uint32_t>(keys[i] & 0xffffffffu);
    if (largest < std::max<std::uint32_t>(min_size, 1)) return;
    const std::vector<double> no_floors(s, -std::numeric_limits<double>::infinity());
    for (const auto k : sizes_to_try(n, s, min_size, largest))
      t.log_tail[t.count++] = log_tail_bound(n, no_floors, k, sample_scale);
  });
}

double SubspaceBounds::best_possible_score(const SubspaceCluster& subspace, double enough_below) const {
  const double log_m = search_.log_size(subspace.dimensions);
  const std::uint64_t key =
      static_cast<std::uint64_t>(subspace.dimensions.size()) << 32 | static_cast<std::uint64_t>(subspace.points.size());
  const auto it =
      std::lower_bound(tails_.begin(), tails_.end(), key, [](const Tails& t, std::uint64_t k) { return t.key < k; });
  if (it == tails_.end() || it->key != key)
    return significance::best_possible_score(marginals_, subspace, min_size_, enough_below, sample_scale_);
  double loose = 0;
  for (std::uint32_t i = 0; i < it->count; ++i) loose = std::max(loose, score_of(it->log_tail[i], log_m));
  if (loose < enough_below || it->count == 0) return loose;
  const auto largest = static_cast<std::uint32_t>(subspace.points.size());
  return best_score_within(marginals_.points(), log_tie_floors(marginals_, subspace.dimensions, subspace.points), log_m,
                           min_size_, largest, sample_scale_);
}

double best_possible_score(std::uint32_t n, std::uint32_t d, std::uint32_t s, std::uint32_t distinct, std::uint32_t k) {
  const std::vector<double> no_floors(s, -std::numeric_limits<double>::infinity());
  return best_score_within(n, no_floors, log_search_size(d, s, distinct), k, k);
}

std::uint32_t smallest_passing_size(std::uint32_t n, std::uint32_t d, std::uint32_t s, std::uint32_t distinct,
                                    double threshold) {
  for (std::uint32_t k = 2; k <= n; ++k)
    if (best_possible_score(n, d, s, distinct, k) >= threshold) return k;
  return n + 1;
}

}  // namespace subscale::significance
