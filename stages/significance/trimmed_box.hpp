#pragma once
// A cluster that fails the test can owe it to a few points at its edge. DBSCAN links a stray
// neighbour or two just beyond a cluster's end, and the box, set by the extreme points, then has
// several times the mass of the cluster's own: a 30-point cluster of width 0.02 in 2 of 5 uniform
// dimensions (400 points) scores 5.5 alone and 1.3 with two neighbours 0.013 beyond it, under the
// level of 2. So the box of such a cluster is narrowed, greedily: each step takes away, at one end
// of one dimension, the points of the outermost one to four values there, choosing the removal that
// raises the score most, until none raises it, 64 steps were taken or half the points are gone.
//
// The test stays valid: the correction counts every box whose ends are data values in the
// subspace (docs/significance.md §3), and the narrowed box is one of them. A cluster that passes
// is left as it is: narrowing it would cut a spread cluster's tails, each of which costs a passing
// cluster little score and the planted cluster its points.
#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

// The cluster with the points at its box's edges taken away while that raises its score (before
// the score is cut at 0), its dimensions kept. Its points sorted and in range (callers check).
template <class T>
SubspaceCluster trim_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster cluster);

}  // namespace subscale::significance
