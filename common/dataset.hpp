#pragma once
// The data matrix every stage reads: n points (rows) by d dimensions (columns), column-major so
// that one dimension's values are contiguous (density1d sorts per dimension).
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace subscale {

template <class T>
using ColumnMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using Matrix = ColumnMatrix<double>;   // as read and normalised; the held values by default
using Matrix32 = ColumnMatrix<float>;  // the held values with input.precision: float32

struct Dataset {
  Matrix values;                          // n x d, as read (float64)
  std::vector<std::uint64_t> ids;         // optional, n entries when present
  std::vector<std::int64_t> labels;       // optional, n entries when present (-1 = noise)
  std::vector<std::string> column_names;  // optional, d entries when present
  // Where rows were dropped (join.unmatched: drop, filter.where): the 0-based row of the input as
  // loaded that each point is, ascending, n entries; empty when the points are the input's rows.
  std::vector<std::uint64_t> input_rows;
  std::string source;  // the file it came from, for messages
  // What the reader decided about the file's layout that a user should be told, for the run's log
  // (CSV: whether the first line was taken as the header); empty when there is nothing to say.
  std::string reader_note;

  std::size_t points() const noexcept { return static_cast<std::size_t>(values.rows()); }
  std::size_t dimensions() const noexcept { return static_cast<std::size_t>(values.cols()); }
};

}  // namespace subscale
