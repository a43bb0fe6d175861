#include "stages/load/matrix_view.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/data_validation.hpp"

namespace subscale::load {
namespace {

// Rows are taken in blocks; inside a block the loops follow the caller's layout, so a C-ordered
// array is read along its rows and a Fortran-ordered one along its columns.
constexpr std::size_t kRowsPerBlock = 512;

template <class T, class F>
void for_each_in_block(const MatrixView<T>& view, std::size_t begin, std::size_t end, F&& f) {
  const bool rows_contiguous = std::abs(view.column_step) <= std::abs(view.row_step);
  if (rows_contiguous) {
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t j = 0; j < view.columns; ++j) f(i, j, view.at(i, j));
  } else {
    for (std::size_t j = 0; j < view.columns; ++j)
      for (std::size_t i = begin; i < end; ++i) f(i, j, view.at(i, j));
  }
}

// Per column the smallest and largest value, and the first non-finite cell in row order.
struct Survey {
  std::vector<double> low, high;
  std::size_t bad_row = std::numeric_limits<std::size_t>::max(), bad_column = 0;

  explicit Survey(std::size_t columns)
      : low(columns, std::numeric_limits<double>::infinity()),
        high(columns, -std::numeric_limits<double>::infinity()) {}
  void take_bad(std::size_t row, std::size_t column) {
    if (row < bad_row || (row == bad_row && column < bad_column)) bad_row = row, bad_column = column;
  }
  void join(const Survey& other) {
    for (std::size_t j = 0; j < low.size(); ++j) {
      low[j] = std::min(low[j], other.low[j]);
      high[j] = std::max(high[j], other.high[j]);
    }
    if (other.bad_row != std::numeric_limits<std::size_t>::max()) take_bad(other.bad_row, other.bad_column);
  }
};

template <class T>
Survey survey(const MatrixView<T>& view) {
  const tbb::blocked_range<std::size_t> rows(0, view.rows, kRowsPerBlock);
  return tbb::parallel_reduce(
      rows, Survey(view.columns),
      [&](const tbb::blocked_range<std::size_t>& block, Survey part) {
        for_each_in_block(view, block.begin(), block.end(), [&](std::size_t i, std::size_t j, T value) {
          const double x = static_cast<double>(value);
          if (!std::isfinite(x)) return part.take_bad(i, j);
          part.low[j] = std::min(part.low[j], x);
          part.high[j] = std::max(part.high[j], x);
        });
        return part;
      },
      [](Survey a, const Survey& b) {
        a.join(b);
        return a;
      });
}

}  // namespace

template <class T>
Matrix normalized_matrix(const MatrixView<T>& view, Normalization normalization, const std::string& source,
                         const std::vector<std::string>& column_names) {
  io::check_shape(source, view.rows, view.columns, "the array");
  const Survey found = survey(view);
  if (found.bad_row < view.rows) {
    const std::string name = column_names.size() == view.columns ? column_names[found.bad_column] : std::string();
    io::check_finite(static_cast<double>(view.at(found.bad_row, found.bad_column)), source,
                     {io::CellLocation::RowKind::row, found.bad_row + 1, found.bad_column + 1, name, {}});
  }
  std::vector<ColumnScale> scales;
  scales.reserve(view.columns);
  for (std::size_t j = 0; j < view.columns; ++j)
    scales.emplace_back(normalization == Normalization::minmax ? ColumnScale(found.low[j], found.high[j])
                                                               : ColumnScale(0.0, 0.0));
  Matrix values(static_cast<Eigen::Index>(view.rows), static_cast<Eigen::Index>(view.columns));
  const bool scale = normalization == Normalization::minmax;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, view.rows, kRowsPerBlock),
                    [&](const tbb::blocked_range<std::size_t>& block) {
                      for_each_in_block(view, block.begin(), block.end(), [&](std::size_t i, std::size_t j, T value) {
                        const double x = static_cast<double>(value);
                        values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = scale ? scales[j](x) : x;
                      });
                    });
  return values;
}

template Matrix normalized_matrix(const MatrixView<double>&, Normalization, const std::string&,
                                  const std::vector<std::string>&);
template Matrix normalized_matrix(const MatrixView<float>&, Normalization, const std::string&,
                                  const std::vector<std::string>&);

}  // namespace subscale::load
