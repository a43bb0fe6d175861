#include "stages/merge/cell_index.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace subscale::merge {
namespace {

// Below this many points a grid costs more (a sort, binary searches) than comparing all pairs.
constexpr std::size_t kMinPointsForGrid = 32;

// A dimension is worth gridding only when the points span at least this many cells in it.
constexpr double kMinCellsSpanned = 3.0;

// Cells are this much wider than epsilon, so that rounding in (x - min) / width can never put
// two points at distance exactly epsilon two cells apart. The relative rounding error of the
// cell coordinate is about 1e-16 * (extent / epsilon); the margin is many orders above it.
constexpr double kCellMargin = 1e-6;

}  // namespace

CellIndex::CellIndex(const Matrix& values, const std::vector<std::uint32_t>& dimensions,
                     const std::vector<std::uint32_t>& points, double epsilon, std::size_t max_grid_dimensions)
    : width_(dimensions.size()) {
  const std::size_t count = points.size();
  const std::size_t width = width_;

  // Gather point-major in id order first; the grid order is applied below.
  std::vector<double> gathered(count * width);
  for (std::size_t t = 0; t < width; ++t) {
    const double* column = values.col(dimensions[t]).data();
    for (std::size_t i = 0; i < count; ++i) gathered[i * width + t] = column[points[i]];
  }

  // Choose the grid dimensions: widest spread first, only where they split the points.
  std::vector<double> lowest(width, 0.0);
  if (count >= kMinPointsForGrid && max_grid_dimensions > 0) {
    std::vector<std::pair<double, std::size_t>> extents;
    for (std::size_t t = 0; t < width; ++t) {
      double lo = gathered[t], hi = gathered[t];
      for (std::size_t i = 1; i < count; ++i) {
        lo = std::min(lo, gathered[i * width + t]);
        hi = std::max(hi, gathered[i * width + t]);
      }
      lowest[t] = lo;
      if (hi - lo >= kMinCellsSpanned * epsilon) extents.emplace_back(hi - lo, t);
    }
    // Widest first; ties by dimension order so the choice is deterministic.
    std::sort(extents.begin(), extents.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const std::size_t grid = std::min({extents.size(), max_grid_dimensions, std::size_t{3}});
    for (std::size_t g = 0; g < grid; ++g) grid_dims_.push_back(extents[g].second);
  }

  const double inverse_cell = 1.0 / (epsilon * (1.0 + kCellMargin));
  std::vector<Key> keys(count, Key{0, 0, 0});
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t g = 0; g < grid_dims_.size(); ++g) {
      const std::size_t t = grid_dims_[g];
      keys[i][g] = static_cast<std::int64_t>(std::floor((gathered[i * width + t] - lowest[t]) * inverse_cell));
    }
  }

  // Order by cell, then by position so that the order (and every result) is deterministic.
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  if (!grid_dims_.empty()) {
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return keys[a] != keys[b] ? keys[a] < keys[b] : a < b; });
  }

  coordinates_.resize(count * width);
  positions_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t from = order[i];
    positions_[i] = from;
    std::copy_n(gathered.begin() + static_cast<std::ptrdiff_t>(from * width), width,
                coordinates_.begin() + static_cast<std::ptrdiff_t>(i * width));
    if (i == 0 || keys[from] != keys[order[i - 1]]) {
      cell_keys_.push_back(keys[from]);
      cell_begin_.push_back(static_cast<std::uint32_t>(i));
    }
  }
  cell_begin_.push_back(static_cast<std::uint32_t>(count));
}

void CellIndex::candidate_ranges(std::size_t c, std::vector<Range>& out) const {
  out.clear();
  const std::size_t grid = grid_dims_.size();
  if (grid == 0) {
    out.push_back({0, static_cast<std::uint32_t>(size())});
    return;
  }
  const Key& key = cell_keys_[c];
  // Cells sharing the first grid-1 coordinates are contiguous in key order, so each choice of
  // offsets (-1, 0, +1) for those coordinates gives one run of cells: the last coordinate from
  // key-1 to key+1. The all-zero choice comes first: it holds cell c itself.
  const std::size_t prefixes = grid == 1 ? 1 : (grid == 2 ? 3 : 9);
  for (std::size_t p = 0; p < prefixes; ++p) {
    // p = 0 is the all-zero offset; others enumerate the remaining combinations.
    std::size_t code = p == 0 ? (prefixes - 1) / 2 : (p <= (prefixes - 1) / 2 ? p - 1 : p);
    Key low = key, high = key;
    for (std::size_t g = 0; g + 1 < grid; ++g) {
      const std::int64_t offset = static_cast<std::int64_t>(code % 3) - 1;
      code /= 3;
      low[g] += offset;
      high[g] += offset;
    }
    low[grid - 1] -= 1;
    high[grid - 1] += 1;
    const auto first = std::lower_bound(cell_keys_.begin(), cell_keys_.end(), low);
    const auto last = std::upper_bound(first, cell_keys_.end(), high);
    if (first == last) continue;
    out.push_back({cell_begin_[static_cast<std::size_t>(first - cell_keys_.begin())],
                   cell_begin_[static_cast<std::size_t>(last - cell_keys_.begin())]});
  }
}

}  // namespace subscale::merge
