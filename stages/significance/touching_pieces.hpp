#pragma once
// Pieces of one elongated cluster, joined.
//
// A cluster stretched along a diagonal of its subspace reaches the core as dense units only where
// its points happen to be close in every dimension at once, so merge finds it as two or three
// pieces in the same subspace with a gap between them that holds no subspace point. The
// consolidated pieces share no points (or too few to be joined by overlap), and each passes the
// test on its own. Two significant clusters in the same subspace S touch when some point of one
// lies within the merge radius of some point of the other in S (merge's own neighbour test,
// stages/merge/neighbour_test.hpp): no gap of more than one DBSCAN step separates them. Touching
// pieces are joined into (S, the union of their points) when the union passes the test too.
//
// The union need not score higher than its parts: the test's box is axis-parallel, and the box
// of a diagonal cluster holds far more background than the box of each piece (two pieces of a
// stretched 2-D cluster, scores 30 and 19, join into one of score 16). That the union is still
// significant, and that the pieces touch in their own subspace, is the evidence.
//
// Only some clusters lead: those that are no piece of a stronger one (distinct_clusters.hpp).
// Taken strongest first, each lead absorbs every cluster of its subspace not yet absorbed (a
// later lead, or a piece wherever it stands) that touches it, the union scored after each join
// (and so able to touch the next); the pieces a lead absorbs bring it the points its part of the
// cluster lacked. Pieces that no lead absorbs are left out, as pieces of a stronger cluster. A
// piece never leads, so pieces in a subspace one dimension too many cannot join into a cluster
// that outscores the one they are pieces of. The result does not depend on the number of threads.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

struct TouchingPieces {
  std::vector<SubspaceCluster> clusters;  // strongest first
  std::vector<ClusterScore> scores;       // scores[i] belongs to clusters[i]
  std::vector<std::uint32_t> sources;     // sources[i]: the sum of the input sources clusters[i] holds
  std::uint64_t joins = 0;
};

// `clusters` strongest first with their `scores`, `sources` (a count carried along, such as the
// merge clusters each was consolidated from; summed over a join) and `leads`; `epsilon` merge's
// radius (> 0); `threshold` the score the union needs (-log10 alpha), scored by `shapes`. Returns
// the leads, joined.
template <class T>
TouchingPieces join_touching_pieces(const ColumnMatrix<T>& values, const Marginals& marginals,
                                    std::vector<SubspaceCluster> clusters, std::vector<ClusterScore> scores,
                                    std::vector<std::uint32_t> sources, const std::vector<bool>& leads, double epsilon,
                                    double threshold, Shapes shapes = Shapes::boxes);

// Whether a point of `a` lies within `epsilon` of a point of `b` over `dimensions` (both point
// lists sorted), by merge's neighbour test in T.
template <class T>
bool clusters_touch(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                    const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b, double epsilon);

}  // namespace subscale::significance
