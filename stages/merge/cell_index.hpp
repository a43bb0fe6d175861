#pragma once
// The points of one subspace S, ready for epsilon-neighbour queries: their coordinates in S are
// gathered point-major (one point's |S| values contiguous), and the points are ordered by a grid
// over up to three dimensions of S. Grid cells are slightly wider than epsilon, so two points
// within epsilon (Euclidean, hence within epsilon in every single dimension) lie in the same or
// in adjacent cells of every grid dimension; a query then scans 3^g cells, not all points.
//
// Why a grid over a few dimensions and not over all of S: S has 10-20 dimensions in the
// benchmark data, and 3^|S| neighbour cells would cost more than the comparisons they save.
// The grid takes the dimensions in which the points spread widest (most cells).
#include <array>
#include <cstdint>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::merge {

class CellIndex {
 public:
  struct Range {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
  };

  // `points` must be sorted ascending; `dimensions` index columns of `values`.
  CellIndex(const Matrix& values, const std::vector<std::uint32_t>& dimensions,
            const std::vector<std::uint32_t>& points, double epsilon, std::size_t max_grid_dimensions = 3);

  std::size_t size() const noexcept { return positions_.size(); }
  std::size_t width() const noexcept { return width_; }
  std::size_t grid_dimensions() const noexcept { return grid_dims_.size(); }

  // Coordinates of the i-th point in index order (width() values).
  const double* coordinates(std::size_t i) const noexcept { return coordinates_.data() + i * width_; }
  // Where the i-th point sits in the `points` vector given to the constructor. Points were sorted
  // by id, so comparing positions compares point ids.
  std::uint32_t position(std::size_t i) const noexcept { return positions_[i]; }

  std::size_t cells() const noexcept { return cell_keys_.size(); }
  Range cell(std::size_t c) const noexcept { return {cell_begin_[c], cell_begin_[c + 1]}; }

  // Replaces `out` with the ranges of points that may lie within epsilon of a point of cell c.
  // The range holding cell c itself comes first (most neighbours are found there).
  void candidate_ranges(std::size_t c, std::vector<Range>& out) const;

 private:
  using Key = std::array<std::int64_t, 3>;

  std::size_t width_ = 0;
  std::vector<double> coordinates_;
  std::vector<std::uint32_t> positions_;
  std::vector<std::size_t> grid_dims_;     // indices into S's dimensions
  std::vector<Key> cell_keys_;             // sorted, one per non-empty cell
  std::vector<std::uint32_t> cell_begin_;  // cells() + 1 offsets into the point order
};

}  // namespace subscale::merge
