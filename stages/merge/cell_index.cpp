#include "stages/merge/cell_index.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

namespace subscale::merge {
namespace {

// Below this many points a grid costs more (a sort, binary searches) than comparing all pairs.
constexpr std::size_t kMinPointsForGrid = 32;

// A dimension is worth gridding only when the points span at least this many cells in it.
constexpr double kMinCellsSpanned = 3.0;

// Cells are this much wider than epsilon, so that rounding in (x - min) / width can never put
// two points at distance exactly epsilon two cells apart. The relative rounding error of the
// cell coordinate is about 1e-16 * (extent / epsilon); the margin is many orders above it.
// With float32 values the distance test accepts pairs up to about 2e-7 (relative) beyond epsilon
// (float(epsilon) and the rounding of differences and squares in float); the margin covers that too.
constexpr double kCellMargin = 1e-6;

constexpr unsigned kKeyBits = 63;

}  // namespace

template <class T>
CellIndex<T>::CellIndex(const ColumnMatrix<T>& values, const std::vector<std::uint32_t>& dimensions,
                        const std::vector<std::uint32_t>& points, double epsilon, bool parallel,
                        std::size_t max_grid_dimensions)
    : width_(dimensions.size()) {
  const std::size_t count = points.size();
  const std::size_t width = width_;
  // The points' coordinates are read from the columns where they are needed and gathered once,
  // in the grid's order, at the end: a gather in id order first would be one more copy of them
  // in fresh memory, whose page faults cost more than the reads.

  // Choose the grid dimensions: widest spread first, only where they split the points, and only
  // as many as fit the key (a field holds coordinates 0 .. span + 2, see below).
  const double inverse_cell = 1.0 / (epsilon * (1.0 + kCellMargin));
  std::vector<double> lowest;
  if (count >= kMinPointsForGrid && max_grid_dimensions > 0) {
    struct Candidate {
      double extent;
      std::size_t dim;
      double low;
    };
    std::vector<Candidate> spread;
    for (std::size_t t = 0; t < width; ++t) {
      const T* column = values.col(dimensions[t]).data();
      double lo = column[points[0]], hi = lo;
      for (std::size_t i = 1; i < count; ++i) {
        lo = std::min<double>(lo, column[points[i]]);
        hi = std::max<double>(hi, column[points[i]]);
      }
      if (hi - lo >= kMinCellsSpanned * epsilon) spread.push_back({hi - lo, t, lo});
    }
    // Widest first; ties by dimension order so the choice is deterministic.
    std::sort(spread.begin(), spread.end(), [](const Candidate& a, const Candidate& b) {
      return a.extent != b.extent ? a.extent > b.extent : a.dim < b.dim;
    });
    std::vector<unsigned> bits;
    unsigned used = 0;
    for (const Candidate& c : spread) {
      if (grid_dims_.size() == std::min<std::size_t>(max_grid_dimensions, 3)) break;
      const auto span = static_cast<std::uint64_t>(std::floor(c.extent * inverse_cell));
      const unsigned field = static_cast<unsigned>(std::bit_width(span + 2));
      if (used + field > kKeyBits) break;
      used += field;
      grid_dims_.push_back(c.dim);
      lowest.push_back(c.low);
      bits.push_back(field);
    }
    shifts_.resize(grid_dims_.size());
    unsigned shift = 0;
    for (std::size_t g = grid_dims_.size(); g-- > 0;) {  // the last grid dimension in the low bits
      shifts_[g] = shift;
      shift += bits[g];
    }
  }

  // Keys: each coordinate stored + 1, so that coordinate - 1 and + 1 of every point still fit
  // their field and key arithmetic never borrows or carries across fields.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = {0, static_cast<std::uint32_t>(i)};
  for (std::size_t g = 0; g < grid_dims_.size(); ++g) {
    const T* column = values.col(dimensions[grid_dims_[g]]).data();
    for (std::size_t i = 0; i < count; ++i) {
      const double offset = column[points[i]] - lowest[g];
      order[i].first |= (static_cast<std::uint64_t>(std::floor(offset * inverse_cell)) + 1) << shifts_[g];
    }
  }
  // By cell, then by position, so that the order (and every result) is deterministic.
  if (!grid_dims_.empty()) std::sort(order.begin(), order.end());

  positions_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    positions_[i] = order[i].second;
    if (i == 0 || order[i].first != order[i - 1].first) {
      cell_keys_.push_back(order[i].first);
      cell_begin_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  cell_begin_.push_back(static_cast<std::uint32_t>(count));
  coordinates_.resize(count * width);
  for (std::size_t t = 0; t < width; ++t) {
    const T* column = values.col(dimensions[t]).data();
    for (std::size_t i = 0; i < count; ++i) coordinates_[i * width + t] = column[points[positions_[i]]];
  }

  const std::size_t grid = grid_dims_.size();
  ranges_per_cell_ = grid <= 1 ? 1 : (grid == 2 ? 3 : 9);
  ranges_.resize(cells() * ranges_per_cell_);
  range_count_.assign(cells(), 0);
  if (parallel) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cells()),
                      [&](const tbb::blocked_range<std::size_t>& r) { compute_candidates(r.begin(), r.end()); });
  } else {
    compute_candidates(0, cells());
  }
}

