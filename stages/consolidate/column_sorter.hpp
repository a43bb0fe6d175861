#pragma once
// Every dimension sorted once (by value, then point id), so that a point's rank there is known
// and the k-th smallest value of any set of points is the value of its k-th smallest rank: the
// consolidate stage keeps its clusters' columns as sets of ranks (rank_set.hpp) and reads the
// span test's order statistics off them, where sorting the values of each new point set was a
// third of its time.
//
// Memory: a rank and a point (4 bytes each) and a value (held: 8 or 4 bytes) per point and
// dimension, 2 (float64) or 3 (float32) times the data matrix.
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"
#include "stages/consolidate/rank_set.hpp"

namespace subscale::consolidate {

// T is the held precision; the values by rank are kept in it.
template <class T>
class ColumnSorter {
 public:
  explicit ColumnSorter(const ColumnMatrix<T>& values);

  const ColumnMatrix<T>& values() const noexcept { return values_; }

  // The ranks of `points` (distinct ids) in `dimension`: as a set, or appended to `out`.
  RankSet rank_set(std::span<const std::uint32_t> points, std::uint32_t dimension) const;
  void ranks(std::span<const std::uint32_t> points, std::uint32_t dimension, std::vector<std::uint32_t>& out) const;
  // The value of the point of rank `rank` in `dimension`.
  T value_at(std::uint32_t dimension, std::uint32_t rank) const noexcept {
    return by_rank_[static_cast<std::size_t>(dimension) * n_ + rank];
  }
  // The point of rank `rank` in `dimension`.
  std::uint32_t point_at(std::uint32_t dimension, std::uint32_t rank) const noexcept {
    return point_by_rank_[static_cast<std::size_t>(dimension) * n_ + rank];
  }
  std::size_t points() const noexcept { return n_; }

 private:
  const ColumnMatrix<T>& values_;
  std::size_t n_ = 0;
  std::vector<std::uint32_t> rank_;           // rank_[dimension * n + point]
  std::vector<T> by_rank_;                    // by_rank_[dimension * n + rank]: the value of that rank
  std::vector<std::uint32_t> point_by_rank_;  // likewise, the point of that rank
};

}  // namespace subscale::consolidate
