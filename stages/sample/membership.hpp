#pragma once
// Every point's membership in clusters found on other points (a sample of them, or the points a
// model was fitted on).
//
// A point x belongs to a cluster (S, P) when it lies within `radius` of one of P's points in the
// cluster's subspace S: the Euclidean distance over S's dimensions, inclusive, computed as merge
// computes it (differences, their squares and the sum in T in dimension order, against the
// radius rounded once to T and squared in T). With radius = merge.epsilon that is the rule by
// which DBSCAN attaches a border point to a cluster, so a point that merge would have found within
// reach of the cluster's points on the whole data is a member, each cluster keeps its shape
// (stretched, curved or rotated, not only its bounding box), and every point of P is a member of
// its own cluster. docs/sampling.md argues the choice against the cluster's box.
//
// Work: linear in the points; they are read in blocks (bounded memory: only the member lists
// grow) spread over the threads. For each cluster a block's points are first tested against the
// cluster's box widened by the radius, column by column, and only those inside are compared with
// P's points, of which only those within the radius in S's first dimension (sorted by it).
// The result does not depend on the number of threads.
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"
#include "common/stage_progress.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::sample {

struct MembershipParams {
  double radius = 0;                 // > 0: the distance at which a point joins a cluster
  std::size_t block_points = 65536;  // points read at a time
};

// For each cluster (its dimensions, and its points as sorted rows of `reference`), the rows of
// `points`, ascending, that belong to it. Throws std::invalid_argument for a radius that is not
// positive, a dimension beyond either matrix or a point beyond `reference`. `progress` counts the
// points read (one phase of points.rows() x clusters).
template <class T>
std::vector<std::vector<std::uint32_t>> members_near(const ColumnMatrix<T>& points, const ColumnMatrix<T>& reference,
                                                     const std::vector<SubspaceCluster>& clusters,
                                                     const MembershipParams& params,
                                                     const StageProgress& progress = {});

}  // namespace subscale::sample
