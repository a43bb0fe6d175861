#pragma once
// How many candidates a box test must be corrected for.
//
// A candidate's box is drawn around points that were found close together, so correcting for the
// clusters actually tested is not enough: the search looked at every box and reported the dense
// ones. The correction therefore counts every box the search could have drawn. In a subspace S of
// s dimensions, a box whose ends are data values is one of prod_{j in S} u_j (u_j + 1) / 2 (u_j:
// distinct values of dimension j; few on integer-level data), S is one of C(d, s) subspaces of its
// size, and the level alpha is split evenly over the d possible sizes. Giving every (S, box) the
// weight 1 / (d C(d, s) prod_j u_j (u_j + 1) / 2), the weights of the whole family sum to at most
// one, so rejecting where p <= alpha * weight bounds the chance of any false cluster by alpha,
// whatever the search did (a weighted Bonferroni bound over the family, not over the tested list).
// A pair of dimensions that also takes turned rectangles (turned_rectangle.hpp) gives its boxes
// 1 - kTurnedShare of the pair's weight and the rectangles the rest.
#include <cstdint>
#include <span>
#include <vector>

#include "stages/significance/marginals.hpp"

namespace subscale::significance {

// ln of the family size for subspace `dimensions`: ln d + ln C(d, s) + sum ln(u_j (u_j + 1) / 2),
// and -ln(1 - kTurnedShare) for a pair that takes turned rectangles.
double log_search_size(const Marginals& marginals, std::span<const std::uint32_t> dimensions);

// ln of the family size of the turned rectangles of a pair of dimensions at one of their angles:
// ln d + ln C(d, 2) + ln(kTurnAngles / kTurnedShare) + 2 ln(n (n + 1) / 2).
double log_turned_search_size(const Marginals& marginals);

// The same for s dimensions that each have `distinct` values and take no turned rectangles (a
// bound for a whole dimensionality: the smallest family of s such dimensions).
double log_search_size(std::uint32_t data_dimensions, std::uint32_t s, std::uint32_t distinct);

// log_search_size for many subspaces: each dimension's and each size's term computed once, and
// every sum made as log_search_size makes it, term by term, so that the two agree exactly.
class SearchSizes {
 public:
  explicit SearchSizes(const Marginals& marginals);
  double log_size(std::span<const std::uint32_t> dimensions) const;

 private:
  std::vector<double> log_subspaces_;  // per s in [0, d]
  std::vector<double> log_intervals_;  // per dimension
  std::vector<char> turns_;            // per dimension: whether it takes turned rectangles
};

}  // namespace subscale::significance
