#pragma once
// Before merge: can any cluster of a subspace's points pass the test at all?
//
// A cluster P ⊆ P_S of k points in S (the statistic is k = |P|, cluster_score.hpp) has a box that
// holds its own k points, so f_j >= k / n in every dimension of S; and the box holds each
// member's whole tie group, so f_j >= t_j, the smallest mass of a single value among the
// subspace's points in dimension j. Its p-value is therefore at least P(Binomial(n, q(k)) >= k)
// with q(k) = prod_j max(k / n, t_j): the tail grows with q. The best case over the cluster sizes
// k in [min_size, |P_S|] decides. ln P(Bin(n, q) >= k) behaves as -k ((s-1) ln(n/k) - 1) for
// s >= 2 (and falls with k wherever the floors t_j hold q fixed), which falls with k up to
// k* = n e^{-s/(s-1)} and rises after; so the bound is taken at |P_S| and, when k* lies in the
// range, at the sizes next to k*. A subspace where even the best case fails need not be merged:
// none of its clusters could be kept.
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"
#include "stages/significance/search_correction.hpp"

namespace subscale::significance {

// The highest score any cluster of at least min_size points of `subspace` (S, P_S) can reach.
// When the bound without tie floors is already below `enough_below`, that looser bound is returned
// (the caller only needs to know the subspace fails). `sample_scale` > 1 (TestParams::sample_scale):
// the highest score one can predict for the input (predicted_for_input), every tail times it.
double best_possible_score(const Marginals& marginals, const SubspaceCluster& subspace, std::uint32_t min_size,
                           double enough_below = 0.0, double sample_scale = 1.0);

// best_possible_score for a list of subspaces at once, with the value it gives for each: the bound
// without tie floors depends on S only through |S|, |P_S| and the family size, so its tails are
// computed once per (|S|, |P_S|) of the list, and the family sizes from per-dimension terms. On tied
// data the core makes millions of small subspaces of a dozen dimensions, and these terms were most
// of the time spent deciding which to merge.
class SubspaceBounds {
 public:
  SubspaceBounds(const Marginals& marginals, std::span<const SubspaceCluster* const> subspaces, std::uint32_t min_size,
                 double sample_scale = 1.0);
  // `subspace`: one of the list's (or any with the same |S| and |P_S| as one of them).
  double best_possible_score(const SubspaceCluster& subspace, double enough_below = 0.0) const;

 private:
  struct Tails {
    std::uint64_t key;  // |S| << 32 | |P_S|
    std::uint32_t count;
    double log_tail[3];  // at the sizes the bound tries, in its order
  };
  const Marginals& marginals_;
  SearchSizes search_;
  std::uint32_t min_size_;
  double sample_scale_;
  std::vector<Tails> tails_;  // by key, ascending
};

// The highest score a cluster of `min_size` to `largest` points can reach, given ln of each
// dimension's floor on its box's mass (-infinity for none) and ln of the family size `log_m`: the
// bound above for any set of points, all of P_S or a group of them (group_bound.hpp).
double best_score_within(std::uint32_t n, const std::vector<double>& log_floors, double log_m, std::uint32_t min_size,
                         std::uint32_t largest, double sample_scale = 1.0);

// ln of the tie floor t_j of each dimension of `dimensions` over `points`: the smallest mass of a
// single value among them.
std::vector<double> log_tie_floors(const Marginals& marginals, std::span<const std::uint32_t> dimensions,
                                   std::span<const std::uint32_t> points);

// The best score a k-point cluster can reach in s dimensions that each have `distinct` values, with
// n points in d dimensions and no ties.
double best_possible_score(std::uint32_t n, std::uint32_t d, std::uint32_t s, std::uint32_t distinct, std::uint32_t k);

// The smallest k (>= 2) whose best_possible_score reaches `threshold` (-log10 alpha), or n + 1 when
// none does.
std::uint32_t smallest_passing_size(std::uint32_t n, std::uint32_t d, std::uint32_t s, std::uint32_t distinct,
                                    double threshold);

}  // namespace subscale::significance
