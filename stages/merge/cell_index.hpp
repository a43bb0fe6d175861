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
//
// A cell's coordinates are packed into one 64-bit key (the first grid dimension in the highest
// bits, each field one wider than its largest coordinate needs), so that the points sort by a
// plain integer and "the same cell shifted by +-1 along a grid dimension" is key +- a power of 2.
// The candidate ranges of every cell are computed once, here, by a sweep over the sorted keys.
#include <cstdint>
#include <span>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::merge {

// T is the held precision: the gathered coordinates stay in it, so the distance test reads what
// every other stage reads. The grid itself is computed in double from them (it only has to keep
// neighbours in adjacent cells, see kCellMargin).
template <class T>
class CellIndex {
 public:
  struct Range {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
  };

  // `points` must be sorted ascending; `dimensions` index columns of `values`. With `parallel`,
  // the candidate ranges are computed on oneTBB's threads.
  CellIndex(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
            const std::vector<std::uint32_t>& points, double epsilon, bool parallel = false,
            std::size_t max_grid_dimensions = 3);

  std::size_t size() const noexcept { return positions_.size(); }
  std::size_t width() const noexcept { return width_; }
  std::size_t grid_dimensions() const noexcept { return grid_dims_.size(); }

  // Coordinates of the i-th point in index order (width() values).
  const T* coordinates(std::size_t i) const noexcept { return coordinates_.data() + i * width_; }
  // Where the i-th point sits in the `points` vector given to the constructor. Points were sorted
  // by id, so comparing positions compares point ids.
  std::uint32_t position(std::size_t i) const noexcept { return positions_[i]; }

  std::size_t cells() const noexcept { return cell_keys_.size(); }
  Range cell(std::size_t c) const noexcept { return {cell_begin_[c], cell_begin_[c + 1]}; }

  // The ranges of points that may lie within epsilon of a point of cell c (disjoint). The range
  // holding cell c itself comes first: most neighbours are found there.
  std::span<const Range> candidates(std::size_t c) const noexcept {
    return {ranges_.data() + c * ranges_per_cell_, range_count_[c]};
  }

 private:
  void compute_candidates(std::size_t first_cell, std::size_t last_cell);

  std::size_t width_ = 0;
  std::vector<T> coordinates_;
  std::vector<std::uint32_t> positions_;
  std::vector<std::size_t> grid_dims_;     // indices into S's dimensions
  std::vector<unsigned> shifts_;           // bit offset of each grid dimension's field
  std::vector<std::uint64_t> cell_keys_;   // sorted, one per non-empty cell
  std::vector<std::uint32_t> cell_begin_;  // cells() + 1 offsets into the point order
  std::size_t ranges_per_cell_ = 1;        // 3^(g-1) slots per cell
  std::vector<Range> ranges_;              // cells() * ranges_per_cell_
  std::vector<std::uint8_t> range_count_;  // slots used per cell
};

}  // namespace subscale::merge
