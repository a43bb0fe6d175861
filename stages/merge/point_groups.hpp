#pragma once
// The points of one subspace split into groups that no cluster of merge crosses.
//
// Two points are merge's neighbours only where their squared distance over S, summed in the held
// precision, is at most the held epsilon squared (neighbour_test.hpp); every single term
// (x_p,j - x_q,j)^2 of such a pair is then at most that limit as well. So where the points of a
// group, sorted by their values in one dimension of S, have two consecutive values whose
// difference squared (in the held precision) exceeds the limit, no pair across that gap is a
// neighbour: rounded differences and squares never decrease as the exact ones grow. A DBSCAN
// cluster is connected by neighbours (a border point by its core neighbour), so it lies on one
// side of every such gap. The groups are the pieces left when every dimension of S is cut at its
// gaps, again and again until no dimension cuts any piece: a cut in one dimension can open gaps
// in another. Each group is a union of connected components of the neighbour graph, so merge on a
// group's points alone finds exactly the clusters that merge on all of P_S finds in it (a point's
// neighbours, and so its core status and its border cluster, all lie in its group).
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "common/subspace_cluster.hpp"

namespace subscale::merge {

struct PointGroups {
  std::vector<std::uint32_t> points;  // point ids, group after group (a group's in no set order)
  std::vector<std::uint32_t> starts;  // group g is points[starts[g], starts[g + 1]); one more than groups
  std::size_t size() const noexcept { return starts.empty() ? 0 : starts.size() - 1; }
  std::span<const std::uint32_t> group(std::size_t g) const {
    return std::span<const std::uint32_t>(points).subspan(starts[g], starts[g + 1] - starts[g]);
  }
};

// The groups of `subspace`'s points at merge.epsilon `epsilon`. Pieces of fewer than `keep_size`
// points are set aside as soon as they are cut off and not cut further (a caller that can use no
// group that small saves the work); `set_aside` counts them (pieces, not points).
template <class T>
PointGroups point_groups(const ColumnMatrix<T>& values, const SubspaceCluster& subspace, double epsilon,
                         std::size_t keep_size, std::uint64_t& set_aside);

}  // namespace subscale::merge
