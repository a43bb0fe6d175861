#pragma once
// The core's subspaces pooled into their two-dimensional projections, for data where ties make
// points coincide by chance.
//
// A dense unit's maximal subspace is every dimension in which its points lie within epsilon. On
// heavily tied data (a level holding a third of a dimension's points) a unit of two or three
// points also coincides in several further dimensions by chance, different ones for every unit: a
// hidden cluster's units then scatter over thousands of maximal subspaces of a few points each,
// the cluster's own subspace plus a few chance dimensions, and none of them holds enough points to
// pass the test. Every one of them still contains the cluster's dimensions. Pooling gives each
// pair of dimensions {a, b} every point of every subspace containing both: the cluster's points
// meet again in the pairs of its own dimensions, where merge finds them and consolidation joins
// the pairs into the cluster's full subspace; the chance pairs gather points whose box the test
// finds no denser than the marginals predict.
//
// Input: the subspaces (dimensions and points sorted), the number of points and of dimensions.
// Output: the pairs that received a point, ordered by (a, b), their points sorted. `memberships`
// is the work: the sum over subspaces of C(|S|, 2) |P_S|; over `budget` nothing is pooled.
#include <cstdint>
#include <vector>

#include "common/subspace_cluster.hpp"

namespace subscale::significance {

struct PooledPairs {
  std::vector<SubspaceCluster> pairs;
  std::uint64_t memberships = 0;  // (pair, point) additions the pooling makes (or would make)
  bool over_budget = false;       // true: nothing pooled
};

PooledPairs pool_into_pairs(const std::vector<SubspaceCluster>& subspaces, std::uint32_t points,
                            std::uint32_t dimensions, std::uint64_t budget);

// How many dimensions a dense unit's maximal subspace holds by chance: `units` dense units
// (summed over dimensions) among C(points, min_points) sets of min_points points.
double chance_dimensions(double units, std::uint32_t points, std::uint32_t min_points);

}  // namespace subscale::significance
