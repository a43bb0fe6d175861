#pragma once
// A cluster stands in the subspace where it is most significant.
//
// Consolidation can carry a part of a hidden cluster into one dimension too many: on skewed or
// integer-level data a few dozen of its points share a common value somewhere else, the span test
// passes for them, and the cluster is cut down to those points. The test sees the difference: the
// whole cluster in its own subspace is far more surprising than the part in one more dimension.
// The cluster is first made every point inside its box (its points' [min, max] per dimension):
// the box is what the test judged, and a significant box holds few points by chance. Dimensions
// in which that box holds more than `background_share` of all points are removed next: there the
// cluster does not gather but only avoids a part of the range (on skewed data, another cluster's
// levels), which the test under independent marginals counts as evidence. Then,
// greedily, the dimension whose removal raises the score most (of the three whose removal would
// bring the most points into the box and the three whose intervals hold the most points) is removed, the cluster then
// being every point inside its box in the remaining dimensions, until no removal raises the
// score (a cluster keeps at least two dimensions).
#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

template <class T>
SubspaceCluster drop_weak_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals, SubspaceCluster cluster,
                                     double background_share);

// The other way: a cluster cut down to a few of its dimensions (by the climb above, from a piece
// consolidation carried into chance dimensions) takes back every dimension in which its points'
// interval holds so few points that the score rises, the fewest first, until one does not raise
// it. Its points stay and the box narrows to their interval in the new dimension, or, where that
// scores higher, the box takes their central 90% there and keeps the points inside (a point or two
// of the data that a filled box took in would otherwise stretch every further interval over the
// whole range). An interval holding more than `background_share` of all points is never taken: there the cluster does
// not gather but only avoids a part of the range (another cluster's levels, a tail), which raises the score under
// independent marginals without being a dimension of the cluster.
template <class T>
SubspaceCluster add_strong_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                      SubspaceCluster cluster, double background_share);

// A cluster found from a part of its points has a box narrower than the hidden cluster's in some
// dimensions, and in many dimensions a few such cut most of its points away. The box is widened
// to twice its points' central 90% span in every dimension (what consolidation's box does) and
// filled with every point inside, as long as that raises the score (at most four times); where
// it does not, by one level on one side of one grid column, the strongest such step, if that
// raises it.
template <class T>
SubspaceCluster widen_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                     SubspaceCluster cluster);

// How many of the cluster's dimensions its points' interval holds at most `background_share` of
// all points in: the dimensions where it gathers.
template <class T>
std::uint32_t gathering_dimensions(const ColumnMatrix<T>& values, const Marginals& marginals,
                                   const SubspaceCluster& cluster, double background_share);

// The points (sorted) inside the box [lo_j, hi_j] of `dimensions`, given per dimension.
template <class T>
std::vector<std::uint32_t> points_in_box(const ColumnMatrix<T>& values, const Marginals& marginals,
                                         const std::vector<std::uint32_t>& dimensions, const std::vector<double>& lo,
                                         const std::vector<double>& hi);

}  // namespace subscale::significance
