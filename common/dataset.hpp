#pragma once
// The data matrix every stage reads: n points (rows) by d dimensions (columns), column-major so
// that one dimension's values are contiguous (density1d sorts per dimension).
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace subscale {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

struct Dataset {
  Matrix values;                          // n x d
  std::vector<std::uint64_t> ids;         // optional, n entries when present
  std::vector<std::int64_t> labels;       // optional, n entries when present (-1 = noise)
  std::vector<std::string> column_names;  // optional, d entries when present
  std::string source;                     // the file it came from, for messages

  std::size_t points() const noexcept { return static_cast<std::size_t>(values.rows()); }
  std::size_t dimensions() const noexcept { return static_cast<std::size_t>(values.cols()); }
};

}  // namespace subscale
