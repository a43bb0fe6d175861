#pragma once
// The in-memory input: a matrix that lives in the caller's memory (a numpy array: float64 or
// float32, any strides, C or Fortran order) read in place. It is checked as a reader checks a file
// (shape, NaN and Inf, named by row and column) and normalised straight into the column-major
// float64 matrix the run holds, so the caller's values are read once and never copied first.
#include <cstddef>
#include <string>
#include <vector>

#include "common/dataset.hpp"
#include "stages/load/normalize.hpp"

namespace subscale::load {

template <class T>
struct MatrixView {
  const T* data = nullptr;
  std::size_t rows = 0, columns = 0;
  std::ptrdiff_t row_step = 0, column_step = 0;  // in elements; may be negative

  T at(std::size_t row, std::size_t column) const {
    return data[static_cast<std::ptrdiff_t>(row) * row_step + static_cast<std::ptrdiff_t>(column) * column_step];
  }
};

// Refuses an empty matrix, more than 2^32 - 1 points or dimensions, and the first NaN or Inf in
// row order (InputError: "<source>, row 3 (index 2), column 2 (name): the value is NaN; ..."), then
// returns the values normalised as normalize() does, bit for bit. column_names may be empty.
template <class T>
Matrix normalized_matrix(const MatrixView<T>& view, Normalization normalization, const std::string& source,
                         const std::vector<std::string>& column_names = {});

}  // namespace subscale::load
