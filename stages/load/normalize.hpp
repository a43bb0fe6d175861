#pragma once
// Normalisation of the data matrix (docs/method.md §1, config key `normalize`):
// - minmax (default): each dimension j mapped to [0, 1] by (x - min_j) / (max_j - min_j), computed
//   in float64; a constant dimension maps to 0. The maximum maps to exactly 1.
// - none: the values are left as they are.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "common/dataset.hpp"

namespace subscale::load {

enum class Normalization { minmax, none };

// "minmax" or "none" (any case); UsageError naming `key` otherwise.
Normalization parse_normalization(std::string_view name, const std::string& key = "normalize");
const char* to_string(Normalization normalization);

void normalize(Dataset& dataset, Normalization normalization);

// minmax's map of one dimension, from its smallest and largest value: the one definition of the
// arithmetic, shared by normalize() and the in-memory input (matrix_view.hpp), so both give the
// same bits.
class ColumnScale {
 public:
  ColumnScale(double low, double high) : low_(low), constant_(!(high > low)) {
    if (constant_) return;
    range_ = high - low;
    // Values near +-1.8e308 of both signs: the difference overflows, so halve first.
    halved_ = !std::isfinite(range_);
    if (halved_) range_ = high / 2 - low / 2;
  }
  double operator()(double x) const {
    if (constant_) return 0.0;
    // (x - low) <= range for every x, and rounding is monotone, so results stay in [0, 1].
    if (!halved_) return (x - low_) / range_;
    return std::min(1.0, (x / 2 - low_ / 2) / range_);
  }

 private:
  double low_ = 0, range_ = 0;
  bool constant_ = false, halved_ = false;
};

}  // namespace subscale::load
