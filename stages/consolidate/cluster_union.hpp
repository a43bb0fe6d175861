#pragma once
// The join of two clusters (step 1 of consolidate.hpp): the union of their subspaces with the
// points of both inside its box, or nothing when the union fails the span test. Shared by the
// gathering pass (gather_join.hpp) and the pairwise rounds (cluster_join.hpp).
#include <cstdint>
#include <optional>
#include <vector>

#include "common/dataset.hpp"
#include "stages/consolidate/cluster_join.hpp"

namespace subscale::consolidate {

// Holds the scratch of the joins (one object a thread).
template <class T>
class ClusterUnion {
 public:
  ClusterUnion(const ColumnSorter<T>& columns, const ConsolidateParams& params);

  // Of two clusters, the one whose columns a join starts from: the larger, x on a tie.
  static WorkingCluster<T>* larger(WorkingCluster<T>& x, WorkingCluster<T>& y) {
    return x.points.size() >= y.points.size() ? &x : &y;
  }

  // S_x ∪ S_y with the points of O_x ∪ O_y inside their box, or nothing when the union fails the
  // span test in a dimension (or the box holds no point). `lacks` are the points of the smaller
  // (larger(x, y) decides) that the larger lacks. On success x and y may have been moved from;
  // on refusal both are as they were.
  std::optional<WorkingCluster<T>> join(WorkingCluster<T>& x, WorkingCluster<T>& y,
                                        const std::vector<std::uint32_t>& lacks);

  // Of the last join, read after one that succeeded: the larger side's points that its box left
  // out, and the points of `lacks` it took in (both sorted). The joined points are the larger side's without
  // the first, with the second.
  const std::vector<std::uint32_t>& left_out() const noexcept { return left_; }
  const std::vector<std::uint32_t>& taken_in() const noexcept { return came_; }

 private:
  // The ranks of the cluster's points in a dimension outside its subspace, built at the first
  // call (cluster.outside_columns).
  const RankSet& outside_column(WorkingCluster<T>& cluster, std::uint32_t dimension);

  const ColumnSorter<T>& columns_;
  const ColumnMatrix<T>& values_;
  const ConsolidateParams& params_;
  std::vector<std::uint32_t> ranks_;         // scratch for a dimension's ranks of some points
  std::vector<std::uint64_t> scratch_bits_;  // a bitmap of all points, all zero between calls
  std::vector<std::uint32_t> left_, came_, removed_;
  std::vector<Interval<T>> spans_, box_;
  std::vector<std::ptrdiff_t> in_big_, in_small_;
};

}  // namespace subscale::consolidate