template <class T>
void CellIndex<T>::compute_candidates(std::size_t first_cell, std::size_t last_cell) {
  const std::size_t grid = grid_dims_.size();
  if (grid == 0) {
    for (std::size_t c = first_cell; c < last_cell; ++c) {
      ranges_[c * ranges_per_cell_] = {0, static_cast<std::uint32_t>(size())};
      range_count_[c] = 1;
    }
    return;
  }
  // The other rows of a cell: the leading grid-1 fields shifted by -1, 0, +1 (not all 0), each a
  // run of cells from key' - 1 to key' + 1. As c grows, every row's run moves forward, so one
  // pair of cursors per row sweeps the cells: O(1) amortised per cell instead of two binary
  // searches. The cursors start by binary search at the first cell of the block.
  const std::size_t rows = ranges_per_cell_;
  const std::size_t own_row = (rows - 1) / 2;
  std::vector<std::uint64_t> row_offset_add(rows, 0), row_offset_sub(rows, 0);
  for (std::size_t code = 0; code < rows; ++code) {
    std::size_t digits = code;
    for (std::size_t g = 0; g + 1 < grid; ++g) {
      const std::uint64_t step = std::uint64_t{1} << shifts_[g];
      if (digits % 3 == 0) row_offset_sub[code] += step;
      if (digits % 3 == 2) row_offset_add[code] += step;
      digits /= 3;
    }
  }
  const auto row_low = [&](std::size_t code, std::size_t c) {
    return cell_keys_[c] + row_offset_add[code] - row_offset_sub[code] - 1;
  };
  std::vector<std::size_t> begin_cursor(rows), end_cursor(rows);
  for (std::size_t code = 0; code < rows; ++code) {
    if (code == own_row || first_cell >= last_cell) continue;
    const std::uint64_t low = row_low(code, first_cell);
    begin_cursor[code] =
        static_cast<std::size_t>(std::lower_bound(cell_keys_.begin(), cell_keys_.end(), low) - cell_keys_.begin());
    end_cursor[code] = begin_cursor[code];
  }
  for (std::size_t c = first_cell; c < last_cell; ++c) {
    Range* out = ranges_.data() + c * ranges_per_cell_;
    std::uint8_t used = 0;
    const std::uint64_t key = cell_keys_[c];
    // Own row first: the cells key-1, key, key+1 are next to c in key order.
    std::size_t first = c, last = c + 1;
    if (first > 0 && cell_keys_[first - 1] == key - 1) --first;
    if (last < cells() && cell_keys_[last] == key + 1) ++last;
    out[used++] = {cell_begin_[first], cell_begin_[last]};
    for (std::size_t code = 0; code < rows; ++code) {
      if (code == own_row) continue;
      const std::uint64_t low = row_low(code, c), high = low + 2;
      std::size_t& b = begin_cursor[code];
      std::size_t& e = end_cursor[code];
      while (b < cells() && cell_keys_[b] < low) ++b;
      if (e < b) e = b;
      while (e < cells() && cell_keys_[e] <= high) ++e;
      if (b != e) out[used++] = {cell_begin_[b], cell_begin_[e]};
    }
    range_count_[c] = used;
  }
}

template class CellIndex<float>;
template class CellIndex<double>;

}  // namespace subscale::merge
