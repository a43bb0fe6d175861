#pragma once
// The upper tail of a binomial distribution, P(X >= k) for X ~ Binomial(n, p), in log space.
//
// Cluster p-values are routinely below 1e-300 (a few hundred points in a box that should hold a
// handful), so the tail is summed as natural logarithms: each term ln C(n,i) + i ln p +
// (n-i) ln(1-p) comes from lgamma, and the terms are added by log-sum-exp from the largest one
// outwards until the next term is below 1e-17 of the sum. That is exact to double rounding, with
// no normal approximation anywhere: the tails that decide significance are far from the mean,
// where a normal approximation is wrong by hundreds of orders of magnitude.
#include <cstdint>

namespace subscale::significance {

// ln P(X >= k), X ~ Binomial(n, p), with p given as ln p (p may be far below the smallest double).
// k == 0 gives 0 (probability 1); k > n gives -infinity. log_p must be <= 0.
double log_binomial_upper_tail(std::uint64_t n, double log_p, std::uint64_t k);

// The tail that a sample of n points, k of them in the box, predicts for an input of scale x n
// points: at fixed shares ln P grows in proportion to the points (ln P ~ -n KL(the box's share of
// the points || its mass)), so ln P of the count lowered by three of its standard deviations
// (k - 3 sqrt(k), so that a chance clump of a few points predicts nothing), times scale. scale 1:
// log_binomial_upper_tail itself.
double predicted_log_tail(std::uint64_t n, double log_p, std::uint64_t k, double scale);

// ln C(n, k).
double log_choose(std::uint64_t n, std::uint64_t k);

}  // namespace subscale::significance
