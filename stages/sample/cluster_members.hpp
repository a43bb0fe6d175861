#pragma once
// A cluster's points gathered for the membership test (membership.hpp), by the CPU and the CUDA
// part alike, so that both test against the same coordinates, box and reach.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"
#include "stages/merge/neighbour_test.hpp"
#include "stages/sample/membership.hpp"

// Named, not anonymous: the lambdas of members_near capture these types, and a unity build would
// otherwise give them internal-linkage members.
namespace subscale::sample::membership_detail {

// A cluster's points in its subspace, row-major and ordered by the first dimension's value (ties
// by point), with the box they span.
template <class T>
struct Members {
  std::size_t width = 0;
  std::vector<T> coordinates;  // member m's dimension t at [m * width + t]
  std::vector<T> first;        // member m's first coordinate, ascending
  std::vector<double> lo, hi;  // the box, widened by the radius and its rounding
};

// The window around a member that holds every point `within` keeps (merge's own widening).
template <class T>
inline double widened(double radius) {
  return merge::neighbour_reach<T>(radius);
}

template <class T>
Members<T> gather(const ColumnMatrix<T>& reference, const SubspaceCluster& cluster, double radius) {
  Members<T> m;
  m.width = cluster.dimensions.size();
  std::vector<std::uint32_t> order(cluster.points.size());
  std::iota(order.begin(), order.end(), 0U);
  const T* first = reference.col(cluster.dimensions.front()).data();
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return first[cluster.points[a]] < first[cluster.points[b]];
  });
  m.coordinates.resize(order.size() * m.width);
  m.first.resize(order.size());
  m.lo.assign(m.width, std::numeric_limits<double>::infinity());
  m.hi.assign(m.width, -std::numeric_limits<double>::infinity());
  for (std::size_t t = 0; t < m.width; ++t) {
    const T* column = reference.col(cluster.dimensions[t]).data();
    for (std::size_t i = 0; i < order.size(); ++i) {
      const T v = column[cluster.points[order[i]]];
      m.coordinates[i * m.width + t] = v;
      m.lo[t] = std::min(m.lo[t], static_cast<double>(v));
      m.hi[t] = std::max(m.hi[t], static_cast<double>(v));
    }
  }
  for (std::size_t i = 0; i < order.size(); ++i) m.first[i] = m.coordinates[i * m.width];
  const double reach = widened<T>(radius);
  for (std::size_t t = 0; t < m.width; ++t) {
    m.lo[t] -= reach;
    m.hi[t] += reach;
  }
  return m;
}

// The arguments of members_near checked; std::invalid_argument naming what is wrong.
template <class T>
void check(const ColumnMatrix<T>& points, const ColumnMatrix<T>& reference,
           const std::vector<SubspaceCluster>& clusters, const MembershipParams& params) {
  if (!(params.radius > 0) || !std::isfinite(params.radius))
    throw std::invalid_argument("membership: the radius must be a positive number, not " +
                                std::to_string(params.radius));
  if (points.rows() > static_cast<Eigen::Index>(UINT32_MAX))
    throw std::invalid_argument("membership: more points than 32-bit point ids hold");
  const auto dims = std::min(points.cols(), reference.cols());
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    for (const auto j : clusters[c].dimensions)
      if (static_cast<Eigen::Index>(j) >= dims)
        throw std::invalid_argument("membership: cluster " + std::to_string(c) + " names dimension " +
                                    std::to_string(j) + ", beyond the " + std::to_string(dims) + " both matrices have");
    for (const auto p : clusters[c].points)
      if (static_cast<Eigen::Index>(p) >= reference.rows())
        throw std::invalid_argument("membership: cluster " + std::to_string(c) + " names point " + std::to_string(p) +
                                    " of a reference of " + std::to_string(reference.rows()) + " points");
  }
}

}  // namespace subscale::sample::membership_detail
