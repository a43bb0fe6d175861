// The in-memory input (stages/load/matrix_view.hpp) against normalize() on a Dataset: the same
// bits for every layout and both value types, and the readers' messages for bad cells.
#include "stages/load/matrix_view.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/error.hpp"

namespace subscale::load {
namespace {

using ::testing::HasSubstr;

// rows x columns values with very different scales per column, a constant column and ties.
std::vector<double> sample(std::size_t rows, std::size_t columns) {
  std::vector<double> values(rows * columns);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j)
      values[i * columns + j] = j == 2 ? 7.0 : std::sin(static_cast<double>(i * 31 + j * 17)) * std::pow(10.0, j % 5);
  return values;
}

Matrix reference(const std::vector<double>& row_major, std::size_t rows, std::size_t columns, Normalization how) {
  Dataset data;
  data.values.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j)
      data.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = row_major[i * columns + j];
  normalize(data, how);
  return data.values;
}

TEST(MatrixView, EveryLayoutGivesNormalizeBits) {
  const std::size_t n = 1300, d = 7;  // more rows than one block
  const std::vector<double> c_order = sample(n, d);
  std::vector<double> f_order(n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) f_order[j * n + i] = c_order[i * d + j];
  for (const Normalization how : {Normalization::minmax, Normalization::none}) {
    const Matrix expected = reference(c_order, n, d, how);
    const MatrixView<double> c_view{c_order.data(), n, d, static_cast<std::ptrdiff_t>(d), 1};
    const MatrixView<double> f_view{f_order.data(), n, d, 1, static_cast<std::ptrdiff_t>(n)};
    // The last row first: negative steps, as numpy's X[::-1] gives.
    const MatrixView<double> reversed{c_order.data() + (n - 1) * d, n, d, -static_cast<std::ptrdiff_t>(d), 1};
    EXPECT_EQ(normalized_matrix(c_view, how, "X"), expected);
    EXPECT_EQ(normalized_matrix(f_view, how, "X"), expected);
    EXPECT_EQ(normalized_matrix(reversed, how, "X"), expected.colwise().reverse());
  }
}

TEST(MatrixView, FloatValuesAreWidenedExactly) {
  const std::size_t n = 600, d = 4;
  std::vector<float> narrow(n * d);
  std::vector<double> wide(n * d);
  const std::vector<double> values = sample(n, d);
  for (std::size_t k = 0; k < values.size(); ++k) wide[k] = narrow[k] = static_cast<float>(values[k]);
  const MatrixView<float> view{narrow.data(), n, d, static_cast<std::ptrdiff_t>(d), 1};
  EXPECT_EQ(normalized_matrix(view, Normalization::minmax, "X"), reference(wide, n, d, Normalization::minmax));
}

std::string error_of(const MatrixView<double>& view, const std::vector<std::string>& names = {}) {
  try {
    normalized_matrix(view, Normalization::minmax, "X", names);
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(MatrixView, TheFirstBadCellInRowOrderIsNamed) {
  const std::size_t n = 2000, d = 5;
  std::vector<double> values = sample(n, d);
  values[1500 * d + 1] = std::numeric_limits<double>::quiet_NaN();
  values[700 * d + 4] = -std::numeric_limits<double>::infinity();
  values[700 * d + 3] = std::numeric_limits<double>::infinity();
  const MatrixView<double> view{values.data(), n, d, static_cast<std::ptrdiff_t>(d), 1};
  EXPECT_THAT(error_of(view), HasSubstr("X, row 701 (index 700), column 4: the value is +Inf"));
  EXPECT_THAT(error_of(view, {"a", "b", "c", "d", "e"}), HasSubstr("column 4 (d): the value is +Inf"));
}

TEST(MatrixView, EmptyIsRefused) {
  const std::vector<double> values(4);
  EXPECT_THAT(error_of({values.data(), 0, 4, 4, 1}), HasSubstr("empty"));
  EXPECT_THAT(error_of({values.data(), 4, 0, 1, 1}), HasSubstr("empty"));
}

}  // namespace
}  // namespace subscale::load
