#pragma once
// Normalisation of the data matrix (docs/method.md §1, config key `normalize`):
// - minmax (default): each dimension j mapped to [0, 1] by (x - min_j) / (max_j - min_j), computed
//   in float64; a constant dimension maps to 0. The maximum maps to exactly 1.
// - none: the values are left as they are.
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

}  // namespace subscale::load
