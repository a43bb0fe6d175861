#pragma once
// Maximum-weight assignment (one-to-one matching) on a rectangular matrix of non-negative
// integer weights: the Hungarian method with potentials (Kuhn-Munkres as refined by Jonker and
// Volgenant), O(r^2 c) for r <= c after putting the shorter side on the rows.
//
// Why hand-written: CE needs it on a confusion matrix of a few hidden clusters by up to many
// thousand found ones; no Debian-packaged C++ library the project uses provides it.
#include <cstdint>
#include <vector>

namespace subscale::evaluate {

struct Assignment {
  std::int64_t total = 0;                   // the maximum sum of matched weights
  std::vector<std::int64_t> column_of_row;  // the matched column of each row, or -1
};

// `weights` is row-major, rows x columns, every entry >= 0. Because weights are non-negative, a
// maximum-weight matching can be taken to match every row of the shorter side.
Assignment max_weight_assignment(const std::vector<std::int64_t>& weights, std::size_t rows, std::size_t columns);

}  // namespace subscale::evaluate
