#pragma once
// The test's second shape in two dimensions: a rectangle turned to the cluster's own axis.
//
// A cluster stretched along a diagonal of its two dimensions fills only a thin band of its
// axis-parallel box: 150 points along a diagonal (sd 0.088 along it, 0.008 across) among 1,500
// uniform points have a box of mass 0.16, which 240 points would fill by chance, and the whole
// cluster fails however clear it is to the eye. A rectangle turned to the cluster's direction holds
// it in a band of mass 0.03. Each coordinate is divided by its column's interquartile range (a scale
// of the data, not of the cluster, so the family below is fixed before any cluster is seen), the
// cluster's principal direction in those units is rounded to one of kTurnAngles angles in [0, pi),
// and the rectangle is [min, max] of the cluster's points along that direction and across it.
//
// Its mass under the null (the two columns independent, each with the data's own values) is
// exact: the share of the n^2 pairs (x_i, y_j) of a value of one column and a value of the other
// that fall inside, summed over the first column's values, each giving the count of the second's
// values in the interval the rectangle cuts at that x (two binary searches).
//
// The family: at each angle, a rectangle whose ends are projections of data points is one of at
// most (n (n + 1) / 2)^2. The pairs of dimensions where both columns take turned rectangles (no
// integer levels, a non-zero interquartile range) split the weight that the search correction
// gives a pair (search_correction.hpp): 1 - kTurnedShare for its boxes, kTurnedShare / kTurnAngles
// for each angle's rectangles; the family still sums to at most one.
#include <cstdint>
#include <optional>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/significance/marginals.hpp"

namespace subscale::significance {

inline constexpr std::uint32_t kTurnAngles = 64;
inline constexpr double kTurnedShare = 1.0 / 8.0;

// The unit in which `dimension` is turned: its interquartile range; 0 where it takes no turned
// rectangles (integer levels, or half its points or more on one value).
double turn_unit(const Marginals& marginals, std::uint32_t dimension);

// Whether the pair (a, b) takes turned rectangles: both dimensions have a unit.
bool takes_turned_rectangles(const Marginals& marginals, std::uint32_t a, std::uint32_t b);

struct TurnedRectangle {
  std::uint32_t angle = 0;  // in steps of pi / kTurnAngles from the first dimension's axis
  double log_p0 = 0;        // ln of its mass under the null
};

// The turned rectangle of a cluster of two dimensions; nothing where the pair takes none or the
// cluster's direction rounds to an axis (its box is then the rectangle). Dimensions and points
// sorted and in range (callers check).
template <class T>
std::optional<TurnedRectangle> turned_rectangle(const ColumnMatrix<T>& values, const Marginals& marginals,
                                                const SubspaceCluster& cluster);

// A cluster whose points spread along their direction at least this many times as far as across
// it (standard deviations, in turned units) looks stretched.
inline constexpr double kStretched = 3.0;

// Whether the cluster has a turned rectangle and looks stretched: a passing cluster is grown as a
// piece of a stretched one only then (growing every passing cluster of two dimensions over every
// point made pendigits' test 25% slower for nothing).
template <class T>
bool looks_stretched(const ColumnMatrix<T>& values, const Marginals& marginals, const SubspaceCluster& cluster);

// The cluster with the points at its turned rectangle's sides taken away while that raises the
// rectangle's score (edge_peeling.hpp), at the angle of the whole cluster: growth over every point
// brings a stretched cluster the background at its ends and sides. The cluster as it is where it
// has no turned rectangle.
template <class T>
SubspaceCluster trim_turned_while_stronger(const ColumnMatrix<T>& values, const Marginals& marginals,
                                           SubspaceCluster cluster);

}  // namespace subscale::significance
