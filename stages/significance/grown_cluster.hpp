#pragma once
// A cluster grown over every point of the data in its own subspace.
//
// Merge clusters the points P_S of a subspace S: the points of the dense units whose maximal
// subspace is S. A small cluster's points reach P_S only where m of them happen to lie within
// epsilon in every dimension of S at once, and the others go to the units of other subspaces (a
// unit that also holds a chance dimension) or to none. At 10,000 uniform points in 20 dimensions
// (min_points 2, epsilon 0.005) a 50-point cluster in a 0.05 cube of 3 dimensions gave P_S 5 of
// its points; every one of its 50 points is within merge's radius of another in S.
//
// So a cluster (S, P) grows the way merge would have grown it had every point of the data been in
// P_S: from P's points that are core points among all n points (at least min_points within
// epsilon in S, itself included, merge's neighbour test), every neighbour joins, and every core
// point among them is expanded in turn. The grown cluster is P plus the points reached. It
// replaces P only where the test scores it higher: on a diagonal cluster the axis-parallel box of
// the whole cluster holds more background than that of a piece, and the piece stays.
//
// The work: the points inside a window around the cluster are indexed (a grid,
// stages/merge/cell_index.hpp), and the window is widened until every point looked up has its
// whole neighbourhood inside it, so the result is that over all n points at a fraction of the
// cost of indexing them for each cluster; then one neighbour query per point reached. Growth
// stops at `max_points` reached (0: half the data's points, where no cluster passes), and the
// cluster stays as it is: a background that percolates at merge's radius costs no more than that.
#include <cstddef>
#include <cstdint>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/cluster_score.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

struct GrowthParams {
  double epsilon = 0;             // merge.epsilon
  std::size_t min_points = 0;     // merge.min_points, the point itself included
  std::size_t max_points = 0;     // points reached beyond which the growth is abandoned
  Shapes shapes = Shapes::boxes;  // those the grown cluster and the seed are scored by
};

// `cluster`'s dimensions and points sorted and in range. Returns the grown cluster where it
// scores higher (cluster_score.hpp), else `cluster` unchanged.
template <class T>
SubspaceCluster grown_in_subspace(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster cluster,
                                  const GrowthParams& params);

}  // namespace subscale::significance
