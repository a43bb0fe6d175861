#pragma once
// One hidden cluster, one reported cluster.
//
// After consolidation a hidden cluster can still come out as a few significant pieces: a part of
// its points in a part of its subspace, or its points in its subspace plus one dimension where a
// part of them happens to share a common value. Each piece is significant (it is a part of a real
// cluster) but says nothing the strongest piece does not. Taken strongest first, a cluster B that
// shares at least `overlap` of its points and of its dimensions with a kept cluster A is dropped,
// unless it is significant GIVEN A: among A's points, B's box in the dimensions A lacks holds more
// of them than those intervals' masses predict, each the larger of its mass in the whole data and
// its share of A's points outside B (the same binomial test and search correction, with A's
// points as the population). That keeps a cluster nested in another
// (150 points dense in 16 dimensions inside 300 dense in 10 of them) and drops the pieces. The
// other way round, B is kept when its points outside A are a significant cluster in B's subspace
// on their own: the parent of a nested cluster can be the weaker of the two (300 points in 3
// dimensions, 157 of them dense in a fourth: the 157 score higher), and is no piece of it. Clusters
// that share points but lie in mostly different subspaces are both kept. Stronger kept clusters
// that share at least `overlap` of B's dimensions but fewer of its points count as well: B's points
// outside them are not B's own (a union of two clusters repeats the one it holds more of, and the
// rest of it is the other), and B is also tested among the points outside them (their intervals'
// masses taken from those points in the dimensions the clusters hold) and dropped when it fails
// there: a stronger cluster on a few levels of its dimensions leaves the other points more common
// on every other level than the data's marginals say, and a box of that background would pass
// against them. Last, a kept cluster that two or more weaker kept clusters nest in and that holds
// no significant cluster outside them is dropped as their union.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

// `clusters` strongest first; returns the indices kept, in that order. overlap in (0, 1];
// threshold: the score a nested cluster needs given its parent (-log10 alpha); `shapes`: those a
// cluster's points outside the stronger ones are scored by, as a cluster on their own.
template <class T>
std::vector<std::size_t> distinct_clusters(const ColumnMatrix<T>& values, const Marginals& marginals,
                                           const std::vector<SubspaceCluster>& clusters, double overlap,
                                           double threshold, Shapes shapes = Shapes::boxes);

// The score of `inner` given `outer`: the test of inner's box in the dimensions outer lacks, among
// outer's points, each interval's mass the larger of its mass in the whole data and its share of
// outer's points outside inner. 0 when inner adds no dimension.
template <class T>
double score_given(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& inner,
                   const SubspaceCluster& outer);

}  // namespace subscale::significance
