#pragma once
// Sorted values of any set of points in one dimension, in O(m + n / 64) for m of n points
// instead of O(m log m): every dimension is sorted once (by value, then point id), so a point's
// rank there is known; the m ranks are marked in a bitmap of n bits, and reading the bitmap in
// order gives the values sorted. The consolidate stage builds a sorted column for every
// dimension a cluster gains and for the points a join adds or drops, thousands of times on the
// benchmark files, and sorting them was a third of its time.
//
// Memory: a rank (4 bytes) and a value (8 bytes) per point and dimension, 1.5 times the data
// matrix. Small sets are sorted directly, where that is cheaper than a pass over the bitmap.
#include <tbb/enumerable_thread_specific.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "stages/consolidate/rank_set.hpp"

namespace subscale::consolidate {

class ColumnSorter {
 public:
  explicit ColumnSorter(const Matrix& values);

  const Matrix& values() const noexcept { return values_; }

  // The values of `points` (distinct ids) in `dimension`, sorted ascending. Safe to call from
  // several threads at once.
  std::vector<double> sorted(std::span<const std::uint32_t> points, std::uint32_t dimension) const;

  // The ranks of `points` (distinct ids) in `dimension`: as a set, or appended to `out`.
  RankSet rank_set(std::span<const std::uint32_t> points, std::uint32_t dimension) const;
  void ranks(std::span<const std::uint32_t> points, std::uint32_t dimension, std::vector<std::uint32_t>& out) const;
  // The value of the point of rank `rank` in `dimension`.
  double value_at(std::uint32_t dimension, std::uint32_t rank) const noexcept {
    return by_rank_[static_cast<std::size_t>(dimension) * n_ + rank];
  }
  std::size_t points() const noexcept { return n_; }

 private:
  const Matrix& values_;
  std::size_t n_ = 0;
  std::vector<std::uint32_t> rank_;  // rank_[dimension * n + point]
  std::vector<double> by_rank_;      // by_rank_[dimension * n + rank]: the value of that rank
  mutable tbb::enumerable_thread_specific<std::vector<std::uint64_t>> bits_;
};

}  // namespace subscale::consolidate
